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

Memory::~Memory() { std::free(data_); }

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
  if (trans.is_read())
    std::memcpy(trans.get_data_ptr(), data_ + addr, len);
  else if (trans.is_write())
    std::memcpy(data_ + addr, trans.get_data_ptr(), len);
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
  dmi.set_dmi_ptr(data_);
  dmi.set_start_address(0);
  dmi.set_end_address(size_ - 1);
  dmi.allow_read_write();
  dmi.set_read_latency(latency_);
  dmi.set_write_latency(latency_);
  return true;
}

}  // namespace hilsim::model
