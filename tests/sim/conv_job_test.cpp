// Convolution jobs on the platform through the accelerated kernels, on hardware small enough that
// every way of splitting and tiling a layer occurs (rows and channels over the cores, bands,
// weight tiles, both, with and without double buffering): in compare mode every output equals
// the reference kernel's, and the planner's prediction equals the simulated cycles.

#include <gtest/gtest.h>

#include <cstring>
#include <set>

#include "conv_model.h"
#include "hilsim/config/derived.h"
#include "hilsim/errors.h"
#include "hilsim/firmware/driver_timing.h"
#include "hilsim/planner/conv_plan.h"
#include "hilsim/planner/planner_timing.h"
#include "hilsim/report/report.h"
#include "hilsim/rt/interpreter.h"
#include "hilsim/rt/kernels/conv_accel.h"
#include "hilsim/rt/kernels/conv_layer.h"
#include "hilsim/sim/session.h"
#include "sim_support.h"

namespace hilsim::test {
namespace {

std::vector<ConvCase> layers() {
  std::vector<ConvCase> out;
  ConvCase c;
  c.name = "conv3x3_24x24x16_to_32";
  c.in_h = c.in_w = 24;
  c.in_c = 16;
  c.out_c = 32;
  out.push_back(c);
  c = {};
  c.name = "conv3x3_stride2_dilation_batch2";
  c.batches = 2;
  c.in_h = 21;
  c.in_w = 13;
  c.in_c = 6;
  c.out_c = 20;
  c.stride_h = 2;
  c.dilation_w = 2;
  c.seed = 2;
  out.push_back(c);
  c = {};
  c.name = "conv1x1_wide";
  c.in_h = c.in_w = 12;
  c.in_c = 64;
  c.out_c = 72;
  c.filter_h = c.filter_w = 1;
  c.seed = 3;
  out.push_back(c);
  c = {};
  c.name = "conv5x5_valid";
  c.in_h = 19;
  c.in_w = 17;
  c.in_c = 8;
  c.out_c = 12;
  c.filter_h = c.filter_w = 5;
  c.padding = tflite::Padding::VALID;
  c.seed = 4;
  out.push_back(c);
  c = {};
  c.name = "depthwise3x3_multiplier2";
  c.depthwise = true;
  c.in_h = c.in_w = 20;
  c.in_c = 12;
  c.out_c = 24;
  c.seed = 5;
  out.push_back(c);
  return out;
}

// Records how the planner splits and tiles the layer of `node` on `hw`.
void noteTilings(const planner::Hardware& hw, const rt::Node& node,
                 const timing::PlatformTiming& timing, std::set<std::string>* seen) {
  planner::Plan plan;
  try {
    plan = planner::makeConvPlan(hw, rt::describeConvLayer(node)->geometry, timing);
  } catch (const ModelError&) {
    return;
  }
  std::set<uint32_t> rows, channels;
  for (const planner::Chunk& c : plan.chunks) {
    rows.insert(c.m_begin);
    channels.insert(c.n_begin);
    seen->insert(c.num_bands > 1 && c.num_tiles > 1 ? "bands and tiles"
                 : c.num_bands > 1                  ? "bands"
                 : c.num_tiles > 1                  ? "tiles"
                                                    : "one step");
  }
  if (rows.size() > 1 && channels.size() > 1)
    seen->insert("rows and channels over cores");
  else if (rows.size() > 1)
    seen->insert("rows over cores");
  else if (channels.size() > 1)
    seen->insert("channels over cores");
}

class ConvJob : public ::testing::TestWithParam<std::string> {};

TEST_P(ConvJob, CompareModeBytesAndPredictionOnEverySplitAndTiling) {
  const auto cfg =
      // The host CPU under the cost model at 400 MHz: this test is about the accelerator's
      // dataflows; the driver runs on the host, priced by the cost model's figures.
      testConfig({"accel.num_cores=8", "accel.core.sram_bytes=65536", "accel.core.array_rows=8",
                  "accel.core.array_cols=8", "accel.core.dataflow=" + GetParam(),
                  "cpu.preset=cortex-m55"});
  runOnHost(cfg, [&cfg](model::Platform& p) {
    drv::Driver driver(p.host(), sim::driverOptions(cfg));
    ASSERT_EQ(driver.open(), drv::Status::kOk);
    std::set<std::string> tilings;
    size_t checked = 0;
    for (uint32_t cores : {1u, 3u, 8u})
      for (uint64_t sram : {4096u, 8192u, 65536u})
        for (bool db : {true, false}) {
          planner::Hardware hw = config::accelGeometry(cfg);
          hw.num_cores = cores;
          hw.sram_bytes = sram;
          hw.double_buffer = db;
          timing::PlatformTiming timing = config::platformTiming(cfg);
          timing.geometry = hw;
          rt::AccelContext accel(driver, hw, timing, config::costModel(cfg),
                                 planner::plannerCpu(cfg, timing), rt::OffloadMode::kCompare);
          rt::OpResolver resolver = rt::referenceOpResolver();
          resolver.add(tflite::BuiltinOperator::CONV_2D,
                       [&accel] { return rt::makeConv2DAccel(accel); });
          resolver.add(tflite::BuiltinOperator::DEPTHWISE_CONV_2D,
                       [&accel] { return rt::makeDepthwiseConv2DAccel(accel); });
          for (const ConvCase& c : layers()) {
            SCOPED_TRACE(c.name + " on " + std::to_string(cores) + " cores, " +
                         std::to_string(sram) + " bytes of SRAM, double buffer " +
                         std::to_string(db));
            rt::Model model = rt::Model::fromBytes(buildConvModel(c), c.name);
            report::LayerCollector collector;
            rt::InterpreterOptions options;
            options.clock = &p.host();
            options.profiler = &collector;
            options.cost_model = config::costModel(cfg);
            {
              rt::Interpreter interp(model, resolver, options);
              noteTilings(hw, interp.nodes()[0], timing, &tilings);
              interp.allocate();
              const std::vector<uint8_t> input = convInput(c, 9);
              std::memcpy(interp.input(0).data, input.data(), input.size());
              interp.invoke();  // compare mode throws if the bytes differ
              interp.invoke();
            }
            driver.releaseAll();
            const rt::LayerRecord& r = collector.records().back();
            if (r.path != rt::ExecPath::kAccel) {
              EXPECT_EQ(r.reason_code, rt::PathReason::kDoesNotFit) << r.reason;
              continue;
            }
            ASSERT_TRUE(r.accel);
            EXPECT_EQ(r.accel->predicted_cycles, r.cycles);
            ++checked;
          }
        }
    EXPECT_GE(checked, 60u);
    for (const char* t : {"one step", "bands", "tiles", "bands and tiles", "rows over cores",
                          "channels over cores", "rows and channels over cores"})
      EXPECT_TRUE(tilings.count(t)) << t << " never occurred";
  });
}

INSTANTIATE_TEST_SUITE_P(Dataflows, ConvJob, ::testing::Values("ws", "os", "is"));

}  // namespace
}  // namespace hilsim::test
