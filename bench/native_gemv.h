#pragma once
// Native int8 matrix-vector products on the host, the yardstick for the simulator's speed.

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace hilsim::bench {

// y[n] = sum_k w[n][k] * x[k] for `rows` input rows; weights n x k row major.
class NativeGemv {
 public:
  virtual ~NativeGemv() = default;
  virtual std::string name() const = 0;
  virtual void run(const int8_t* x, int32_t* y) = 0;
};

// oneDNN's int8 matmul (when hilsim was built with Debian's libdnnl-dev), else nullptr. With
// `u8` the activations are unsigned (x + 128; the zero point moves by 128, so the product is
// the same up to a per-feature constant): CPUs without AVX-512 VNNI run only that
// combination with their fast kernels, signed activations take a slower path there.
std::unique_ptr<NativeGemv> makeOneDnnGemv(uint32_t rows, uint32_t k, uint32_t n,
                                           const std::vector<int8_t>& weights, bool u8);
// hilsim's own dispatched int8 dot products (the cores' datapath kernel).
std::unique_ptr<NativeGemv> makeOwnGemv(uint32_t rows, uint32_t k, uint32_t n,
                                        const std::vector<int8_t>& weights);

}  // namespace hilsim::bench
