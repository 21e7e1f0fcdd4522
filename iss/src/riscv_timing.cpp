// RV32IM blocks on the SiFive E31 pipeline (E31 Core Complex Manual v2p0, "Execution Pipeline"):
// in-order single issue, fully bypassed, interlocking on read-after-write and write-after-write
// hazards. Each instruction issues one cycle after the previous one unless a source register's
// result is not ready yet; results are ready after the manual's result latencies. A CSR write
// flushes the pipeline; a load from bytes still in the store pipeline waits for them; the branch
// predictor (E31Predictor) charges mispredicted control transfers when the next block runs.

#include <algorithm>
#include <stdexcept>
#include <string>

#include "block_timing.h"
#include "hilsim/iss/memory_map.h"

namespace hilsim::iss {
namespace {

// Result latencies (E31 manual, "Execution Pipeline").
constexpr uint32_t kAluLatency = 1;
constexpr uint32_t kLoadWordLatency = 2;
constexpr uint32_t kLoadSubWordLatency = 3;
constexpr uint32_t kCsrLatency = 3;
constexpr uint32_t kMulLatency = 5;
constexpr uint32_t kDivideWorstLatency = 33;
// "Most CSR writes result in a pipeline flush with a five-cycle penalty" (3.3).
constexpr uint32_t kCsrWriteFlushCycles = 5;
// "Loads to addresses currently in the store pipeline" (3.4 "Data Memory System").
constexpr uint32_t kStoreToLoadCycles = 5;
// ra and t0, the link registers of the calling convention (calls push, returns pop).
constexpr int kRa = 1, kT0 = 5;

enum class Kind {
  kAlu,
  kLoadWord,
  kLoadSubWord,
  kStore,
  kBranch,
  kJal,
  kJalr,
  kMul,
  kDiv,
  kCsr,
  kOther
};

struct Decoded {
  Kind kind = Kind::kOther;
  uint32_t bytes = 4;
  int rd = -1, rs1 = -1, rs2 = -1;
  int32_t imm = 0;
  uint32_t access_bytes = 0;
  bool is_signed = false;
  bool csr_write = false;  // a CSR instruction that writes its CSR
};

Decoded decodeCompressed(uint32_t h) {
  Decoded d;
  d.bytes = 2;
  d.kind = Kind::kAlu;
  const uint32_t quadrant = h & 3, funct3 = h >> 13;
  const int rd_full = int((h >> 7) & 31), rs2_full = int((h >> 2) & 31);
  const int r_high = int(((h >> 7) & 7) + 8), r_low = int(((h >> 2) & 7) + 8);
  switch (quadrant) {
    case 0:
      if (funct3 == 2) {  // C.LW
        d = {Kind::kLoadWord,
             2,
             r_low,
             r_high,
             -1,
             int32_t(((h >> 6) & 1) << 2 | ((h >> 10) & 7) << 3 | ((h >> 5) & 1) << 6),
             4};
      } else if (funct3 == 6) {  // C.SW
        d = {Kind::kStore,
             2,
             -1,
             r_high,
             r_low,
             int32_t(((h >> 6) & 1) << 2 | ((h >> 10) & 7) << 3 | ((h >> 5) & 1) << 6),
             4};
      } else {  // C.ADDI4SPN
        d.rd = r_low;
        d.rs1 = 2;
      }
      break;
    case 1:
      if (funct3 == 1 || funct3 == 5) {  // C.JAL, C.J
        d.kind = Kind::kJal;
        d.rd = funct3 == 1 ? 1 : 0;
      } else if (funct3 >= 6) {  // C.BEQZ, C.BNEZ
        d.kind = Kind::kBranch;
        d.rs1 = r_high;
      } else if (funct3 == 4) {  // C.SRLI, C.SRAI, C.ANDI, C.SUB, ...
        d.rd = r_high;
        d.rs1 = r_high;
        if (((h >> 10) & 3) == 3) d.rs2 = r_low;
      } else {  // C.ADDI, C.LI, C.LUI, C.ADDI16SP
        d.rd = rd_full;
        if (funct3 == 0 || (funct3 == 3 && rd_full == 2)) d.rs1 = rd_full;
      }
      break;
    default:
      if (funct3 == 2) {  // C.LWSP
        d = {Kind::kLoadWord,
             2,
             rd_full,
             2,
             -1,
             int32_t(((h >> 4) & 7) << 2 | ((h >> 12) & 1) << 5 | ((h >> 2) & 3) << 6),
             4};
      } else if (funct3 == 6) {  // C.SWSP
        d = {Kind::kStore,
             2,
             -1,
             2,
             rs2_full,
             int32_t(((h >> 9) & 15) << 2 | ((h >> 7) & 3) << 6),
             4};
      } else if (funct3 == 4) {
        const bool bit12 = (h >> 12) & 1;
        if (rs2_full == 0 && rd_full != 0) {  // C.JR, C.JALR
          d.kind = Kind::kJalr;
          d.rd = bit12 ? 1 : 0;
          d.rs1 = rd_full;
        } else if (rs2_full != 0) {  // C.MV, C.ADD
          d.rd = rd_full;
          d.rs2 = rs2_full;
          if (bit12) d.rs1 = rd_full;
        } else {
          d.kind = Kind::kOther;  // C.EBREAK
        }
      } else {  // C.SLLI and others
        d.rd = rd_full;
        d.rs1 = rd_full;
      }
  }
  return d;
}

Decoded decode(const uint8_t* p, uint32_t available) {
  if (available < 2) return {Kind::kOther, available};
  const uint32_t h = uint32_t(p[0]) | uint32_t(p[1]) << 8;
  if ((h & 3) != 3) return decodeCompressed(h);
  if (available < 4) return {Kind::kOther, available};
  const uint32_t w = h | uint32_t(p[2]) << 16 | uint32_t(p[3]) << 24;
  Decoded d;
  const int rd = int((w >> 7) & 31), rs1 = int((w >> 15) & 31), rs2 = int((w >> 20) & 31);
  const uint32_t funct3 = (w >> 12) & 7, funct7 = w >> 25;
  switch (w & 0x7f) {
    case 0x37:  // LUI
    case 0x17:  // AUIPC
      d.kind = Kind::kAlu;
      d.rd = rd;
      break;
    case 0x13:  // OP-IMM
      d.kind = Kind::kAlu;
      d.rd = rd;
      d.rs1 = rs1;
      break;
    case 0x33:  // OP, and the M extension (funct7 = 1)
      d.kind = funct7 == 1 ? (funct3 < 4 ? Kind::kMul : Kind::kDiv) : Kind::kAlu;
      d.rd = rd;
      d.rs1 = rs1;
      d.rs2 = rs2;
      d.is_signed = funct3 == 4 || funct3 == 6;
      break;
    case 0x03:  // LOAD
      d.kind = (funct3 & 3) == 2 ? Kind::kLoadWord : Kind::kLoadSubWord;
      d.rd = rd;
      d.rs1 = rs1;
      d.imm = int32_t(w) >> 20;
      d.access_bytes = 1u << (funct3 & 3);
      break;
    case 0x23:  // STORE
      d.kind = Kind::kStore;
      d.rs1 = rs1;
      d.rs2 = rs2;
      d.imm = (int32_t(w) >> 25) * 32 | int32_t((w >> 7) & 31);
      d.access_bytes = 1u << (funct3 & 3);
      break;
    case 0x63:
      d.kind = Kind::kBranch;
      d.rs1 = rs1;
      d.rs2 = rs2;
      break;
    case 0x6f:
      d.kind = Kind::kJal;
      d.rd = rd;
      break;
    case 0x67:
      d.kind = Kind::kJalr;
      d.rd = rd;
      d.rs1 = rs1;
      break;
    case 0x73:  // SYSTEM: CSR accesses; ECALL, EBREAK, WFI, MRET have funct3 = 0
      if (funct3 != 0) {
        d.kind = Kind::kCsr;
        d.rd = rd;
        if (funct3 < 4) d.rs1 = rs1;
        // csrrw/csrrwi always write; csrrs/csrrc(i) only with a source other than x0 / 0 (the
        // rs1 field holds the immediate of the i forms).
        d.csr_write = (funct3 & 3) == 1 || rs1 != 0;
      }
      break;
    default:
      break;  // FENCE and anything else: one cycle, no registers
  }
  return d;
}

bool isMulDiv(Kind k) {
  return k == Kind::kMul || k == Kind::kDiv;
}

uint32_t latency(Kind k) {
  switch (k) {
    case Kind::kLoadWord:
      return kLoadWordLatency;
    case Kind::kLoadSubWord:
      return kLoadSubWordLatency;
    case Kind::kCsr:
      return kCsrLatency;
    case Kind::kMul:
      return kMulLatency;
    default:
      return kAluLatency;  // divides: the rest is added at run time
  }
}

uint8_t saturate8(uint32_t v) {
  return uint8_t(std::min<uint32_t>(v, 255));
}

bool isLink(int r) {
  return r == kRa || r == kT0;
}

ControlTransfer controlOf(const Decoded& d) {
  switch (d.kind) {
    case Kind::kBranch:
      return ControlTransfer::kConditional;
    case Kind::kJal:
      return isLink(d.rd) ? ControlTransfer::kCall : ControlTransfer::kJump;
    case Kind::kJalr:
      if (isLink(d.rd)) return ControlTransfer::kCall;
      return d.rd == 0 && isLink(d.rs1) ? ControlTransfer::kReturn : ControlTransfer::kJump;
    default:
      return ControlTransfer::kNone;
  }
}

// A store of this block still in the store pipeline: its base register and byte range.
struct PendingStore {
  int base;
  int32_t first, end;
};

}  // namespace

BlockTiming analyzeRiscV(const TimingParams& params, uint32_t start, const uint8_t* code,
                         uint32_t bytes, const DivideHooked& hooked,
                         std::vector<DivideSite>& divides) {
  BlockTiming b;
  b.start = start;
  b.bytes = bytes;

  std::vector<Decoded> insns;
  std::vector<uint32_t> issue_at;
  uint32_t ready[32] = {};
  bool written[32] = {};
  uint32_t unit_free = 0;
  bool unit_seen = false;
  uint32_t slot = 0;  // the cycle the next instruction could issue in
  // The stores since the last instruction that left the data memory idle (one that is not a load
  // or store): they have not committed yet.
  std::vector<PendingStore> stores;
  for (uint32_t offset = 0; offset < bytes;) {
    const Decoded d = decode(code + offset, bytes - offset);
    const uint32_t address = start + offset;
    uint32_t issue = slot;
    for (int s : {d.rs1, d.rs2}) {
      if (s <= 0) continue;
      issue = std::max(issue, ready[s]);
      if (!written[s] && !(b.head_mask >> s & 1)) {
        b.head_mask |= 1u << s;
        b.head_cycles[s] = saturate8(slot);
      }
    }
    if (d.rd > 0) issue = std::max(issue, ready[d.rd]);  // write-after-write
    if (isMulDiv(d.kind)) {
      issue = std::max(issue, unit_free);
      if (!unit_seen) {
        b.head_mask |= 1;
        b.head_cycles[0] = saturate8(slot);
      }
      unit_seen = true;
    }
    const bool load = d.kind == Kind::kLoadWord || d.kind == Kind::kLoadSubWord;
    const bool memory = load || d.kind == Kind::kStore;
    if (!memory) stores.clear();
    const int32_t first = d.imm, end = d.imm + int32_t(d.access_bytes);
    if (load && std::any_of(stores.begin(), stores.end(), [&](const PendingStore& s) {
          return s.base == d.rs1 && s.first < end && first < s.end;
        })) {
      issue += kStoreToLoadCycles;
      stores.clear();  // the stall lets the store pipeline drain
    }
    if (d.kind == Kind::kStore) stores.push_back({d.rs1, first, end});
    if (load && d.rd > 0)  // a store addressed by the register this load rewrites is out of reach
      stores.erase(std::remove_if(stores.begin(), stores.end(),
                                  [&](const PendingStore& s) { return s.base == d.rd; }),
                   stores.end());
    const uint32_t wait = memory ? params.memory.sramWaitStates(d.kind == Kind::kStore) : 0;
    slot = issue + 1 + wait + (d.csr_write ? kCsrWriteFlushCycles : 0);
    if (d.rd > 0) {
      ready[d.rd] = issue + latency(d.kind) + wait;
      written[d.rd] = true;
    }
    if (d.kind == Kind::kMul) unit_free = issue + kMulLatency;
    if (d.kind == Kind::kDiv) unit_free = issue + 1;
    if (memory) {
      MemoryOperand m;
      m.address = address;
      m.base = d.rs1;
      m.displacement = d.imm;
      m.bytes = d.access_bytes;
      b.memory_operands.push_back(m);
    }
    insns.push_back(d);
    issue_at.push_back(issue);
    b.instruction_addresses.push_back(address);
    offset += d.bytes;
  }
  b.instructions = uint32_t(insns.size());
  b.base_cycles = slot;
  b.cycles_before = issue_at;

  for (size_t i = 0; i < insns.size(); ++i) {
    if (insns[i].kind != Kind::kDiv) continue;
    // The first later instruction that must wait for the divide: one that reads or rewrites its
    // result, or uses the divider; without one the next block is assumed to.
    uint32_t slack = slot - issue_at[i];
    const int rd = insns[i].rd;
    for (size_t j = i + 1; j < insns.size(); ++j) {
      const Decoded& n = insns[j];
      const bool waits = isMulDiv(n.kind) || (rd > 0 && (n.rs1 == rd || n.rs2 == rd || n.rd == rd));
      if (waits) {
        slack = issue_at[j] - issue_at[i];
        break;
      }
    }
    const uint32_t address = b.instruction_addresses[i];
    if (hooked(address)) {
      DivideSite site;
      site.address = address;
      site.dividend_reg = uint8_t(insns[i].rs1);
      site.divisor_reg = uint8_t(insns[i].rs2);
      site.is_signed = insns[i].is_signed;
      site.slack_cycles = slack;
      divides.push_back(site);
    } else if (kDivideWorstLatency > slack) {
      b.base_cycles += kDivideWorstLatency - slack;
    }
  }

  for (int r = 1; r < 32; ++r) {
    if (ready[r] > slot) {
      b.tail_mask |= 1u << r;
      b.tail_cycles[r] = saturate8(ready[r] - slot);
    }
  }
  if (unit_free > slot) {
    b.tail_mask |= 1;
    b.tail_cycles[0] = saturate8(unit_free - slot);
  }

  b.control = insns.empty() ? ControlTransfer::kNone : controlOf(insns.back());
  const uint32_t end = start + bytes;
  if (b.control != ControlTransfer::kNone) b.branch_pc = b.instruction_addresses.back();
  const bool always_transfers =
      b.control != ControlTransfer::kNone && b.control != ControlTransfer::kConditional;
  b.fallthrough = always_transfers ? kNoFallthrough : end;
  return b;
}

E31Predictor::E31Predictor(const BranchPredictorOptions& sizes)
    : history_mask_(sizes.history_entries - 1),
      target_entries_(sizes.target_entries),
      return_entries_(sizes.return_stack_entries) {
  const uint32_t h = sizes.history_entries;
  if (h == 0 || h > kMaxHistoryEntries || (h & (h - 1)) != 0)
    throw std::invalid_argument("E31 branch history entries must be a power of two up to " +
                                std::to_string(kMaxHistoryEntries) + ", not " + std::to_string(h));
  if (target_entries_ == 0 || target_entries_ > kMaxTargetEntries)
    throw std::invalid_argument("E31 branch target buffer entries must be 1.." +
                                std::to_string(kMaxTargetEntries) + ", not " +
                                std::to_string(target_entries_));
  if (return_entries_ == 0 || return_entries_ > kMaxReturnEntries)
    throw std::invalid_argument("E31 return-address stack entries must be 1.." +
                                std::to_string(kMaxReturnEntries) + ", not " +
                                std::to_string(return_entries_));
  std::fill(std::begin(history_), std::end(history_), uint8_t{1});  // weakly not taken
}

bool E31Predictor::searchTarget(const BlockTiming& p, uint32_t target) {
  uint32_t victim = 0;
  for (uint32_t i = 0; i < target_entries_; ++i) {
    if (targets_[i].branch_pc == p.branch_pc) {
      victim = i;
      break;
    }
    if (targets_[i].last_use < targets_[victim].last_use) victim = i;
  }
  Target& t = targets_[victim];
  const bool hit = t.branch_pc == p.branch_pc && t.target == target;
  t = {p.branch_pc, target, ++uses_};
  p.target_slot = uint8_t(victim);
  return hit;
}

bool inFlashCode(uint32_t address) {
  return inRegion(address, 1, kFlashCodeBase, kFlashCodeBytes);
}

}  // namespace hilsim::iss
