#pragma once
// Synthetic MLPs of FULLY_CONNECTED layers, written with the same field layout as the TFLite
// converter's output (operator codes in both fields, an empty buffer 0, one buffer per tensor,
// min_runtime_version metadata), so stock TensorFlow Lite Micro loads them too.

#include <cstdint>
#include <string>
#include <vector>

namespace hilsim::modelgen {

struct MlpSpec {
  std::vector<uint32_t> layers;  // K, N1, N2, ...: input features then each layer's outputs
  uint32_t batch = 1;
  bool float32 = false;
  bool per_channel = true;
  std::string activation = "none";  // none | relu | relu6, applied to every layer
  uint64_t seed = 1;
};

// Parses "K,N1,N2,..." (at least two positive numbers). Throws UsageError naming `option`.
std::vector<uint32_t> parseLayerList(const std::string& option, const std::string& text);

// The .tflite bytes of the MLP. Deterministic for a given spec.
std::vector<uint8_t> generateMlp(const MlpSpec& spec);

// A short description of the spec, e.g. "mlp 256-128-10 int8 per-channel relu seed 1".
std::string describe(const MlpSpec& spec);

}  // namespace hilsim::modelgen
