// Writes seed inputs for the plan fuzzer: valid chunk plans (FULLY_CONNECTED and convolutions)
// and plan sets for several shapes and hardware. Usage: hilsim_fuzz_seeds DIR
#include <cstdio>
#include <fstream>
#include <string>

#include "hilsim/config/derived.h"
#include "hilsim/planner/chunk_plan.h"
#include "hilsim/planner/conv_plan.h"
#include "hilsim/planner/plan_codec.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  using namespace hilsim::planner;
  int n = 0;
  std::vector<PlanEntry> entries;
  for (uint32_t cores : {1u, 4u, 16u})
    for (const GemmShape shape :
         {GemmShape{1, 16, 16}, GemmShape{1, 1024, 1024}, GemmShape{4, 33, 17}}) {
      Hardware hw = hilsim::config::accelGeometry(hilsim::config::HardwareConfig{});
      hw.num_cores = cores;
      hw.sram_bytes = cores == 16 ? 16384 : 262144;
      AnnotatedPlan a;
      a.plan = makePlan(hw, shape);
      a.decision = {true, 100, 200, 50, "auto", "offload pays"};
      const std::vector<uint8_t> bytes = encodePlan(a);
      std::ofstream(std::string(argv[1]) + "/plan" + std::to_string(n++), std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()),
                 static_cast<std::streamsize>(bytes.size()));
      entries.push_back({0, static_cast<uint32_t>(n), bytes});
    }
  // Convolution plans (version 2): CONV_2D and DEPTHWISE_CONV_2D, split and tiled several ways.
  for (uint32_t cores : {1u, 4u, 16u})
    for (const bool depthwise : {false, true}) {
      hilsim::timing::ConvGeometry g;
      g.batches = depthwise ? 2 : 1;
      g.in_h = g.in_w = 24;
      g.in_c = 16;
      g.filter_h = g.filter_w = 3;
      g.stride_h = depthwise ? 2 : 1;
      g.pad_h = g.pad_w = depthwise ? 0 : 1;
      g.out_h = depthwise ? 12 : 24;
      g.out_w = depthwise ? 12 : 24;
      g.out_c = depthwise ? 32 : 40;
      g.stride_w = g.stride_h;
      g.depthwise = depthwise;
      g.depth_multiplier = depthwise ? 2 : 1;
      Hardware hw = hilsim::config::accelGeometry(hilsim::config::HardwareConfig{});
      hw.num_cores = cores;
      hw.sram_bytes = cores == 16 ? 4096 : 262144;
      hilsim::timing::PlatformTiming t =
          hilsim::config::platformTiming(hilsim::config::HardwareConfig{});
      t.geometry = hw;
      AnnotatedPlan a;
      a.plan = makeConvPlan(hw, g, t);
      a.decision = {true, 100, 200, 50, "auto", "offload pays"};
      const std::vector<uint8_t> bytes = encodePlan(a);
      std::ofstream(std::string(argv[1]) + "/plan" + std::to_string(n++), std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()),
                 static_cast<std::streamsize>(bytes.size()));
      entries.push_back({0, static_cast<uint32_t>(n), bytes});
    }
  const std::vector<uint8_t> set = encodePlanSet(entries);
  std::ofstream(std::string(argv[1]) + "/planset", std::ios::binary)
      .write(reinterpret_cast<const char*>(set.data()), static_cast<std::streamsize>(set.size()));
  return 0;
}
