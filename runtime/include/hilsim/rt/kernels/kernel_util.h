#pragma once
// Small validation helpers shared by the reference kernels' prepare. Every check throws
// hilsim::ModelError with a one-line message; the interpreter prefixes the operator.

#include <cstddef>
#include <cstdint>
#include <string>

#include "hilsim/errors.h"
#include "hilsim/rt/kernel.h"

namespace hilsim::rt {

// "INT8 [1,96,96,1]".
inline std::string describe(const Tensor& t) {
  return std::string(typeName(t.type)) + " " + shapeString(t.shape);
}

// Checks the operator's input count is in [min_inputs, max_inputs] and it has one output.
inline void expectArity(const Node& node, size_t min_inputs, size_t max_inputs) {
  const size_t n = node.inputs.size();
  if (n < min_inputs || n > max_inputs) {
    const std::string expected =
        min_inputs == max_inputs ? std::to_string(min_inputs)
                                 : std::to_string(min_inputs) + " to " + std::to_string(max_inputs);
    throw ModelError("expects " + expected + " inputs, has " + std::to_string(n));
  }
  if (node.outputs.size() != 1)
    throw ModelError("expects 1 output, has " + std::to_string(node.outputs.size()));
}

// The input at `index`, which must be present; `role` names it in the error.
inline Tensor& requiredInput(const Node& node, size_t index, const char* role) {
  Tensor* t = node.input(index);
  if (!t) throw ModelError(std::string(role) + " (input " + std::to_string(index) + ") is missing");
  return *t;
}

// Checks `t` has the given rank.
inline void expectRank(const Tensor& t, int rank, const char* role) {
  if (t.rank() != rank)
    throw ModelError(std::string(role) + " must have rank " + std::to_string(rank) + ", is " +
                     describe(t));
}

// Checks the output has the type of the input `in` (`role` names it in the error).
inline void expectSameType(const Tensor& in, const Tensor& out, const std::string& role = "input") {
  if (in.type != out.type)
    throw ModelError(role + " " + describe(in) + " and output " + describe(out) +
                     " have different types");
}

// Checks the output holds as many elements as the input.
inline void expectSameElementCount(const Tensor& in, const Tensor& out) {
  if (in.elements() != out.elements())
    throw ModelError("input " + describe(in) + " and output " + describe(out) +
                     " have different element counts");
}

// Checks `t` carries per-tensor quantization (at least one scale, positive).
inline void expectQuantized(const Tensor& t, const char* role) {
  if (t.quant.empty())
    throw ModelError(std::string(role) + " " + describe(t) + " has no quantization parameters");
  if (!(t.quant.scale0() > 0.0f))
    throw ModelError(std::string(role) + " " + describe(t) + " has non-positive scale " +
                     std::to_string(t.quant.scale0()));
}

// Checks a constant tensor holds its data (the kernels read it in prepare or invoke).
inline void expectConstant(const Tensor& t, const char* role) {
  if (!t.is_constant) throw ModelError(std::string(role) + " must be a constant tensor");
}

}  // namespace hilsim::rt
