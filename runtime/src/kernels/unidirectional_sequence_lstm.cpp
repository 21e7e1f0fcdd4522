// UNIDIRECTIONAL_SEQUENCE_LSTM kernel: float32, int8 x int8 and int16 x int8 with an int16 cell
// state (hilsim/kernels/lstm.h). Prepare validates the node and computes every multiplier and
// folded bias once (lstm_prepare.h); invoke hands tensor memory and scratch to the arithmetic.
// With cpu.kernels optimized the int8 LSTM calls the optimized library's (its gate products as
// blocked dot products over the same folded biases, hilsim/kernels/optimized/lstm.h). The
// output_state and cell_state inputs are variable tensors, so the state carries over from one
// invocation to the next.

#include <cstdint>

#include "hilsim/kernels/abi/calls.h"
#include "hilsim/kernels/optimized/abi_calls.h"
#include "hilsim/rt/kernels/kernel_call.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/lstm_prepare.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

template <typename Activation>
kernels::LstmIntegerBuffers<Activation> integerBuffers(const Tensor& in, Tensor& out,
                                                       Tensor& hidden, Tensor& cell,
                                                       uint8_t* scratch) {
  kernels::LstmIntegerBuffers<Activation> b;
  b.input = in.as<Activation>();
  b.output = out.as<Activation>();
  b.hidden_state = hidden.as<Activation>();
  b.cell_state = cell.as<int16_t>();
  b.scratch = reinterpret_cast<int16_t*>(scratch);
  return b;
}

class UnidirectionalSequenceLstmRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext& ctx, Node& node) override {
    const LstmTensors t = validateLstm(node);
    type_ = t.input->type;
    size_t cell_type_bytes = 0;
    if (type_ == TensorType::FLOAT32) {
      float_params_ = prepareLstmFloat(t);
      cell_type_bytes = sizeof(float);
    } else if (type_ == TensorType::INT8) {
      int8_params_ = prepareLstmInt8(ctx, t);
      optimized_ = ctx.kernelLibrary() == timing::KernelLibrary::kOptimized;
      cell_type_bytes = sizeof(int16_t);
    } else if (type_ == TensorType::INT16) {
      int16_params_ = prepareLstmInt16(t);
      cell_type_bytes = sizeof(int16_t);
    } else {
      throw ModelError("unsupported input " + describe(*t.input) +
                       " (hilsim supports float32, int8 and int16 LSTM activations)");
    }
    scratch_ = ctx.requestScratch(kernels::lstmScratchElements(t.shape) * cell_type_bytes);
    return lstmWork(t);
  }

  void invoke(InvokeContext& ctx, Node& node) override {
    uint8_t* scratch = ctx.scratch(scratch_);
    Tensor& hidden = *node.input(lstm_input::kOutputState);
    Tensor& cell = *node.input(lstm_input::kCellState);
    const Tensor& in = *node.input(lstm_input::kInput);
    Tensor& out = *node.output(0);
    if (type_ == TensorType::INT8 && optimized_) {
      kernels::abi::OptLstmInt8Call call{int8_params_,
                                         integerBuffers<int8_t>(in, out, hidden, cell, scratch)};
      runCall(ctx, call);
    } else if (type_ == TensorType::INT8) {
      kernels::abi::LstmInt8Call call{int8_params_,
                                      integerBuffers<int8_t>(in, out, hidden, cell, scratch)};
      runCall(ctx, call);
    } else if (type_ == TensorType::INT16) {
      kernels::abi::LstmInt16Call call{int16_params_,
                                       integerBuffers<int16_t>(in, out, hidden, cell, scratch)};
      runCall(ctx, call);
    } else {
      kernels::abi::LstmFloatCall call;
      call.params = float_params_;
      call.buffers.input = in.as<float>();
      call.buffers.output = out.as<float>();
      call.buffers.hidden_state = hidden.as<float>();
      call.buffers.cell_state = cell.as<float>();
      call.buffers.scratch = reinterpret_cast<float*>(scratch);
      runCall(ctx, call);
    }
  }

 private:
  TensorType type_ = TensorType::INT8;
  bool optimized_ = false;  // int8 only: the optimized library's call
  kernels::LstmInt8Params int8_params_;
  kernels::LstmInt16Params int16_params_;
  kernels::LstmFloatParams float_params_;
  int scratch_ = -1;
};

}  // namespace

std::unique_ptr<Kernel> makeUnidirectionalSequenceLstmRef() {
  return std::make_unique<UnidirectionalSequenceLstmRef>();
}

}  // namespace hilsim::rt
