#pragma once
// Marks a transaction as the data movement of a bulk transfer whose bus time is accounted by the
// bus arbiter (BusScheduler) rather than by the transaction's own delay.

#include <tlm>

namespace hilsim::model {

struct BulkTransfer : tlm::tlm_extension<BulkTransfer> {
  uint32_t job = 0;  // accelerator job the transfer belongs to (for fault injection)
  bool from_host = false;

  tlm::tlm_extension_base* clone() const override { return new BulkTransfer(*this); }
  void copy_from(const tlm::tlm_extension_base& other) override {
    *this = static_cast<const BulkTransfer&>(other);
  }
};

}  // namespace hilsim::model
