// Chunk planning, plan validation and the plan codec.

#include <gtest/gtest.h>

#include "hilsim/config/derived.h"
#include "hilsim/errors.h"
#include "hilsim/planner/chunk_plan.h"
#include "hilsim/planner/plan_codec.h"
#include "hilsim/planner/predict.h"

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

TEST(Plan, SplitsBalancedRangesInUnitsOfTheArrayWidth) {
  // 1024 features in 64 groups of 16 over 4 cores: 256 each.
  const Plan p = makePlan(hw(4), {1, 1024, 1024});
  ASSERT_EQ(p.chunks.size(), 4u);
  for (size_t c = 0; c < 4; ++c) {
    EXPECT_EQ(p.chunks[c].n_begin, c * 256);
    EXPECT_EQ(p.chunks[c].n_count, 256u);
  }
  // 100 features = 7 groups (the last partial) over 4 cores: 2, 2, 2, 1 groups.
  const Plan q = makePlan(hw(4), {1, 64, 100});
  ASSERT_EQ(q.chunks.size(), 4u);
  EXPECT_EQ(q.chunks[0].n_count, 32u);
  EXPECT_EQ(q.chunks[2].n_count, 32u);
  EXPECT_EQ(q.chunks[3].n_count, 4u);
  // Fewer groups than cores: idle cores get no chunk (4 features = one group).
  EXPECT_EQ(makePlan(hw(16), {1, 4000, 4}).chunks.size(), 1u);
}

TEST(Plan, TilesWeightsThatDoNotFitSram) {
  // 256 features x (1024 + 12) bytes = 265216 bytes do not fit 256 KiB: tiles, double buffered.
  const Plan p = makePlan(hw(4), {1, 1024, 1024});
  const Chunk& c = p.chunks[0];
  EXPECT_GT(c.num_tiles, 1u);
  EXPECT_EQ(c.tile_n % 16, 0u);
  EXPECT_EQ(c.sram_tile.size(), 2u);
  EXPECT_LE(c.sram_used, 256u * 1024);
  EXPECT_EQ(validatePlan(p, {1, 1024, 1024}), "");
  // With 64 MiB of SRAM the whole chunk is one tile in one buffer.
  const Plan big = makePlan(hw(1, 64ull << 20), {1, 1024, 1024});
  EXPECT_EQ(big.chunks[0].num_tiles, 1u);
  EXPECT_EQ(big.chunks[0].sram_tile.size(), 1u);
}

TEST(Plan, RefusesLayersWhoseInputDoesNotFit) {
  EXPECT_THROW(makePlan(hw(1, 4096), {8, 1024, 16}), ModelError);
}

TEST(Plan, ValidationNamesTheProblem) {
  const GemmShape shape{1, 64, 64};
  Plan p = makePlan(hw(4), shape);
  EXPECT_EQ(validatePlan(p, shape), "");
  Plan overlap = p;
  overlap.chunks[1].n_begin -= 1;
  EXPECT_NE(validatePlan(overlap, shape).find("overlaps"), std::string::npos);
  Plan gap = p;
  gap.chunks.pop_back();
  EXPECT_NE(validatePlan(gap, shape).find("are in no chunk"), std::string::npos);
  Plan beyond = p;
  beyond.chunks[0].sram_output = 1ull << 40;
  EXPECT_NE(validatePlan(beyond, shape).find("beyond"), std::string::npos);
  Plan too_many = p;
  too_many.hardware.num_cores = 2;
  EXPECT_NE(validatePlan(too_many, shape).find("4 chunks for 2 cores"), std::string::npos);
  EXPECT_NE(validatePlan(p, {1, 64, 65}).find("plan is for a 1x64->64 layer"), std::string::npos);
}

TEST(PlanCodec, RoundTripsAndRejectsCorruptPlans) {
  AnnotatedPlan a;
  a.plan = makePlan(hw(4), {2, 1024, 1024});
  a.decision = {true, 1000, 2000, 300, "auto", "offload pays"};
  const std::vector<uint8_t> bytes = encodePlan(a);
  const AnnotatedPlan b = decodePlan(bytes.data(), bytes.size());
  EXPECT_EQ(b.plan.hardware, a.plan.hardware);
  ASSERT_EQ(b.plan.chunks.size(), a.plan.chunks.size());
  EXPECT_EQ(b.plan.chunks[3].sram_tile, a.plan.chunks[3].sram_tile);
  EXPECT_EQ(b.decision.reason, "offload pays");
  EXPECT_EQ(validatePlan(b.plan, {2, 1024, 1024}), "");

  std::vector<uint8_t> wrong_id = bytes;
  wrong_id[4] = 'X';
  EXPECT_THROW(decodePlan(wrong_id.data(), wrong_id.size()), ModelError);
  for (size_t n : {size_t{0}, size_t{7}, size_t{12}, bytes.size() / 2, bytes.size() - 1}) {
    std::vector<uint8_t> cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
    EXPECT_THROW(decodePlan(cut.data(), cut.size()), ModelError) << n;
  }
}

// The host CPU a decision was made for travels with the plan; a plan without it reads as such.
TEST(PlanCodec, RoundTripsTheCpuRecord) {
  AnnotatedPlan a;
  a.plan = makePlan(hw(4), {1, 64, 64});
  a.cpu = CpuAssumptions{"cortex-m4f", "reference", "iss", 120.0, 43, 0, 69};
  std::vector<uint8_t> bytes = encodePlan(a);
  const AnnotatedPlan b = decodePlan(bytes.data(), bytes.size());
  ASSERT_TRUE(b.cpu);
  EXPECT_EQ(*b.cpu, *a.cpu);
  EXPECT_NE(describePlan(b).find("SRAM 262144, CPU cortex-m4f at 120 MHz: "), std::string::npos)
      << describePlan(b);
  EXPECT_EQ(describeCpu(*b.cpu),
            "cortex-m4f at 120 MHz, reference kernels, cpu.model iss, driver 43 cycles per job + 0 "
            "per register access + 69 per interrupt, firmware -O2");
  a.cpu.reset();
  bytes = encodePlan(a);
  const AnnotatedPlan c = decodePlan(bytes.data(), bytes.size());
  EXPECT_FALSE(c.cpu);
  EXPECT_NE(describePlan(c).find(", CPU not recorded: "), std::string::npos) << describePlan(c);
}

// The summary ends with the stored decision once: annotate stores reasons that name the path
// ("offload (pays: ...)"); a reason without the path gets it in front.
TEST(PlanCodec, DescriptionNamesTheDecisionOnce) {
  AnnotatedPlan a;
  a.plan = makePlan(hw(4), {1, 64, 64});
  a.decision.offload = true;
  a.decision.reason = "offload (pays: accel 10 < ref 20 cycles)";
  const std::string text = describePlan(a);
  EXPECT_EQ(
      text.substr(text.size() - std::string("; offload (pays: accel 10 < ref 20 cycles)").size()),
      "; offload (pays: accel 10 < ref 20 cycles)")
      << text;
  EXPECT_EQ(text.find("offload (offload"), std::string::npos) << text;
  a.decision.offload = false;
  a.decision.reason = "below break-even";
  const std::string kept = describePlan(a);
  EXPECT_NE(kept.find("; keep on CPU (below break-even)"), std::string::npos) << kept;
}

// Counts read as English: one chunk of one tile is "1 chunk, 1 tile".
TEST(PlanCodec, DescriptionCountsInTheSingular) {
  AnnotatedPlan a;
  a.plan = makePlan(hw(1), {1, 16, 16});
  ASSERT_EQ(a.plan.chunks.size(), 1u);
  EXPECT_NE(describePlan(a).find(": 1 chunk, 1 tile; "), std::string::npos) << describePlan(a);
  a.plan = makePlan(hw(4), {1, 64, 64});
  EXPECT_NE(describePlan(a).find(": 4 chunks, 4 tiles; "), std::string::npos) << describePlan(a);
}

TEST(PlanCodec, PlanSetRoundTrips) {
  AnnotatedPlan a;
  a.plan = makePlan(hw(2), {1, 16, 16});
  const std::vector<uint8_t> plan = encodePlan(a);
  const std::vector<uint8_t> set = encodePlanSet({{0, 3, plan}, {0, 5, plan}});
  const std::vector<PlanEntry> entries = decodePlanSet(set.data(), set.size());
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[1].operator_index, 5u);
  EXPECT_EQ(entries[1].plan, plan);
  EXPECT_THROW(decodePlanSet(plan.data(), plan.size()), ModelError);
}

TEST(Predict, BreakEvenSeparatesTinyFromLargeLayers) {
  // A driver costing 8000 cycles per job puts the break-even between these sizes.
  config::HardwareConfig costly;
  costly.cpu.driver_job_cycles = 8000;
  const timing::PlatformTiming t = config::platformTiming(costly);
  const timing::CpuCostModel cpu;
  const auto be = breakEvenMacs({1, 16, 16}, hw(4), t, cpu);
  ASSERT_TRUE(be.has_value());
  // hello_world's 16x16 layer (256 MACs) is below it; a 1024x1024 layer far above.
  EXPECT_GT(*be, 256u);
  EXPECT_LT(*be, 1024u * 1024u);
  // Predictions grow with the layer.
  EXPECT_LT(predictAccelerated(makePlan(hw(4), {1, 256, 256}), t).cycles,
            predictAccelerated(makePlan(hw(4), {1, 1024, 1024}), t).cycles);
}

}  // namespace
}  // namespace hilsim::planner
