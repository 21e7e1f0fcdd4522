#include "args.h"
#include "commands.h"
#include "hilsim/base/io.h"
#include "hilsim/errors.h"
#include "hilsim/modelgen/model_gen.h"

namespace hilsim::cli {

int genModelCommand(int argc, char** argv, int first) {
  std::string layers, batch = "1", dtype = "int8", weights = "per-channel", activation = "none",
                      seed = "1", out;
  ArgParser args("gen-model",
                 "Writes a synthetic MLP of FULLY_CONNECTED layers (input K features, then one\n"
                 "layer per listed size). Deterministic for a given seed; the file loads in stock\n"
                 "TensorFlow Lite Micro. The activation applies to every layer.");
  args.option("--layers", &layers, "K,N1,N2,...", "input features, then each layer's outputs");
  args.option("--batch", &batch, "B", "rows of the input (default 1)");
  args.option("--dtype", &dtype, "int8|float32", "tensor type (default int8)");
  args.option("--weights", &weights, "per-tensor|per-channel",
              "int8 weight quantization (default per-channel)");
  args.option("--activation", &activation, "none|relu|relu6", "fused activation (default none)");
  args.option("--seed", &seed, "S", "random seed (default 1)");
  args.option("--out", &out, "m.tflite", "output file (required)");
  if (!args.parse(argc, argv, first)) return 0;
  if (layers.empty()) throw UsageError("gen-model: --layers is required");
  if (out.empty()) throw UsageError("gen-model: --out is required");
  modelgen::MlpSpec spec;
  spec.layers = modelgen::parseLayerList("--layers", layers);
  spec.batch = static_cast<uint32_t>(parseUnsigned("--batch", batch));
  if (spec.batch == 0 || spec.batch > 65536)
    throw UsageError("--batch: " + batch + " is out of range (1..65536)");
  spec.float32 = parseChoice("--dtype", dtype, {"int8", "float32"}) == "float32";
  spec.per_channel =
      parseChoice("--weights", weights, {"per-tensor", "per-channel"}) == "per-channel";
  spec.activation = parseChoice("--activation", activation, {"none", "relu", "relu6"});
  spec.seed = parseUnsigned("--seed", seed);
  checkWritable(out, "--out");
  writeFileAtomic(out, modelgen::generateMlp(spec));
  return 0;
}

}  // namespace hilsim::cli
