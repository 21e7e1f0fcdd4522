#include "native_gemv.h"

#include "hilsim/core/dot.h"

#ifdef HILSIM_HAVE_DNNL
#include <oneapi/dnnl/dnnl.hpp>
#endif

namespace hilsim::bench {
namespace {

class OwnGemv final : public NativeGemv {
 public:
  OwnGemv(uint32_t rows, uint32_t k, uint32_t n, const std::vector<int8_t>& w)
      : rows_(rows), k_(k), n_(n), w_(w) {}
  std::string name() const override {
    return std::string("hilsim ") + core::dotPathName(core::activeDotPath());
  }
  void run(const int8_t* x, int32_t* y) override {
    for (uint32_t r = 0; r < rows_; ++r)
      core::dotRows(w_.data(), x + uint64_t{r} * k_, 0, k_, n_, y + uint64_t{r} * n_);
  }

 private:
  uint32_t rows_, k_, n_;
  std::vector<int8_t> w_;
};

#ifdef HILSIM_HAVE_DNNL
class OneDnnGemv final : public NativeGemv {
 public:
  OneDnnGemv(uint32_t rows, uint32_t k, uint32_t n, const std::vector<int8_t>& w, bool u8)
      : engine_(dnnl::engine::kind::cpu, 0), stream_(engine_), u8_(u8) {
    using dt = dnnl::memory::data_type;
    using tag = dnnl::memory::format_tag;
    const dnnl::memory::dims src_dims = {rows, k}, wei_dims = {k, n}, dst_dims = {rows, n};
    const dnnl::memory::desc src_md(src_dims, u8 ? dt::u8 : dt::s8, tag::ab);
    const dnnl::memory::desc wei_any(wei_dims, dt::s8, tag::any);
    const dnnl::memory::desc dst_md(dst_dims, dt::s32, tag::ab);
    const dnnl::matmul::primitive_desc pd(dnnl::matmul::desc(src_md, wei_any, dst_md), engine_);
    matmul_ = dnnl::matmul(pd);
    // Our weights are n x k row major: the k x n matrix in "ba" layout; reorder once.
    dnnl::memory user_w({wei_dims, dt::s8, tag::ba}, engine_, const_cast<int8_t*>(w.data()));
    weights_ = dnnl::memory(pd.weights_desc(), engine_);
    dnnl::reorder(user_w, weights_).execute(stream_, user_w, weights_);
    stream_.wait();
    src_ = dnnl::memory(src_md, engine_, DNNL_MEMORY_NONE);
    dst_ = dnnl::memory(dst_md, engine_, DNNL_MEMORY_NONE);
  }
  std::string name() const override { return u8_ ? "oneDNN u8" : "oneDNN"; }
  void run(const int8_t* x, int32_t* y) override {
    src_.set_data_handle(const_cast<int8_t*>(x));
    dst_.set_data_handle(y);
    matmul_.execute(stream_,
                    {{DNNL_ARG_SRC, src_}, {DNNL_ARG_WEIGHTS, weights_}, {DNNL_ARG_DST, dst_}});
    stream_.wait();
  }

 private:
  dnnl::engine engine_;
  dnnl::stream stream_;
  dnnl::matmul matmul_;
  dnnl::memory weights_, src_, dst_;
  bool u8_;
};
#endif

}  // namespace

std::unique_ptr<NativeGemv> makeOneDnnGemv(uint32_t rows, uint32_t k, uint32_t n,
                                           const std::vector<int8_t>& weights, bool u8) {
#ifdef HILSIM_HAVE_DNNL
  try {
    return std::make_unique<OneDnnGemv>(rows, k, n, weights, u8);
  } catch (const std::exception&) {
    return nullptr;
  }
#else
  (void)rows, (void)k, (void)n, (void)weights, (void)u8;
  return nullptr;
#endif
}

std::unique_ptr<NativeGemv> makeOwnGemv(uint32_t rows, uint32_t k, uint32_t n,
                                        const std::vector<int8_t>& weights) {
  return std::make_unique<OwnGemv>(rows, k, n, weights);
}

}  // namespace hilsim::bench
