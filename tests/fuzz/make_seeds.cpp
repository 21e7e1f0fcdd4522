// Writes seed inputs for the plan fuzzer: valid chunk plans and plan sets for several shapes and
// hardware. Usage: hilsim_fuzz_seeds DIR
#include <cstdio>
#include <fstream>
#include <string>

#include "hilsim/rt/plan/chunk_plan.h"
#include "hilsim/rt/plan/plan_codec.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
    return 2;
  }
  using namespace hilsim::rt::plan;
  int n = 0;
  std::vector<PlanEntry> entries;
  for (uint32_t cores : {1u, 4u, 16u})
    for (const hilsim::rt::GemmShape shape :
         {hilsim::rt::GemmShape{1, 16, 16}, hilsim::rt::GemmShape{1, 1024, 1024},
          hilsim::rt::GemmShape{4, 33, 17}}) {
      Hardware hw;
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
  const std::vector<uint8_t> set = encodePlanSet(entries);
  std::ofstream(std::string(argv[1]) + "/planset", std::ios::binary)
      .write(reinterpret_cast<const char*>(set.data()), static_cast<std::streamsize>(set.size()));
  return 0;
}
