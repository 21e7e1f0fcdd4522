#include "hilsim/model/bus.h"

#include <algorithm>
#include <cstdio>
#include <limits>

#include "hilsim/model/bulk_transfer.h"
#include "hilsim/timing/link_timing.h"

namespace hilsim::model {

std::string TransactionRecord::describe() const {
  if (!valid) return "no transaction yet";
  char buf[256];
  const char* status = response == tlm::TLM_OK_RESPONSE              ? "OK"
                       : response == tlm::TLM_ADDRESS_ERROR_RESPONSE ? "ADDRESS_ERROR"
                       : response == tlm::TLM_GENERIC_ERROR_RESPONSE ? "GENERIC_ERROR"
                                                                     : "ERROR";
  std::snprintf(buf, sizeof buf, "%s %s 0x%llx (%llu bytes) at %.12g ns -> %s", initiator.c_str(),
                write ? "WRITE" : "READ", static_cast<unsigned long long>(address),
                static_cast<unsigned long long>(bytes), time.to_seconds() * 1e9, status);
  return buf;
}

Bus::Bus(sc_core::sc_module_name name, const timing::BusTiming& timing, const Clocks& clocks,
         Tracer* tracer)
    : sc_module(name),
      target_socket("target_socket"),
      initiator_socket("initiator_socket"),
      clocks_(clocks),
      timing_(timing),
      scheduler_(timing.arbitration),
      clients_(timing.arbitration.ports, nullptr),
      tracer_(tracer) {
  target_socket.register_b_transport(this, &Bus::b_transport);
  target_socket.register_transport_dbg(this, &Bus::transport_dbg);
  target_socket.register_get_direct_mem_ptr(this, &Bus::get_direct_mem_ptr);
  initiator_socket.register_invalidate_direct_mem_ptr(this, &Bus::invalidate_direct_mem_ptr);
  if (tracer_) {
    sig_active_ = tracer_->add("bus", "active", 8);
    sig_owner_ = tracer_->add("bus", "owner", 8, std::nullopt);
  }
  SC_HAS_PROCESS(Bus);
  SC_METHOD(arbitrate);
  sensitive << wake_;
  dont_initialize();
}

TransactionRecord Bus::named(TransactionRecord record) const {
  const int id = record.initiator_id;
  record.initiator = id >= 0 && static_cast<size_t>(id) < initiator_names_.size()
                         ? initiator_names_[static_cast<size_t>(id)]
                         : "initiator " + std::to_string(id);
  return record;
}

TransactionRecord Bus::lastTransaction() const {
  return named(last_);
}

TransactionRecord Bus::lastTransactionFrom(int id) const {
  if (id < 0 || static_cast<size_t>(id) >= last_by_initiator_.size()) return {};
  return named(last_by_initiator_[static_cast<size_t>(id)]);
}

TransactionRecord Bus::lastErrorTransaction() const {
  return named(last_error_);
}

void Bus::map(uint32_t target, uint64_t base, uint64_t size, const std::string& name) {
  ranges_.push_back({base, size, target, name});
}

void Bus::nameInitiator(uint32_t id, const std::string& name) {
  if (initiator_names_.size() <= id) initiator_names_.resize(id + 1);
  initiator_names_[id] = name;
}

const Bus::Range* Bus::decode(uint64_t address) const {
  for (const Range& r : ranges_)
    if (address >= r.base && address - r.base < r.size) return &r;
  return nullptr;
}

void Bus::b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const uint64_t address = trans.get_address();
  last_.initiator_id = id;
  last_.write = trans.is_write();
  last_.address = address;
  last_.bytes = trans.get_data_length();
  last_.time = sc_core::sc_time_stamp() + delay;
  last_.valid = true;
  last_activity_ = sc_core::sc_time_stamp();

  BulkTransfer* bulk = nullptr;
  trans.get_extension(bulk);
  const Range* range = decode(address);
  const uint64_t length = trans.get_data_length();
  if (!range || length > range->size - (address - range->base)) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
  } else if (bulk && !bulk->from_host && bus_error_job_ >= 0 &&
             bulk->job == static_cast<uint32_t>(bus_error_job_)) {
    bus_error_job_ = -1;  // one error, then the bus works again
    trans.set_response_status(tlm::TLM_GENERIC_ERROR_RESPONSE);
  } else {
    trans.set_address(address - range->base);
    initiator_socket[range->target]->b_transport(trans, delay);
    trans.set_address(address);
    // Single accesses carry their data phase; bulk data phases come from the arbiter.
    const uint64_t cycles =
        bulk ? timing_.latency_cycles : timing::singleAccessBusCycles(timing_, length);
    delay += clocks_.bus * static_cast<double>(cycles);
    if (bulk && trans.is_response_ok()) bytes_moved_ += length;
  }
  last_.response = trans.get_response_status();
  if (id >= 0) {
    if (last_by_initiator_.size() <= static_cast<size_t>(id))
      last_by_initiator_.resize(static_cast<size_t>(id) + 1);
    last_by_initiator_[static_cast<size_t>(id)] = last_;
  }
  if (!trans.is_response_ok()) last_error_ = last_;
}

unsigned int Bus::transport_dbg(int, tlm::tlm_generic_payload& trans) {
  const uint64_t address = trans.get_address();
  const Range* range = decode(address);
  if (!range || trans.get_data_length() > range->size - (address - range->base)) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return 0;
  }
  trans.set_address(address - range->base);
  const unsigned int n = initiator_socket[range->target]->transport_dbg(trans);
  trans.set_address(address);
  return n;
}

bool Bus::get_direct_mem_ptr(int, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi) {
  const uint64_t address = trans.get_address();
  const Range* range = decode(address);
  if (!range) return false;
  trans.set_address(address - range->base);
  const bool granted = initiator_socket[range->target]->get_direct_mem_ptr(trans, dmi);
  trans.set_address(address);
  if (!granted) return false;
  // Translate to global addresses and clip to the mapped range.
  const uint64_t start = std::max<uint64_t>(dmi.get_start_address(), 0);
  const uint64_t end = std::min<uint64_t>(dmi.get_end_address(), range->size - 1);
  dmi.set_dmi_ptr(dmi.get_dmi_ptr() + (start - dmi.get_start_address()));
  dmi.set_start_address(range->base + start);
  dmi.set_end_address(range->base + end);
  return true;
}

void Bus::invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end) {
  for (const Range& r : ranges_) {
    if (r.target != static_cast<uint32_t>(id)) continue;
    const uint64_t lo = r.base + start;
    const uint64_t hi = end >= r.size ? r.base + r.size - 1 : r.base + end;
    for (unsigned int i = 0; i < target_socket.size(); ++i)
      target_socket[i]->invalidate_direct_mem_ptr(lo, hi);
  }
}

void Bus::requestTransfer(uint32_t port, uint64_t bytes, const sc_core::sc_time& eligible,
                          BusClient* client) {
  clients_.at(port) = client;
  const uint64_t eligible_cycle = timing::eligibleBusCycle(
      eligible.value(), sc_core::sc_time_stamp().value(), clocks_.bus.value());
  if (in_arbitrate_) {
    pending_.push_back({port, bytes, eligible_cycle});
    return;
  }
  // The scheduler may lag behind the current time; a transfer eligible now or later can still be
  // added, since no decision before this cycle could have involved it.
  scheduler_.add(port, bytes, eligible_cycle);
  rearm();
}

void Bus::arbitrate() {
  armed_ = false;
  in_arbitrate_ = true;
  const uint64_t now_cycle = sc_core::sc_time_stamp().value() / clocks_.bus.value();
  // Completions are copied out: a client may add a transfer, which does not touch this list,
  // but the next advance would.
  completions_ = scheduler_.advance(now_cycle);
  for (const timing::Completion& c : completions_) {
    last_activity_ = sc_core::sc_time_stamp();
    if (BusClient* client = clients_[c.port]) client->transferDone(c.port, c);
  }
  for (const Pending& p : pending_) scheduler_.add(p.port, p.bytes, p.eligible_cycle);
  pending_.clear();
  in_arbitrate_ = false;
  if (tracer_) traceOccupancy();
  rearm();
}

void Bus::rearm() {
  std::optional<uint64_t> next = scheduler_.nextCompletion();
  if (tracer_) {  // wake when a transfer starts moving data, to show it
    const std::optional<uint64_t> eligible = scheduler_.nextEligibility();
    if (eligible && (!next || *eligible < *next)) next = eligible;
  }
  // An earlier notification replaces a later pending one, a later one is ignored: the arbiter
  // always wakes at the earliest cycle it must.
  if (!next) return;
  const sc_core::sc_time now = sc_core::sc_time_stamp();
  const sc_core::sc_time at =
      std::max(now, sc_core::sc_time::from_value(*next * clocks_.bus.value()));
  if (armed_ && armed_at_ <= at) return;  // already due no later
  armed_ = true;
  armed_at_ = at;
  wake_.notify(at - now);
}

void Bus::traceOccupancy() {
  // The owner is shown when one transfer has the bus; several share it burst by burst (x).
  const std::vector<uint32_t> active = scheduler_.activePorts();
  tracer_->set(sig_active_, active.size());
  tracer_->set(sig_owner_, active.size() == 1 ? std::optional<uint64_t>(active[0]) : std::nullopt);
}

}  // namespace hilsim::model
