#include "hilsim/annotate/model_view.h"

#include <cstdio>
#include <sstream>

#include "hilsim/annotate/annotate.h"
#include "hilsim/base/json.h"
#include "hilsim/errors.h"
#include "hilsim/rt/interpreter.h"

namespace hilsim::annotate {
namespace {

// Ten significant digits, as a person reads a scale ("%.10g").
std::string tenDigits(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.10g", value);
  return text;
}

std::string activationName(tflite::ActivationFunctionType a) {
  return tflite::EnumNameActivationFunctionType(a);
}

std::string optionsSummary(const tflite::Operator& op) {
  std::ostringstream s;
  using T = tflite::BuiltinOptions;
  switch (op.builtin_options_type()) {
    case T::FullyConnectedOptions: {
      const auto* o = op.builtin_options_as_FullyConnectedOptions();
      s << "activation " << activationName(o->fused_activation_function());
      if (o->keep_num_dims()) s << ", keep_num_dims";
      break;
    }
    case T::Conv2DOptions: {
      const auto* o = op.builtin_options_as_Conv2DOptions();
      s << "padding " << tflite::EnumNamePadding(o->padding()) << ", stride " << o->stride_h()
        << "x" << o->stride_w() << ", dilation " << o->dilation_h_factor() << "x"
        << o->dilation_w_factor() << ", activation "
        << activationName(o->fused_activation_function());
      break;
    }
    case T::DepthwiseConv2DOptions: {
      const auto* o = op.builtin_options_as_DepthwiseConv2DOptions();
      s << "padding " << tflite::EnumNamePadding(o->padding()) << ", stride " << o->stride_h()
        << "x" << o->stride_w() << ", depth_multiplier " << o->depth_multiplier() << ", activation "
        << activationName(o->fused_activation_function());
      break;
    }
    case T::Pool2DOptions: {
      const auto* o = op.builtin_options_as_Pool2DOptions();
      s << "filter " << o->filter_height() << "x" << o->filter_width() << ", padding "
        << tflite::EnumNamePadding(o->padding()) << ", stride " << o->stride_h() << "x"
        << o->stride_w();
      break;
    }
    case T::SoftmaxOptions:
      s << "beta " << op.builtin_options_as_SoftmaxOptions()->beta();
      break;
    case T::SVDFOptions: {
      const auto* o = op.builtin_options_as_SVDFOptions();
      s << "rank " << o->rank() << ", activation "
        << activationName(o->fused_activation_function());
      break;
    }
    case T::NONE:
      break;
    default:
      s << tflite::EnumNameBuiltinOptions(op.builtin_options_type());
  }
  return s.str();
}

std::string joinInts(const std::vector<int32_t>& v) {
  std::string out;
  for (size_t i = 0; i < v.size(); ++i) out += (i ? "," : "") + std::to_string(v[i]);
  return out;
}

}  // namespace

ModelView describeModel(rt::Model& model) {
  const tflite::Model& m = model.fb();
  ModelView view;
  view.path = model.label();
  view.bytes = model.bytes().size();
  view.version = m.version();
  view.description = m.description() ? m.description()->str() : "";
  view.subgraphs = m.subgraphs()->size();
  const tflite::SubGraph& sg = model.mainSubgraph();
  if (sg.tensors())
    for (flatbuffers::uoffset_t i = 0; i < sg.tensors()->size(); ++i) {
      const tflite::Tensor& t = *sg.tensors()->Get(i);
      TensorView tv;
      tv.index = static_cast<int>(i);
      tv.name = t.name() ? t.name()->str() : "";
      tv.type = tflite::EnumNameTensorType(t.type());
      if (t.shape()) tv.shape.assign(t.shape()->begin(), t.shape()->end());
      if (const auto* q = t.quantization()) {
        if (q->scale()) tv.scales.assign(q->scale()->begin(), q->scale()->end());
        if (q->zero_point())
          tv.zero_points.assign(q->zero_point()->begin(), q->zero_point()->end());
        tv.quantized_dimension = q->quantized_dimension();
      }
      tv.buffer = t.buffer();
      tv.data_bytes = model.bufferData(t.buffer()).size;
      tv.is_variable = t.is_variable();
      view.tensors.push_back(std::move(tv));
    }
  if (sg.operators())
    for (flatbuffers::uoffset_t i = 0; i < sg.operators()->size(); ++i) {
      const tflite::Operator& op = *sg.operators()->Get(i);
      OperatorView ov;
      ov.index = static_cast<int>(i);
      ov.op = model.operatorLabel(op);
      if (op.inputs()) ov.inputs.assign(op.inputs()->begin(), op.inputs()->end());
      if (op.outputs()) ov.outputs.assign(op.outputs()->begin(), op.outputs()->end());
      ov.options = optionsSummary(op);
      ov.custom_options_bytes = op.custom_options() ? op.custom_options()->size() : 0;
      view.operators.push_back(std::move(ov));
    }
  const std::vector<AnnotationStatus> annotations = readAnnotations(model);
  for (size_t i = 0; i < annotations.size() && i < view.operators.size(); ++i) {
    if (!annotations[i].present) continue;
    view.operators[i].annotation = annotations[i].text;
    ++view.annotated;
    if (!annotations[i].valid) ++view.invalid_annotations;
  }
  if (sg.inputs()) view.inputs.assign(sg.inputs()->begin(), sg.inputs()->end());
  if (sg.outputs()) view.outputs.assign(sg.outputs()->begin(), sg.outputs()->end());
  if (m.metadata())
    for (const tflite::Metadata* md : *m.metadata())
      view.metadata.emplace_back(md->name() ? md->name()->str() : "",
                                 model.bufferData(md->buffer()).size);

  const rt::OpResolver resolver = rt::referenceOpResolver();
  for (const rt::UnsupportedOperator& u : rt::unsupportedOperators(model, resolver)) {
    view.operators[static_cast<size_t>(u.index)].supported = false;
    view.unsupported.push_back("operator " + std::to_string(u.index) + " (" + u.label + ")");
  }
  if (!view.unsupported.empty()) {
    view.run_status = "not runnable: " + std::to_string(view.unsupported.size()) + " operator" +
                      (view.unsupported.size() == 1 ? " has" : "s have") + " no hilsim kernel";
    return view;
  }
  try {
    rt::Interpreter interp(model, resolver);
    interp.allocate();
    view.runnable = true;
    view.arena_bytes = interp.arenaPlan().total_bytes;
    for (size_t i = 0; i < interp.work().size() && i < view.operators.size(); ++i) {
      view.operators[i].macs = interp.work()[i].macs;
      view.macs += interp.work()[i].macs;
    }
    view.run_status = "runnable, arena " + std::to_string(view.arena_bytes) + " bytes";
  } catch (const UsageError& e) {
    view.run_status = std::string("not runnable: ") + e.what();
  }
  return view;
}

std::string modelViewText(const ModelView& v) {
  std::ostringstream out;
  out << "model " << v.path << " (" << v.bytes << " bytes, schema version " << v.version << ", "
      << v.subgraphs << " subgraph" << (v.subgraphs == 1 ? "" : "s") << ")\n";
  if (!v.description.empty()) out << "description: " << v.description << "\n";
  out << "inputs: " << joinInts(v.inputs) << "  outputs: " << joinInts(v.outputs) << "\n";
  out << "tensors (" << v.tensors.size() << "):\n";
  char line[512];
  for (const TensorView& t : v.tensors) {
    std::string quant;
    if (t.scales.size() == 1)
      quant = "scale " + tenDigits(t.scales[0]) + " zp " +
              (t.zero_points.empty() ? "0" : std::to_string(t.zero_points[0]));
    else if (t.scales.size() > 1)
      quant = std::to_string(t.scales.size()) + " scales along dim " +
              std::to_string(t.quantized_dimension);
    std::string data = t.data_bytes ? "const " + std::to_string(t.data_bytes) + " B"
                                    : (t.is_variable ? "variable" : "");
    std::snprintf(line, sizeof line, "  %4d  %-8s %-18s %-14s %-32s %s\n", t.index, t.type.c_str(),
                  ("[" + joinInts(t.shape) + "]").c_str(), data.c_str(), quant.c_str(),
                  t.name.c_str());
    out << line;
  }
  out << "operators (" << v.operators.size() << "):\n";
  for (const OperatorView& o : v.operators) {
    out << "  " << o.index << "  " << o.op << "  in " << joinInts(o.inputs) << " -> out "
        << joinInts(o.outputs);
    if (!o.options.empty()) out << "  (" << o.options << ")";
    if (o.macs) out << "  " << o.macs << " MACs";
    if (!o.supported) out << "  [unsupported]";
    if (o.custom_options_bytes) out << "  custom_options " << o.custom_options_bytes << " B";
    if (!o.annotation.empty()) out << "\n      annotation: " << o.annotation;
    out << "\n";
  }
  if (!v.metadata.empty()) {
    out << "metadata:\n";
    for (const auto& [name, bytes] : v.metadata) out << "  " << name << " (" << bytes << " B)\n";
  }
  out << "annotations: " << v.annotated << " operator" << (v.annotated == 1 ? "" : "s")
      << (v.invalid_annotations ? ", " + std::to_string(v.invalid_annotations) + " invalid" : "")
      << "\n";
  out << "MACs per invocation: " << v.macs << "\n";
  for (const std::string& u : v.unsupported)
    out << "unsupported: " << u << ": hilsim has no kernel for it\n";
  out << v.run_status << "\n";
  return out.str();
}

std::string modelViewJson(const ModelView& v) {
  Json doc;
  doc["path"] = v.path;
  doc["bytes"] = v.bytes;
  doc["version"] = v.version;
  doc["description"] = v.description;
  doc["subgraphs"] = v.subgraphs;
  doc["inputs"] = v.inputs;
  doc["outputs"] = v.outputs;
  Json& tensors = doc["tensors"] = Json::array();
  for (const TensorView& t : v.tensors) {
    Json tensor;
    tensor["index"] = t.index;
    tensor["name"] = t.name;
    tensor["type"] = t.type;
    tensor["shape"] = t.shape;
    tensor["scales"] = t.scales;
    tensor["zero_points"] = t.zero_points;
    tensor["quantized_dimension"] = t.quantized_dimension;
    tensor["buffer"] = t.buffer;
    tensor["data_bytes"] = t.data_bytes;
    tensor["is_variable"] = t.is_variable;
    tensors.push_back(std::move(tensor));
  }
  Json& operators = doc["operators"] = Json::array();
  for (const OperatorView& o : v.operators) {
    Json op;
    op["index"] = o.index;
    op["op"] = o.op;
    op["inputs"] = o.inputs;
    op["outputs"] = o.outputs;
    op["options"] = o.options;
    op["custom_options_bytes"] = o.custom_options_bytes;
    op["annotation"] = o.annotation;
    op["supported"] = o.supported;
    op["macs"] = o.macs;
    operators.push_back(std::move(op));
  }
  Json& metadata = doc["metadata"] = Json::array();
  for (const auto& [name, bytes] : v.metadata)
    metadata.push_back({{"name", name}, {"bytes", bytes}});
  doc["annotated_operators"] = v.annotated;
  doc["invalid_annotations"] = v.invalid_annotations;
  doc["unsupported"] = v.unsupported;
  doc["runnable"] = v.runnable;
  doc["status"] = v.run_status;
  doc["arena_bytes"] = v.arena_bytes;
  doc["macs"] = v.macs;
  return formatJson(doc) + "\n";
}

}  // namespace hilsim::annotate
