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
  return {json.at("cycles").get<uint64_t>(), json.at("instructions").get<uint64_t>()};
}

uint64_t cycles(const Core& core, const std::string& entry, std::vector<std::string> extra = {}) {
  return counts(core, entry, std::move(extra)).cycles;
}

// ---- Cortex-M4 (TRM Table 3-1, section 3.3.2); "bx lr" returns cost 1 + P = 3 (P = 2 for a
// register target) -----------------------------------------------------------------------------

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

TEST(IssCortexM4, FlashWaitStatesOnTakenBranches) {
  // 999 taken branches fetch their target from flash: 3 N + 2 + 2 * 999 with 2 wait states.
  EXPECT_EQ(cycles(kM4, "count_down", {"--arg", "1000", "--set", "cpu.flash_wait_states=2"}),
            3002u + 2 * 999);
}

TEST(IssCortexM4, FlashWaitStatesOnModelReads) {
  // mov.w 1, ldrb 2 + 1 (its base was just computed), ldrb 1, ldrb 1 (pipelined), bx 3 = 9;
  // each of the 3 reads from the model flash waits 3 more.
  EXPECT_EQ(cycles(kM4, "model_reads"), 9u);
  EXPECT_EQ(cycles(kM4, "model_reads", {"--set", "cpu.flash_wait_states=3"}), 9u + 3 * 3);
}

TEST(IssCortexM4, SramWaitStatesOnEveryAccess) {
  // loads_pipelined (8) with 2 wait states on each of its 4 accesses.
  EXPECT_EQ(cycles(kM4, "loads_pipelined", {"--arg", kTable, "--set", "cpu.sram_wait_states=2"}),
            8u + 4 * 2);
}

TEST(IssCortexM4, DefaultWaitStatesAreThePresetsPart) {
  // No flags: 5 flash wait states (STM32L4R5 at 120 MHz) on each of the 999 taken branches.
  const RunOutcome out = cpuRun(kM4, "count_down", {"--arg", "1000"});
  ASSERT_EQ(out.exit_code, 0) << out.err;
  EXPECT_NE(out.out.find("\"cycles\": " + std::to_string(3002 + 5 * 999)), std::string::npos)
      << out.out;
}

// ---- Cortex-M33: its TRM publishes no table; the Cortex-M4 table applies ----------------------

TEST(IssCortexM33, UsesTheCortexM4Table) {
  EXPECT_EQ(cycles(kM33, "loads_pipelined", {"--arg", kTable}), 8u);
  EXPECT_EQ(cycles(kM33, "call_return"), 12u);
  EXPECT_EQ(cycles(kM33, "unsigned_divide", {"--arg", "0xffffffff", "--arg", "1"}), 15u);
  EXPECT_EQ(cycles(kM33, "count_down", {"--arg", "1000"}), 3002u);
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
  // The default: 1 flash wait state (STM32G0 at 48 MHz) on each of the 999 taken branches.
  const RunOutcome out = cpuRun(kM0plus, "count_down", {"--arg", "1000"});
  EXPECT_NE(out.out.find("\"cycles\": 4000"), std::string::npos) << out.out << out.err;
}

// ---- RV32IM on the E31 (manual v2p0, "Execution Pipeline"): one instruction per cycle, results
// after their latency; ret is predicted by the return-address stack (no penalty) ---------------

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
  // addi, sw, jal (predicted: no penalty); leaf: addi, ret; lw, addi, ret (ret reads ra 2 cycles
  // after the lw: no wait): 8 instructions, 8 cycles.
  const Counts c = counts(kRv, "call_return");
  EXPECT_EQ(c.cycles, 8u);
  EXPECT_EQ(c.instructions, 8u);
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
  // 999 taken branches with 2 flash wait states each.
  EXPECT_EQ(cycles(kRv, "count_down", {"--arg", "1000", "--set", "cpu.flash_wait_states=2"}),
            2007u + 2 * 999);
  // lui, lbu, lbu, lbu (rewrites a2 while the first lbu's 3-cycle result is pending: waits 1),
  // ret: 6; each of the 3 model-flash reads waits 3 more.
  EXPECT_EQ(cycles(kRv, "model_reads"), 6u);
  EXPECT_EQ(cycles(kRv, "model_reads", {"--set", "cpu.flash_wait_states=3"}), 6u + 3 * 3);
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
