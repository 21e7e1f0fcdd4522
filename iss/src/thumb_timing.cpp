// Thumb blocks on Cortex-M0+ (TRM DDI0484C, Table 3.1), Cortex-M4 (TRM DDI0439B, Table 3-1,
// section 3.3.2 "Load/store timings", and Table 7-1 for the FPU) and Cortex-M33 (the Cortex-M4's
// rules with the differences of its own pipeline, ThumbRules below; iss/README.md). Capstone
// decodes each instruction; the cycles follow the instruction's class.

#include <capstone/capstone.h>

#include <stdexcept>

#include "block_timing.h"

namespace hilsim::iss {
namespace {

constexpr int kPc = 15;
constexpr uint32_t kFlags = 1u << 16;  // the condition flags in the register masks

// The timing rules of a Cortex-M core with the Armv7-M/Armv8-M Mainline pipeline: one row per
// core. The Cortex-M33's row is the Cortex-M4's with only the differences its pipeline makes.
struct ThumbRules {
  // A single LDR/STR (and VLDR/VSTR) before pipelining.
  uint32_t single_load_store_cycles;
  // Cortex-M4: a single load or store after a single load whose result does not form its address
  // takes a cycle less (TRM 3.3.2).
  bool loads_pipeline;
  // Cortex-M4: an address formed by the previous data-processing instruction waits a cycle (no
  // forwarding path, TRM 3.3.2).
  bool address_interlock;
  // Cortex-M33: an instruction that reads the register the previous single load wrote waits a
  // cycle (the load's data arrives in the stage after the one that reads operands).
  bool load_use_stall;
  // Refill after a taken branch whose target is an immediate / a register (BX, BLX, MOV PC).
  // Branches whose target comes from memory (POP {PC}, LDR PC, TBB) refill in 2.
  uint32_t immediate_branch_refill;
  uint32_t register_branch_refill;
  // Cortex-M33: two neighbouring 16-bit instructions issue in one cycle (see dualIssues).
  bool dual_issue;
};

// Cortex-M4 (TRM DDI0439B, Table 3-1 and section 3.3.2).
constexpr ThumbRules kCortexM4Rules{2, true, true, false, 1, 2, false};

// Cortex-M33 (Arm's description of the pipeline: 16-bit Thumb instructions are pre-decoded in the
// fetch stage; the second stage decodes, runs the ALU and the shifter, resolves every branch and
// starts load/store address generation; a third stage holds SIMD, MAC, divide and 32 x 32
// multiply; pairs of 16-bit instructions and branches dual-issue). Everything else, including
// multiply, MAC (single-cycle) and divide (2..12), is the Cortex-M4's.
constexpr ThumbRules cortexM33Rules() {
  ThumbRules r = kCortexM4Rules;
  r.single_load_store_cycles = 1;  // the address is formed a stage earlier than on Cortex-M4
  r.loads_pipeline = false;        // nothing left to overlap
  r.address_interlock = false;     // the address generator sits beside the ALU that formed it
  r.load_use_stall = true;
  r.register_branch_refill = 1;  // register targets resolve in the same stage as immediates
  r.dual_issue = true;
  return r;
}
constexpr ThumbRules kCortexM33Rules = cortexM33Rules();

int coreRegister(unsigned reg) {
  if (reg >= ARM_REG_R0 && reg <= ARM_REG_R12) return int(reg - ARM_REG_R0);
  if (reg == ARM_REG_SP) return 13;
  if (reg == ARM_REG_LR) return 14;
  if (reg == ARM_REG_PC) return kPc;
  return -1;
}

bool oneOf(unsigned id, std::initializer_list<unsigned> ids) {
  for (unsigned i : ids)
    if (i == id) return true;
  return false;
}

bool isLoadSingle(unsigned id) {
  return oneOf(id, {ARM_INS_LDR, ARM_INS_LDRB, ARM_INS_LDRH, ARM_INS_LDRSB, ARM_INS_LDRSH,
                    ARM_INS_LDRT, ARM_INS_LDRBT, ARM_INS_LDRHT, ARM_INS_LDRSBT, ARM_INS_LDRSHT,
                    ARM_INS_LDREX, ARM_INS_LDREXB, ARM_INS_LDREXH, ARM_INS_LDA, ARM_INS_LDAB,
                    ARM_INS_LDAH, ARM_INS_LDAEX, ARM_INS_LDAEXB, ARM_INS_LDAEXH});
}

bool isStoreSingle(unsigned id) {
  return oneOf(id, {ARM_INS_STR, ARM_INS_STRB, ARM_INS_STRH, ARM_INS_STRT, ARM_INS_STRBT,
                    ARM_INS_STRHT, ARM_INS_STREX, ARM_INS_STREXB, ARM_INS_STREXH, ARM_INS_STL,
                    ARM_INS_STLB, ARM_INS_STLH, ARM_INS_STLEX, ARM_INS_STLEXB, ARM_INS_STLEXH});
}

// Every store: single, dual, multiple and floating point.
bool isStore(unsigned id) {
  return isStoreSingle(id) ||
         oneOf(id, {ARM_INS_STRD, ARM_INS_STM, ARM_INS_STMDB, ARM_INS_PUSH, ARM_INS_VSTR,
                    ARM_INS_VSTMIA, ARM_INS_VSTMDB, ARM_INS_VPUSH});
}

bool isExclusiveStore(unsigned id) {
  return oneOf(id, {ARM_INS_STREX, ARM_INS_STREXB, ARM_INS_STREXH, ARM_INS_STLEX, ARM_INS_STLEXB,
                    ARM_INS_STLEXH});
}

// The instruction's class and its cycles before wait states and pipeline effects.
enum class Class {
  kAlu,          // 1 cycle
  kLoadStore,    // LDR/STR single: 2, or 1 pipelined (M4)
  kDual,         // LDRD/STRD: 1 + N with N = 2
  kMultiple,     // LDM/STM/PUSH/POP/VLDM/VSTM/VPUSH/VPOP: 1 + N
  kFpLoadStore,  // VLDR/VSTR: 2
  kDivide,       // SDIV/UDIV
  kFpLong,       // VDIV/VSQRT: 14
  kFpMac,        // VMLA/VMLS/VNMLA/VNMLS/VFMA/VFMS/VFNMA/VFNMS: 3
  kSystem,       // MRS/MSR/barriers (3 on M0+)
  kSleep,        // WFI/WFE (2 on M0+)
  kTableBranch,  // TBB/TBH: 2 + P
};

Class classify(unsigned id) {
  if (isLoadSingle(id) || isStoreSingle(id)) return Class::kLoadStore;
  switch (id) {
    case ARM_INS_LDRD:
    case ARM_INS_STRD:
      return Class::kDual;
    case ARM_INS_LDM:
    case ARM_INS_LDMDB:
    case ARM_INS_STM:
    case ARM_INS_STMDB:
    case ARM_INS_PUSH:
    case ARM_INS_POP:
    case ARM_INS_VLDMIA:
    case ARM_INS_VLDMDB:
    case ARM_INS_VSTMIA:
    case ARM_INS_VSTMDB:
    case ARM_INS_VPUSH:
    case ARM_INS_VPOP:
      return Class::kMultiple;
    case ARM_INS_VLDR:
    case ARM_INS_VSTR:
      return Class::kFpLoadStore;
    case ARM_INS_SDIV:
    case ARM_INS_UDIV:
      return Class::kDivide;
    case ARM_INS_VDIV:
    case ARM_INS_VSQRT:
      return Class::kFpLong;
    case ARM_INS_VMLA:
    case ARM_INS_VMLS:
    case ARM_INS_VNMLA:
    case ARM_INS_VNMLS:
    case ARM_INS_VFMA:
    case ARM_INS_VFMS:
    case ARM_INS_VFNMA:
    case ARM_INS_VFNMS:
      return Class::kFpMac;
    case ARM_INS_MRS:
    case ARM_INS_MSR:
    case ARM_INS_DMB:
    case ARM_INS_DSB:
    case ARM_INS_ISB:
      return Class::kSystem;
    case ARM_INS_WFI:
    case ARM_INS_WFE:
      return Class::kSleep;
    case ARM_INS_TBB:
    case ARM_INS_TBH:
      return Class::kTableBranch;
    default:
      return Class::kAlu;  // data processing, multiplies (1 cycle on every modelled core), ...
  }
}

// What one decoded instruction does to the pipeline.
struct Facts {
  Class cls = Class::kAlu;
  bool writes_pc = false;
  bool target_immediate = false;  // B, B<c>, BL, CBZ, CBNZ: target known at decode
  bool is_bl = false;
  bool conditional = false;
  uint32_t list_registers = 0;  // registers transferred by a multiple load/store
  uint32_t address_regs = 0;    // mask of the base and index registers
  uint32_t written_regs = 0;    // mask of the core registers written (and kFlags)
  uint32_t read_regs = 0;       // mask of the core registers read (and kFlags)
  uint8_t size_bytes = 4;       // 2 for a 16-bit encoding
  bool plain = true;            // unconditional and not IT
  uint32_t loaded_regs = 0;     // the destination of a single load
  bool pc_relative = false;     // a load from a literal pool (flash)
  MemoryOperand memory;
};

Facts examine(csh handle, const cs_insn& insn) {
  Facts f;
  const cs_arm& arm = insn.detail->arm;
  f.cls = classify(insn.id);
  f.conditional = (arm.cc != ARM_CC_AL && arm.cc != ARM_CC_INVALID) || insn.id == ARM_INS_CBZ ||
                  insn.id == ARM_INS_CBNZ;

  cs_regs read_regs, write_regs;
  uint8_t read_count = 0, write_count = 0;
  const auto mask = [](uint16_t reg) -> uint32_t {
    if (reg == ARM_REG_CPSR || reg == ARM_REG_APSR || reg == ARM_REG_APSR_NZCV) return kFlags;
    const int r = coreRegister(reg);
    return r >= 0 ? 1u << r : 0;
  };
  f.size_bytes = uint8_t(insn.size);
  if (cs_regs_access(handle, &insn, read_regs, &read_count, write_regs, &write_count) ==
      CS_ERR_OK) {
    for (uint8_t i = 0; i < write_count; ++i) f.written_regs |= mask(write_regs[i]);
    for (uint8_t i = 0; i < read_count; ++i) f.read_regs |= mask(read_regs[i]);
  }
  // Capstone leaves the flags out of some instructions' accesses (MOVS writes, B<c> reads).
  if (arm.update_flags) f.written_regs |= kFlags;
  if (arm.cc != ARM_CC_AL && arm.cc != ARM_CC_INVALID) f.read_regs |= kFlags;

  bool after_memory = false;
  for (uint8_t i = 0; i < arm.op_count; ++i) {
    const cs_arm_op& op = arm.operands[i];
    if (op.type == ARM_OP_MEM) {
      f.memory.base = coreRegister(op.mem.base);
      f.memory.index = coreRegister(op.mem.index);
      f.memory.displacement = op.mem.disp;
      f.memory.index_shift = uint8_t(op.mem.lshift);
      if (f.memory.base >= 0) f.address_regs |= 1u << f.memory.base;
      if (f.memory.index >= 0) f.address_regs |= 1u << f.memory.index;
      f.pc_relative = f.memory.base == kPc;
      after_memory = true;
    } else if (after_memory) {
      f.memory.post_indexed = true;  // [Rn], #imm
      if (op.type == ARM_OP_IMM) f.memory.displacement = op.subtracted ? -op.imm : op.imm;
    }
    if (op.type == ARM_OP_REG && coreRegister(op.reg) == kPc && (op.access & CS_AC_WRITE))
      f.writes_pc = true;
  }

  const unsigned id = insn.id;
  if (f.cls == Class::kMultiple) {
    // LDM/STM name the base first; PUSH/POP/VPUSH/VPOP only list registers.
    const bool has_base = !oneOf(id, {ARM_INS_PUSH, ARM_INS_POP, ARM_INS_VPUSH, ARM_INS_VPOP});
    f.list_registers = arm.op_count - (has_base ? 1 : 0);
    int base = has_base ? coreRegister(arm.operands[0].reg) : 13;
    f.memory.base = base;
    if (base >= 0) f.address_regs |= 1u << base;
    f.memory.descending = oneOf(id, {ARM_INS_PUSH, ARM_INS_VPUSH, ARM_INS_LDMDB, ARM_INS_STMDB,
                                     ARM_INS_VLDMDB, ARM_INS_VSTMDB});
    f.memory.bytes = 4 * f.list_registers;
    for (uint8_t i = has_base ? 1 : 0; i < arm.op_count; ++i)
      if (arm.operands[i].type == ARM_OP_REG && coreRegister(arm.operands[i].reg) == kPc)
        f.writes_pc = true;
  } else if (f.cls == Class::kLoadStore) {
    f.memory.bytes =
        oneOf(id, {ARM_INS_LDRB, ARM_INS_LDRSB, ARM_INS_STRB, ARM_INS_LDRBT, ARM_INS_LDRSBT,
                   ARM_INS_STRBT, ARM_INS_LDREXB, ARM_INS_STREXB, ARM_INS_LDAB, ARM_INS_STLB})
            ? 1
        : oneOf(id, {ARM_INS_LDRH, ARM_INS_LDRSH, ARM_INS_STRH, ARM_INS_LDRHT, ARM_INS_LDRSHT,
                     ARM_INS_STRHT, ARM_INS_LDREXH, ARM_INS_STREXH, ARM_INS_LDAH, ARM_INS_STLH})
            ? 2
            : 4;
  } else if (f.cls == Class::kDual) {
    f.memory.bytes = 8;
  } else if (f.cls == Class::kFpLoadStore) {
    f.memory.bytes = 4;
  }
  if (f.memory.base < 0) f.memory = MemoryOperand{};

  switch (id) {
    case ARM_INS_B:
    case ARM_INS_CBZ:
    case ARM_INS_CBNZ:
      f.writes_pc = true;
      f.target_immediate = true;
      break;
    case ARM_INS_BL:
      f.writes_pc = true;
      f.target_immediate = true;
      f.is_bl = true;
      break;
    case ARM_INS_BX:
    case ARM_INS_BLX:
    case ARM_INS_TBB:
    case ARM_INS_TBH:
      f.writes_pc = true;
      break;
    default:
      break;
  }
  f.plain = (arm.cc == ARM_CC_AL || arm.cc == ARM_CC_INVALID) && id != ARM_INS_IT;
  if (f.cls == Class::kLoadStore && isLoadSingle(id) && arm.op_count > 0 &&
      arm.operands[0].type == ARM_OP_REG) {
    const int r = coreRegister(arm.operands[0].reg);
    if (r >= 0) f.loaded_regs = 1u << r;
  }
  return f;
}

// Cortex-M33 dual issue: a 16-bit single-cycle data-processing instruction issues together with
// the 16-bit instruction after it when that one is also a single-cycle data-processing
// instruction or a branch with an immediate target, and it reads no register (nor flag) the first
// writes nor writes a register the first writes. Multiplies (third stage), loads and stores,
// instructions writing the PC and conditional (IT block) instructions issue alone.
bool singleCycleNarrow(unsigned id, const Facts& f) {
  return f.size_bytes == 2 && f.cls == Class::kAlu && !f.writes_pc && f.plain && id != ARM_INS_MUL;
}

bool dualIssues(unsigned first_id, const Facts& first, unsigned second_id, const Facts& second) {
  if (!singleCycleNarrow(first_id, first) || second.size_bytes != 2) return false;
  const bool branch = second.target_immediate && !second.is_bl;
  if (!branch && !singleCycleNarrow(second_id, second)) return false;
  return (first.written_regs & second.read_regs) == 0 &&
         (first.written_regs & second.written_regs & ~kFlags) == 0;
}

}  // namespace

ThumbTiming::ThumbTiming(const TimingParams& params) : params_(params) {
  int mode = CS_MODE_THUMB | CS_MODE_MCLASS;
  if (params.core == Core::kCortexM33) mode |= CS_MODE_V8;
  csh handle = 0;
  if (cs_open(CS_ARCH_ARM, cs_mode(mode), &handle) != CS_ERR_OK)
    throw std::runtime_error("cannot open the Capstone Thumb decoder");
  cs_option(handle, CS_OPT_DETAIL, CS_OPT_ON);
  handle_ = handle;
}

ThumbTiming::~ThumbTiming() {
  csh handle = handle_;
  cs_close(&handle);
}

BlockTiming ThumbTiming::analyze(uint32_t start, const uint8_t* code, uint32_t bytes,
                                 const DivideHooked& hooked,
                                 std::vector<DivideSite>& divides) const {
  const bool m0plus = params_.core == Core::kCortexM0Plus;
  BlockTiming b;
  b.start = start;
  b.bytes = bytes;
  b.fallthrough = start + bytes;

  cs_insn* insns = nullptr;
  const size_t count = cs_disasm(handle_, code, bytes, start, 0, &insns);
  // Entered non-sequentially: on Cortex-M4/M33 a 32-bit target that is not word aligned needs a
  // second fetch. (Flash wait states are the flash memory system's: flash_system.h.)
  if (!m0plus && count > 0 && insns[0].size == 4 && (start & 2) != 0) b.nonseq_entry_cycles = 1;

  const ThumbRules& rules = params_.core == Core::kCortexM33 ? kCortexM33Rules : kCortexM4Rules;
  bool prev_load = false;       // the previous instruction was a pipelinable single load
  bool prev_data_proc = false;  // ... was a data-processing instruction
  uint32_t prev_written = 0;
  uint32_t prev_loaded = 0;  // ... the register a single load just wrote
  Facts prev_facts;
  unsigned prev_id = ARM_INS_INVALID;
  bool pair_open = false;  // the previous instruction issued alone and may take a partner
  uint32_t decoded_bytes = 0;
  for (size_t i = 0; i < count; ++i) {
    const cs_insn& insn = insns[i];
    const Facts f = examine(handle_, insn);
    decoded_bytes += insn.size;
    b.instruction_addresses.push_back(uint32_t(insn.address));
    b.cycles_before.push_back(b.base_cycles);
    if (f.memory.base >= 0) {
      MemoryOperand m = f.memory;
      m.address = uint32_t(insn.address);
      b.memory_operands.push_back(m);
    }
    // A literal-pool load (or a table branch's table) reads the flash through the flash memory
    // system, which charges its wait states per line; other accesses go to SRAM.
    const uint32_t sram = params_.memory.sramWaitStates(isStore(insn.id));
    const uint32_t access_wait = f.pc_relative ? 0 : sram;
    if (f.pc_relative && f.cls != Class::kAlu) {
      const uint32_t pc = (uint32_t(insn.address) + 4) & ~3u;
      const uint32_t at = f.cls == Class::kTableBranch ? uint32_t(insn.address) + 4
                                                       : pc + uint32_t(f.memory.displacement);
      if (inFlashCode(at)) b.literal_addresses.push_back(at);
    }
    uint32_t cycles = 1;
    bool load_now = false;
    switch (f.cls) {
      case Class::kLoadStore:
        cycles = 2 + access_wait;
        if (!m0plus) {
          cycles = rules.single_load_store_cycles + access_wait;
          // Neighbouring single loads and stores pipeline: one cycle off when the previous single
          // load's results do not form this address. An address formed by the previous
          // data-processing instruction waits a cycle (no forwarding path).
          if (rules.loads_pipeline && prev_load && (prev_written & f.address_regs) == 0)
            cycles -= 1;
          if (rules.address_interlock && prev_data_proc && (prev_written & f.address_regs) != 0)
            cycles += 1;
          load_now = (isLoadSingle(insn.id) || isExclusiveStore(insn.id)) && !f.writes_pc;
        }
        break;
      case Class::kDual:
        cycles = 3 + 2 * sram;
        break;
      case Class::kMultiple:
        cycles = 1 + f.list_registers * (1 + sram);
        break;
      case Class::kFpLoadStore:
        cycles = 2 + access_wait;
        break;
      case Class::kDivide:
        if (hooked(uint32_t(insn.address))) {
          cycles = 2;
          DivideSite site;
          site.address = uint32_t(insn.address);
          site.dividend_reg = uint8_t(coreRegister(insn.detail->arm.operands[1].reg));
          site.divisor_reg = uint8_t(coreRegister(insn.detail->arm.operands[2].reg));
          site.is_signed = insn.id == ARM_INS_SDIV;
          divides.push_back(site);
        } else {
          cycles = 12;
        }
        break;
      case Class::kFpLong:
        cycles = 14;
        break;
      case Class::kFpMac:
        cycles = 3;
        break;
      case Class::kSystem:
        cycles = m0plus ? 3 : (insn.id == ARM_INS_ISB ? 3 : 1);
        break;
      case Class::kSleep:
        cycles = m0plus ? 2 : 1;
        break;
      case Class::kTableBranch:
        cycles = 2 + access_wait;
        break;
      case Class::kAlu:
        break;
    }
    if (!m0plus && rules.load_use_stall && (prev_loaded & f.read_regs) != 0) cycles += 1;
    if (!m0plus && rules.dual_issue) {
      // The second of a dual-issued pair costs nothing; a pair is never split across blocks.
      if (pair_open && dualIssues(prev_id, prev_facts, insn.id, f)) {
        cycles = 0;
        pair_open = false;
      } else {
        pair_open = singleCycleNarrow(insn.id, f);
      }
    }
    b.base_cycles += cycles;
    prev_load = load_now;
    prev_data_proc = f.cls == Class::kAlu && !f.writes_pc;
    prev_written = f.written_regs;
    prev_loaded = load_now ? f.loaded_regs : 0;
    prev_facts = f;
    prev_id = insn.id;

    if (i + 1 == count && f.writes_pc) {
      // The pipeline refill of a taken branch. Cortex-M0+: B, B<c>, BX, BLX, MOV/ADD PC take
      // 2 cycles taken, BL 3, POP {..., PC} 3 + N. Cortex-M4/M33: 1 + P, with P the row's
      // refill for an immediate or register target and 2 when the target comes from memory (a
      // misaligned 32-bit target adds 1 at the target block).
      if (m0plus)
        b.taken_cycles = (f.is_bl || f.cls == Class::kMultiple) ? 2 : 1;
      else if (f.target_immediate)
        b.taken_cycles = rules.immediate_branch_refill;
      else if (f.cls == Class::kAlu)
        b.taken_cycles = rules.register_branch_refill;
      else
        b.taken_cycles = 2;
      if (!f.conditional) b.fallthrough = kNoFallthrough;
    }
  }
  b.instructions = uint32_t(count);
  if (insns != nullptr) cs_free(insns, count);
  if (decoded_bytes < bytes) {
    // Bytes Capstone cannot decode (Unicorn would have raised an invalid instruction first):
    // count them as one-cycle instructions so that a block is never free.
    const uint32_t rest = (bytes - decoded_bytes + 1) / 2;
    b.instructions += rest;
    b.base_cycles += rest;
  }
  return b;
}

}  // namespace hilsim::iss
