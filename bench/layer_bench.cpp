// Host time per simulated inference of one FULLY_CONNECTED layer on the accelerator, against the
// best native int8 matrix-vector product measured in the same process, and SystemC events (delta
// cycles) per layer. One platform per process: run it once per core count (bench/run.sh).
//
//   hilsim_layer_bench --layer 1x1024x1024 --cores 4 [--iterations 2000] [--set key=value]...

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <string>
#include <vector>

#include "hilsim/base/rng.h"
#include "hilsim/config/derived.h"
#include "hilsim/config/loader.h"
#include "hilsim/core/dot.h"
#include "hilsim/modelgen/model_gen.h"
#include "hilsim/rt/interpreter.h"
#include "hilsim/sim/session.h"
#include "native_gemv.h"

extern "C" int sc_main(int, char**) {
  return 0;
}

namespace {

using Clock = std::chrono::steady_clock;
using hilsim::bench::NativeGemv;

double microseconds(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

// Median over `batches` of the mean time of `per_batch` calls.
template <typename Fn>
double medianMicros(int batches, int per_batch, Fn&& fn) {
  std::vector<double> samples;
  for (int b = 0; b < batches; ++b) {
    const auto start = Clock::now();
    for (int i = 0; i < per_batch; ++i) fn();
    samples.push_back(microseconds(Clock::now() - start) / per_batch);
  }
  std::sort(samples.begin(), samples.end());
  return samples[samples.size() / 2];
}

struct Args {
  uint32_t rows = 1, k = 1024, n = 1024, cores = 4;
  int iterations = 2000;
  std::vector<hilsim::config::Override> overrides;
};

Args parse(int argc, char** argv) {
  Args a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const std::string value = i + 1 < argc ? argv[i + 1] : "";
    if (arg == "--layer") {
      if (std::sscanf(value.c_str(), "%ux%ux%u", &a.rows, &a.k, &a.n) != 3) {
        std::cerr << "--layer takes ROWSxKxN\n";
        std::exit(2);
      }
    } else if (arg == "--cores") {
      a.cores = static_cast<uint32_t>(std::stoul(value));
    } else if (arg == "--iterations") {
      a.iterations = std::stoi(value);
    } else if (arg == "--set") {
      a.overrides.push_back({value});
    } else {
      std::cerr << "usage: hilsim_layer_bench --layer ROWSxKxN --cores M [--iterations N] "
                   "[--set key=value]...\n";
      std::exit(2);
    }
    ++i;
  }
  a.overrides.insert(a.overrides.begin(), {"accel.num_cores=" + std::to_string(a.cores)});
  return a;
}

}  // namespace

int main(int argc, char** argv) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
  const Args args = parse(argc, argv);
  const hilsim::config::HardwareConfig cfg = hilsim::config::loadConfig("", args.overrides);

  // The layer: a generated int8 model, and its weights for the native products.
  hilsim::modelgen::MlpSpec spec;
  spec.layers = {args.k, args.n};
  spec.batch = args.rows;
  hilsim::rt::Model model =
      hilsim::rt::Model::fromBytes(hilsim::modelgen::generateMlp(spec), "bench layer");
  std::vector<int8_t> weights;
  const hilsim::rt::OpResolver ref = hilsim::rt::referenceOpResolver();
  hilsim::rt::Interpreter probe(model, ref);
  const hilsim::rt::Tensor* filter = probe.nodes()[0].inputs[1];
  weights.assign(filter->as<int8_t>(), filter->as<int8_t>() + filter->bytes);
  std::vector<int8_t> input(uint64_t{args.rows} * args.k);
  hilsim::Rng rng(3);
  for (int8_t& v : input) v = static_cast<int8_t>(rng.range(-128, 127));

  // Native products first.
  std::vector<int32_t> y(uint64_t{args.rows} * args.n);
  std::vector<std::unique_ptr<NativeGemv>> natives;
  for (bool u8 : {false, true})
    if (auto dnnl = hilsim::bench::makeOneDnnGemv(args.rows, args.k, args.n, weights, u8))
      natives.push_back(std::move(dnnl));
  natives.push_back(hilsim::bench::makeOwnGemv(args.rows, args.k, args.n, weights));
  double best_native = 1e30;
  std::string best_name, natives_text;
  for (auto& g : natives) {
    const int per_batch =
        std::max(1, static_cast<int>(2e5 / (double(args.k) * args.n * args.rows) * 100));
    for (int i = 0; i < 20; ++i) g->run(input.data(), y.data());
    const double us = medianMicros(31, per_batch, [&] { g->run(input.data(), y.data()); });
    natives_text +=
        (natives_text.empty() ? "" : ", ") + g->name() + " " + std::to_string(us) + " us";
    if (us < best_native) {
      best_native = us;
      best_name = g->name();
    }
  }

  // The simulated inference: the runtime's accelerated kernel on the platform.
  double simulated = 0;
  uint64_t deltas = 0, cycles = 0;
  hilsim::sim::runSession(cfg, hilsim::sim::Mode::kAccel, nullptr,
                          [&](hilsim::sim::HostSide& side) {
                            hilsim::rt::InterpreterOptions options;
                            options.clock = &side.host;
                            options.cost_model = hilsim::config::costModel(cfg);
                            options.cpu_target = side.mcu;
                            hilsim::rt::Interpreter interp(model, side.resolver, options);
                            interp.allocate();
                            std::memcpy(interp.input(0).data, input.data(), input.size());
                            interp.invoke();  // places the weights in device memory once
                            const int per_batch = std::max(1, args.iterations / 31);
                            const uint64_t d0 = sc_core::sc_delta_count(), c0 = side.host.now();
                            simulated = medianMicros(31, per_batch, [&] { interp.invoke(); });
                            const uint64_t runs = uint64_t{31} * per_batch;
                            deltas = (sc_core::sc_delta_count() - d0) / runs;
                            cycles = (side.host.now() - c0) / runs;
                          });

  std::printf(
      "layer %ux%ux%u cores %u datapath %s: native %s (best %.2f us); simulated %.2f us per "
      "inference = %.2fx the best native, +%.2f us; %llu delta cycles and %llu simulated host "
      "cycles per inference\n",
      args.rows, args.k, args.n, args.cores,
      hilsim::core::dotPathName(hilsim::core::activeDotPath()), natives_text.c_str(), best_native,
      simulated, simulated / best_native, simulated - best_native,
      static_cast<unsigned long long>(deltas), static_cast<unsigned long long>(cycles));
  return 0;
}
