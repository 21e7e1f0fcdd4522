#pragma once
// System memory and core SRAMs: a backing store behind a TLM-2.0 LT target socket with access
// latency, transport_dbg and DMI. Out-of-range accesses answer TLM_ADDRESS_ERROR_RESPONSE.
// The store is allocated lazily by the OS (calloc), so large, sparsely used memories are cheap.
//
// A DMA load into SRAM can be a snapshot: the destination range becomes a copy of the source's
// bytes as they are at the transfer, without copying them yet. The bytes are copied only when the
// source range is about to be written or someone other than the owning core reads the
// destination (b_transport, transport_dbg, DMI); the core reads them through view(). Weights that
// never change after upload are therefore never copied, and every observer still sees exactly the
// bytes a real copy would have produced.

#include <tlm_utils/simple_target_socket.h>
#include <cstdint>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

namespace hilsim::model {

class Memory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Memory> socket;

  // `latency` is added to every access's delay.
  Memory(sc_core::sc_module_name name, uint64_t size_bytes, sc_core::sc_time latency);
  ~Memory() override;

  uint64_t size() const { return size_; }

  // Makes [offset, offset + len) a snapshot of `source` bytes [src, src + len) as they are now.
  void snapshotFrom(Memory& source, uint64_t src, uint64_t offset, uint64_t len);
  // Read-only view of [offset, offset + len) (the source's bytes while a snapshot is pending).
  const uint8_t* view(uint64_t offset, uint64_t len);
  // Writable pointer to [offset, offset + len); pending snapshots there are copied first.
  uint8_t* writable(uint64_t offset, uint64_t len);
  // Pointer to [offset, offset + len) about to be overwritten whole: snapshots inside it are
  // dropped, partly overlapping ones copied.
  uint8_t* overwrite(uint64_t offset, uint64_t len);
  // Copies every pending snapshot (tests; DMI grants).
  void settleAll();
  size_t pendingSnapshots() const { return snapshots_.size(); }

 private:
  struct Snapshot {
    uint64_t offset;
    uint64_t len;
    Memory* source;
    uint64_t src;
  };
  // Copies the pending snapshots into this memory that overlap [offset, offset + len).
  void settle(uint64_t offset, uint64_t len);
  // Before [offset, offset + len) of this memory changes: memories holding snapshots of it copy
  // them first.
  void settleDependents(uint64_t offset, uint64_t len);
  void settleFrom(const Memory* source, uint64_t src, uint64_t len);
  void dropDependent(Memory* dependent);
  void invalidateDmi();

  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  // Copies data for a read or write; false (and an error response) if out of range.
  bool access(tlm::tlm_generic_payload& trans);

  uint64_t size_;
  uint8_t* data_;
  sc_core::sc_time latency_;
  std::vector<Snapshot> snapshots_;  // pending copies into this memory
  std::vector<Memory*> dependents_;  // memories with pending copies of this one (one per copy)
  std::vector<Memory*> settling_;    // settleDependents' copy of dependents_
  bool dmi_granted_ = false;
};

// Asks the memory serving a read to snapshot its bytes into `destination` at `offset` instead of
// copying them into the payload's data pointer (which points at the same place).
struct SnapshotInto : tlm::tlm_extension<SnapshotInto> {
  Memory* destination = nullptr;
  uint64_t offset = 0;
  tlm::tlm_extension_base* clone() const override { return new SnapshotInto(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const SnapshotInto&>(other);
  }
};

}  // namespace hilsim::model
