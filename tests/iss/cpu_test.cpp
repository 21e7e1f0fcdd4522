// The Cpu API on small hand-encoded images: return values, WFI and resume, a nested interrupt
// handler, MMIO callbacks and requestStop, faults, counters. Cycle counts follow the Cortex-M4
// table (iss/README.md) with zero wait states.

#include <gtest/gtest.h>

#include <vector>

#include "elf_builder.h"
#include "fast_paths.h"
#include "hilsim/errors.h"
#include "hilsim/iss/cpu.h"
#include "hilsim/iss/memory_map.h"

namespace hilsim::iss {
namespace {

using test::halfwords;
using test::words;

CpuOptions m4() {
  CpuOptions o;
  o.core = Core::kCortexM4F;
  o.memory.flash_wait_states = 0;
  o.memory.sram_wait_states = 0;
  return o;
}

ElfImage image(uint16_t machine, std::vector<uint8_t> code,
               const std::vector<test::TestSymbol>& symbols) {
  return ElfImage::parse(test::buildElf(machine, {{0x100, std::move(code)}}, symbols).bytes,
                         "test.elf");
}

TEST(Cpu, CallReturnsR0AndCountsCycles) {
  Cpu cpu(m4());
  // 0x100: adds r0, r0, r1; bx lr
  cpu.loadElf(image(40, halfwords({0x1840, 0x4770}), {{"add", 0x101}}));
  const RunResult r = cpu.call(0x100, {30, 12});
  ASSERT_EQ(r.reason, StopReason::kReturned) << r.fault;
  EXPECT_EQ(r.return_value, 42u);
  // adds 1 + bx lr (1 + P with P = 2 for a register target) = 4.
  EXPECT_EQ(r.cycles, 4u);
  EXPECT_EQ(r.instructions, 2u);
  EXPECT_EQ(cpu.cycles(), 4u);
  const RunResult again = cpu.call(0x101, {1, 2});
  EXPECT_EQ(again.return_value, 3u);
  EXPECT_EQ(cpu.cycles(), 8u);
  EXPECT_EQ(cpu.instructions(), 4u);
  EXPECT_FALSE(cpu.suspended());
}

TEST(Cpu, WfiSuspendsAndResumeContinues) {
  Cpu cpu(m4());
  // 0x100: movs r0, #5; wfi; adds r0, #1; bx lr
  cpu.loadElf(image(40, halfwords({0x2005, 0xbf30, 0x3001, 0x4770}), {}));
  const RunResult waiting = cpu.call(0x100, {});
  ASSERT_EQ(waiting.reason, StopReason::kWaitForInterrupt) << waiting.fault;
  EXPECT_EQ(waiting.pc, 0x104u);
  EXPECT_TRUE(cpu.suspended());
  const RunResult done = cpu.resume();
  ASSERT_EQ(done.reason, StopReason::kReturned);
  EXPECT_EQ(done.return_value, 6u);
  EXPECT_FALSE(cpu.suspended());
  EXPECT_THROW(cpu.resume(), std::logic_error);
}

TEST(Cpu, InterruptHandlerRunsNestedBelowTheStackAndRestoresRegisters) {
  Cpu cpu(m4());
  // 0x100: movs r0, #5; wfi; adds r0, #1; bx lr
  // 0x108: handler: mov r0, sp; bx lr
  cpu.loadElf(image(40, halfwords({0x2005, 0xbf30, 0x3001, 0x4770, 0x4668, 0x4770}), {}));
  ASSERT_EQ(cpu.call(0x100, {}).reason, StopReason::kWaitForInterrupt);
  const uint64_t before = cpu.cycles();
  const RunResult handler = cpu.callInterrupt(0x108);
  ASSERT_EQ(handler.reason, StopReason::kReturned) << handler.fault;
  // Stacked 8 words below the interrupted stack pointer (the top of the stack).
  EXPECT_EQ(handler.return_value, kStackTop - 32);
  // Entry 12 + mov 1 + bx 1 + exit 10 (the exit replaces the return's refill).
  EXPECT_EQ(handler.cycles, 24u);
  EXPECT_EQ(cpu.cycles() - before, 24u);
  EXPECT_TRUE(cpu.suspended());
  const RunResult done = cpu.resume();
  ASSERT_EQ(done.reason, StopReason::kReturned);
  EXPECT_EQ(done.return_value, 6u);  // r0 of the interrupted call survived the handler
}

TEST(Cpu, CallInterruptNeedsASuspendedCall) {
  Cpu cpu(m4());
  EXPECT_THROW(cpu.callInterrupt(0x100), std::logic_error);
}

struct RecordingDevice : MmioHandler {
  Cpu* cpu = nullptr;
  std::vector<std::pair<uint32_t, uint64_t>> writes;
  std::vector<uint32_t> reads;
  uint64_t read(uint32_t offset, unsigned size) override {
    reads.push_back(offset);
    return 100 + offset;
  }
  void write(uint32_t offset, unsigned size, uint64_t value) override {
    writes.emplace_back(offset, value);
    cpu->requestStop();
  }
};

TEST(Cpu, MmioCallbacksAndRequestStop) {
  Cpu cpu(m4());
  RecordingDevice device;
  device.cpu = &cpu;
  cpu.mapMmio(kAcceleratorRegsBase, kAcceleratorRegsBytes, device);
  // 0x100: ldr r1, [pc, #8]   (the literal at 0x10c)
  // 0x102: movs r0, #7
  // 0x104: str r0, [r1, #4]   (MMIO write: the device asks to stop)
  // 0x106: b.n 0x108          (ends the block)
  // 0x108: ldr r0, [r1, #8]   (MMIO read)
  // 0x10a: bx lr
  // 0x10c: .word 0x40000000
  cpu.loadElf(
      image(40, halfwords({0x4902, 0x2007, 0x6048, 0xe7ff, 0x6888, 0x4770, 0x0000, 0x4000}), {}));
  const RunResult stopped = cpu.call(0x100, {});
  ASSERT_EQ(stopped.reason, StopReason::kStopRequested) << stopped.fault;
  EXPECT_EQ(stopped.pc, 0x108u);  // the end of the block holding the write
  ASSERT_EQ(device.writes.size(), 1u);
  EXPECT_EQ(device.writes[0], (std::pair<uint32_t, uint64_t>(4, 7)));
  EXPECT_TRUE(device.reads.empty());
  const RunResult done = cpu.resume();
  ASSERT_EQ(done.reason, StopReason::kReturned) << done.fault;
  EXPECT_EQ(done.return_value, 108u);
  EXPECT_EQ(device.reads, std::vector<uint32_t>{8});
  EXPECT_EQ(device.writes.size(), 1u);  // the write was not repeated by the resume
}

// A device that fails: its exception leaves call() with its type once the engine has returned,
// and the Cpu runs the next call.
struct FailingDevice : MmioHandler {
  uint64_t read(uint32_t, unsigned) override { throw SimulationError("device gone"); }
  void write(uint32_t, unsigned, uint64_t) override { throw InputError("bad write"); }
};

TEST(Cpu, DeviceErrorsAreRethrownAfterTheEngineReturns) {
  Cpu cpu(m4());
  FailingDevice device;
  cpu.mapMmio(kAcceleratorRegsBase, kAcceleratorRegsBytes, device);
  // 0x100: ldr r0, [r1]; bx lr
  // 0x104: str r0, [r1]; bx lr
  // 0x108: movs r0, #3; bx lr
  cpu.loadElf(image(40, halfwords({0x6808, 0x4770, 0x6008, 0x4770, 0x2003, 0x4770}), {}));
  EXPECT_THROW(cpu.call(0x100, {0, kAcceleratorRegsBase}), SimulationError);
  EXPECT_FALSE(cpu.suspended());
  EXPECT_THROW(cpu.call(0x104, {0, kAcceleratorRegsBase}), InputError);
  const RunResult r = cpu.call(0x108, {});
  ASSERT_EQ(r.reason, StopReason::kReturned) << r.fault;
  EXPECT_EQ(r.return_value, 3u);
}

TEST(Cpu, UnmappedAccessIsAFaultNamingTheInstructionAndAddress) {
  Cpu cpu(m4());
  // 0x100: movs r2, #1; ldr r0, [r1, #4]; bx lr
  cpu.loadElf(image(40, halfwords({0x2201, 0x6848, 0x4770}), {}));
  const RunResult r = cpu.call(0x100, {0, 0x30000000});
  ASSERT_EQ(r.reason, StopReason::kFault);
  EXPECT_EQ(r.pc, 0x102u);
  EXPECT_NE(r.fault.find("read of unmapped address 0x30000004"), std::string::npos) << r.fault;
  EXPECT_FALSE(cpu.suspended());
}

TEST(Cpu, WriteToFlashIsAFault) {
  Cpu cpu(m4());
  // 0x100: str r0, [r1]; bx lr
  cpu.loadElf(image(40, halfwords({0x6008, 0x4770}), {}));
  const RunResult r = cpu.call(0x100, {1, 0x200});
  ASSERT_EQ(r.reason, StopReason::kFault);
  EXPECT_NE(r.fault.find("read-only"), std::string::npos) << r.fault;
}

// A store and a load back on each engine: with the engine overrides active the store's page skips
// the engine's search for translated code (src/unicorn_fast_paths.cpp).
void expectStoreLandsDirectly(Cpu& cpu) {
  const uint64_t before = FastPaths::directStorePages();
  const RunResult r = cpu.call(0x100, {kFirmwareSramBase + 64, 0x1234'5678});
  ASSERT_EQ(r.reason, StopReason::kReturned) << r.fault;
  EXPECT_EQ(r.return_value, 0x1234'5678u);
  uint32_t stored = 0;
  cpu.readMemory(kFirmwareSramBase + 64, &stored, 4);
  EXPECT_EQ(stored, 0x1234'5678u);
  EXPECT_GT(FastPaths::directStorePages(), before);
}

TEST(Cpu, GuestStoresToRamGoStraightToMemory) {
  if (!FastPaths::enabled()) GTEST_SKIP() << "the engine overrides are off in this build";
  Cpu arm(m4());
  // 0x100: str r1, [r0]; ldr r0, [r0]; bx lr
  arm.loadElf(image(40, halfwords({0x6001, 0x6800, 0x4770}), {}));
  expectStoreLandsDirectly(arm);
  CpuOptions o;
  o.core = Core::kRv32im;
  Cpu riscv(o);
  // 0x100: sw a1, 0(a0); lw a0, 0(a0); ret
  riscv.loadElf(image(243, words({0x00b52023, 0x00052503, 0x00008067}), {}));
  expectStoreLandsDirectly(riscv);
}

// Code in SRAM that rewrites itself: the store must reach the code the engine runs next.
TEST(Cpu, GuestStoresToCodeThatRanAreSeenByTheNextRun) {
  Cpu cpu(m4());
  // 0x100: strh r1, [r0]; bx lr      (writes one halfword of SRAM)
  cpu.loadElf(image(40, halfwords({0x8001, 0x4770}), {}));
  const uint32_t code = kFirmwareSramBase + 0x800;
  const uint16_t returns_five[] = {0x2005, 0x4770};  // movs r0, #5; bx lr
  cpu.writeMemory(code, returns_five, sizeof returns_five);
  // Stores to the page before any code there ran, then the code runs.
  ASSERT_EQ(cpu.call(0x100, {kFirmwareSramBase + 0x900, 0}).reason, StopReason::kReturned);
  EXPECT_EQ(cpu.call(code, {}).return_value, 5u);
  // The guest rewrites it: movs r0, #9.
  ASSERT_EQ(cpu.call(0x100, {code, 0x2009}).reason, StopReason::kReturned);
  EXPECT_EQ(cpu.call(code, {}).return_value, 9u);
  ASSERT_EQ(cpu.call(0x100, {code, 0x2003}).reason, StopReason::kReturned);
  EXPECT_EQ(cpu.call(code, {}).return_value, 3u);
}

TEST(Cpu, NewCodeAtTheSameAddressIsTranslatedAfresh) {
  Cpu cpu(m4());
  cpu.loadElf(image(40, halfwords({0x2005, 0x4770}), {}));  // movs r0, #5; bx lr
  EXPECT_EQ(cpu.call(0x100, {}).return_value, 5u);
  cpu.loadElf(image(40, halfwords({0x2009, 0x4770}), {}));  // movs r0, #9; bx lr
  EXPECT_EQ(cpu.call(0x100, {}).return_value, 9u);
}

TEST(Cpu, RunawayStopsAtTheInstructionLimit) {
  CpuOptions o = m4();
  o.max_instructions = 1000;
  Cpu cpu(o);
  cpu.loadElf(image(40, halfwords({0xe7fe}), {}));  // 0x100: b 0x100
  const RunResult r = cpu.call(0x100, {});
  ASSERT_EQ(r.reason, StopReason::kFault);
  EXPECT_NE(r.fault.find("runaway"), std::string::npos);
  EXPECT_LE(r.instructions, 1000u);
}

TEST(Cpu, DividesAreTimedByTheirOperands) {
  Cpu cpu(m4());
  // 0x100: udiv r0, r0, r1; bx lr
  cpu.loadElf(image(40, halfwords({0xfbb0, 0xf0f1, 0x4770}), {}));
  const RunResult big = cpu.call(0x100, {0xffffffff, 1});
  EXPECT_EQ(big.return_value, 0xffffffffu);
  EXPECT_EQ(big.cycles, 12u + 3u);  // a 32-bit quotient: the top of 2..12
  const RunResult small = cpu.call(0x100, {5, 7});
  EXPECT_EQ(small.return_value, 0u);
  EXPECT_EQ(small.cycles, 2u + 3u);  // a zero quotient: the bottom
}

TEST(Cpu, ModelFlashReadsChargeWaitStatesThroughTheCountedPath) {
  for (uint32_t wait : {0u, 4u}) {
    CpuOptions o = m4();
    o.memory.flash_wait_states = wait;
    Cpu cpu(o);
    const uint8_t weights[] = {7, 8, 9, 10};
    cpu.mapBytes(kModelFlashBase, weights, sizeof weights);
    // 0x100: ldrb r0, [r1, #2]; bx lr
    cpu.loadElf(image(40, halfwords({0x7888, 0x4770}), {}));
    const RunResult r = cpu.call(0x100, {0, kModelFlashBase});
    ASSERT_EQ(r.reason, StopReason::kReturned) << r.fault;
    EXPECT_EQ(r.return_value, 9u);
    // The code's one flash line and the weight's line each wait (no caches by default).
    EXPECT_EQ(r.cycles, 2u + 3u + wait + wait);
  }
}

// Every width and alignment of load from counted flash, on both engines: aligned loads are served
// by src/unicorn_fast_paths.cpp when its overrides are active, misaligned ones (and all of them
// otherwise) by the engine's MMIO path, at the same charge per bus access.
void expectCountedLoads(Cpu& cpu, uint32_t wait, const std::vector<uint32_t>& offsets) {
  for (uint32_t offset : offsets) {
    const uint64_t served = FastPaths::servedLoads();
    const RunResult r = cpu.call(0x100, {kModelFlashBase + offset});
    ASSERT_EQ(r.reason, StopReason::kReturned) << r.fault;
    // The three loads' bytes (offset, offset+1, ...) summed: byte + halfword + word.
    uint32_t expected = offset & 0xff;
    expected += ((offset + 1) & 0xff) << 8 | (offset & 0xff);
    expected += ((offset + 3) & 0xff) << 24 | ((offset + 2) & 0xff) << 16 |
                ((offset + 1) & 0xff) << 8 | (offset & 0xff);
    EXPECT_EQ(r.return_value, expected) << "offset " << offset;
    // A misaligned halfword or word is two bus accesses, each charged, and with the engine
    // overrides on a Cortex-M4 also the TRM's extra cycles: +1 for a byte-aligned halfword, +1
    // for a halfword-aligned word, +2 for a byte-aligned word.
    const uint32_t accesses = 1 + (offset % 2 ? 2 : 1) + (offset % 4 ? 2 : 1);
    const uint32_t unaligned = FastPaths::enabled() && cpu.core() == Core::kCortexM4F
                                   ? offset % 2 + (offset % 4 == 2 ? 1
                                                   : offset % 2    ? 2
                                                                   : 0)
                                   : 0;
    EXPECT_EQ(r.cycles, cpu.call(0x100, {kFirmwareSramBase}).cycles + accesses * wait + unaligned)
        << "offset " << offset;
    if (FastPaths::enabled() && offset % 4 == 0) {
      EXPECT_EQ(FastPaths::servedLoads(), served + 3);
    }
  }
}

TEST(Cpu, CountedFlashLoadsOfEveryWidthAndAlignment) {
  std::vector<uint8_t> weights(8192);
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = uint8_t(i);
  const uint32_t wait = 3;
  CpuOptions o = m4();
  o.memory.flash_wait_states = wait;
  Cpu arm(o);
  arm.mapBytes(kModelFlashBase, weights.data(), weights.size());
  // 0x100: ldrb r1, [r0]; ldrh r2, [r0]; ldr r3, [r0]; adds r0, r1, r2; adds r0, r0, r3; bx lr
  arm.loadElf(image(40, halfwords({0x7801, 0x8802, 0x6803, 0x1888, 0x18c0, 0x4770}), {}));
  std::vector<uint8_t> sram_copy(weights.begin(), weights.begin() + 256);
  arm.writeMemory(kFirmwareSramBase, sram_copy.data(), sram_copy.size());
  expectCountedLoads(arm, wait, {0, 4, 1, 2, 3, 4092, 8188});
  o.core = Core::kRv32im;
  Cpu riscv(o);
  riscv.mapBytes(kModelFlashBase, weights.data(), weights.size());
  // 0x100: lbu a1, 0(a0); lhu a2, 0(a0); lw a3, 0(a0); add a0, a1, a2; add a0, a0, a3; ret
  riscv.loadElf(image(
      243, words({0x00054583, 0x00055603, 0x00052683, 0x00c58533, 0x00d50533, 0x00008067}), {}));
  riscv.writeMemory(kFirmwareSramBase, sram_copy.data(), sram_copy.size());
  expectCountedLoads(riscv, wait, {0, 4, 4092, 8188});
}

TEST(Cpu, AlignedCountedFlashLoadsTakeTheFastPath) {
  if (!FastPaths::enabled()) GTEST_SKIP() << "the engine overrides are off in this build";
  const uint8_t weights[] = {1, 2, 3, 4, 5, 6, 7, 8};
  CpuOptions o = m4();
  o.memory.flash_wait_states = 2;
  Cpu cpu(o);
  cpu.mapBytes(kModelFlashBase, weights, sizeof weights);
  // 0x100: ldr r0, [r1]; ldrb r2, [r1, #5]; adds r0, r0, r2; bx lr
  cpu.loadElf(image(40, halfwords({0x6808, 0x794a, 0x1880, 0x4770}), {}));
  const uint64_t served = FastPaths::servedLoads();
  const RunResult r = cpu.call(0x100, {0, kModelFlashBase});
  ASSERT_EQ(r.reason, StopReason::kReturned) << r.fault;
  EXPECT_EQ(r.return_value, 0x0403'0201u + 6);
  EXPECT_EQ(FastPaths::servedLoads(), served + 2);
}

// ---- the flash memory system -------------------------------------------------------------------

// 0x100: six `adds r1, #1`, `subs r0, #1`, `bne 0x100` (16 bytes: two 8-byte lines), then
// `bx lr` at 0x110 (a third line). Each iteration is 6 + 1 + 2 (taken, immediate target) = 9
// cycles at zero wait states.
std::vector<uint8_t> flashLoop() {
  return halfwords({0x3101, 0x3101, 0x3101, 0x3101, 0x3101, 0x3101, 0x3801, 0xd1f7, 0x4770});
}

uint64_t loopCycles(uint32_t wait, const FlashOptions& flash, uint32_t iterations,
                    FlashStats* stats = nullptr) {
  CpuOptions o = m4();
  o.memory.flash_wait_states = wait;
  o.memory.flash = flash;
  Cpu cpu(o);
  cpu.loadElf(image(40, flashLoop(), {}));
  const RunResult r = cpu.call(0x100, {iterations, 0});
  EXPECT_EQ(r.reason, StopReason::kReturned) << r.fault;
  EXPECT_EQ(r.return_value, 0u);  // r0 counted down
  if (stats) *stats = cpu.flashStats();
  return r.cycles;
}

TEST(CpuFlash, WithoutCachesOrPrefetchEveryLinePaysItsWaitStates) {
  const FlashOptions bare;  // 8-byte lines, no prefetch, no caches
  const uint32_t wait = 5;
  for (uint32_t n : {1u, 10u, 100u}) {
    // Each iteration reads both lines (the branch fetches its target anew); the exit reads the
    // third.
    EXPECT_EQ(loopCycles(wait, bare, n), loopCycles(0, bare, n) + wait * (2 * n + 1)) << n;
  }
  FlashStats stats;
  loopCycles(wait, bare, 100, &stats);
  EXPECT_EQ(stats.line_reads, 201u);
  EXPECT_EQ(stats.icache_hits + stats.icache_misses, 0u);
}

TEST(CpuFlash, PrefetchHidesTheSequentialLine) {
  FlashOptions prefetch;
  prefetch.prefetch = true;
  const uint32_t wait = 5;
  // The branch target waits; the loop's second line and the exit's line were read ahead.
  EXPECT_EQ(loopCycles(wait, prefetch, 100), loopCycles(0, prefetch, 100) + wait * 100);
}

TEST(CpuFlash, ALoopThatFitsTheInstructionCacheRunsAtZeroWaitStatesAfterItsFirstIteration) {
  struct Part {
    const char* name;
    FlashOptions flash;
    uint32_t wait;
  };
  // STM32G0 (2 lines of 8 bytes would not hold this loop: 4 lines here), STM32L4 ART, STM32U5.
  const Part parts[] = {{"4-line buffer", {8, true, 4, 4, 0, 1, false}, 1},
                        {"ART", {8, false, 128, 4, 32, 4, false}, 5},
                        {"ICACHE", {16, true, 512, 2, 0, 1, true}, 3}};
  for (const Part& p : parts) {
    const uint64_t first = loopCycles(p.wait, p.flash, 1);
    const uint64_t many = loopCycles(p.wait, p.flash, 1001);
    const uint64_t first0 = loopCycles(0, p.flash, 1);
    const uint64_t many0 = loopCycles(0, p.flash, 1001);
    EXPECT_GT(first, first0) << p.name << ": the first iteration misses";
    const double later = double(many - first), later0 = double(many0 - first0);
    EXPECT_LE(later, later0 * 1.02) << p.name;
    EXPECT_EQ(many - first, many0 - first0) << p.name << ": every later fetch hits";
    FlashStats stats;
    loopCycles(p.wait, p.flash, 1001, &stats);
    EXPECT_LE(stats.icache_misses, 3u) << p.name;
    EXPECT_GE(stats.icache_hits, 1000u) << p.name;
  }
}

TEST(CpuFlash, ALoopLargerThanTheCacheKeepsMissing) {
  // Two 8-byte lines of cache, direct mapped on line bit 0: lines 0x20 and 0x22 share a set.
  const FlashOptions tiny{8, false, 2, 1, 0, 1, false};
  const uint32_t wait = 5;
  FlashStats stats;
  const uint64_t c = loopCycles(wait, tiny, 100, &stats);
  EXPECT_EQ(c, loopCycles(0, tiny, 100) + wait * (2 + 1));  // both lines stay; the exit misses
  const FlashOptions one_line{8, false, 1, 1, 0, 1, false};
  EXPECT_EQ(loopCycles(wait, one_line, 100), loopCycles(0, one_line, 100) + wait * (2 * 100 + 1));
}

// Data loads from flash pay one line read on a miss: 16 byte loads of consecutive model-flash
// bytes are 2 lines of 8 bytes. The code runs from SRAM, so that only the data goes to flash.
uint64_t byteLoads(uint32_t wait, const FlashOptions& flash, int runs, FlashStats* stats) {
  CpuOptions o = m4();
  o.memory.flash_wait_states = wait;
  o.memory.flash = flash;
  Cpu cpu(o);
  std::vector<uint8_t> weights(4096);
  for (size_t i = 0; i < weights.size(); ++i) weights[i] = uint8_t(i);
  cpu.mapBytes(kModelFlashBase, weights.data(), weights.size());
  // ldrb r2, [r1, #k] for k = 0..15 (0x7800 | k << 6 | r1 << 3 | r2), then bx lr.
  std::vector<uint8_t> code;
  for (uint16_t k = 0; k <= 16; ++k) {
    const uint16_t insn = k < 16 ? uint16_t(0x780a | k << 6) : uint16_t(0x4770);
    code.push_back(uint8_t(insn));
    code.push_back(uint8_t(insn >> 8));
  }
  cpu.loadElf(ElfImage::parse(test::buildElf(40, {{kFirmwareSramBase + 0x100, code}}, {}).bytes,
                              "data.elf"));
  uint64_t cycles = 0;
  for (int i = 0; i < runs; ++i) {
    const RunResult r = cpu.call(kFirmwareSramBase + 0x100, {0, kModelFlashBase});
    EXPECT_EQ(r.reason, StopReason::kReturned) << r.fault;
    EXPECT_EQ(r.return_value, 0u);
    cycles = r.cycles;  // the last run's
  }
  *stats = cpu.flashStats();
  return cycles;
}

TEST(CpuFlash, DataLoadsFromFlashPayPerLineOnAMiss) {
  const uint32_t wait = 4;
  FlashStats stats;
  const FlashOptions none;
  const uint64_t zero = byteLoads(0, none, 1, &stats);
  // No data cache: every load reads the flash.
  EXPECT_EQ(byteLoads(wait, none, 1, &stats), zero + 16 * wait);
  EXPECT_EQ(stats.line_reads, 16u);
  EXPECT_EQ(stats.model_line_reads, 16u);  // the code runs from SRAM: every read is model data
  // A data cache: one line read per 8 bytes on the first run, none on the second.
  const FlashOptions dcache{8, false, 0, 1, 4, 2, false};
  EXPECT_EQ(byteLoads(wait, dcache, 1, &stats), zero + 2 * wait);
  EXPECT_EQ(stats.dcache_misses, 2u);
  EXPECT_EQ(stats.dcache_hits, 14u);
  EXPECT_EQ(stats.line_reads, 2u);
  EXPECT_EQ(byteLoads(wait, dcache, 2, &stats), zero);
  EXPECT_EQ(stats.dcache_misses, 2u);
  // Through the instruction cache (a cache on the code bus), with 16-byte lines: one line.
  const FlashOptions through{16, false, 8, 2, 0, 1, true};
  EXPECT_EQ(byteLoads(wait, through, 1, &stats), zero + wait);
  EXPECT_EQ(stats.icache_misses, 1u);
  EXPECT_EQ(stats.icache_hits, 15u);
  EXPECT_EQ(stats.dcache_hits + stats.dcache_misses, 0u);
}

// Byte loads of model flash at offsets 0, 4, 8, 20, 0, 31 (8-byte lines 0, 0, 1, 2, 0, 3), by
// code fetched from the flash code region at 0x100, so that instruction fetches read lines too.
FlashStats modelLineReads(uint32_t wait, const FlashOptions& flash) {
  CpuOptions o = m4();
  o.memory.flash_wait_states = wait;
  o.memory.flash = flash;
  Cpu cpu(o);
  std::vector<uint8_t> weights(4096, 7);
  cpu.mapBytes(kModelFlashBase, weights.data(), weights.size());
  // ldrb r2, [r1, #k] (0x780a | k << 6) for each offset k, then bx lr.
  cpu.loadElf(image(40, halfwords({0x780a, 0x790a, 0x7a0a, 0x7d0a, 0x780a, 0x7fca, 0x4770}), {}));
  const RunResult r = cpu.call(0x100, {0, kModelFlashBase});
  EXPECT_EQ(r.reason, StopReason::kReturned) << r.fault;
  return cpu.flashStats();
}

TEST(CpuFlash, ModelLineReadsCountTheModelDataLinesReadFromTheFlashArray) {
  // No data cache: every load of model flash reads its line, a repeated line too.
  const FlashStats bare = modelLineReads(5, FlashOptions{});
  EXPECT_EQ(bare.model_line_reads, 6u);
  // The code's own two lines (14 bytes of instructions at 0x100) are line reads, not model ones.
  EXPECT_EQ(bare.line_reads, bare.model_line_reads + 2);
  // A data cache: the four distinct lines are read once each; the repeats hit.
  const FlashOptions dcache{8, false, 0, 1, 4, 2, false};
  const FlashStats cached = modelLineReads(5, dcache);
  EXPECT_EQ(cached.model_line_reads, 4u);
  EXPECT_EQ(cached.dcache_misses, 4u);
  EXPECT_EQ(cached.dcache_hits, 2u);
  // Through the instruction cache with 16-byte lines (0, 0, 0, 1, 0, 1): two lines.
  const FlashStats through = modelLineReads(5, {16, false, 8, 2, 0, 1, true});
  EXPECT_EQ(through.model_line_reads, 2u);
  // STM32L4R5's ART (cpu.preset cortex-m4f): 32 lines of data cache.
  EXPECT_EQ(modelLineReads(5, coreInfo(Core::kCortexM4F).memory.flash).model_line_reads, 4u);
  // Without flash wait states the model flash is not counted.
  EXPECT_EQ(modelLineReads(0, FlashOptions{}).model_line_reads, 0u);
  EXPECT_EQ(modelLineReads(0, dcache).model_line_reads, 0u);
  // Subtracting counts (a layer's share) keeps the model reads apart.
  EXPECT_EQ((bare - cached).model_line_reads, 2u);
}

TEST(CpuFlash, LiteralLoadsGoThroughTheDataPath) {
  // 0x100: ldr r0, [pc, #4] (the word at 0x108); bx lr; nop; nop; .word 42. Code and literal
  // share no line: the code is line 0x20, the literal line 0x21.
  const std::vector<uint8_t> code = halfwords({0x4801, 0x4770, 0xbf00, 0xbf00, 42, 0});
  for (const bool dcache : {false, true}) {
    CpuOptions o = m4();
    o.memory.flash_wait_states = 3;
    o.memory.flash.icache_lines = 8;
    o.memory.flash.icache_ways = 2;
    o.memory.flash.dcache_lines = dcache ? 4 : 0;
    o.memory.flash.dcache_ways = dcache ? 2 : 1;
    Cpu cpu(o);
    cpu.loadElf(image(40, code, {}));
    const RunResult first = cpu.call(0x100, {});
    ASSERT_EQ(first.reason, StopReason::kReturned) << first.fault;
    EXPECT_EQ(first.return_value, 42u);
    const RunResult second = cpu.call(0x100, {});
    // ldr 2 + bx 3; the first run misses the code line and the literal's line.
    EXPECT_EQ(first.cycles, 5u + 3 + 3);
    EXPECT_EQ(second.cycles, 5u + (dcache ? 0 : 3)) << "data cache " << dcache;
  }
}

TEST(CpuFlash, OptionsAreChecked) {
  CpuOptions o = m4();
  o.memory.flash.line_bytes = 12;
  EXPECT_THROW(Cpu{o}, ConfigError);
  o = m4();
  o.memory.flash.icache_lines = 6;
  o.memory.flash.icache_ways = 4;
  EXPECT_THROW(Cpu{o}, ConfigError);
  o = m4();
  o.memory.flash.data_through_icache = true;
  EXPECT_THROW(Cpu{o}, ConfigError);
}

TEST(Cpu, HostMemoryIsSharedAndMustBeAligned) {
  Cpu cpu(m4());
  alignas(4096) static uint32_t host[1024] = {};
  cpu.mapHostMemory(kArenaSramBase, host, sizeof host, true);
  // 0x100: str r0, [r1]; bx lr
  cpu.loadElf(image(40, halfwords({0x6008, 0x4770}), {}));
  ASSERT_EQ(cpu.call(0x100, {0xabcd, kArenaSramBase}).reason, StopReason::kReturned);
  EXPECT_EQ(host[0], 0xabcdu);
  EXPECT_THROW(cpu.mapHostMemory(kArenaSramBase + 0x100000, host + 1, 64, true), InputError);
}

TEST(Cpu, LoadElfRejectsSegmentsOutsideMappedMemoryAndOtherArchitectures) {
  Cpu cpu(m4());
  const auto outside =
      ElfImage::parse(test::buildElf(40, {{0x30000000, {1, 2, 3, 4}}}, {}).bytes, "outside.elf");
  try {
    cpu.loadElf(outside);
    FAIL() << "loaded a segment outside mapped memory";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("0x30000000"), std::string::npos) << e.what();
  }
  EXPECT_THROW(cpu.loadElf(image(243, words({0x00008067}), {})), InputError);
}

TEST(Cpu, RiscVWfiResumeAndReturnValue) {
  CpuOptions o;
  o.core = Core::kRv32im;
  Cpu cpu(o);
  // 0x100: li a0, 5; wfi; addi a0, a0, 1; ret
  cpu.loadElf(image(243, words({0x00500513, 0x10500073, 0x00150513, 0x00008067}), {}));
  const RunResult waiting = cpu.call(0x100, {});
  ASSERT_EQ(waiting.reason, StopReason::kWaitForInterrupt) << waiting.fault;
  EXPECT_EQ(waiting.pc, 0x108u);
  const RunResult done = cpu.resume();
  ASSERT_EQ(done.reason, StopReason::kReturned);
  EXPECT_EQ(done.return_value, 6u);
  // One cycle per instruction: li, wfi, addi, ret (a return predicted by the stack: no penalty).
  EXPECT_EQ(waiting.cycles + done.cycles, 4u) << waiting.cycles << " " << waiting.instructions
                                              << " " << done.cycles << " " << done.instructions;
}

TEST(Cpu, PresetLookup) {
  EXPECT_EQ(coreForPreset("cortex-m0plus"), Core::kCortexM0Plus);
  EXPECT_EQ(coreForPreset("cortex-m4f"), Core::kCortexM4F);
  EXPECT_EQ(coreForPreset("cortex-m33"), Core::kCortexM33);
  EXPECT_EQ(coreForPreset("rv32im"), Core::kRv32im);
  EXPECT_FALSE(coreForPreset("cortex-m7"));
  EXPECT_FALSE(coreForPreset("cortex-m55"));
  // Board presets run their core under their part's memories.
  EXPECT_EQ(coreForPreset("stm32g0b1"), Core::kCortexM0Plus);
  EXPECT_EQ(coreForPreset("stm32l4r5"), Core::kCortexM4F);
  EXPECT_EQ(coreForPreset("nrf5340"), Core::kCortexM33);
  EXPECT_EQ(coreForPreset("stm32u575"), Core::kCortexM33);
  EXPECT_EQ(coreForPreset("ra6m4"), Core::kCortexM33);
  EXPECT_EQ(coreForPreset("fe310"), Core::kRv32im);
  EXPECT_EQ(std::string(coreInfo(Core::kCortexM33).preset), "cortex-m33");
  EXPECT_EQ(corePresetNames(),
            (std::vector<std::string>{"cortex-m0plus", "cortex-m4f", "cortex-m33", "rv32im"}));
  EXPECT_EQ(issPresetNames().size(), 10u);
  const CoreInfo* u575 = presetInfo("stm32u575");
  ASSERT_NE(u575, nullptr);
  EXPECT_EQ(u575->memory.flash_wait_states, 4u);
  EXPECT_EQ(u575->exception_entry_cycles, coreInfo(Core::kCortexM33).exception_entry_cycles);
  EXPECT_EQ(presetInfo("cortex-m7"), nullptr);
  // The E31 Core Complex's branch predictor and the FE310-G002's (history, target, return-stack
  // entries); the Arm cores have none.
  EXPECT_EQ(presetInfo("rv32im")->branch_predictor, (BranchPredictorOptions{512, 28, 6}));
  EXPECT_EQ(presetInfo("fe310")->branch_predictor, (BranchPredictorOptions{128, 40, 2}));
  EXPECT_EQ(u575->branch_predictor, BranchPredictorOptions{});
  // Each board's memories: its wait states and flash memory system (line bytes, prefetch,
  // instruction cache lines, data cache lines, data through the instruction cache).
  struct Memories {
    const char* preset;
    uint32_t wait_states, line_bytes;
    bool prefetch;
    uint32_t icache_lines, dcache_lines;
    bool data_through_icache;
    uint32_t sram_wait_states;
    bool sram_store_waits;
  };
  for (const Memories& m : {Memories{"stm32g0b1", 2, 8, true, 2, 0, false, 0, true},
                            Memories{"stm32l4r5", 5, 8, false, 128, 32, false, 0, true},
                            Memories{"nrf5340", 3, 16, false, 512, 0, true, 0, true},
                            Memories{"stm32u575", 4, 16, true, 512, 0, true, 0, true},
                            // SRAMWTSC: a wait state on SRAM0 reads only.
                            Memories{"ra6m4", 3, 16, false, 512, 0, true, 1, false},
                            Memories{"fe310", 336, 32, false, 512, 0, false, 0, true}}) {
    SCOPED_TRACE(m.preset);
    const CoreInfo* info = presetInfo(m.preset);
    ASSERT_NE(info, nullptr);
    EXPECT_EQ(info->memory.flash_wait_states, m.wait_states);
    EXPECT_EQ(info->memory.flash.line_bytes, m.line_bytes);
    EXPECT_EQ(info->memory.flash.prefetch, m.prefetch);
    EXPECT_EQ(info->memory.flash.icache_lines, m.icache_lines);
    EXPECT_EQ(info->memory.flash.dcache_lines, m.dcache_lines);
    EXPECT_EQ(info->memory.flash.data_through_icache, m.data_through_icache);
    const CoreInfo& core = coreInfo(info->core);
    EXPECT_EQ(info->exception_entry_cycles, core.exception_entry_cycles);
    EXPECT_EQ(info->exception_exit_cycles, core.exception_exit_cycles);
    EXPECT_EQ(info->memory.sram_wait_states, m.sram_wait_states);
    EXPECT_EQ(info->memory.sram_store_waits, m.sram_store_waits);
  }
}

}  // namespace
}  // namespace hilsim::iss
