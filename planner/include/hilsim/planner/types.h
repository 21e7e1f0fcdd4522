#pragma once
// What the planner and the runtime's per-layer report say alike: a layer's GEMM view, why it took
// its path, and the accelerated path's breakdown of cycles.

#include <cstdint>
#include <optional>
#include <vector>

namespace hilsim::planner {

// GEMM view of a FULLY_CONNECTED layer: [rows, k] x [n, k]^T (of a convolution: output pixels x
// window size -> output channels).
struct GemmShape {
  uint32_t rows = 0;
  uint32_t k = 0;
  uint32_t n = 0;
  uint64_t macs() const { return uint64_t{rows} * k * n; }
};

// Why a layer took its path (decision.h makes the text).
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
  // The planner's prediction of `cycles` (predict.h; weights in place, as from the second
  // invocation on).
  uint64_t predicted_cycles = 0;
  uint64_t cycles() const { return fixed_cycles + variable_cycles; }
};

}  // namespace hilsim::planner
