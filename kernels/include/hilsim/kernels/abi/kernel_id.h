#pragma once
// The kernels a packed call can name: one id per freestanding function (kernel variant) of
// kernels/. The values are the wire format between the host and the firmware and never change
// meaning; new kernels take new numbers. 0 is no kernel.

#include <cstdint>

namespace hilsim::kernels::abi {

enum class KernelId : uint32_t {
  kNone = 0,
  // FULLY_CONNECTED
  kFullyConnectedInt8 = 1,
  kFullyConnectedFloat = 2,
  // CONV_2D, DEPTHWISE_CONV_2D
  kConvInt8 = 3,
  kDepthwiseConvInt8 = 4,
  // AVERAGE_POOL_2D, MAX_POOL_2D
  kAveragePoolInt8 = 5,
  kMaxPoolInt8 = 6,
  kMaxPoolInt16 = 7,
  kMaxPoolFloat = 8,
  // SOFTMAX
  kSoftmaxFloat = 9,
  kSoftmaxInt8ToInt8 = 10,
  kSoftmaxInt8ToInt16 = 11,
  // QUANTIZE
  kQuantizeFloatToInt8 = 12,
  kQuantizeFloatToInt16 = 13,
  kRequantizeInt8ToInt8 = 14,
  kRequantizeInt8ToInt16 = 15,
  kRequantizeInt8ToInt32 = 16,
  kRequantizeInt8ToUint8 = 17,
  kRequantizeUint8ToInt8 = 18,
  kRequantizeInt16ToInt8 = 19,
  kRequantizeInt16ToInt16 = 20,
  kRequantizeInt16ToInt32 = 21,
  kRequantizeInt32ToInt8 = 22,
  kRequantizeInt32ToInt16 = 23,
  // DEQUANTIZE
  kDequantizeInt8 = 24,
  kDequantizeInt16 = 25,
  // SVDF
  kSvdfInt8State = 26,
  kSvdfInt16State = 27,
  // ADD, SUB, MUL
  kAddInt8 = 28,
  kAddInt16 = 29,
  kAddFloat = 30,
  kAddInt32 = 31,
  kSubInt8 = 32,
  kSubInt16 = 33,
  kSubFloat = 34,
  kSubInt32 = 35,
  kMulInt8 = 36,
  kMulInt16 = 37,
  kMulFloat = 38,
  kMulInt32 = 39,
  // MAXIMUM, MINIMUM
  kMaximumInt8 = 40,
  kMaximumInt16 = 41,
  kMaximumInt32 = 42,
  kMaximumInt64 = 43,
  kMaximumFloat = 44,
  kMinimumInt8 = 45,
  kMinimumInt16 = 46,
  kMinimumInt32 = 47,
  kMinimumInt64 = 48,
  kMinimumFloat = 49,
  // HARD_SWISH, LOGISTIC, TANH
  kHardSwishInt8 = 50,
  kHardSwishFloat = 51,
  kLogisticInt8 = 52,
  kLogisticInt16 = 53,
  kLogisticFloat = 54,
  kTanhInt8 = 55,
  kTanhInt16 = 56,
  kTanhFloat = 57,
  // UNIDIRECTIONAL_SEQUENCE_LSTM
  kLstmInt8 = 58,
  kLstmInt16 = 59,
  kLstmFloat = 60,
  // CONCATENATION, PAD / PADV2, TRANSPOSE, MEAN, STRIDED_SLICE
  kConcatenation = 61,
  kPadInt8 = 62,
  kPadInt16 = 63,
  kPadInt32 = 64,
  kPadFloat = 65,
  kTranspose8 = 66,
  kTranspose16 = 67,
  kTranspose32 = 68,
  kMeanInt8 = 69,
  kMeanInt16 = 70,
  kMeanFloat = 71,
  kStridedSlice8 = 72,
  kStridedSlice16 = 73,
  kStridedSlice32 = 74,
  // RESHAPE, SQUEEZE: a byte copy
  kCopy = 75,
  // AVERAGE_POOL_2D
  kAveragePoolInt16 = 76,
  // SOFTMAX
  kSoftmaxInt16 = 77,
  // The optimized library (kernels/optimized, calls in hilsim/kernels/optimized/abi_calls.h);
  // only the images built with it dispatch these.
  kOptFullyConnectedInt8 = 78,
  kOptConvInt8Pointwise = 79,
  kOptConvInt8Im2col = 80,
  kOptDepthwiseConvInt8 = 81,
  kOptMaxPoolInt8 = 82,
  kOptAveragePoolInt8 = 83,
  kOptAddInt8 = 84,
  kOptMulInt8 = 85,
  kOptSoftmaxInt8ToInt8 = 86,
  kOptSoftmaxInt8ToInt16 = 87,
  kOptLstmInt8 = 88,
};

}  // namespace hilsim::kernels::abi
