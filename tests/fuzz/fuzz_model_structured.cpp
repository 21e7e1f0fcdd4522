// libFuzzer target: the model entry of fuzz_entries.h with a structure-aware mutator. Byte-level
// mutations of a flatbuffer mostly fail verification; this mutator unpacks a valid model, changes
// one field the kernels' prepare must validate (a dimension, a type, a scale or zero point, an
// operator's tensor index, an option, a constant value, the operator code) and packs it again,
// so the mutants reach the kernels. Every input is packed by FlatBufferBuilder, so its vectors
// are aligned and unpacking it is defined; run with -cross_over=0 (byte-level crossover would
// break that) and seed it with packed models (hilsim_fuzz_model_seeds).

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <memory>
#include <random>
#include <vector>

#include "fuzz_entries.h"
#include "hilsim/schema/tflite_generated.h"

namespace {

using tflite::ActivationFunctionType;
using tflite::BuiltinOperator;

class Mutator {
 public:
  explicit Mutator(unsigned seed) : rng_(seed) {}

  // Changes one thing in `m`; false if there was nothing to change.
  bool mutate(tflite::ModelT& m) {
    if (m.subgraphs.empty()) return false;
    tflite::SubGraphT& sg = *m.subgraphs[0];
    switch (pick(8)) {
      case 0:
        return mutateShape(sg);
      case 1:
        return mutateType(sg);
      case 2:
        return mutateQuantization(sg);
      case 3:
        return mutateOperatorTensors(sg);
      case 4:
        return mutateOptions(sg);
      case 5:
        return mutateConstant(m);
      case 6:
        return mutateOpcode(m);
      default:
        return mutateTensorFlags(m, sg);
    }
  }

 private:
  size_t pick(size_t n) {
    return n == 0 ? 0 : std::uniform_int_distribution<size_t>(0, n - 1)(rng_);
  }
  bool coin() { return pick(2) == 0; }

  int32_t interestingInt32() {
    static constexpr int32_t kValues[] = {0,
                                          1,
                                          2,
                                          3,
                                          4,
                                          -1,
                                          -2,
                                          7,
                                          8,
                                          31,
                                          32,
                                          33,
                                          127,
                                          128,
                                          255,
                                          256,
                                          32767,
                                          32768,
                                          65535,
                                          65536,
                                          -128,
                                          -129,
                                          -32768,
                                          -32769,
                                          1 << 30,
                                          std::numeric_limits<int32_t>::max(),
                                          std::numeric_limits<int32_t>::min()};
    return coin() ? kValues[pick(std::size(kValues))] : static_cast<int32_t>(pick(16)) - 4;
  }

  float interestingScale() {
    static constexpr float kValues[] = {
        1.0f,   0.5f,   0.25f, 1.0f / 256, 1.0f / 128, 1.0f / 32768, 1.0f / 4096, 1e-3f, 1e-9f,
        1e-30f, 1e-45f, 3e9f,  1e30f,      3.4e38f,    100.0f,       0.0f,        -1.0f};
    return kValues[pick(std::size(kValues))];
  }

  int64_t interestingZeroPoint() {
    static constexpr int64_t kValues[] = {0,
                                          1,
                                          -1,
                                          127,
                                          -128,
                                          128,
                                          255,
                                          -129,
                                          32767,
                                          -32768,
                                          32768,
                                          int64_t{1} << 31,
                                          int64_t{1} << 40,
                                          std::numeric_limits<int32_t>::min(),
                                          std::numeric_limits<int64_t>::min(),
                                          std::numeric_limits<int64_t>::max()};
    return kValues[pick(std::size(kValues))];
  }

  tflite::TensorT* anyTensor(tflite::SubGraphT& sg) {
    return sg.tensors.empty() ? nullptr : sg.tensors[pick(sg.tensors.size())].get();
  }

  bool mutateShape(tflite::SubGraphT& sg) {
    tflite::TensorT* t = anyTensor(sg);
    if (!t) return false;
    const size_t op = pick(4);
    if (op == 0 || t->shape.empty()) {
      t->shape.insert(t->shape.begin() + static_cast<ptrdiff_t>(pick(t->shape.size() + 1)),
                      coin() ? 1 : interestingInt32());
    } else if (op == 1) {
      t->shape.erase(t->shape.begin() + static_cast<ptrdiff_t>(pick(t->shape.size())));
    } else {
      int32_t& d = t->shape[pick(t->shape.size())];
      d = op == 2 ? interestingInt32()
                  : static_cast<int32_t>(static_cast<uint32_t>(d) + (coin() ? 1u : ~0u));
    }
    return true;
  }

  bool mutateType(tflite::SubGraphT& sg) {
    tflite::TensorT* t = anyTensor(sg);
    if (!t) return false;
    static constexpr tflite::TensorType kTypes[] = {
        tflite::TensorType::FLOAT32, tflite::TensorType::INT32,   tflite::TensorType::UINT8,
        tflite::TensorType::INT64,   tflite::TensorType::BOOL,    tflite::TensorType::INT16,
        tflite::TensorType::INT8,    tflite::TensorType::FLOAT16, tflite::TensorType::STRING};
    t->type = kTypes[pick(std::size(kTypes))];
    return true;
  }

  bool mutateQuantization(tflite::SubGraphT& sg) {
    tflite::TensorT* t = anyTensor(sg);
    if (!t) return false;
    if (!t->quantization || pick(8) == 0) {
      if (t->quantization && coin()) {
        t->quantization.reset();
        return true;
      }
      t->quantization = std::make_unique<tflite::QuantizationParametersT>();
      t->quantization->scale = {interestingScale()};
      t->quantization->zero_point = {0};
      return true;
    }
    tflite::QuantizationParametersT& q = *t->quantization;
    switch (pick(5)) {
      case 0:
        if (q.scale.empty()) q.scale.push_back(1.0f);
        q.scale[pick(q.scale.size())] = interestingScale();
        break;
      case 1:
        if (q.zero_point.empty()) q.zero_point.push_back(0);
        q.zero_point[pick(q.zero_point.size())] = interestingZeroPoint();
        break;
      case 2: {  // per-channel along some dimension
        if (t->shape.empty()) return false;
        q.quantized_dimension = static_cast<int32_t>(pick(t->shape.size()));
        const int32_t n = t->shape[static_cast<size_t>(q.quantized_dimension)];
        if (n < 1 || n > 64) return false;
        q.scale.assign(static_cast<size_t>(n), q.scale.empty() ? 0.5f : q.scale[0]);
        q.zero_point.assign(static_cast<size_t>(n), 0);
        break;
      }
      case 3:
        q.scale.clear();
        break;
      default:
        q.zero_point.clear();
        break;
    }
    return true;
  }

  bool mutateOperatorTensors(tflite::SubGraphT& sg) {
    if (sg.operators.empty()) return false;
    tflite::OperatorT& op = *sg.operators[pick(sg.operators.size())];
    std::vector<int32_t>& list = coin() || op.outputs.empty() ? op.inputs : op.outputs;
    const int32_t tensors = static_cast<int32_t>(sg.tensors.size());
    const int32_t index = coin() || tensors == 0 ? -1 : static_cast<int32_t>(pick(size_t(tensors)));
    switch (pick(3)) {
      case 0:
        list.push_back(index < 0 && &list == &op.outputs ? 0 : index);
        break;
      case 1:
        if (list.empty()) return false;
        list.erase(list.begin() + static_cast<ptrdiff_t>(pick(list.size())));
        break;
      default:
        if (list.empty()) return false;
        list[pick(list.size())] = &list == &op.outputs && index < 0 ? 0 : index;
        break;
    }
    return true;
  }

  ActivationFunctionType activation() {
    return static_cast<ActivationFunctionType>(static_cast<int>(pick(8)) - 1);
  }

  bool mutateOptions(tflite::SubGraphT& sg) {
    if (sg.operators.empty()) return false;
    tflite::BuiltinOptionsUnion& o = sg.operators[pick(sg.operators.size())]->builtin_options;
    if (pick(10) == 0) {
      o.Reset();
      return true;
    }
    if (auto* a = o.AsAddOptions()) {
      a->fused_activation_function = activation();
    } else if (auto* s = o.AsSubOptions()) {
      s->fused_activation_function = activation();
    } else if (auto* mu = o.AsMulOptions()) {
      mu->fused_activation_function = activation();
    } else if (auto* c = o.AsConcatenationOptions()) {
      if (coin())
        c->axis = interestingInt32();
      else
        c->fused_activation_function = activation();
    } else if (auto* p = o.AsPool2DOptions()) {
      switch (pick(6)) {
        case 0:
          p->padding = static_cast<tflite::Padding>(pick(3));
          break;
        case 1:
          p->stride_h = interestingInt32();
          break;
        case 2:
          p->stride_w = interestingInt32();
          break;
        case 3:
          p->filter_height = interestingInt32();
          break;
        case 4:
          p->filter_width = interestingInt32();
          break;
        default:
          p->fused_activation_function = activation();
          break;
      }
    } else if (auto* r = o.AsReducerOptions()) {
      r->keep_dims = !r->keep_dims;
    } else if (auto* ss = o.AsStridedSliceOptions()) {
      int32_t* masks[] = {&ss->begin_mask, &ss->end_mask, &ss->shrink_axis_mask, &ss->ellipsis_mask,
                          &ss->new_axis_mask};
      *masks[pick(std::size(masks))] ^= 1 << pick(5);
    } else if (auto* sq = o.AsSqueezeOptions()) {
      if (coin() && !sq->squeeze_dims.empty())
        sq->squeeze_dims[pick(sq->squeeze_dims.size())] = interestingInt32();
      else
        sq->squeeze_dims.push_back(static_cast<int32_t>(pick(6)) - 2);
    } else if (auto* l = o.AsUnidirectionalSequenceLSTMOptions()) {
      switch (pick(3)) {
        case 0:
          l->time_major = !l->time_major;
          break;
        case 1:
          l->cell_clip = coin() ? interestingScale() : std::numeric_limits<float>::infinity();
          break;
        default:
          l->fused_activation_function = activation();
          break;
      }
    } else {
      return false;
    }
    return true;
  }

  bool mutateConstant(tflite::ModelT& m) {
    std::vector<tflite::BufferT*> filled;
    for (auto& b : m.buffers)
      if (b && !b->data.empty()) filled.push_back(b.get());
    if (filled.empty()) return false;
    std::vector<uint8_t>& data = filled[pick(filled.size())]->data;
    if (pick(6) == 0) {
      data.resize(coin() ? data.size() / 2 : data.size() + 4);
      return !data.empty();
    }
    // An interesting int32 at a 4-byte boundary (indices, paddings, axes, biases), or a byte.
    if (data.size() >= 4 && coin()) {
      const size_t at = 4 * pick(data.size() / 4);
      const int32_t v = interestingInt32();
      std::memcpy(data.data() + at, &v, sizeof v);
    } else {
      data[pick(data.size())] = static_cast<uint8_t>(interestingInt32());
    }
    return true;
  }

  bool mutateOpcode(tflite::ModelT& m) {
    if (m.operator_codes.empty()) return false;
    static constexpr BuiltinOperator kOps[] = {
        BuiltinOperator::ADD,           BuiltinOperator::SUB,
        BuiltinOperator::MUL,           BuiltinOperator::MAXIMUM,
        BuiltinOperator::MINIMUM,       BuiltinOperator::HARD_SWISH,
        BuiltinOperator::QUANTIZE,      BuiltinOperator::LOGISTIC,
        BuiltinOperator::TANH,          BuiltinOperator::CONCATENATION,
        BuiltinOperator::PAD,           BuiltinOperator::PADV2,
        BuiltinOperator::TRANSPOSE,     BuiltinOperator::MEAN,
        BuiltinOperator::STRIDED_SLICE, BuiltinOperator::SQUEEZE,
        BuiltinOperator::MAX_POOL_2D,   BuiltinOperator::UNIDIRECTIONAL_SEQUENCE_LSTM};
    tflite::OperatorCodeT& c = *m.operator_codes[pick(m.operator_codes.size())];
    c.builtin_code = kOps[pick(std::size(kOps))];
    c.deprecated_builtin_code =
        static_cast<int8_t>(std::min(static_cast<int32_t>(c.builtin_code), int32_t{127}));
    return true;
  }

  bool mutateTensorFlags(tflite::ModelT& m, tflite::SubGraphT& sg) {
    tflite::TensorT* t = anyTensor(sg);
    if (!t) return false;
    if (coin()) {
      t->is_variable = !t->is_variable;
    } else {
      t->buffer = static_cast<uint32_t>(pick(m.buffers.size()));
    }
    return true;
  }

  std::minstd_rand rng_;
};

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  hilsim::fuzz::fuzzModel(data, size);
  return 0;
}

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t max_size,
                                          unsigned int seed) {
  flatbuffers::Verifier verifier(data, size);
  if (size < 8 || !tflite::ModelBufferHasIdentifier(data) || !tflite::VerifyModelBuffer(verifier))
    return size;
  std::unique_ptr<tflite::ModelT> model(tflite::GetModel(data)->UnPack());
  Mutator mutator(seed);
  bool changed = false;
  for (unsigned i = 0; i < 1 + seed % 3; ++i) changed = mutator.mutate(*model) || changed;
  if (!changed) return size;
  flatbuffers::FlatBufferBuilder fbb;
  fbb.Finish(tflite::Model::Pack(fbb, model.get()), tflite::ModelIdentifier());
  if (fbb.GetSize() > max_size) return size;
  std::memcpy(data, fbb.GetBufferPointer(), fbb.GetSize());
  return fbb.GetSize();
}
