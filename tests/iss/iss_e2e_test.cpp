// `hilsim cpu-run` on the timing probes of tests/iss/*.S: each expected cycle count is worked out
// from the core's published table (iss/README.md) in the comment beside it. Unless a test says
// otherwise the wait states are 0, so that the numbers are the table's own.

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <string>
#include <vector>

#include "hilsim/iss/elf.h"
#include "json_file.h"
#include "runner.h"

namespace hilsim::test {
namespace {

struct Counts {
  uint64_t cycles = 0;
  uint64_t instructions = 0;
  uint64_t line_reads = 0;  // the flash memory system's
  uint64_t icache_misses = 0;
  uint64_t dcache_hits = 0;
  uint64_t dcache_misses = 0;
};

std::string probe(const std::string& name) {
  return std::string(HILSIM_ISS_PROBE_DIR) + "/" + name + ".elf";
}

struct Core {
  const char* preset;
  const char* elf;
};
const Core kM0plus{"cortex-m0plus", "probes_m0plus"};
const Core kM4{"cortex-m4f", "probes_m4"};
const Core kM33{"cortex-m33", "probes_m33"};
const Core kRv{"rv32im", "probes_rv32im"};
const Core kFe310{"fe310", "probes_rv32im"};

constexpr const char* kTable = "0x20000000";  // the probes' SRAM table

RunOutcome cpuRun(const Core& core, const std::string& entry, std::vector<std::string> extra) {
  std::vector<std::string> args = {"cpu-run", probe(core.elf),
                                   "--entry", entry,
                                   "--set",   std::string("cpu.preset=") + core.preset,
                                   "--json"};
  args.insert(args.end(), extra.begin(), extra.end());
  return runHilsim(args, 60);
}

// Runs with zero wait states unless `extra` sets them.
Counts counts(const Core& core, const std::string& entry, std::vector<std::string> extra = {}) {
  bool has_flash = false, has_sram = false;
  for (const std::string& a : extra) {
    has_flash |= a.rfind("cpu.flash_wait_states=", 0) == 0;
    has_sram |= a.rfind("cpu.sram_wait_states=", 0) == 0;
  }
  // Put first, so that a test's own --set wins.
  if (!has_flash) extra.insert(extra.begin(), {"--set", "cpu.flash_wait_states=0"});
  if (!has_sram) extra.insert(extra.begin(), {"--set", "cpu.sram_wait_states=0"});
  const RunOutcome out = cpuRun(core, entry, extra);
  EXPECT_EQ(out.exit_code, 0) << out.command << "\n" << out.err;
  if (out.exit_code != 0) return {};
  const JsonDoc json = parseJson(out.out, out.command);
  const auto& flash = json.at("flash");
  return {json.at("cycles").get<uint64_t>(),       json.at("instructions").get<uint64_t>(),
          flash.at("line_reads").get<uint64_t>(),  flash.at("icache_misses").get<uint64_t>(),
          flash.at("dcache_hits").get<uint64_t>(), flash.at("dcache_misses").get<uint64_t>()};
}

uint64_t cycles(const Core& core, const std::string& entry, std::vector<std::string> extra = {}) {
  return counts(core, entry, std::move(extra)).cycles;
}

// ---- Cortex-M4 (TRM Table 3-1, section 3.3.2); "bx lr" returns cost 1 + P = 3 (P = 2 for a
// register target) -----------------------------------------------------------------------------

// The section ranges the loader counts by: examples/cpu_run's table is read-only data, the
// function summing it code, and no read-only data overlaps code.
TEST(ElfSections, TheExampleSeparatesCodeFromConstants) {
  for (const char* elf : {"example_m4f", "example_m0plus", "example_rv32im"}) {
    SCOPED_TRACE(elf);
    const iss::ElfImage image =
        iss::ElfImage::fromFile(std::string(HILSIM_ISS_PROBE_DIR) + "/" + elf + ".elf");
    const auto table = image.findSymbol("table");
    const auto sum = image.findSymbol("sum_table");
    ASSERT_TRUE(table && sum);
    auto within = [](const std::vector<iss::ElfRange>& ranges, uint32_t first, uint32_t bytes) {
      return std::any_of(ranges.begin(), ranges.end(), [&](const iss::ElfRange& r) {
        return first >= r.address && uint64_t(first) + bytes <= uint64_t(r.address) + r.bytes;
      });
    };
    EXPECT_TRUE(within(image.constantSections(), table->value, 16384));
    EXPECT_TRUE(within(image.codeSections(), sum->value, sum->size));
    EXPECT_FALSE(within(image.codeSections(), table->value, 4));
    for (const iss::ElfRange& c : image.constantSections())
      for (const iss::ElfRange& x : image.codeSections())
        EXPECT_FALSE(c.address < x.address + x.bytes && x.address < c.address + c.bytes);
  }
}

TEST(IssCortexM4, StraightLineAlu) {
  // 10 data-processing instructions at 1 cycle + bx lr 3.
  const Counts c = counts(kM4, "alu_straight");
  EXPECT_EQ(c.cycles, 13u);
  EXPECT_EQ(c.instructions, 11u);
}

TEST(IssCortexM4, LoadsNotPipelined) {
  // ldr 2, adds 1, ldr 2, adds 1, ldr 2 (an ALU instruction between loads breaks the pairing),
  // bx 3.
  EXPECT_EQ(cycles(kM4, "loads_unpipelined", {"--arg", kTable}), 11u);
}

TEST(IssCortexM4, NeighbouringLoadsAndStoresPipeline) {
  // ldr 2, then ldr 1, ldr 1, str 1 (each follows a single load whose result is not its
  // address), bx 3.
  EXPECT_EQ(cycles(kM4, "loads_pipelined", {"--arg", kTable}), 8u);
}

TEST(IssCortexM4, LoadWhoseAddressIsThePreviousLoadsResult) {
  // ldr 2, ldr 2 (its base is the first load's result: no pipelining), bx 3.
  EXPECT_EQ(cycles(kM4, "load_dependent_address", {"--arg", kTable}), 7u);
}

TEST(IssCortexM4, LoadWhoseAddressWasJustComputed) {
  // adds 1, ldr 2 + 1 (address from the previous data-processing instruction), bx 3.
  EXPECT_EQ(cycles(kM4, "load_after_address_update", {"--arg", kTable}), 7u);
}

TEST(IssCortexM4, Stores) {
  // str 2, str 2, strb 2 (nothing pipelines after a store), bx 3.
  EXPECT_EQ(cycles(kM4, "stores", {"--arg", kTable}), 9u);
}

TEST(IssCortexM4, LoadStoreMultiple) {
  // ldm {r1-r4} 1+4, stm 1+4, push {r4-r7} 1+4, pop 1+4, bx 3.
  EXPECT_EQ(cycles(kM4, "load_store_multiple", {"--arg", kTable}), 23u);
}

TEST(IssCortexM4, PopIntoPc) {
  // push {r4, lr} 1+2, pop {r4, pc} 1+2+P (P = 2).
  EXPECT_EQ(cycles(kM4, "pop_pc"), 8u);
}

TEST(IssCortexM4, TakenAndNotTakenBranches) {
  // Not taken: movs 1, cmp 1, beq 1, adds 1, adds 1, bx 3.
  EXPECT_EQ(cycles(kM4, "branch_not_taken"), 8u);
  // Taken: movs 1, cmp 1, beq 1 + P (P = 1: an immediate target), bx 3.
  EXPECT_EQ(cycles(kM4, "branch_taken"), 7u);
  // b.n 1 + P 1 + 1 (the 32-bit target is not word aligned), add.w 1, bx 3.
  EXPECT_EQ(cycles(kM4, "branch_misaligned_target"), 7u);
}

TEST(IssCortexM4, CallAndReturn) {
  // push {lr} 2, bl 1+1, adds 1, bx lr 1+2, pop {pc} 1+1+2.
  const Counts c = counts(kM4, "call_return");
  EXPECT_EQ(c.cycles, 12u);
  EXPECT_EQ(c.instructions, 5u);
}

TEST(IssCortexM4, MultipliesAreSingleCycle) {
  // muls, mla, smull, umlal: 1 each; bx 3.
  EXPECT_EQ(cycles(kM4, "multiply"), 7u);
}

TEST(IssCortexM4, DivideRangeEnds) {
  // udiv 0xffffffff / 1: a 32-bit quotient, the top of 2..12; bx 3.
  EXPECT_EQ(cycles(kM4, "unsigned_divide", {"--arg", "0xffffffff", "--arg", "1"}), 15u);
  // udiv 5 / 7: a zero quotient, the bottom; bx 3.
  EXPECT_EQ(cycles(kM4, "unsigned_divide", {"--arg", "5", "--arg", "7"}), 5u);
  // udiv 65535 / 1: 16 quotient bits, 2 + ceil(10 * 16 / 32) = 7; bx 3.
  EXPECT_EQ(cycles(kM4, "unsigned_divide", {"--arg", "65535", "--arg", "1"}), 10u);
  // sdiv -2147483648 / -1: a quotient of 2^31 has 32 bits: 12; bx 3.
  EXPECT_EQ(cycles(kM4, "signed_divide", {"--arg", "-2147483648", "--arg", "-1"}), 15u);
  // sdiv -7 / 7: |quotient| 1, 2 + ceil(10 / 32) = 3; bx 3.
  EXPECT_EQ(cycles(kM4, "signed_divide", {"--arg", "-7", "--arg", "7"}), 6u);
}

TEST(IssCortexM4, LoopIsIterationsTimesBody) {
  // Body: subs 1, bne 1 + P 1 when taken. N iterations: 3 (N - 1) + 2 (the last bne falls
  // through) + bx 3 = 3 N + 2.
  const Counts ten = counts(kM4, "count_down", {"--arg", "10"});
  const Counts thousand = counts(kM4, "count_down", {"--arg", "1000"});
  EXPECT_EQ(ten.cycles, 32u);
  EXPECT_EQ(thousand.cycles, 3002u);
  EXPECT_EQ(thousand.cycles - ten.cycles, 990u * 3);
  EXPECT_EQ(thousand.instructions, 2u * 1000 + 1);
}

// The flash memory system with caches and prefetch off: every line read waits.
const std::vector<std::string> kBareFlash = {
    "--set", "cpu.flash.prefetch=false", "--set", "cpu.flash.icache_lines=0",
    "--set", "cpu.flash.dcache_lines=0", "--set", "cpu.flash.data_through_icache=false"};

std::vector<std::string> with(std::vector<std::string> a, const std::vector<std::string>& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

TEST(IssCortexM4, FlashWaitStatesOnTakenBranches) {
  // Without caches or prefetch each of the 990 more taken branches reads its target's line from
  // flash: 2 wait states each on top of the loop's 3 cycles.
  const std::vector<std::string> ws = with({"--set", "cpu.flash_wait_states=2"}, kBareFlash);
  const Counts ten = counts(kM4, "count_down", with({"--arg", "10"}, ws));
  const Counts thousand = counts(kM4, "count_down", with({"--arg", "1000"}, ws));
  EXPECT_EQ(thousand.cycles - ten.cycles, 990u * (3 + 2));
  EXPECT_EQ(thousand.line_reads - ten.line_reads, 990u);
}

TEST(IssCortexM4, FlashWaitStatesOnModelReads) {
  // mov.w 1, ldrb 2 + 1 (its base was just computed), ldrb 1, ldrb 1 (pipelined), bx 3 = 9;
  // without caches each of the 3 reads from the model flash waits 3 more, and so does each line
  // of code.
  EXPECT_EQ(cycles(kM4, "model_reads"), 9u);
  const Counts bare =
      counts(kM4, "model_reads", with({"--set", "cpu.flash_wait_states=3"}, kBareFlash));
  EXPECT_EQ(bare.cycles, 9u + 3 * bare.line_reads);
  EXPECT_GE(bare.line_reads, 3u + 1);
  // The ART's data cache (the preset's): the three bytes share one line, read once.
  const Counts art = counts(kM4, "model_reads", {"--set", "cpu.flash_wait_states=3"});
  EXPECT_EQ(art.cycles, 9u + 3 * art.line_reads);
  EXPECT_EQ(art.dcache_misses, 1u);
  EXPECT_EQ(art.dcache_hits, 2u);
  EXPECT_EQ(art.line_reads, art.icache_misses + art.dcache_misses);
}

// A loop that fits the preset's instruction cache runs at zero wait states after its first
// iteration (within 2%; here exactly), at the preset's flash wait states.
void expectLoopInCache(const Core& core, const char* wait_states) {
  const std::vector<std::string> ws = {"--set",
                                       std::string("cpu.flash_wait_states=") + wait_states};
  const uint64_t first = cycles(core, "count_down", with({"--arg", "1"}, ws));
  const uint64_t many = cycles(core, "count_down", with({"--arg", "1001"}, ws));
  const uint64_t first0 = cycles(core, "count_down", {"--arg", "1"});
  const uint64_t many0 = cycles(core, "count_down", {"--arg", "1001"});
  EXPECT_GT(first, first0) << core.preset << ": the first iteration misses";
  EXPECT_LE(double(many - first), 1.02 * double(many0 - first0)) << core.preset;
  EXPECT_EQ(many - first, many0 - first0) << core.preset;
  // Without caches or prefetch each later iteration reads its lines again (one, or two where the
  // loop straddles a line boundary), each read waiting.
  const Counts bare_first = counts(core, "count_down", with(with({"--arg", "1"}, ws), kBareFlash));
  const Counts bare_many =
      counts(core, "count_down", with(with({"--arg", "1001"}, ws), kBareFlash));
  const uint64_t reads = bare_many.line_reads - bare_first.line_reads;
  EXPECT_GE(reads, 1000u) << core.preset;
  EXPECT_LE(reads, 2000u) << core.preset;
  EXPECT_EQ(bare_many.cycles - bare_first.cycles, many0 - first0 + reads * std::stoul(wait_states))
      << core.preset;
}

TEST(IssFlash, ALoopInTheInstructionCacheCostsNoWaitStatesAfterItsFirstIteration) {
  expectLoopInCache(kM0plus, "1");  // the STM32G0 at 48 MHz
  expectLoopInCache(kM4, "5");      // the STM32L4R5 at 120 MHz
  expectLoopInCache(kM33, "3");     // the STM32U5 at 128 MHz
  expectLoopInCache(kRv, "2");      // the FE310's cache in front of SPI flash
}

// The same on each board preset at its part's wait states (configs/README.md, "Board presets").
TEST(IssFlash, OnEachBoardPresetALoopInTheInstructionCacheCostsNoWaitStates) {
  expectLoopInCache({"stm32g0b1", "probes_m0plus"}, "2");
  expectLoopInCache({"stm32l4r5", "probes_m4"}, "5");
  expectLoopInCache({"nrf5340", "probes_m33"}, "3");
  expectLoopInCache({"stm32u575", "probes_m33"}, "4");
  expectLoopInCache({"ra6m4", "probes_m33"}, "3");
  expectLoopInCache({"fe310", "probes_rv32im"}, "336");
}

TEST(IssFlash, BoardPresetsDefaultToTheirPartsWaitStates) {
  // count_down 1000 at the board's own wait states: the loop's line misses once.
  struct Case {
    Core core;
    uint64_t zero_wait_cycles;
    uint64_t wait_states;
  };
  for (const Case& c :
       {Case{{"stm32l4r5", "probes_m4"}, 3002, 5}, Case{{"stm32u575", "probes_m33"}, 3001, 4}}) {
    const RunOutcome out = cpuRun(c.core, "count_down", {"--arg", "1000"});
    ASSERT_EQ(out.exit_code, 0) << out.err;
    const JsonDoc json = parseJson(out.out, out.command);
    EXPECT_GT(json.at("cycles").get<uint64_t>(), c.zero_wait_cycles) << c.core.preset;
    EXPECT_LE(json.at("cycles").get<uint64_t>(), c.zero_wait_cycles + 2 * c.wait_states)
        << c.core.preset;
  }
}

TEST(IssFlash, KeysAreChecked) {
  const auto rejected = [](std::vector<std::string> sets, const std::string& words) {
    const RunOutcome out = cpuRun(kM4, "count_down", with({"--arg", "1"}, sets));
    EXPECT_EQ(out.exit_code, 2) << out.command;
    EXPECT_NE(out.err.find(words), std::string::npos) << out.err;
  };
  rejected({"--set", "cpu.flash.line_bytes=12"}, "not a power of two");
  rejected({"--set", "cpu.flash.line_bytes=128"}, "out of range");
  rejected({"--set", "cpu.flash.icache_lines=96"}, "power-of-two number of sets");
  rejected({"--set", "cpu.flash.icache_ways=0"}, "out of range");
  rejected({"--set", "cpu.flash.icache_lines=0", "--set", "cpu.flash.data_through_icache=true",
            "--set", "cpu.flash.dcache_lines=0"},
           "needs an instruction cache");
  rejected({"--set", "cpu.flash.data_through_icache=true"}, "cpu.flash.dcache_lines must be 0");
  rejected({"--set", "cpu.flash.prefetch=maybe"}, "cpu.flash.prefetch");
}

TEST(IssCortexM4, SramWaitStatesOnEveryAccess) {
  // loads_pipelined (8) with 2 wait states on each of its 4 accesses.
  EXPECT_EQ(cycles(kM4, "loads_pipelined", {"--arg", kTable, "--set", "cpu.sram_wait_states=2"}),
            8u + 4 * 2);
}

// With cpu.sram_store_waits false (SRAM that adds its wait states to reads only, as the RA6M4's
// SRAM0) stores run at zero wait states, loads still pay.
TEST(IssCortexM4, SramWaitStatesOnLoadsOnly) {
  // loads_pipelined (8): three loads pay 2 each, its store none.
  EXPECT_EQ(cycles(kM4, "loads_pipelined",
                   {"--arg", kTable, "--set", "cpu.sram_wait_states=2", "--set",
                    "cpu.sram_store_waits=false"}),
            8u + 3 * 2);
  // stores (9): str, str, strb pay nothing.
  EXPECT_EQ(cycles(kM4, "stores",
                   {"--arg", kTable, "--set", "cpu.sram_wait_states=2", "--set",
                    "cpu.sram_store_waits=false"}),
            9u);
  // load_store_multiple (23): ldm and pop pay 2 per register (8 registers), stm and push none.
  EXPECT_EQ(cycles(kM4, "load_store_multiple",
                   {"--arg", kTable, "--set", "cpu.sram_wait_states=2", "--set",
                    "cpu.sram_store_waits=false"}),
            23u + 8 * 2);
  EXPECT_EQ(
      cycles(kM4, "load_store_multiple", {"--arg", kTable, "--set", "cpu.sram_wait_states=2"}),
      23u + 16 * 2);
}

TEST(IssCortexM4, DefaultWaitStatesAreThePresetsPart) {
  // No flags: 5 flash wait states (STM32L4R5 at 120 MHz), paid once: the ART's instruction cache
  // misses the loop's line on the first iteration only.
  const RunOutcome out = cpuRun(kM4, "count_down", {"--arg", "1000"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_NE(out.out.find("\"cycles\": " + std::to_string(3002 + 5)), std::string::npos) << out.out;
}

// ---- Cortex-M33: the Cortex-M4's rules with its own pipeline's differences (iss/README.md):
// single loads and stores take 1 cycle and stall the next instruction that reads their result by
// 1; every register-target branch refills in 1 (P = 1), so "bx lr" costs 2; neighbouring
// independent 16-bit data-processing instructions, or one and a 16-bit immediate branch,
// dual-issue. Each sequence below costs more under the Cortex-M4's rules (in brackets). ---------

TEST(IssCortexM33, StraightLineAluWithDependentNeighboursDoesNotPair) {
  // Every instruction reads the register its predecessor wrote: 10 x 1, bx 1 + 1 = 12 [13].
  EXPECT_EQ(cycles(kM33, "alu_straight"), 12u);
  EXPECT_EQ(cycles(kM4, "alu_straight"), 13u);
}

TEST(IssCortexM33, IndependentNarrowPairsDualIssue) {
  // {adds r0; movs r2} 1, {adds r1; subs r3} 1, add.w (32-bit) 1, adds r0 1, adds r0 (reads r0
  // from the one before) 1, bx 2 = 7 [7 x 1 + 3 = 10].
  const Counts c = counts(kM33, "dual_issue_pairs", {"--arg", "10", "--arg", "20"});
  EXPECT_EQ(c.cycles, 7u);
  EXPECT_EQ(c.instructions, 8u);
  EXPECT_EQ(cycles(kM4, "dual_issue_pairs", {"--arg", "10", "--arg", "20"}), 10u);
}

TEST(IssCortexM33, NarrowInstructionAndBranchDualIssue) {
  // {movs; b.n} 1 + P 1, bx 2 = 4 [1 + 2 + 3 = 6].
  EXPECT_EQ(cycles(kM33, "narrow_then_branch"), 4u);
  EXPECT_EQ(cycles(kM4, "narrow_then_branch"), 6u);
}

TEST(IssCortexM33, SingleLoadsAndStoresTakeOneCycle) {
  // ldr 1, adds 1, ldr 1, adds 1, ldr 1, bx 2 = 7 [11].
  EXPECT_EQ(cycles(kM33, "loads_unpipelined", {"--arg", kTable}), 7u);
  // ldr, ldr, ldr, str: 1 each, bx 2 = 6 [8].
  EXPECT_EQ(cycles(kM33, "loads_pipelined", {"--arg", kTable}), 6u);
  // str, str, strb: 1 each, bx 2 = 5 [9].
  EXPECT_EQ(cycles(kM33, "stores", {"--arg", kTable}), 5u);
  // adds r0 1, ldr [r0] 1 (no address interlock), bx 2 = 4 [7].
  EXPECT_EQ(cycles(kM33, "load_after_address_update", {"--arg", kTable}), 4u);
}

TEST(IssCortexM33, LoadUseStallsOneCycle) {
  // ldr r1 1, adds r1 (reads the load's result) 1 + 1, ldr r2 1, adds r3 1, bx 2 = 7 [9].
  EXPECT_EQ(cycles(kM33, "load_use", {"--arg", kTable}), 7u);
  EXPECT_EQ(cycles(kM4, "load_use", {"--arg", kTable}), 9u);
  // ldr r1 1, ldr [r1] (its address is the load's result) 1 + 1, bx 2 = 5 [7].
  EXPECT_EQ(cycles(kM33, "load_dependent_address", {"--arg", kTable}), 5u);
}

TEST(IssCortexM33, BranchesRefillInOneCycle) {
  // movs 1, cmp (reads r1) 1, beq (reads the flags) 1 + P 1, bx 2 = 6 [7].
  EXPECT_EQ(cycles(kM33, "branch_taken"), 6u);
  // b.n 1 + 1 + 1 (a misaligned 32-bit target), add.w 1, bx 2 = 6 [7].
  EXPECT_EQ(cycles(kM33, "branch_misaligned_target"), 6u);
  // push {lr} 2, bl 1 + 1, adds 1, bx lr 1 + 1, pop {pc} 1 + 1 + 2 (a target from memory) = 11
  // [12].
  EXPECT_EQ(cycles(kM33, "call_return"), 11u);
  // subs; bne (reads the flags subs wrote: no pair) 1 + 1 + P 1 a turn, the last falls through,
  // bx 2: 3 N + 1 [3 N + 2].
  EXPECT_EQ(cycles(kM33, "count_down", {"--arg", "1000"}), 3001u);
}

TEST(IssCortexM33, SharedRowsAreTheCortexM4s) {
  // ldm/stm/push/pop 1 + N each, bx 2 = 22 [23, the bx].
  EXPECT_EQ(cycles(kM33, "load_store_multiple", {"--arg", kTable}), 22u);
  // muls, mla, smull, umlal 1 each, bx 2.
  EXPECT_EQ(cycles(kM33, "multiply"), 6u);
  // udiv with a 32-bit quotient 12, bx 2.
  EXPECT_EQ(cycles(kM33, "unsigned_divide", {"--arg", "0xffffffff", "--arg", "1"}), 14u);
}

// ---- Cortex-M0+ (TRM Table 3.1): bx lr costs 2 --------------------------------------------

TEST(IssCortexM0plus, StraightLineAlu) {
  EXPECT_EQ(cycles(kM0plus, "alu_straight"), 10u + 2);
}

TEST(IssCortexM0plus, LoadsAndStoresNeverPipeline) {
  // ldr 2, ldr 2, ldr 2, str 2, bx 2.
  EXPECT_EQ(cycles(kM0plus, "loads_pipelined", {"--arg", kTable}), 10u);
}

TEST(IssCortexM0plus, LoadStoreMultiple) {
  // ldm 1+4, subs 1, stm 1+4, push 1+4, pop 1+4, bx 2.
  EXPECT_EQ(cycles(kM0plus, "load_store_multiple", {"--arg", kTable}), 23u);
  // push {r4, lr} 1+2, pop {r4, pc} 3+2.
  EXPECT_EQ(cycles(kM0plus, "pop_pc"), 8u);
}

TEST(IssCortexM0plus, BranchesAndCalls) {
  // Not taken: movs, cmp, beq, adds, adds at 1, bx 2.
  EXPECT_EQ(cycles(kM0plus, "branch_not_taken"), 7u);
  // Taken: movs 1, cmp 1, beq 2, bx 2.
  EXPECT_EQ(cycles(kM0plus, "branch_taken"), 6u);
  // push {lr} 2, bl 3, adds 1, bx 2, pop {pc} 3+1.
  EXPECT_EQ(cycles(kM0plus, "call_return"), 12u);
}

TEST(IssCortexM0plus, SingleCycleMultiplier) {
  // muls 1, muls 1, bx 2.
  EXPECT_EQ(cycles(kM0plus, "multiply"), 4u);
}

TEST(IssCortexM0plus, LoopIsIterationsTimesBody) {
  // subs 1, bne 2 taken: 3 (N - 1) + 2 + bx 2 = 3 N + 1.
  EXPECT_EQ(cycles(kM0plus, "count_down", {"--arg", "1000"}), 3001u);
  // The default: 1 flash wait state (STM32G0 at 48 MHz), paid once: the loop's line stays in
  // its 2-line instruction cache.
  const RunOutcome out = cpuRun(kM0plus, "count_down", {"--arg", "1000"});
  EXPECT_NE(out.out.find("\"cycles\": 3002"), std::string::npos) << out.out << out.err;
}

// ---- RV32IM on the E31 (manual v2p0, "Execution Pipeline"): one instruction per cycle, results
// after their latency. A function's final return (to the caller of cpu-run) is not charged -------

TEST(IssRv32im, StraightLineAlu) {
  const Counts c = counts(kRv, "alu_straight");
  EXPECT_EQ(c.cycles, 11u);  // 11 instructions, 1 cycle each
  EXPECT_EQ(c.instructions, 11u);
}

TEST(IssRv32im, LoadUseLatency) {
  // lw; an independent addi; ret: 3.
  EXPECT_EQ(cycles(kRv, "load_no_use", {"--arg", kTable}), 3u);
  // lw (2-cycle result) then its user: the addi waits 1 cycle: 4.
  EXPECT_EQ(cycles(kRv, "load_word_use", {"--arg", kTable}), 4u);
  // lbu (3-cycle result) then its user waits 2: 5.
  EXPECT_EQ(cycles(kRv, "load_byte_use", {"--arg", kTable}), 5u);
}

TEST(IssRv32im, Stores) {
  // sw, sw, sb, ret: 1 each.
  EXPECT_EQ(cycles(kRv, "stores", {"--arg", kTable}), 4u);
  // With 2 SRAM wait states each store holds the pipeline 2 more cycles.
  EXPECT_EQ(cycles(kRv, "stores", {"--arg", kTable, "--set", "cpu.sram_wait_states=2"}),
            4u + 3 * 2);
  // Without wait states on stores they issue one a cycle again.
  EXPECT_EQ(cycles(kRv, "stores",
                   {"--arg", kTable, "--set", "cpu.sram_wait_states=2", "--set",
                    "cpu.sram_store_waits=false"}),
            4u);
}

TEST(IssRv32im, MultiplyLatency) {
  // mul (5-cycle result) then its user issues at cycle 5, ret at 6: 7.
  EXPECT_EQ(cycles(kRv, "multiply_use"), 7u);
  // mul whose result nobody reads: 4 instructions, 4 cycles.
  EXPECT_EQ(cycles(kRv, "multiply_independent"), 4u);
}

TEST(IssRv32im, DivideRangeEnds) {
  // divu; its user; ret: 3 issue cycles, and the user waits for the divide's latency less the
  // 1 cycle between them. 0xffffffff / 1: 33 cycles (32 quotient bits): 3 + 32 = 35.
  EXPECT_EQ(cycles(kRv, "unsigned_divide_use", {"--arg", "0xffffffff", "--arg", "1"}), 35u);
  // 5 / 7: quotient 0, latency 2: 3 + 1 = 4.
  EXPECT_EQ(cycles(kRv, "unsigned_divide_use", {"--arg", "5", "--arg", "7"}), 4u);
  // 65535 / 1: 16 bits, latency 17: 3 + 16 = 19.
  EXPECT_EQ(cycles(kRv, "unsigned_divide_use", {"--arg", "65535", "--arg", "1"}), 19u);
  // -2147483648 / -1: |quotient| 2^31 has 32 bits: 35.
  EXPECT_EQ(cycles(kRv, "signed_divide_use", {"--arg", "-2147483648", "--arg", "-1"}), 35u);
}

TEST(IssRv32im, BranchPrediction) {
  // Not taken, predicted not taken (the history starts weakly not taken): li, bnez, addi, addi,
  // ret: 5.
  EXPECT_EQ(cycles(kRv, "branch_not_taken"), 5u);
  // Taken but predicted not taken: li, bnez, ret + 3 (misprediction): 6.
  EXPECT_EQ(cycles(kRv, "branch_taken"), 6u);
}

TEST(IssRv32im, CallAndReturn) {
  // addi, sw, jal (a cold jump: the BTB misses, 3); leaf: addi, ret (predicted by the return
  // stack); lw, addi, ret (ret reads ra 2 cycles after the lw: no wait): 8 instructions, 11 cycles.
  const Counts c = counts(kRv, "call_return");
  EXPECT_EQ(c.cycles, 11u);
  EXPECT_EQ(c.instructions, 8u);
}

TEST(IssRv32im, ColdJumpMissesTheTargetBufferOnce) {
  // One iteration: addi, j (BTB miss: 3), bnez not taken (predicted not taken), ret: 4 + 3.
  EXPECT_EQ(cycles(kRv, "jump_loop", {"--arg", "1"}), 7u);
  // Two: the first bnez is taken but predicted not taken (3) and enters the BTB; the second
  // iteration's j hits (0); its bnez falls through against the now taken prediction (3):
  // 7 instructions + 9.
  EXPECT_EQ(cycles(kRv, "jump_loop", {"--arg", "2"}), 16u);
  // Every later iteration: addi, j, bnez with every target in the BTB: 3.
  EXPECT_EQ(cycles(kRv, "jump_loop", {"--arg", "12"}) - cycles(kRv, "jump_loop", {"--arg", "2"}),
            10u * 3);
}

TEST(IssRv32im, ReturnsArePredictedByTheReturnStack) {
  // addi, sw, mv, jal (cold: 3), leaf's addi and ret (the stack holds its return address: 0),
  // addi, bnez (not taken, predicted so), lw, addi, ret: 11 instructions + 3.
  EXPECT_EQ(cycles(kRv, "call_loop", {"--arg", "1"}), 14u);
  // Each further iteration: jal and bnez from the BTB, the return from the stack: jal, addi,
  // ret, addi, bnez, 5 cycles.
  EXPECT_EQ(cycles(kRv, "call_loop", {"--arg", "10"}) - cycles(kRv, "call_loop", {"--arg", "3"}),
            7u * 5);
}

TEST(IssRv32im, ReturnStackDepthIsThePresets) {
  // Three nested calls (3 cold jals, 9) and 19 instructions. The E31 core complex's 6-entry
  // return stack predicts all three returns: 28.
  EXPECT_EQ(cycles(kRv, "call_chain3"), 28u);
  // The FE310's 2-entry stack dropped the oldest return address: the outermost return mispredicts.
  EXPECT_EQ(cycles(kFe310, "call_chain3"), 31u);
}

TEST(IssRv32im, TargetBufferCapacity) {
  // 20 jumps and the loop branch (21 targets) fit in the 28-entry BTB: 22 instructions an
  // iteration, no penalty.
  EXPECT_EQ(cycles(kRv, "jumps_20", {"--arg", "10"}) - cycles(kRv, "jumps_20", {"--arg", "5"}),
            5u * 22);
  // 31 targets cycle through 28 least-recently-used entries: every one misses, 32 + 31 * 3.
  EXPECT_EQ(cycles(kRv, "jumps_30", {"--arg", "10"}) - cycles(kRv, "jumps_30", {"--arg", "5"}),
            5u * (32 + 31 * 3));
  // The FE310's 40-entry BTB holds them.
  EXPECT_EQ(
      cycles(kFe310, "jumps_30", {"--arg", "10"}) - cycles(kFe310, "jumps_30", {"--arg", "5"}),
      5u * 32);
}

TEST(IssRv32im, CsrWritesFlushThePipeline) {
  // csrw (1 + the 5-cycle flush), addi, ret: 8.
  EXPECT_EQ(cycles(kRv, "csr_write"), 8u);
  // csrr (a read: no flush), addi (does not read its result), ret: 3.
  EXPECT_EQ(cycles(kRv, "csr_read"), 3u);
}

TEST(IssRv32im, LoadFromTheStorePipeline) {
  // sw, then lw of the same word: 5 more, ret: 1 + 6 + 1.
  EXPECT_EQ(cycles(kRv, "store_load_same", {"--arg", kTable}), 8u);
  // sb into the word the lw reads: 8.
  EXPECT_EQ(cycles(kRv, "store_byte_load_word", {"--arg", kTable}), 8u);
  // An ALU instruction between them leaves the data memory idle for the store to commit: 4.
  EXPECT_EQ(cycles(kRv, "store_alu_load", {"--arg", kTable}), 4u);
  // Another word: 3.
  EXPECT_EQ(cycles(kRv, "store_load_other", {"--arg", kTable}), 3u);
}

TEST(IssRv32im, LoopIsIterationsTimesBody) {
  // addi, bnez: 2 per iteration; the first taken bnez and the final fall-through are
  // mispredicted (3 each); ret 1: 2 N + 7.
  const Counts ten = counts(kRv, "count_down", {"--arg", "10"});
  const Counts thousand = counts(kRv, "count_down", {"--arg", "1000"});
  EXPECT_EQ(ten.cycles, 27u);
  EXPECT_EQ(thousand.cycles, 2007u);
  EXPECT_EQ(thousand.cycles - ten.cycles, 990u * 2);
}

TEST(IssRv32im, WaitStates) {
  // Without caches or prefetch, 990 more taken branches whose lines wait 2 cycles each.
  const std::vector<std::string> ws = with({"--set", "cpu.flash_wait_states=2"}, kBareFlash);
  const Counts ten = counts(kRv, "count_down", with({"--arg", "10"}, ws));
  const Counts thousand = counts(kRv, "count_down", with({"--arg", "1000"}, ws));
  // Each taken branch reads the loop's lines again (two where it straddles a line boundary).
  EXPECT_GE(thousand.line_reads - ten.line_reads, 990u);
  EXPECT_EQ(thousand.cycles - ten.cycles, 990u * 2 + 2 * (thousand.line_reads - ten.line_reads));
  // lui, lbu, lbu, lbu (rewrites a2 while the first lbu's 3-cycle result is pending: waits 1),
  // ret: 6; each of the 3 model-flash reads waits 3 more, and each line of code.
  EXPECT_EQ(cycles(kRv, "model_reads"), 6u);
  const Counts bare =
      counts(kRv, "model_reads", with({"--set", "cpu.flash_wait_states=3"}, kBareFlash));
  EXPECT_GE(bare.line_reads, 3u + 1);
  EXPECT_LE(bare.cycles, 6u + 3 * bare.line_reads);
}

// ---- errors ------------------------------------------------------------------------------------

TEST(IssErrors, UnmappedAccessIsExit3WithThePc) {
  for (const Core& core : {kM4, kRv}) {
    const RunOutcome out = cpuRun(core, "unmapped_read", {});
    EXPECT_EQ(out.exit_code, 3) << out.err;
    EXPECT_NE(out.err.find("unmapped_read: pc 0x"), std::string::npos) << out.err;
    EXPECT_NE(out.err.find("read of unmapped address 0x30000008"), std::string::npos) << out.err;
  }
}

TEST(IssErrors, RunawayIsExit3) {
  for (const Core& core : {kM4, kRv}) {
    const RunOutcome out = cpuRun(core, "spin", {"--max-instructions", "10000"});
    EXPECT_EQ(out.exit_code, 3) << out.err;
    EXPECT_NE(out.err.find("runaway: more than 10000 instructions"), std::string::npos) << out.err;
  }
}

TEST(IssErrors, BadInputIsExit2) {
  const RunOutcome unknown = cpuRun(kM4, "no_such_function", {});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_NE(unknown.err.find("no symbol 'no_such_function'"), std::string::npos) << unknown.err;

  const RunOutcome missing =
      runHilsim({"cpu-run", "/nonexistent.elf", "--entry", "f", "--set", "cpu.preset=rv32im"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("ELF '/nonexistent.elf': cannot read: No such file"),
            std::string::npos)
      << missing.err;

  const RunOutcome not_elf =
      runHilsim({"cpu-run", std::string(HILSIM_ISS_PROBE_DIR) + "/../../CMakeCache.txt", "--entry",
                 "f", "--set", "cpu.preset=rv32im"});
  EXPECT_EQ(not_elf.exit_code, 2);
  EXPECT_NE(not_elf.err.find("not a valid ELF file"), std::string::npos) << not_elf.err;

  const RunOutcome no_iss = runHilsim(
      {"cpu-run", probe(kM4.elf), "--entry", "alu_straight", "--set", "cpu.preset=cortex-m7"});
  EXPECT_EQ(no_iss.exit_code, 2);
  EXPECT_NE(no_iss.err.find("cortex-m0plus, cortex-m4f, cortex-m33, rv32im"), std::string::npos)
      << no_iss.err;

  const RunOutcome wrong_arch = cpuRun({"rv32im", "probes_m4"}, "alu_straight", {});
  EXPECT_EQ(wrong_arch.exit_code, 2);
  EXPECT_NE(wrong_arch.err.find("cannot run on rv32im"), std::string::npos) << wrong_arch.err;
}

// ---- faults the silicon raises ----------------------------------------------------------------

// The engine overrides (iss/README.md) raise unaligned-access faults and charge unaligned
// accesses; a build without them runs neither.
#define HILSIM_NEEDS_ENGINE_OVERRIDES()                                              \
  if (!HILSIM_UNICORN_OVERRIDES)                                                     \
  GTEST_SKIP() << "the engine overrides are not built (another Unicorn release, or " \
                  "-DHILSIM_UNICORN_OVERRIDES=OFF): no unaligned-access faults or costs"

// One exit-3 line: the entry, the faulting instruction and the fault.
void expectFault(const RunOutcome& out, const std::string& entry, const std::string& pc,
                 const std::string& fault) {
  EXPECT_EQ(out.exit_code, 3) << out.command << "\n" << out.err;
  EXPECT_EQ(out.err,
            "hilsim: simulation failed: cpu-run: " + entry + ": pc " + pc + ": " + fault + "\n")
      << out.command;
}

// The address of `name` in `core`'s probes, as cpu-run prints a pc.
std::string symbolAddress(const Core& core, const std::string& name) {
  const iss::ElfImage image = iss::ElfImage::fromFile(probe(core.elf));
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", image.symbol(name).value);
  return text;
}

TEST(IssFaults, UnalignedAccessOnCortexM0PlusIsAHardFault) {
  HILSIM_NEEDS_ENGINE_OVERRIDES();
  // The example of the Armv6-M ARM (A3.2.1: unaligned accesses always fault): sp - 7.
  const RunOutcome stack = cpuRun(kM0plus, "unaligned_stack_load", {});
  EXPECT_EQ(stack.exit_code, 3) << stack.err;
  EXPECT_NE(stack.err.find("HardFault: unaligned word load from 0x"), std::string::npos)
      << stack.err;
  expectFault(cpuRun(kM0plus, "load_word", {"--arg", "0x20000002"}), "load_word",
              symbolAddress(kM0plus, "load_word"),
              "HardFault: unaligned word load from 0x20000002 (Armv6-M has no unaligned "
              "accesses)");
  expectFault(cpuRun(kM0plus, "load_halfword", {"--arg", "0x20000003"}), "load_halfword",
              symbolAddress(kM0plus, "load_halfword"),
              "HardFault: unaligned halfword load from 0x20000003 (Armv6-M has no unaligned "
              "accesses)");
  expectFault(cpuRun(kM0plus, "store_word", {"--arg", "0x20000001", "--arg", "5"}), "store_word",
              symbolAddress(kM0plus, "store_word"),
              "HardFault: unaligned word store to 0x20000001 (Armv6-M has no unaligned "
              "accesses)");
  // Aligned, the same code runs: the table's second word is 1.
  const RunOutcome aligned = cpuRun(kM0plus, "load_word", {"--arg", "0x20000004"});
  EXPECT_EQ(aligned.exit_code, 0) << aligned.err;
}

TEST(IssFaults, MisalignedAccessOnRv32imTraps) {
  HILSIM_NEEDS_ENGINE_OVERRIDES();
  expectFault(cpuRun(kRv, "load_word", {"--arg", "0x20000002"}), "load_word",
              symbolAddress(kRv, "load_word"),
              "load address misaligned trap (mcause 4): word load from 0x20000002");
  expectFault(cpuRun(kRv, "load_halfword", {"--arg", "0x20000001"}), "load_halfword",
              symbolAddress(kRv, "load_halfword"),
              "load address misaligned trap (mcause 4): halfword load from 0x20000001");
  expectFault(cpuRun(kRv, "store_word", {"--arg", "0x20000006", "--arg", "5"}), "store_word",
              symbolAddress(kRv, "store_word"),
              "store address misaligned trap (mcause 6): word store to 0x20000006");
  EXPECT_EQ(cpuRun(kRv, "load_word", {"--arg", "0x20000004"}).exit_code, 0);
}

TEST(IssFaults, UnalignedAccessesOnCortexM4CostTheTrmsExtraCycles) {
  HILSIM_NEEDS_ENGINE_OVERRIDES();
  // Cortex-M4 TRM, load/store timings: a halfword-aligned word is two halfword accesses (+1), a
  // byte-aligned word a byte, a halfword and a byte (+2), a byte-aligned halfword two bytes (+1).
  for (const Core& core : {kM4, kM33}) {
    SCOPED_TRACE(core.preset);
    const uint64_t word = cycles(core, "load_word", {"--arg", "0x20000004"});
    EXPECT_EQ(cycles(core, "load_word", {"--arg", "0x20000006"}), word + 1);
    EXPECT_EQ(cycles(core, "load_word", {"--arg", "0x20000005"}), word + 2);
    EXPECT_EQ(cycles(core, "load_word", {"--arg", "0x20000007"}), word + 2);
    const uint64_t halfword = cycles(core, "load_halfword", {"--arg", "0x20000004"});
    EXPECT_EQ(cycles(core, "load_halfword", {"--arg", "0x20000006"}), halfword);
    EXPECT_EQ(cycles(core, "load_halfword", {"--arg", "0x20000005"}), halfword + 1);
    const uint64_t store = cycles(core, "store_word", {"--arg", "0x20000004", "--arg", "1"});
    EXPECT_EQ(cycles(core, "store_word", {"--arg", "0x20000006", "--arg", "1"}), store + 1);
    EXPECT_EQ(cycles(core, "store_word", {"--arg", "0x20000009", "--arg", "1"}), store + 2);
  }
}

TEST(IssFaults, CodeForAnotherArchitectureIsRefusedBeforeRunning) {
  // Thumb-2 code (Armv7E-M) on the Armv6-M core.
  const RunOutcome thumb2 = cpuRun({"cortex-m0plus", "probes_m4"}, "alu_straight", {});
  EXPECT_EQ(thumb2.exit_code, 2) << thumb2.err;
  EXPECT_EQ(thumb2.err, "hilsim: " + probe("probes_m4") +
                            ": built for Armv7E-M, which cortex-m0plus (Armv6-M) cannot run\n");
  // FPv4-SP code on the core without an FPU.
  const RunOutcome fpu = cpuRun({"cortex-m0plus", "probe_m4f_fpu"}, "add_floats", {});
  EXPECT_EQ(fpu.exit_code, 2) << fpu.err;
  EXPECT_NE(fpu.err.find("has no FPU"), std::string::npos) << fpu.err;
  EXPECT_EQ(std::count(fpu.err.begin(), fpu.err.end(), '\n'), 1) << fpu.err;
  // Armv8-M Mainline code on the Cortex-M4.
  const RunOutcome v8m = cpuRun({"cortex-m4f", "probes_m33"}, "alu_straight", {});
  EXPECT_EQ(v8m.exit_code, 2) << v8m.err;
  EXPECT_NE(v8m.err.find("built for Armv8-M Mainline, which cortex-m4f (Armv7E-M) cannot run"),
            std::string::npos)
      << v8m.err;
  // What each core runs: its own code and older M-profile code.
  EXPECT_EQ(cpuRun({"cortex-m33", "probes_m4"}, "alu_straight", {}).exit_code, 0);
  EXPECT_EQ(cpuRun({"cortex-m4f", "probes_m0plus"}, "alu_straight", {}).exit_code, 0);
  EXPECT_EQ(cpuRun({"cortex-m4f", "probe_m4f_fpu"}, "add_floats", {}).exit_code, 0);
}

TEST(IssResults, DotProductReturnsTheSum) {
  // The SRAM table's first 32 bytes dotted with themselves, computed on both architectures.
  for (const Core& core : {kM4, kRv}) {
    const RunOutcome out =
        runHilsim({"cpu-run", probe(core.elf), "--entry", "dot_s8", "--arg", kTable, "--arg",
                   kTable, "--arg", "32", "--set", std::string("cpu.preset=") + core.preset});
    ASSERT_EQ(out.exit_code, 0) << out.err;
    EXPECT_NE(out.out.find("return 0x0000049c"), std::string::npos) << core.preset << out.out;
  }
}

}  // namespace
}  // namespace hilsim::test
