#pragma once
// What the runtime measures for one operator invocation: the row of the per-layer report.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hilsim/iss/flash.h"
#include "hilsim/planner/types.h"
#include "hilsim/rt/tensor.h"

namespace hilsim::rt {

using planner::AccelBreakdown;
using planner::CoreBusy;
using planner::GemmShape;
using planner::PathReason;

enum class ExecPath : uint8_t { kRef, kAccel };
const char* pathName(ExecPath path);

// Where a layer's reference cycles come from: the reference kernel executed on the host MCU's
// instruction-set simulator, or the CPU cost model's formulas.
enum class RefCyclesSource : uint8_t { kCostModel, kExecuted };

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
  // The same by predicted energy: the MACs from which the family's accelerated path takes less
  // energy than the reference kernel (none without an energy model or when no size pays).
  std::optional<uint64_t> break_even_energy_macs;
  // The flash memory system's counts while the layer ran, where the instruction-set simulator
  // ran it (its reference kernel or the driver's job path).
  std::optional<iss::FlashStats> flash;
};

}  // namespace hilsim::rt
