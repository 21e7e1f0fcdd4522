// Reference FULLY_CONNECTED kernel.

#include "hilsim/rt/kernels/fully_connected_common.h"
#include "hilsim/rt/kernels/reference.h"

namespace hilsim::rt {
namespace {

class FullyConnectedRef final : public Kernel {
 public:
  OpWork prepare(PrepareContext& ctx, Node& node) override {
    params_ = prepareFullyConnected(ctx, node);
    return fullyConnectedWork(params_);
  }
  void invoke(InvokeContext& ctx, Node&) override { runFullyConnectedReference(ctx, params_); }
  std::optional<GemmShape> gemm() const override { return params_.shape; }

 private:
  FullyConnectedParams params_;
};

}  // namespace

std::unique_ptr<Kernel> makeFullyConnectedRef() {
  return std::make_unique<FullyConnectedRef>();
}

}  // namespace hilsim::rt
