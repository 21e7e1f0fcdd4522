#pragma once
// What the runtime measures for one operator invocation: the row of the per-layer report.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hilsim/rt/tensor.h"

namespace hilsim::rt {

enum class ExecPath : uint8_t { kRef, kAccel };
const char* pathName(ExecPath path);

// Where a layer's reference cycles come from: the reference kernel executed on the host MCU's
// instruction-set simulator, or the CPU cost model's formulas.
enum class RefCyclesSource : uint8_t { kCostModel, kExecuted };

// Why a layer took its path (plan/decision.h makes the text).
enum class PathReason : uint8_t {
  kReferenceKernel,  // an operator only the CPU runs
  kFloatLayer,       // float32: the accelerator computes int8
  kDoesNotFit,       // no plan fits the hardware
  kModeAccel,        // `--mode accel` offloads every layer that fits
  kModeCompare,      // `--mode compare` runs both paths
  kOffloadPays,      // predicted accelerated cycles below the reference kernel's
  kBelowBreakEven,   // predicted accelerated cycles at or above the reference kernel's
  kPolicyAll,        // annotated with `--policy all`
  kPolicyNone,       // annotated with `--policy none`
  kAnnotated,        // `--mode auto` follows the annotation's decision
  kJobFailed,        // the accelerator job failed; the layer was computed on the CPU
  kNotMapped,        // the accelerator has no mapping for this layer (e.g. grouped convolution)
  kNoDeviceMemory,   // the layer's buffers do not fit the device memory left
};

// GEMM view of a FULLY_CONNECTED layer: [rows, k] x [n, k]^T (of a convolution: output pixels x
// window size -> output channels).
struct GemmShape {
  uint32_t rows = 0;
  uint32_t k = 0;
  uint32_t n = 0;
  uint64_t macs() const { return uint64_t{rows} * k * n; }
};

// A convolution as the report shows it: its tensors' shapes, its window and its GEMM view (M
// output pixels, K window values, N output channels; depthwise: N GEMMs of one channel each).
struct ConvShape {
  Shape input, filter, output;
  int32_t stride_h = 1, stride_w = 1;
  int32_t dilation_h = 1, dilation_w = 1;
  std::string padding;  // SAME or VALID
  int32_t pad_top = 0, pad_left = 0;
  int32_t depth_multiplier = 0;  // depthwise only
  GemmShape gemm;
};

struct CoreBusy {
  uint32_t core = 0;
  uint64_t busy_cycles = 0;  // host-clock cycles the core was busy during the layer
  double utilization = 0.0;  // busy_cycles / layer accelerated cycles
};

// Accelerated-path breakdown, all in host-clock cycles.
struct AccelBreakdown {
  uint64_t fixed_cycles = 0;     // driver programming, DMA setup, core start-up, IRQ + handler
  uint64_t variable_cycles = 0;  // the rest: data movement and compute on the critical path
  uint64_t upload_cycles = 0;    // one-time placement of weights in device memory (in fixed)
  uint64_t dma_in_cycles = 0;
  uint64_t compute_cycles = 0;
  uint64_t dma_out_cycles = 0;
  uint64_t sync_cycles = 0;
  uint64_t bus_stall_cycles = 0;  // the critical core's transfers waiting for others' bursts
  uint64_t bytes_moved = 0;
  // What bytes_moved is made of: the host's copies of the layer's input into device memory and of
  // its output back, the weights and descriptors placed on the first invocation (in
  // upload_cycles), and the rest, which the cores' DMA moved.
  uint64_t host_input_bytes = 0;
  uint64_t host_output_bytes = 0;
  uint64_t upload_bytes = 0;
  // Register block accesses the driver made for the job.
  uint64_t register_accesses = 0;
  // Host cycles the CPU slept waiting for the job's interrupt (counted by the host clock).
  uint64_t sleep_cycles = 0;
  // The driver's code for this job (in fixed_cycles): executed on the instruction-set simulator
  // (with its instruction count), or the modelled software cycles (no instruction count).
  uint64_t driver_cycles = 0;
  std::optional<uint64_t> driver_instructions;
  std::vector<CoreBusy> per_core;
  double mac_utilization = 0.0;
  // The planner's prediction of `cycles` (plan/predict.h; weights in place, as from the second
  // invocation on).
  uint64_t predicted_cycles = 0;
  uint64_t cycles() const { return fixed_cycles + variable_cycles; }
};

// What the host MCU's flash memory system did (cpu.model iss; iss/README.md, "Flash memory
// system"): lines read from the flash array, and cache hits and misses by line.
struct FlashCounts {
  uint64_t line_reads = 0;
  uint64_t icache_hits = 0;
  uint64_t icache_misses = 0;
  uint64_t dcache_hits = 0;
  uint64_t dcache_misses = 0;
  FlashCounts operator-(const FlashCounts& o) const {
    return {line_reads - o.line_reads, icache_hits - o.icache_hits, icache_misses - o.icache_misses,
            dcache_hits - o.dcache_hits, dcache_misses - o.dcache_misses};
  }
};

struct LayerRecord {
  uint32_t invocation = 0;
  int index = -1;
  tflite::BuiltinOperator op = tflite::BuiltinOperator::ADD;
  std::string name;
  std::optional<GemmShape> gemm;
  std::optional<ConvShape> conv;  // CONV_2D and DEPTHWISE_CONV_2D
  std::vector<Shape> input_shapes;
  std::vector<Shape> output_shapes;
  uint64_t macs = 0;
  ExecPath path = ExecPath::kRef;
  PathReason reason_code = PathReason::kReferenceKernel;
  std::string reason;  // the report's text for reason_code
  uint64_t start_cycle = 0;
  uint64_t cycles = 0;
  // Set by a kernel that also ran the other path (compare mode): the cycles of the path taken.
  std::optional<uint64_t> path_cycles;
  uint64_t ref_cycles = 0;
  RefCyclesSource ref_cycles_source = RefCyclesSource::kCostModel;
  // Float32 FULLY_CONNECTED: the MACs with a zero operand on this invocation's data, which the
  // cost model priced (OpWork::zero_operand_macs).
  uint64_t zero_operand_macs = 0;
  std::optional<AccelBreakdown> accel;
  std::optional<uint64_t> break_even_macs;
  // The flash memory system's counts while the layer ran, where the instruction-set simulator
  // ran it (its reference kernel or the driver's job path).
  std::optional<FlashCounts> flash;
};

}  // namespace hilsim::rt
