#pragma once
// Factories of the reference kernels (TensorFlow Lite Micro's arithmetic, bit for bit).

#include <memory>

#include "hilsim/rt/kernel.h"

namespace hilsim::rt {

std::unique_ptr<Kernel> makeFullyConnectedRef();
std::unique_ptr<Kernel> makeQuantizeRef();
std::unique_ptr<Kernel> makeDequantizeRef();
std::unique_ptr<Kernel> makeReshapeRef();
std::unique_ptr<Kernel> makeSoftmaxRef();
std::unique_ptr<Kernel> makeConv2DRef();
std::unique_ptr<Kernel> makeDepthwiseConv2DRef();
std::unique_ptr<Kernel> makeAveragePool2DRef();
std::unique_ptr<Kernel> makeSvdfRef();
std::unique_ptr<Kernel> makeLogisticRef();
std::unique_ptr<Kernel> makeTanhRef();
std::unique_ptr<Kernel> makeUnidirectionalSequenceLstmRef();
std::unique_ptr<Kernel> makeAddRef();
std::unique_ptr<Kernel> makeSubRef();
std::unique_ptr<Kernel> makeMulRef();
std::unique_ptr<Kernel> makeMaximumRef();
std::unique_ptr<Kernel> makeMinimumRef();
std::unique_ptr<Kernel> makeHardSwishRef();
std::unique_ptr<Kernel> makeConcatenationRef();
std::unique_ptr<Kernel> makePadRef();
std::unique_ptr<Kernel> makeTransposeRef();
std::unique_ptr<Kernel> makeMeanRef();
std::unique_ptr<Kernel> makeStridedSliceRef();
std::unique_ptr<Kernel> makeSqueezeRef();
std::unique_ptr<Kernel> makeMaxPool2DRef();

}  // namespace hilsim::rt
