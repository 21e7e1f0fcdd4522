// Accelerator jobs on the platform: the cores' outputs against TensorFlow Lite Micro's per-layer
// tensors, and the event count of a job.

#include <gtest/gtest.h>

#include <cstring>

#include "files.h"
#include "golden_cases.h"
#include "hilsim/config/derived.h"
#include "hilsim/rt/interpreter.h"
#include "hilsim/sim/session.h"
#include "job_support.h"
#include "sim_support.h"

namespace hilsim::test {
namespace {

// Reads `tensors/t<index>.bin` of a golden case.
std::vector<int8_t> goldenTensor(const GoldenCase& gc, int index) {
  const std::vector<uint8_t> bytes =
      readFile(gc.dir + "/tensors/t" + std::to_string(index) + ".bin");
  return std::vector<int8_t>(bytes.begin(), bytes.end());
}

// Every FULLY_CONNECTED layer of the cases, each fed its golden input tensor, must produce its
// golden output tensor, on 3 cores with SRAM small enough to force several tiles.
TEST(CoreJob, OutputsEqualTflmPerLayerTensors) {
  const auto cfg = testConfig({"accel.num_cores=3", "accel.core.sram_bytes=16384",
                               "accel.core.array_rows=8", "accel.core.array_cols=8"});
  runOnHost(cfg, [&cfg](model::Platform& p) {
    drv::Driver driver(p.host(), sim::driverOptions(cfg));
    ASSERT_EQ(driver.open(), drv::Status::kOk);
    int layers = 0;
    for (const char* name :
         {"mlp_b4_64_32_10", "mlp_49_100_50_10_pt", "fc_1024x1024_pc", "fc_zp_extremes",
          "fc_b3_33x17_pc", "fc_rank3_input", "fc_13x7_pc_relu6"}) {
      const GoldenCase& gc = goldenCase(name);
      rt::Model model = rt::Model::fromFile(gc.model);
      const rt::OpResolver resolver = rt::referenceOpResolver();
      rt::Interpreter interp(model, resolver);
      for (const rt::Node& node : interp.nodes()) {
        const rt::FullyConnectedParams params = rt::prepareFullyConnected(node);
        const std::vector<int8_t> input = goldenTensor(gc, node.inputs[0]->index);
        const std::vector<int8_t> expected = goldenTensor(gc, node.outputs[0]->index);
        const planner::Plan plan = planner::makePlan(config::accelGeometry(cfg), params.shape);
        const JobResult r = runLayerJob(driver, params, plan, input.data());
        EXPECT_EQ(r.output, expected) << name << " operator " << node.index;
        ++layers;
      }
    }
    EXPECT_EQ(layers, 10);
  });
}

// Events per job grow with cores x tiles, not with bytes or cycles.
TEST(CoreJob, EventsGrowWithCoresTimesTilesNotWithBytes) {
  const auto cfg = testConfig({"accel.num_cores=4", "accel.core.sram_bytes=8388608"});
  runOnHost(cfg, [&cfg](model::Platform& p) {
    drv::Driver driver(p.host(), sim::driverOptions(cfg));
    ASSERT_EQ(driver.open(), drv::Status::kOk);
    // Synthetic layers: weights and parameters come from a tensor built here.
    auto layer = [&](uint32_t k, uint32_t n, uint32_t cores, uint64_t plan_sram) {
      std::vector<int8_t> weights(size_t{k} * n, 3), input(k, 1);
      rt::Tensor w, in, out;
      w.type = in.type = out.type = rt::TensorType::INT8;
      w.data = reinterpret_cast<uint8_t*>(weights.data());
      rt::FullyConnectedParams params;
      params.shape = {1, k, n};
      params.filter = &w;
      params.multipliers.assign(n, 1 << 30);
      params.shifts.assign(n, -8);
      planner::Hardware hw = config::accelGeometry(cfg);
      hw.num_cores = cores;
      hw.sram_bytes = plan_sram;  // a smaller SRAM budget gives more tiles
      const planner::Plan plan = planner::makePlan(hw, params.shape);
      uint32_t tiles = 0;
      for (const auto& c : plan.chunks) tiles += c.num_tiles;
      const JobResult r = runLayerJob(driver, params, plan, input.data());
      return std::tuple{r.delta_cycles, r.duration, tiles};
    };
    const auto [small_d, small_t, small_tiles] = layer(256, 256, 4, 8 << 20);
    const auto [big_d, big_t, big_tiles] = layer(4096, 256, 4, 8 << 20);
    const auto [tiled_d, tiled_t, tiled_tiles] = layer(256, 256, 4, 14000);
    const auto [one_d, one_t, one_tiles] = layer(256, 256, 1, 8 << 20);
    RecordProperty("deltas_4c_1t", static_cast<int>(small_d));
    RecordProperty("deltas_4c_16x_bytes", static_cast<int>(big_d));
    RecordProperty("deltas_4c_tiled", static_cast<int>(tiled_d));
    RecordProperty("deltas_1c_1t", static_cast<int>(one_d));
    EXPECT_EQ(small_tiles, 4u);
    EXPECT_EQ(big_tiles, 4u);
    EXPECT_GE(tiled_tiles, 16u);
    // 16x the bytes and several times the cycles (fixed driver costs included), the same
    // number of events.
    EXPECT_GT(big_t, small_t * 4);
    EXPECT_LE(big_d, small_d + 2);
    EXPECT_GE(big_d + 2, small_d);
    // More tiles, more events: a few per extra tile.
    EXPECT_GE(tiled_d, small_d + (tiled_tiles - small_tiles));
    EXPECT_LE(tiled_d, small_d + 8 * (tiled_tiles - small_tiles));
    // Fewer cores, fewer events.
    EXPECT_LT(one_d, small_d);
  });
}

}  // namespace
}  // namespace hilsim::test
