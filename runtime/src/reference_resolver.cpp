#include "hilsim/rt/kernels/reference.h"
#include "hilsim/rt/op_resolver.h"

namespace hilsim::rt {

OpResolver referenceOpResolver() {
  using Op = tflite::BuiltinOperator;
  OpResolver resolver;
  resolver.add(Op::FULLY_CONNECTED, makeFullyConnectedRef);
  resolver.add(Op::QUANTIZE, makeQuantizeRef);
  resolver.add(Op::DEQUANTIZE, makeDequantizeRef);
  resolver.add(Op::RESHAPE, makeReshapeRef);
  resolver.add(Op::SOFTMAX, makeSoftmaxRef);
  resolver.add(Op::CONV_2D, makeConv2DRef);
  resolver.add(Op::DEPTHWISE_CONV_2D, makeDepthwiseConv2DRef);
  resolver.add(Op::AVERAGE_POOL_2D, makeAveragePool2DRef);
  resolver.add(Op::SVDF, makeSvdfRef);
  resolver.add(Op::LOGISTIC, makeLogisticRef);
  resolver.add(Op::TANH, makeTanhRef);
  resolver.add(Op::UNIDIRECTIONAL_SEQUENCE_LSTM, makeUnidirectionalSequenceLstmRef);
  resolver.add(Op::ADD, makeAddRef);
  resolver.add(Op::SUB, makeSubRef);
  resolver.add(Op::MUL, makeMulRef);
  resolver.add(Op::MAXIMUM, makeMaximumRef);
  resolver.add(Op::MINIMUM, makeMinimumRef);
  resolver.add(Op::HARD_SWISH, makeHardSwishRef);
  resolver.add(Op::CONCATENATION, makeConcatenationRef);
  resolver.add(Op::PAD, makePadRef);
  resolver.add(Op::PADV2, makePadRef);
  resolver.add(Op::TRANSPOSE, makeTransposeRef);
  resolver.add(Op::MEAN, makeMeanRef);
  resolver.add(Op::STRIDED_SLICE, makeStridedSliceRef);
  resolver.add(Op::SQUEEZE, makeSqueezeRef);
  resolver.add(Op::MAX_POOL_2D, makeMaxPool2DRef);
  return resolver;
}

}  // namespace hilsim::rt
