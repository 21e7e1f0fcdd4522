#include "hilsim/annotate/annotate.h"

#include <algorithm>
#include <map>
#include <optional>

#include "hilsim/config/derived.h"
#include "hilsim/errors.h"
#include "hilsim/firmware/driver_timing.h"
#include "hilsim/planner/conv_plan.h"
#include "hilsim/planner/layer_image.h"
#include "hilsim/planner/plan_codec.h"
#include "hilsim/planner/planner_timing.h"
#include "hilsim/planner/predict.h"
#include "hilsim/rt/annotation.h"
#include "hilsim/rt/interpreter.h"
#include "hilsim/rt/kernels/conv_layer.h"
#include "hilsim/rt/kernels/fully_connected_common.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/schema/tflite_generated.h"

namespace hilsim::annotate {
namespace {

std::unique_ptr<tflite::ModelT> unpack(const rt::Model& model) {
  return std::unique_ptr<tflite::ModelT>(model.fb().UnPack());
}

std::vector<uint8_t> pack(const tflite::ModelT& model) {
  flatbuffers::FlatBufferBuilder b(1024);
  tflite::FinishModelBuffer(b, tflite::Model::Pack(b, &model));
  return std::vector<uint8_t>(b.GetBufferPointer(), b.GetBufferPointer() + b.GetSize());
}

// The operators hilsim plans: FULLY_CONNECTED, CONV_2D, DEPTHWISE_CONV_2D.
bool isPlannable(tflite::BuiltinOperator op) {
  return op == tflite::BuiltinOperator::FULLY_CONNECTED || op == tflite::BuiltinOperator::CONV_2D ||
         op == tflite::BuiltinOperator::DEPTHWISE_CONV_2D;
}

tflite::BuiltinOperator builtinOf(const tflite::ModelT& m, const tflite::OperatorT& op) {
  const tflite::OperatorCodeT& code = *m.operator_codes.at(op.opcode_index);
  return static_cast<tflite::BuiltinOperator>(
      std::max<int32_t>(code.deprecated_builtin_code, static_cast<int32_t>(code.builtin_code)));
}

std::string label(const rt::Node& node) {
  return "operator " + std::to_string(node.index) + " (" + rt::opName(node.op) + ")";
}

// The layer an operator is, for planning: nullopt (with `why`) when hilsim leaves it alone.
// Throws ModelError for a malformed operator.
std::optional<planner::LayerShape> plannableLayer(const rt::Node& node, std::string* why) {
  if (node.op == tflite::BuiltinOperator::FULLY_CONNECTED) {
    const rt::FullyConnectedParams params = rt::prepareFullyConnected(node);
    if (params.type != rt::TensorType::INT8) {
      *why = "float32 layer (the accelerator computes int8)";
      return std::nullopt;
    }
    return planner::LayerShape{planner::PlanKind::kFullyConnected, params.shape, {}};
  }
  const rt::ConvLayer conv = *rt::describeConvLayer(node);
  for (const rt::Tensor* t : {node.input(0), node.input(1), node.output(0)})
    if (t && t->type != rt::TensorType::INT8) {
      *why = "only int8 convolutions are mapped (" + rt::describe(*t) + ")";
      return std::nullopt;
    }
  if (conv.groups != 1) {
    *why = "grouped convolution (" + std::to_string(conv.groups) +
           " groups) is not mapped to the accelerator";
    return std::nullopt;
  }
  return planner::convLayer(conv.geometry);
}

// Removes hilsim's plans from operators and metadata. Other custom_options are kept; with
// `refuse_foreign`, foreign custom_options on an operator hilsim plans are an error (annotating
// would overwrite them).
void removeAnnotations(tflite::ModelT& m, bool refuse_foreign) {
  for (auto& sg : m.subgraphs)
    for (size_t i = 0; i < sg->operators.size(); ++i) {
      auto& op = *sg->operators[i];
      if (op.custom_options.empty()) continue;
      if (planner::hasPlanIdentifier(op.custom_options.data(), op.custom_options.size()))
        op.custom_options.clear();
      else if (refuse_foreign && isPlannable(builtinOf(m, op)))
        throw ModelError("operator " + std::to_string(i) + " (" + rt::opName(builtinOf(m, op)) +
                         ") carries custom_options that are not a hilsim plan");
    }
  for (size_t i = 0; i < m.metadata.size();) {
    if (m.metadata[i]->name != planner::kMetadataName) {
      ++i;
      continue;
    }
    const uint32_t buffer = m.metadata[i]->buffer;
    m.metadata.erase(m.metadata.begin() + static_cast<std::ptrdiff_t>(i));
    // Buffers are referenced by index: drop ours only if it is the last one, else empty it.
    if (buffer + 1 == m.buffers.size())
      m.buffers.pop_back();
    else if (buffer < m.buffers.size())
      m.buffers[buffer]->data.clear();
  }
}

}  // namespace

AnnotateResult annotateModel(const rt::Model& model, const config::HardwareConfig& config,
                             Carrier carrier, Policy policy, planner::Objective objective) {
  const planner::Hardware hw = config::accelGeometry(config);
  const timing::PlatformTiming timing = planner::plannerTiming(config, firmware::measureDriverPath);
  const timing::CpuCostModel cpu = config::costModel(config);
  const energy::EnergyParams energy_params = config.energy.params();
  const planner::ObjectiveSetting setting{objective, &energy_params};
  const planner::ObjectiveSetting by_energy{planner::Objective::kEnergy, &energy_params};
  // The interpreter's node view gives each operator its tensors; nothing is allocated.
  rt::Model working = rt::Model::fromBytes(model.bytes(), model.label());
  const rt::OpResolver resolver = rt::referenceOpResolver();
  rt::Interpreter interp(working, resolver);

  AnnotateResult result;
  std::vector<planner::PlanEntry> entries;
  std::unique_ptr<tflite::ModelT> m = unpack(model);
  removeAnnotations(*m, true);
  auto& ops = m->subgraphs.at(0)->operators;
  for (const rt::Node& node : interp.nodes()) {
    if (!isPlannable(node.op)) continue;
    LayerAnnotation layer;
    layer.op_index = node.index;
    layer.op = rt::opName(node.op);
    std::optional<planner::LayerShape> shape;
    std::string why;
    try {
      shape = plannableLayer(node, &why);
    } catch (const ModelError& e) {
      throw ModelError(label(node) + ": " + e.what());
    }
    if (!shape) {
      layer.summary = "not annotated: " + why;
      result.layers.push_back(layer);
      continue;
    }
    const bool fc = shape->kind == planner::PlanKind::kFullyConnected;
    planner::AnnotatedPlan annotated;
    annotated.cpu = planner::plannerCpu(config, timing);
    try {
      annotated.plan =
          fc ? planner::makePlan(hw, shape->gemm) : planner::makeConvPlan(hw, shape->conv, timing);
    } catch (const ModelError& e) {
      layer.summary = std::string("not annotated: ") + e.what();
      result.layers.push_back(layer);
      continue;
    }
    const uint64_t ref =
        fc ? cpu.fullyConnectedCycles(shape->gemm.rows, shape->gemm.k, shape->gemm.n)
           : planner::convReferenceCycles(shape->conv, cpu);
    const planner::PathCosts costs = planner::predictCosts(annotated.plan, timing, ref, setting);
    const uint64_t predicted = costs.accel_cycles;
    planner::OffloadDecision decision = planner::decideByPolicy(policy, objective, costs);
    if (!fc) decision.utilization = planner::predictedUtilization(annotated.plan, timing);
    decision.upload_bytes = planner::uploadBytes(annotated.plan);
    planner::Decision& d = annotated.decision;
    d.offload = decision.offload;
    d.predicted_accel_cycles = predicted;
    d.predicted_ref_cycles = ref;
    d.break_even_macs = (fc ? planner::breakEvenMacs(shape->gemm, hw, timing, cpu)
                            : planner::convBreakEvenMacs(shape->conv, hw, timing, cpu))
                            .value_or(0);
    d.objective = objective;
    if (objective != planner::Objective::kCycles) {
      d.predicted_accel_energy_uj = *costs.accel_uj;
      d.predicted_ref_energy_uj = *costs.ref_uj;
      d.break_even_energy_macs =
          (fc ? planner::breakEvenMacs(shape->gemm, hw, timing, cpu, by_energy)
              : planner::convBreakEvenMacs(shape->conv, hw, timing, cpu, by_energy))
              .value_or(0);
    }
    d.policy = planner::policyName(policy);
    d.reason = planner::policyReasonText(decision);
    const std::vector<uint8_t> bytes = planner::encodePlan(annotated);
    if (carrier == Carrier::kCustomOptions) {
      ops.at(static_cast<size_t>(node.index))->custom_options = bytes;
    } else {
      entries.push_back({0, static_cast<uint32_t>(node.index), bytes});
    }
    layer.annotated = true;
    layer.offload = d.offload;
    layer.summary = planner::describePlan(annotated);
    result.layers.push_back(layer);
  }
  if (carrier == Carrier::kMetadata && !entries.empty()) {
    auto buffer = std::make_unique<tflite::BufferT>();
    buffer->data = planner::encodePlanSet(entries);
    m->buffers.push_back(std::move(buffer));
    auto md = std::make_unique<tflite::MetadataT>();
    md->name = planner::kMetadataName;
    md->buffer = static_cast<uint32_t>(m->buffers.size() - 1);
    m->metadata.push_back(std::move(md));
  }
  result.model = pack(*m);
  // The result must load and verify like any model.
  (void)rt::Model::fromBytes(result.model, "annotated model");
  return result;
}

std::vector<uint8_t> stripModel(const rt::Model& model) {
  std::unique_ptr<tflite::ModelT> m = unpack(model);
  removeAnnotations(*m, false);
  std::vector<uint8_t> bytes = pack(*m);
  (void)rt::Model::fromBytes(bytes, "stripped model");
  return bytes;
}

std::vector<AnnotationStatus> readAnnotations(rt::Model& model) {
  const rt::OpResolver resolver = rt::referenceOpResolver();
  rt::Interpreter interp(model, resolver);
  std::vector<AnnotationStatus> status(interp.nodes().size());
  const rt::MetadataPlans metadata = rt::MetadataPlans::readKeepingError(model);
  for (const rt::Node& node : interp.nodes()) {
    AnnotationStatus& s = status[static_cast<size_t>(node.index)];
    // A custom operator's custom_options are its own parameters, never a hilsim plan.
    if (node.op == tflite::BuiltinOperator::CUSTOM) continue;
    const auto* custom = node.op_fb->custom_options();
    const bool carries = (custom && custom->size()) || metadata.find(node.index) ||
                         (!metadata.error().empty() && isPlannable(node.op));
    if (!carries) continue;
    s.present = true;
    try {
      if (!isPlannable(node.op))
        throw ModelError("a plan on a " + std::string(rt::opName(node.op)) + " operator");
      std::string why;
      const std::optional<planner::LayerShape> layer = plannableLayer(node, &why);
      if (!layer) throw ModelError("a plan on a layer hilsim does not map: " + why);
      const std::optional<planner::AnnotatedPlan> a = rt::findAnnotation(node, metadata, *layer);
      s.valid = true;
      s.text = planner::describePlan(*a);
    } catch (const ModelError& e) {
      s.text = std::string("invalid: ") + e.what();
    }
  }
  return status;
}

}  // namespace hilsim::annotate
