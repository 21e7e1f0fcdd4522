// Offload decisions by objective: the predicted energy of both paths against hand-computed
// values, a layer whose decision flips between the cycles and the energy objectives, the break-even
// search by energy, and the objective in the plan codec.

#include <gtest/gtest.h>

#include <cmath>

#include "hilsim/config/derived.h"
#include "hilsim/errors.h"
#include "hilsim/planner/decision.h"
#include "hilsim/planner/layer_energy.h"
#include "hilsim/planner/plan_codec.h"
#include "hilsim/planner/predict.h"
#include "hilsim/schema/chunk_plan_generated.h"

namespace hilsim::planner {
namespace {

// The default configuration's accelerator and timing with one core.
Hardware oneCore() {
  Hardware h = config::accelGeometry(config::HardwareConfig{});
  h.num_cores = 1;
  return h;
}

timing::PlatformTiming timingFor(const Hardware& hw) {
  timing::PlatformTiming t = config::platformTiming(config::HardwareConfig{});
  t.geometry = hw;
  return t;
}

// Energies that single out one term each: 2 pJ per MAC, 10 pJ per active host cycle (10 uA/MHz
// at 1 V), 1 pJ per sleeping cycle, 3 and 5 pJ per SRAM byte read and written, 7 pJ per DMA byte,
// 11 pJ per bus beat, 13 pJ per register access, 17 and 19 pJ per system memory byte read and
// written, 1000 uW per processing element.
energy::EnergyParams distinctParams() {
  energy::EnergyParams p;
  p.accel.mac_pj = 2;
  p.accel.sram_read_pj_per_byte = 3;
  p.accel.sram_write_pj_per_byte = 5;
  p.accel.dma_pj_per_byte = 7;
  p.accel.bus_pj_per_beat = 11;
  p.accel.register_access_pj = 13;
  p.accel.system_memory_read_pj_per_byte = 17;
  p.accel.system_memory_write_pj_per_byte = 19;
  p.accel.pe_leakage_uw = 1000;
  p.host.run_ua_per_mhz = 10;
  p.host.sleep_ua_per_mhz = 1;
  p.host.supply_v = 1;
  return p;
}

TEST(ObjectiveEnergy, PredictionMatchesHandComputedTerms) {
  const Hardware hw = oneCore();
  const timing::PlatformTiming t = timingFor(hw);
  // rows 1, k 64, n 64 on one core: one chunk, one tile.
  const Plan plan = makePlan(hw, {1, 64, 64});
  const Prediction p = predictAccelerated(plan, t);
  const AccelBreakdown& b = p.breakdown;
  ASSERT_GT(b.sleep_cycles, 0u);
  ASSERT_LT(b.sleep_cycles, p.cycles);
  EXPECT_EQ(b.host_input_bytes, 64u);   // rows x k
  EXPECT_EQ(b.host_output_bytes, 64u);  // rows x n
  EXPECT_EQ(b.register_accesses, 6u);   // 4 submit writes, 1 read and 1 write at completion
  // The cores' DMA: descriptor 128, input 64, weights and parameters 64 x (64 + 12), output 64.
  const uint64_t dma = 128 + 64 + 64 * 76 + 64;
  EXPECT_EQ(b.bytes_moved, dma + 64 + 64);
  const uint64_t stores = 64, loads = dma - stores;
  const uint64_t folds = (64 + hw.array_cols - 1) / hw.array_cols;
  const uint64_t sram_read = 64 * 64 + 64 * folds + stores;  // weights, input per fold, stores
  const uint64_t sram_write = loads + stores;
  const uint64_t beat = t.bus.arbitration.bytes_per_cycle;
  const uint64_t beats = (b.bytes_moved + beat - 1) / beat + 6;
  const double ps = double(p.cycles) * double(t.clocks.cpu_ps);
  const double pes = double(hw.array_rows) * hw.array_cols;
  const double expected_pj = double(p.cycles - b.sleep_cycles) * 10 + double(b.sleep_cycles) * 1 +
                             64.0 * 64 * 2 + double(sram_read) * 3 + double(sram_write) * 5 +
                             double(dma) * 7 + double(beats) * 11 + 6 * 13 +
                             double(loads + 64) * 17 + double(stores + 64) * 19 +
                             pes * 1000 * ps * 1e-12 * 1e6;  // uW x s = uJ, in pJ
  const uint64_t ref_cycles = 12345;
  const EnergyPrediction e = predictEnergy(plan, t, ref_cycles, distinctParams());
  EXPECT_NEAR(e.accel_uj, expected_pj * 1e-6, 1e-9);
  EXPECT_NEAR(e.accel.mac_uj, 64.0 * 64 * 2 * 1e-6, 1e-12);
  EXPECT_NEAR(e.accel.cpu_sleep_uj, double(b.sleep_cycles) * 1e-6, 1e-12);
  EXPECT_DOUBLE_EQ(e.ref_uj, 12345 * 10 * 1e-6);
  // predictCosts reports the same figures.
  const energy::EnergyParams params = distinctParams();
  const PathCosts costs = predictCosts(plan, t, ref_cycles, {Objective::kEnergy, &params});
  EXPECT_EQ(costs.accel_cycles, p.cycles);
  EXPECT_DOUBLE_EQ(*costs.accel_uj, e.accel_uj);
  EXPECT_DOUBLE_EQ(*costs.ref_uj, e.ref_uj);
}

// A large layer pays in cycles; with leaky processing elements its accelerated energy exceeds the
// CPU's, so the energy objective keeps it on the CPU, and the edp objective weighs both.
TEST(ObjectiveDecision, FlipsBetweenCyclesAndEnergy) {
  const Hardware hw = oneCore();
  const timing::PlatformTiming t = timingFor(hw);
  const timing::CpuCostModel cpu;
  const GemmShape shape{1, 512, 512};
  const Plan plan = makePlan(hw, shape);
  const uint64_t ref = cpu.fullyConnectedCycles(shape.rows, shape.k, shape.n);
  energy::EnergyParams leaky = distinctParams();
  leaky.accel.pe_leakage_uw = 1e6;  // 1 W per processing element
  const PathCosts costs = predictCosts(plan, t, ref, {Objective::kEnergy, &leaky});
  ASSERT_LT(costs.accel_cycles, ref);
  ASSERT_GT(*costs.accel_uj, *costs.ref_uj);
  const OffloadDecision by_cycles = decideByPolicy(Policy::kAuto, Objective::kCycles, costs);
  const OffloadDecision by_energy = decideByPolicy(Policy::kAuto, Objective::kEnergy, costs);
  EXPECT_TRUE(by_cycles.offload);
  EXPECT_EQ(by_cycles.reason, PathReason::kOffloadPays);
  EXPECT_FALSE(by_energy.offload);
  EXPECT_EQ(by_energy.reason, PathReason::kBelowBreakEven);
  // The cycles text is as before the objective existed; the energy text states both predictions.
  EXPECT_EQ(policyReasonText(by_cycles), "offload (pays: accel " +
                                             std::to_string(costs.accel_cycles) + " < ref " +
                                             std::to_string(ref) + " cycles)");
  const std::string text = policyReasonText(by_energy);
  EXPECT_EQ(text.rfind("keep on CPU (below break-even: by energy: accel ", 0), 0u) << text;
  EXPECT_NE(text.find(" uJ; accel " + std::to_string(costs.accel_cycles) + " vs ref " +
                      std::to_string(ref) + " cycles)"),
            std::string::npos)
      << text;
  const bool edp_pays =
      *costs.accel_uj * double(costs.accel_cycles) < *costs.ref_uj * double(costs.ref_cycles);
  EXPECT_EQ(decideByPolicy(Policy::kAuto, Objective::kEdp, costs).offload, edp_pays);
  EXPECT_NE(policyReasonText(decideByPolicy(Policy::kAuto, Objective::kEdp, costs))
                .find("by energy x time: accel "),
            std::string::npos);
  // Without energies an energy objective cannot decide.
  EXPECT_THROW(offloadPays(Objective::kEnergy, {1, 2, {}, {}}), std::invalid_argument);
}

// The host asleep at a tenth of its run power: a layer slower accelerated than on the CPU can
// still take less energy, so the energy objective offloads what cycles keeps.
TEST(ObjectiveDecision, SleepingHostCanMakeASlowerOffloadCheaper) {
  const PathCosts costs{1100, 1000, 0.5, 1.0};
  EXPECT_FALSE(decideByPolicy(Policy::kAuto, Objective::kCycles, costs).offload);
  EXPECT_TRUE(decideByPolicy(Policy::kAuto, Objective::kEnergy, costs).offload);
  EXPECT_TRUE(decideByPolicy(Policy::kAuto, Objective::kEdp, costs).offload);  // 550 < 1000
  EXPECT_EQ(policyReasonText(decideByPolicy(Policy::kAuto, Objective::kEnergy, costs)),
            "offload (pays: by energy: accel 0.5 < ref 1 uJ; accel 1100 vs ref 1000 cycles)");
  EXPECT_EQ(policyReasonText(decideByPolicy(Policy::kAuto, Objective::kEdp, costs)),
            "offload (pays: by energy x time: accel 550 < ref 1000 uJ x cycles; accel 0.5 vs ref 1 "
            "uJ, accel 1100 vs ref 1000 cycles)");
}

TEST(ObjectiveDecision, NamesParse) {
  for (Objective o : {Objective::kCycles, Objective::kEnergy, Objective::kEdp})
    EXPECT_EQ(parseObjective(objectiveName(o)), o);
  EXPECT_FALSE(parseObjective("joules"));
}

// The one break-even search, by energy: the size it returns pays by energy and the one below it
// does not; leaky processing elements move it away from the cycle break-even.
TEST(ObjectiveBreakEven, EnergySearchFindsTheFirstPayingSize) {
  const Hardware hw = oneCore();
  // A driver costing 8000 cycles per job keeps tiny layers on the CPU.
  timing::PlatformTiming t = timingFor(hw);
  t.host.driver_job_cycles = 8000;
  const timing::CpuCostModel cpu;
  energy::EnergyParams params = distinctParams();
  params.accel.pe_leakage_uw = 50;
  const ObjectiveSetting by_energy{Objective::kEnergy, &params};
  const std::optional<uint64_t> cycles = breakEvenMacs({1, 16, 16}, hw, t, cpu);
  const std::optional<uint64_t> energy = breakEvenMacs({1, 16, 16}, hw, t, cpu, by_energy);
  ASSERT_TRUE(cycles && energy);
  // Square members: MACs = n^2.
  const auto n = static_cast<uint32_t>(std::lround(std::sqrt(double(*energy))));
  ASSERT_EQ(uint64_t{n} * n, *energy);
  auto pays = [&](uint32_t m) {
    const GemmShape s{1, m, m};
    return offloadPays(
        Objective::kEnergy,
        predictCosts(makePlan(hw, s), t, cpu.fullyConnectedCycles(1, m, m), by_energy));
  };
  EXPECT_TRUE(pays(n));
  EXPECT_FALSE(pays(n - 1));
  EXPECT_NE(*energy, *cycles);
  // Convolutions use the same search.
  timing::ConvGeometry g;
  g.in_h = g.in_w = g.out_h = g.out_w = 8;
  g.in_c = g.out_c = 8;
  g.filter_h = g.filter_w = 3;
  g.pad_h = g.pad_w = 1;
  const std::optional<uint64_t> conv = convBreakEvenMacs(g, hw, t, cpu, by_energy);
  const std::optional<uint64_t> conv_cycles = convBreakEvenMacs(g, hw, t, cpu);
  EXPECT_TRUE(conv && conv_cycles);
}

TEST(ObjectivePlanCodec, RoundTripsTheObjective) {
  AnnotatedPlan a;
  a.plan = makePlan(oneCore(), {1, 64, 64});
  a.decision = {false, 1000, 900, 5000, "auto", "keep on CPU (below break-even: by energy: ...)"};
  a.decision.objective = Objective::kEdp;
  a.decision.predicted_accel_energy_uj = 0.25;
  a.decision.predicted_ref_energy_uj = 0.125;
  a.decision.break_even_energy_macs = 9000;
  const std::vector<uint8_t> bytes = encodePlan(a);
  const AnnotatedPlan b = decodePlan(bytes.data(), bytes.size());
  EXPECT_EQ(b.decision.objective, Objective::kEdp);
  EXPECT_EQ(b.decision.predicted_accel_energy_uj, 0.25);
  EXPECT_EQ(b.decision.predicted_ref_energy_uj, 0.125);
  EXPECT_EQ(b.decision.break_even_energy_macs, 9000u);
  EXPECT_EQ(b.decision.break_even_macs, 5000u);
}

// A plan written before plans recorded the objective has none of its fields: it reads as cycles,
// and a cycles plan is written without them, byte for byte as before.
TEST(ObjectivePlanCodec, PlanWithoutObjectiveReadsAsCycles) {
  AnnotatedPlan a;
  a.plan = makePlan(oneCore(), {1, 64, 64});
  a.decision = {true, 1000, 2000, 300, "auto", "offload pays"};
  const std::vector<uint8_t> bytes = encodePlan(a);
  const hilsim::plan::ChunkPlan* fb = hilsim::plan::GetChunkPlan(bytes.data());
  const hilsim::plan::Decision* d = fb->decision();
  ASSERT_NE(d, nullptr);
  // The generated table derives privately from flatbuffers::Table, which knows which fields are
  // present.
  const auto* table = reinterpret_cast<const flatbuffers::Table*>(d);
  EXPECT_FALSE(table->CheckField(hilsim::plan::Decision::VT_OBJECTIVE));
  EXPECT_FALSE(table->CheckField(hilsim::plan::Decision::VT_PREDICTED_ACCEL_ENERGY_UJ));
  EXPECT_FALSE(table->CheckField(hilsim::plan::Decision::VT_BREAK_EVEN_ENERGY_MACS));
  const AnnotatedPlan b = decodePlan(bytes.data(), bytes.size());
  EXPECT_EQ(b.decision.objective, Objective::kCycles);
  EXPECT_EQ(b.decision.break_even_energy_macs, 0u);
  // An objective this hilsim does not know is refused.
  a.decision.objective = static_cast<Objective>(7);
  const std::vector<uint8_t> unknown = encodePlan(a);
  EXPECT_THROW(decodePlan(unknown.data(), unknown.size()), ModelError);
}

}  // namespace
}  // namespace hilsim::planner
