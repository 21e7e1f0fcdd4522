// Convolution plans: how the planner splits and tiles a layer (worked out by hand where the sizes
// decide it), what validation says of a broken plan, the version 2 codec next to version 1, and
// the decision's text.

#include <gtest/gtest.h>

#include "hilsim/config/derived.h"
#include "hilsim/errors.h"
#include "hilsim/planner/conv_plan.h"
#include "hilsim/planner/decision.h"
#include "hilsim/planner/plan_codec.h"
#include "hilsim/planner/predict.h"
#include "hilsim/schema/chunk_plan_generated.h"

namespace hilsim::planner {
namespace {

// The default configuration's accelerator with `cores` cores, `sram` bytes each.
Hardware hw(uint32_t cores, uint64_t sram = 256 * 1024, bool db = true) {
  Hardware h = config::accelGeometry(config::HardwareConfig{});
  h.num_cores = cores;
  h.sram_bytes = sram;
  h.double_buffer = db;
  return h;
}

timing::PlatformTiming timingFor(const Hardware& h) {
  timing::PlatformTiming t = config::platformTiming(config::HardwareConfig{});
  t.geometry = h;
  return t;
}

Plan plan(const Hardware& h, const ConvGeometry& g) {
  return makeConvPlan(h, g, timingFor(h));
}

// A 24x24x16 input, 3x3 window, SAME, stride 1, `out_c` output channels.
ConvGeometry conv3x3(uint32_t out_c) {
  ConvGeometry g;
  g.in_h = g.in_w = 24;
  g.in_c = 16;
  g.filter_h = g.filter_w = 3;
  g.pad_h = g.pad_w = 1;
  g.out_h = g.out_w = 24;
  g.out_c = out_c;
  return g;
}

TEST(ConvPlan, OneStepWhenTheLayerFits) {
  // Input 24 x 24 x 16 = 9216, weights 32 x (144 + 12) = 4992, output 24 x 24 x 32 = 18432.
  const Plan p = plan(hw(1), conv3x3(32));
  EXPECT_EQ(p.kind, PlanKind::kConv2D);
  EXPECT_EQ(p.shape.rows, 576u);
  EXPECT_EQ(p.shape.k, 144u);
  EXPECT_EQ(p.shape.n, 32u);
  ASSERT_EQ(p.chunks.size(), 1u);
  const Chunk& c = p.chunks[0];
  EXPECT_EQ(c.num_bands, 1u);
  EXPECT_EQ(c.num_tiles, 1u);
  EXPECT_EQ(c.sram_inputs.size() + c.sram_tile.size() + c.sram_outputs.size(), 3u);
  EXPECT_EQ(validatePlan(p, convLayer(conv3x3(32))), "");
}

TEST(ConvPlan, WeightsStayAndTheInputStreamsInBands) {
  // 16 KiB: the weights (4992) stay; two input buffers of rows (r - 1) + 3 and two output
  // buffers of r x 24 x 32 fit for r = 4 (4992 + 2 x (2304 + 3072) = 15744), not for r = 5
  // (4992 + 2 x (2688 + 3840) = 18048): 6 bands of 4 rows.
  const Plan p = plan(hw(1, 16384), conv3x3(32));
  const Chunk& c = p.chunks[0];
  EXPECT_EQ(c.band_rows, 4u);
  EXPECT_EQ(c.num_bands, 6u);
  EXPECT_EQ(c.num_tiles, 1u);
  EXPECT_EQ(c.sram_inputs.size(), 2u);
  EXPECT_EQ(c.sram_tile.size(), 1u);
  EXPECT_EQ(c.sram_outputs.size(), 2u);
  EXPECT_LE(c.sram_used, 16384u);
  EXPECT_EQ(validatePlan(p, convLayer(conv3x3(32))), "");
  // The halo: bands read rows 0..4, 3..8, ... 19..23: 4 + 2 x 5 ... over 24 rows.
  EXPECT_GT(inputReadFactor(p), 1.0);
}

TEST(ConvPlan, TheInputStaysAndTheWeightsStreamInTiles) {
  // 1x1, 8x8x512 -> 512: weights 512 x 524 = 268288 do not fit 256 KiB; the input (32768)
  // stays. Tiles t with 32768 + 2 x 524 t + 2 x 64 t <= 262144: t <= 195, 192 in groups of 16;
  // 3 tiles, evened out to ceil(512 / 3) = 171, rounded up to 176.
  ConvGeometry g;
  g.in_h = g.in_w = g.out_h = g.out_w = 8;
  g.in_c = g.out_c = 512;
  const Plan p = plan(hw(1), g);
  const Chunk& c = p.chunks[0];
  EXPECT_EQ(c.num_bands, 1u);
  EXPECT_EQ(c.tile_n, 176u);
  EXPECT_EQ(c.num_tiles, 3u);
  EXPECT_EQ(c.sram_tile.size(), 2u);
  EXPECT_EQ(validatePlan(p, convLayer(g)), "");
}

TEST(ConvPlan, BothStreamWhenNeitherFits) {
  const ConvGeometry g = conv3x3(64);  // input 9216, weights 64 x 156 = 9984, 8 KiB of SRAM
  const Plan p = plan(hw(1, 8192), g);
  const Chunk& c = p.chunks[0];
  EXPECT_GT(c.num_bands, 1u);
  EXPECT_GT(c.num_tiles, 1u);
  EXPECT_LE(c.sram_used, 8192u);
  EXPECT_EQ(validatePlan(p, convLayer(g)), "");
  EXPECT_THROW(plan(hw(1, 512), g), ModelError);
}

TEST(ConvPlan, CoresSplitChannelsAndRows) {
  // 32 channels are two groups of 16: the splits 1 x 4 rows and 2 x 2 are tried.
  const Plan p = plan(hw(4), conv3x3(32));
  ASSERT_EQ(p.chunks.size(), 4u);
  EXPECT_EQ(validatePlan(p, convLayer(conv3x3(32))), "");
  // 16 channels are one group: only rows split.
  const Plan rows = plan(hw(4), conv3x3(16));
  for (const Chunk& c : rows.chunks) {
    EXPECT_EQ(c.n_count, 16u);
    EXPECT_EQ(c.m_count, 6u);
  }
  // Depthwise channels are separate GEMMs: they split one by one.
  ConvGeometry dw = conv3x3(16);
  dw.depthwise = true;
  const Plan d = plan(hw(16), dw);
  EXPECT_EQ(d.kind, PlanKind::kDepthwiseConv2D);
  EXPECT_EQ(d.shape.k, 9u);
  EXPECT_EQ(validatePlan(d, convLayer(dw)), "");
}

TEST(ConvPlan, RefusesWhatTheDescriptorCannotHold) {
  ConvGeometry g = conv3x3(8);
  g.in_w = g.out_w = 70000;
  try {
    plan(hw(1), g);
    FAIL() << "planned a 70000-wide input";
  } catch (const ModelError& e) {
    EXPECT_NE(std::string(e.what()).find("16-bit"), std::string::npos) << e.what();
  }
}

TEST(ConvPlan, ValidationNamesTheProblem) {
  const ConvGeometry g = conv3x3(16);
  const LayerShape layer = convLayer(g);
  const Plan p = plan(hw(4), g);
  ASSERT_EQ(validatePlan(p, layer), "");
  auto problem = [&](const std::function<void(Plan&)>& change) {
    Plan broken = p;
    change(broken);
    return validatePlan(broken, layer);
  };
  EXPECT_NE(problem([](Plan& q) {
              q.kind = PlanKind::kDepthwiseConv2D;
            }).find("plan is for a DEPTHWISE_CONV_2D layer, the operator is CONV_2D"),
            std::string::npos);
  EXPECT_NE(problem([](Plan& q) { q.conv.out_c = 17; }).find("convolution, the operator is"),
            std::string::npos);
  EXPECT_NE(problem([](Plan& q) { q.chunks[1].m_begin -= 1; }).find("overlap"), std::string::npos);
  EXPECT_NE(problem([](Plan& q) { q.chunks.pop_back(); }).find("in no chunk"), std::string::npos);
  EXPECT_NE(problem([](Plan& q) { q.chunks[0].num_bands += 1; }).find("bands of"),
            std::string::npos);
  EXPECT_NE(problem([](Plan& q) { q.chunks[0].sram_outputs.push_back(0); }).find("needs 1 input"),
            std::string::npos);
  EXPECT_NE(problem([](Plan& q) {
              q.chunks[0].sram_outputs[0] = q.chunks[0].sram_inputs[0];
              q.chunks[0].sram_output = q.chunks[0].sram_inputs[0];
            }).find("overlap"),
            std::string::npos);
  // A FULLY_CONNECTED operator with a convolution's plan, and the other way round.
  EXPECT_NE(validatePlan(p, GemmShape{1, 2, 3}).find("plan is for a CONV_2D layer"),
            std::string::npos);
  EXPECT_NE(validatePlan(makePlan(hw(1), {1, 2, 3}), layer).find("plan is for a FULLY_CONNECTED"),
            std::string::npos);
}

TEST(ConvPlanCodec, Version2RoundTripsAndFullyConnectedPlansStayVersion1) {
  AnnotatedPlan a;
  a.plan = plan(hw(4, 16384), conv3x3(48));
  a.decision = {true, 1000, 2000, 300, "auto", "offload pays"};
  const std::vector<uint8_t> bytes = encodePlan(a);
  EXPECT_EQ(hilsim::plan::GetChunkPlan(bytes.data())->version(), kPlanVersionConv);
  const AnnotatedPlan b = decodePlan(bytes.data(), bytes.size());
  EXPECT_EQ(b.plan.kind, PlanKind::kConv2D);
  EXPECT_EQ(b.plan.conv, a.plan.conv);
  ASSERT_EQ(b.plan.chunks.size(), a.plan.chunks.size());
  for (size_t i = 0; i < b.plan.chunks.size(); ++i) {
    const Chunk &x = a.plan.chunks[i], &y = b.plan.chunks[i];
    EXPECT_EQ(y.m_begin, x.m_begin);
    EXPECT_EQ(y.m_count, x.m_count);
    EXPECT_EQ(y.band_rows, x.band_rows);
    EXPECT_EQ(y.num_bands, x.num_bands);
    EXPECT_EQ(y.sram_inputs, x.sram_inputs);
    EXPECT_EQ(y.sram_outputs, x.sram_outputs);
    EXPECT_EQ(y.sram_tile, x.sram_tile);
  }
  EXPECT_EQ(validatePlan(b.plan, convLayer(conv3x3(48))), "");
  EXPECT_NE(describePlan(b).find("plan v2 CONV_2D"), std::string::npos) << describePlan(b);

  // A FULLY_CONNECTED plan is written as before: version 1, no kind, no geometry.
  AnnotatedPlan fc;
  fc.plan = makePlan(hw(4), {1, 64, 64});
  const std::vector<uint8_t> fc_bytes = encodePlan(fc);
  const hilsim::plan::ChunkPlan* raw = hilsim::plan::GetChunkPlan(fc_bytes.data());
  EXPECT_EQ(raw->version(), kPlanVersion);
  EXPECT_EQ(raw->conv(), nullptr);
  EXPECT_EQ(decodePlan(fc_bytes.data(), fc_bytes.size()).plan.kind, PlanKind::kFullyConnected);
}

TEST(ConvDecision, ShowsTheArrayUtilizationWithTheCycles) {
  OffloadDecision d = decideByPolicy(Policy::kAuto, 12000, 9000);
  d.utilization = 0.035;
  EXPECT_EQ(policyReasonText(d),
            "keep on CPU (below break-even: accel 12000 >= ref 9000 cycles; array utilization "
            "3.5%)");
  OffloadDecision grouped;
  grouped.reason = PathReason::kNotMapped;
  grouped.detail = "grouped convolution (2 groups)";
  EXPECT_EQ(reasonText(grouped), "not mapped to the accelerator: grouped convolution (2 groups)");
}

TEST(ConvPredict, UtilizationAndBreakEven) {
  // One core computing everything in one step: 576 x 144 x 32 MACs over 16 x 16 slots for the
  // step's cycles, ws: ceil(144 / 16) x ceil(32 / 16) = 18 folds of 32 + 16 + 576 - 2 = 622.
  const Plan p = plan(hw(1, 1 << 20), conv3x3(32));
  EXPECT_NEAR(predictedUtilization(p, timingFor(hw(1, 1 << 20))),
              576.0 * 144 * 32 / (256.0 * 18 * 622), 1e-9);
  const timing::CpuCostModel cpu;
  const std::optional<uint64_t> be = convBreakEvenMacs(conv3x3(32), hw(4), timingFor(hw(4)), cpu);
  ASSERT_TRUE(be.has_value());
  // Members keep 24 x 24 pixels and the 3x3 window; the smallest (one channel in and out) has
  // 576 x 9 = 5184 MACs.
  EXPECT_EQ(*be % 5184, 0u);
}

}  // namespace
}  // namespace hilsim::planner
