#include "hilsim/model/memory.h"

#include <cstdlib>
#include <cstring>
#include <new>

namespace hilsim::model {

Memory::Memory(sc_core::sc_module_name name, uint64_t size_bytes, sc_core::sc_time latency)
    : sc_module(name),
      socket("socket"),
      size_(size_bytes),
      data_(static_cast<uint8_t*>(std::calloc(size_bytes, 1))),
      latency_(latency) {
  if (!data_) throw std::bad_alloc();
  socket.register_b_transport(this, &Memory::b_transport);
  socket.register_transport_dbg(this, &Memory::transport_dbg);
  socket.register_get_direct_mem_ptr(this, &Memory::get_direct_mem_ptr);
}

Memory::~Memory() {
  std::free(data_);
}

namespace {
bool overlaps(uint64_t a, uint64_t alen, uint64_t b, uint64_t blen) {
  return a < b + blen && b < a + alen;
}
}  // namespace

void Memory::settle(uint64_t offset, uint64_t len) {
  for (size_t i = 0; i < snapshots_.size();) {
    const Snapshot s = snapshots_[i];
    if (!overlaps(s.offset, s.len, offset, len)) {
      ++i;
      continue;
    }
    std::memcpy(data_ + s.offset, s.source->data_ + s.src, s.len);
    snapshots_.erase(snapshots_.begin() + static_cast<std::ptrdiff_t>(i));
    s.source->dropDependent(this);
  }
}

void Memory::settleFrom(const Memory* source, uint64_t src, uint64_t len) {
  for (size_t i = 0; i < snapshots_.size();) {
    const Snapshot s = snapshots_[i];
    if (s.source != source || !overlaps(s.src, s.len, src, len)) {
      ++i;
      continue;
    }
    std::memcpy(data_ + s.offset, s.source->data_ + s.src, s.len);
    snapshots_.erase(snapshots_.begin() + static_cast<std::ptrdiff_t>(i));
    s.source->dropDependent(this);
  }
}

void Memory::settleDependents(uint64_t offset, uint64_t len) {
  // Each dependent settles its own snapshots of this range (and drops itself from the list), so
  // the loop runs over a copy, kept between calls to not allocate.
  if (dependents_.empty()) return;
  settling_ = dependents_;
  for (Memory* d : settling_) d->settleFrom(this, offset, len);
}

void Memory::settleAll() {
  settle(0, size_);
}

void Memory::dropDependent(Memory* dependent) {
  for (auto it = dependents_.begin(); it != dependents_.end(); ++it)
    if (*it == dependent) {
      dependents_.erase(it);
      return;
    }
}

void Memory::invalidateDmi() {
  if (!dmi_granted_) return;
  dmi_granted_ = false;
  socket->invalidate_direct_mem_ptr(0, size_ - 1);
}

uint8_t* Memory::overwrite(uint64_t offset, uint64_t len) {
  // The old contents of the range are replaced: snapshots lose the part inside it (what is left
  // of them before and after stays pending), and snapshots others hold of this range are taken
  // now.
  const uint64_t end = offset + len;
  std::vector<Snapshot> kept;
  for (size_t i = 0; i < snapshots_.size();) {
    const Snapshot s = snapshots_[i];
    if (!overlaps(s.offset, s.len, offset, len)) {
      ++i;
      continue;
    }
    snapshots_.erase(snapshots_.begin() + static_cast<std::ptrdiff_t>(i));
    if (s.offset < offset) kept.push_back({s.offset, offset - s.offset, s.source, s.src});
    if (s.offset + s.len > end)
      kept.push_back({end, s.offset + s.len - end, s.source, s.src + (end - s.offset)});
    // Each piece counts as one dependency on the source.
    s.source->dropDependent(this);
  }
  for (const Snapshot& k : kept) {
    snapshots_.push_back(k);
    k.source->dependents_.push_back(this);
  }
  settleDependents(offset, len);
  return data_ + offset;
}

void Memory::snapshotFrom(Memory& source, uint64_t src, uint64_t offset, uint64_t len) {
  if (len == 0) return;
  source.settle(src, len);  // no snapshot of a snapshot
  overwrite(offset, len);
  // DMI pointers would bypass the bookkeeping: revoke them.
  invalidateDmi();
  source.invalidateDmi();
  snapshots_.push_back({offset, len, &source, src});
  source.dependents_.push_back(this);
}

const uint8_t* Memory::view(uint64_t offset, uint64_t len) {
  for (const Snapshot& s : snapshots_)
    if (offset >= s.offset && offset + len <= s.offset + s.len)
      return s.source->data_ + s.src + (offset - s.offset);
  settle(offset, len);
  return data_ + offset;
}

uint8_t* Memory::writable(uint64_t offset, uint64_t len) {
  settle(offset, len);
  settleDependents(offset, len);
  return data_ + offset;
}

bool Memory::access(tlm::tlm_generic_payload& trans) {
  const uint64_t addr = trans.get_address();
  const uint64_t len = trans.get_data_length();
  if (addr > size_ || len > size_ - addr) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return false;
  }
  if (trans.get_byte_enable_ptr()) {
    trans.set_response_status(tlm::TLM_BYTE_ENABLE_ERROR_RESPONSE);
    return false;
  }
  if (trans.get_streaming_width() < len) {
    trans.set_response_status(tlm::TLM_BURST_ERROR_RESPONSE);
    return false;
  }
  if (trans.is_read()) {
    SnapshotInto* snapshot = nullptr;
    trans.get_extension(snapshot);
    if (snapshot && snapshot->destination) {
      snapshot->destination->snapshotFrom(*this, addr, snapshot->offset, len);
    } else {
      settle(addr, len);
      std::memcpy(trans.get_data_ptr(), data_ + addr, len);
    }
  } else if (trans.is_write()) {
    settle(addr, len);
    settleDependents(addr, len);
    std::memcpy(data_ + addr, trans.get_data_ptr(), len);
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
  return true;
}

void Memory::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  if (access(trans)) {
    delay += latency_;
    trans.set_dmi_allowed(true);
  }
}

unsigned int Memory::transport_dbg(tlm::tlm_generic_payload& trans) {
  return access(trans) ? trans.get_data_length() : 0;
}

bool Memory::get_direct_mem_ptr(tlm::tlm_generic_payload&, tlm::tlm_dmi& dmi) {
  // Direct access bypasses the snapshot bookkeeping: settle everything first.
  settleAll();
  settleDependents(0, size_);
  dmi_granted_ = true;
  dmi.set_dmi_ptr(data_);
  dmi.set_start_address(0);
  dmi.set_end_address(size_ - 1);
  dmi.allow_read_write();
  dmi.set_read_latency(latency_);
  dmi.set_write_latency(latency_);
  return true;
}

}  // namespace hilsim::model
