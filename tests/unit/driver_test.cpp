// The driver against a fake register interface: the exact register sequence, the timeout, and
// the recovery by soft reset. No SystemC.

#include <gtest/gtest.h>

#include <map>

#include "hilsim/drv/driver.h"
#include "hilsim/drv/regs.h"

namespace hilsim::drv {
namespace {

namespace r = regs;

struct Access {
  char kind;  // 'R' read, 'W' write, 'I' wait for interrupt, 'C' copy
  uint32_t offset;
  uint32_t value;
  bool operator==(const Access& o) const {
    return kind == o.kind && offset == o.offset && value == o.value;
  }
};
std::ostream& operator<<(std::ostream& os, const Access& a) {
  return os << a.kind << " 0x" << std::hex << a.offset << " = 0x" << a.value << std::dec;
}

class FakeRegIo final : public RegIo {
 public:
  std::map<uint32_t, uint32_t> regs;
  std::vector<Access> log;
  bool irq = true;
  bool copy_ok = true;
  uint64_t spent = 0;

  FakeRegIo() {
    regs[r::ID] = r::kMagic;
    regs[r::VERSION] = r::kVersion;
    regs[r::CONFIG] = 4 | 4 << r::CONFIG_CHANNELS_SHIFT | r::CONFIG_DOUBLE_BUFFER;
    regs[r::ARRAY] = 16 | 32 << 16;
    regs[r::SRAM_BYTES_LO] = 262144;
    regs[r::MEM_BASE_LO] = 0x1000;
    regs[r::MEM_SIZE_LO] = 0x10000;
    regs[r::IRQ_STATUS] = r::IRQ_DONE;
  }
  uint32_t read32(uint32_t offset) override {
    log.push_back({'R', offset, regs[offset]});
    return regs[offset];
  }
  void write32(uint32_t offset, uint32_t value) override {
    log.push_back({'W', offset, value});
    if (offset != r::CTRL && offset != r::IRQ_STATUS) regs[offset] = value;
    if (offset == r::CTRL && (value & r::CTRL_SOFT_RESET)) regs[r::STATUS] = 0;
  }
  bool copyToDevice(uint64_t addr, const void*, size_t bytes) override {
    log.push_back({'C', static_cast<uint32_t>(addr), static_cast<uint32_t>(bytes)});
    return copy_ok;
  }
  bool copyFromDevice(void*, uint64_t addr, size_t bytes) override {
    log.push_back({'C', static_cast<uint32_t>(addr), static_cast<uint32_t>(bytes)});
    return copy_ok;
  }
  bool waitForIrq(uint64_t timeout) override {
    log.push_back({'I', 0, static_cast<uint32_t>(timeout)});
    return irq;
  }
  void spendCycles(uint64_t cycles) override { spent += cycles; }
  uint64_t nowCycles() const override { return spent; }
  uint32_t debugRead32(uint32_t offset) override { return regs[offset]; }
};

DriverOptions options() {
  DriverOptions o;
  o.job_cycles = 1000;
  o.irq_handler_cycles = 50;
  o.reg_cycles = 10;
  o.timeout_cycles = 5000;
  return o;
}

TEST(Driver, OpenIdentifiesTheDeviceAndEnablesInterrupts) {
  FakeRegIo io;
  Driver d(io, options());
  ASSERT_EQ(d.open(), Status::kOk);
  const std::vector<Access> expected = {
      {'R', r::ID, r::kMagic},        {'R', r::VERSION, r::kVersion},
      {'R', r::CONFIG, io.regs[r::CONFIG]}, {'R', r::ARRAY, 16 | 32 << 16},
      {'R', r::SRAM_BYTES_LO, 262144}, {'R', r::SRAM_BYTES_HI, 0},
      {'R', r::MEM_BASE_LO, 0x1000},  {'R', r::MEM_BASE_HI, 0},
      {'R', r::MEM_SIZE_LO, 0x10000}, {'R', r::MEM_SIZE_HI, 0},
      {'W', r::IRQ_MASK, r::IRQ_DONE | r::IRQ_ERROR},
      {'W', r::IRQ_STATUS, r::IRQ_DONE | r::IRQ_ERROR}};
  EXPECT_EQ(io.log, expected);
  EXPECT_EQ(d.info().num_cores, 4u);
  EXPECT_EQ(d.info().dma_channels, 4u);
  EXPECT_EQ(d.info().array_rows, 16u);
  EXPECT_EQ(d.info().array_cols, 32u);
  EXPECT_TRUE(d.info().double_buffer);
  EXPECT_EQ(d.info().mem_base, 0x1000u);
}

TEST(Driver, OpenRejectsAForeignDevice) {
  FakeRegIo io;
  io.regs[r::ID] = 0xDEADBEEF;
  Driver d(io, options());
  EXPECT_EQ(d.open(), Status::kNoDevice);
  EXPECT_EQ(io.log.size(), 1u);  // nothing written to a device it does not know
}

TEST(Driver, RunProgramsTheJobThenAcknowledgesTheInterrupt) {
  FakeRegIo io;
  Driver d(io, options());
  ASSERT_EQ(d.open(), Status::kOk);
  io.log.clear();
  ASSERT_EQ(d.run({0x1'2345'6780ull, 0b1011}), Status::kOk);
  const std::vector<Access> expected = {
      {'W', r::JOB_TABLE_LO, 0x23456780}, {'W', r::JOB_TABLE_HI, 1},
      {'W', r::CORE_MASK_LO, 0b1011},     {'W', r::CTRL, r::CTRL_START},
      {'I', 0, 5000},                     {'R', r::IRQ_STATUS, r::IRQ_DONE},
      {'W', r::IRQ_STATUS, r::IRQ_DONE}};
  EXPECT_EQ(io.log, expected);
  EXPECT_EQ(io.spent, 1000u + 50u);  // job software and the interrupt handler
  EXPECT_TRUE(d.lastError().empty());
}

TEST(Driver, MoreThan32CoresProgramTheHighMaskWord) {
  FakeRegIo io;
  io.regs[r::CONFIG] = 40;
  Driver d(io, options());
  ASSERT_EQ(d.open(), Status::kOk);
  io.log.clear();
  ASSERT_EQ(d.submit({0x100, 1ull << 35 | 1}), Status::kOk);
  EXPECT_EQ(io.log[3], (Access{'W', r::CORE_MASK_HI, 1u << 3}));
}

TEST(Driver, TimeoutIsReportedAndTheDeviceSoftReset) {
  FakeRegIo io;
  Driver d(io, options());
  ASSERT_EQ(d.open(), Status::kOk);
  io.irq = false;
  io.regs[r::STATUS] = r::STATUS_BUSY;
  io.log.clear();
  EXPECT_EQ(d.run({0x100, 1}), Status::kTimeout);
  // After the wait: the soft reset, then the check that the device is idle.
  const std::vector<Access> tail = {{'I', 0, 5000},
                                    {'W', r::CTRL, r::CTRL_SOFT_RESET},
                                    {'R', r::STATUS, 0}};
  ASSERT_GE(io.log.size(), tail.size());
  EXPECT_EQ(std::vector<Access>(io.log.end() - 3, io.log.end()), tail);
  EXPECT_NE(d.lastError().find("no interrupt within 5000 host cycles"), std::string::npos);
  EXPECT_NE(d.lastError().find("STATUS=0x00000001 (busy 1"), std::string::npos) << d.lastError();
  // The driver recovered: the next job runs.
  io.irq = true;
  EXPECT_EQ(d.run({0x100, 1}), Status::kOk);
}

TEST(Driver, HardwareErrorLogsTheStatusRegistersAndResets) {
  FakeRegIo io;
  Driver d(io, options());
  ASSERT_EQ(d.open(), Status::kOk);
  io.regs[r::IRQ_STATUS] = r::IRQ_ERROR;
  io.regs[r::STATUS] = r::STATUS_DONE | r::STATUS_ERROR |
                       static_cast<uint32_t>(r::ErrorCode::kAddressError) << r::STATUS_ERROR_CODE_SHIFT |
                       2u << r::STATUS_ERROR_CORE_SHIFT;
  io.regs[r::ERROR_ADDR_LO] = 0xBEEF;
  io.log.clear();
  EXPECT_EQ(d.run({0x100, 0b111}), Status::kHardwareError);
  EXPECT_NE(d.lastError().find("transfer to an unmapped address, core 2"), std::string::npos)
      << d.lastError();
  EXPECT_NE(d.lastError().find("ERROR_ADDR=0xbeef"), std::string::npos) << d.lastError();
  EXPECT_EQ(io.log[io.log.size() - 2], (Access{'W', r::CTRL, r::CTRL_SOFT_RESET}));
}

TEST(Driver, RejectsBadArgumentsWithoutTouchingTheDevice) {
  FakeRegIo io;
  Driver d(io, options());
  ASSERT_EQ(d.open(), Status::kOk);
  io.log.clear();
  EXPECT_EQ(d.submit({0x100, 0}), Status::kBadArgument);
  EXPECT_EQ(d.submit({0x100, 1u << 4}), Status::kBadArgument);  // core 4 of 4
  Buffer b;
  EXPECT_EQ(d.allocate(16, 3, &b), Status::kBadArgument);
  EXPECT_EQ(d.allocate(0x20000, 16, &b), Status::kOutOfMemory);
  EXPECT_TRUE(io.log.empty());
  ASSERT_EQ(d.allocate(100, 64, &b), Status::kOk);
  EXPECT_EQ(b.addr % 64, 0u);
  EXPECT_GE(b.addr, 0x1000u);
  uint8_t data[8] = {};
  EXPECT_EQ(d.write(b, 96, data, 8), Status::kBadArgument);
  io.copy_ok = false;
  EXPECT_EQ(d.write(b, 0, data, 8), Status::kBusError);
  EXPECT_EQ(d.read(b, 0, data, 8), Status::kBusError);
}

TEST(Driver, SecondSubmitWhileRunningIsBusy) {
  FakeRegIo io;
  Driver d(io, options());
  ASSERT_EQ(d.open(), Status::kOk);
  ASSERT_EQ(d.submit({0x100, 1}), Status::kOk);
  EXPECT_EQ(d.submit({0x100, 1}), Status::kBusy);
  EXPECT_EQ(d.wait(100), Status::kOk);
  EXPECT_EQ(d.submit({0x100, 1}), Status::kOk);
}

}  // namespace
}  // namespace hilsim::drv
