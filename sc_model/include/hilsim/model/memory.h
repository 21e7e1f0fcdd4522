#pragma once
// System memory and core SRAMs: a backing store behind a TLM-2.0 LT target socket with access
// latency, transport_dbg and DMI. Out-of-range accesses answer TLM_ADDRESS_ERROR_RESPONSE.
// The store is allocated lazily by the OS (calloc), so large, sparsely used memories are cheap.

#include <cstdint>
#include <memory>
#include <systemc>
#include <tlm>
#include <tlm_utils/simple_target_socket.h>

namespace hilsim::model {

class Memory : public sc_core::sc_module {
 public:
  tlm_utils::simple_target_socket<Memory> socket;

  // `latency` is added to every access's delay.
  Memory(sc_core::sc_module_name name, uint64_t size_bytes, sc_core::sc_time latency);
  ~Memory() override;

  uint64_t size() const { return size_; }
  uint8_t* data() { return data_; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
  bool get_direct_mem_ptr(tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  // Copies data for a read or write; false (and an error response) if out of range.
  bool access(tlm::tlm_generic_payload& trans);

  uint64_t size_;
  uint8_t* data_;
  sc_core::sc_time latency_;
};

}  // namespace hilsim::model
