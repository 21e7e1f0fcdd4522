#pragma once
// The shared system bus: routes initiators to targets by address map (restoring the payload
// address on return), forwards transport_dbg and DMI with address translation, and arbitrates
// bulk transfers between its ports with timing::BusScheduler.
//
// Timing. A single access (register or word) takes latency_cycles plus one bus cycle per
// width_bytes of data, on top of the target's own latency. A bulk transfer (marked with
// BulkTransfer) moves its data in one transaction that carries only the access latency; its bus
// occupancy is computed by the arbiter, which notifies the requesting BusClient when its last
// burst ends.

#include <tlm_utils/multi_passthrough_initiator_socket.h>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <cstdint>
#include <functional>
#include <string>
#include <systemc>
#include <tlm>
#include <vector>

#include "hilsim/model/clocks.h"
#include "hilsim/model/tracer.h"
#include "hilsim/timing/bus_scheduler.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::model {

class BusClient {
 public:
  virtual ~BusClient() = default;
  // Called by the arbiter at the cycle the transfer on `port` completed.
  virtual void transferDone(uint32_t port, const timing::Completion& completion) = 0;
};

// The last transaction the bus carried, for hang and error messages.
struct TransactionRecord {
  int initiator_id = -1;  // target_socket index of the initiator
  std::string initiator;  // its name, filled in by the Bus accessors
  bool write = false;
  uint64_t address = 0;
  uint64_t bytes = 0;
  sc_core::sc_time time;
  tlm::tlm_response_status response = tlm::TLM_INCOMPLETE_RESPONSE;
  bool valid = false;
  std::string describe() const;
};

class Bus : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<Bus> target_socket;        // initiators bind here
  tlm_utils::multi_passthrough_initiator_socket<Bus> initiator_socket;  // targets bind here

  // `timing.arbitration.ports`: arbitration ports (DMA channels, then the host).
  Bus(sc_core::sc_module_name name, const timing::BusTiming& timing, const Clocks& clocks,
      Tracer* tracer);

  // Routes [base, base + size) to the target bound at initiator_socket index `target`.
  void map(uint32_t target, uint64_t base, uint64_t size, const std::string& name);
  // Names the initiator bound at target_socket index `id` (for messages).
  void nameInitiator(uint32_t id, const std::string& name);

  // Requests `bytes` of bus occupancy on `port`, eligible at `eligible` (>= now). `client` is
  // told at completion. One transfer per port at a time.
  void requestTransfer(uint32_t port, uint64_t bytes, const sc_core::sc_time& eligible,
                       BusClient* client);

  // Injects an error response on the first bulk transaction of accelerator job `job`.
  void injectBusError(uint32_t job) { bus_error_job_ = job; }

  TransactionRecord lastTransaction() const;
  // The last transaction initiator `id` issued, and the last one answered with an error.
  TransactionRecord lastTransactionFrom(int id) const;
  TransactionRecord lastErrorTransaction() const;
  // Simulated time of the last transaction or transfer completion (watchdog progress).
  const sc_core::sc_time& lastActivity() const { return last_activity_; }
  uint64_t bytesMoved() const { return bytes_moved_; }

 private:
  struct Range {
    uint64_t base;
    uint64_t size;
    uint32_t target;
    std::string name;
  };
  struct Pending {
    uint32_t port;
    uint64_t bytes;
    uint64_t eligible_cycle;
  };

  const Range* decode(uint64_t address) const;
  void b_transport(int id, tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(int id, tlm::tlm_generic_payload& trans);
  bool get_direct_mem_ptr(int id, tlm::tlm_generic_payload& trans, tlm::tlm_dmi& dmi);
  void invalidate_direct_mem_ptr(int id, sc_dt::uint64 start, sc_dt::uint64 end);
  void arbitrate();
  // Schedules the arbiter for the next completion (or eligibility, when tracing).
  void rearm();
  void traceOccupancy();
  TransactionRecord named(TransactionRecord record) const;

  Clocks clocks_;
  timing::BusTiming timing_;
  std::vector<Range> ranges_;
  std::vector<std::string> initiator_names_;
  timing::BusScheduler scheduler_;
  std::vector<BusClient*> clients_;
  std::vector<Pending> pending_;
  std::vector<timing::Completion> completions_;
  bool in_arbitrate_ = false;
  sc_core::sc_event wake_;
  Tracer* tracer_;
  Tracer::Signal sig_active_ = 0, sig_owner_ = 0;
  TransactionRecord last_;
  std::vector<TransactionRecord> last_by_initiator_;  // index: initiator id
  TransactionRecord last_error_;
  sc_core::sc_time armed_at_ = sc_core::SC_ZERO_TIME;  // pending wake-up of the arbiter, if armed
  bool armed_ = false;
  sc_core::sc_time last_activity_;
  uint64_t bytes_moved_ = 0;
  int64_t bus_error_job_ = -1;
};

}  // namespace hilsim::model
