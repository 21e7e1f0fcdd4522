// Reference SQUEEZE kernel: removes dimensions of size 1 (those listed in squeeze_dims, negative
// ones counting from the end, or all of them when the list is empty) and copies the bytes
// (copy_kernel.h), as TensorFlow Lite Micro does, for any element type the runtime knows.

#include <cstdint>
#include <string>

#include "copy_kernel.h"
#include "hilsim/rt/kernels/kernel_util.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

constexpr int kMaxRank = 8;  // TFLite Micro's limit

class SqueezeRef final : public ByteCopyKernel {
 public:
  OpWork prepare(PrepareContext&, Node& node) override {
    expectArity(node, 1, 1);
    const Tensor& in = requiredInput(node, 0, "input");
    Tensor& out = *node.output(0);
    prepareCopy(in, out);
    const int rank = in.rank();
    if (rank > kMaxRank)
      throw ModelError("input " + describe(in) + " has more than " + std::to_string(kMaxRank) +
                       " dimensions");
    const auto* options = node.op_fb->builtin_options_as_SqueezeOptions();
    bool squeeze[kMaxRank] = {};
    if (options && options->squeeze_dims() && options->squeeze_dims()->size() > 0) {
      for (int32_t dim : *options->squeeze_dims()) {
        if (dim < -rank || dim >= rank)
          throw ModelError("squeeze dimension " + std::to_string(dim) +
                           " is out of range for input " + describe(in));
        const int resolved = dim < 0 ? dim + rank : dim;
        if (in.dim(resolved) != 1)
          throw ModelError("squeeze dimension " + std::to_string(dim) + " of input " +
                           describe(in) + " has size " + std::to_string(in.dim(resolved)) +
                           ", not 1");
        squeeze[resolved] = true;
      }
    } else {
      for (int d = 0; d < rank; ++d) squeeze[d] = in.dim(d) == 1;
    }
    Shape expected;
    for (int d = 0; d < rank; ++d)
      if (!squeeze[d]) expected.push_back(in.dim(d));
    if (out.shape != expected)
      throw ModelError("output " + describe(out) + " is not input " + describe(in) +
                       " squeezed to " + shapeString(expected));

    OpWork work;
    work.elements = static_cast<uint64_t>(out.elements());
    return work;
  }
};

}  // namespace

std::unique_ptr<Kernel> makeSqueezeRef() {
  return std::make_unique<SqueezeRef>();
}

}  // namespace hilsim::rt
