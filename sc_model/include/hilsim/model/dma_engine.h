#pragma once
// The accelerator's DMA engine: requests from the cores wait in one FIFO for a free channel;
// each channel is a bus arbitration port. Requests submitted at the same simulated time enter in
// the order of their requesters (core index), whatever order the simulation kernel happened to
// run the cores in, so channel assignment and arbitration are reproducible. A transfer costs
// setup_cycles (accelerator clock), then the access latency, then its bursts as the bus arbiter
// grants them. Its data moves in one TLM transaction per row (or per sim.transaction_bytes chunk:
// the timing does not depend on it; a 3-D transfer is its planes' rows one after another),
// directly between system memory and the core's SRAM: one copy.

#include <tlm_utils/simple_initiator_socket.h>
#include <cstdint>
#include <map>
#include <systemc>
#include <tlm>
#include <vector>

#include "hilsim/drv/regs.h"
#include "hilsim/model/bus.h"
#include "hilsim/model/clocks.h"
#include "hilsim/model/memory.h"
#include "hilsim/model/tracer.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::model {

class DmaSink;

struct DmaRequest {
  enum class Direction : uint8_t { kToLocal, kToMemory };
  Direction direction = Direction::kToLocal;
  uint64_t mem_addr = 0;  // bus address in system memory
  uint8_t* local = nullptr;
  Memory* local_memory = nullptr;  // the SRAM `local` points into, if any (enables snapshots)
  uint64_t local_offset = 0;
  uint32_t rows = 1;  // a 2-D transfer moves `rows` rows of row_bytes
  uint64_t row_bytes = 0;
  uint64_t mem_stride = 0;
  uint64_t local_stride = 0;
  uint32_t planes = 1;  // a 3-D transfer moves `planes` such 2-D blocks
  uint64_t mem_plane_stride = 0;
  uint64_t local_plane_stride = 0;
  sc_core::sc_time not_before;  // earliest start
  uint32_t job = 0;
  uint32_t requester = 0;  // e.g. the core index: orders requests submitted together
  uint64_t tag = 0;        // owner's use (e.g. reset generation)
  DmaSink* sink = nullptr;

  // Results, valid when the sink is told.
  bool done = false;
  bool error = false;
  drv::regs::ErrorCode error_code = drv::regs::ErrorCode::kNone;
  uint64_t error_addr = 0;
  uint64_t stall_cycles = 0;  // bus cycles lost to other transfers
  sc_core::sc_time done_time;

  uint64_t bytes() const { return uint64_t{planes} * rows * row_bytes; }
};

class DmaSink {
 public:
  virtual ~DmaSink() = default;
  // Called (from the DMA engine's process) when `request` has completed or failed.
  virtual void dmaDone(DmaRequest& request) = 0;
};

class DmaEngine : public sc_core::sc_module, public BusClient {
 public:
  tlm_utils::simple_initiator_socket<DmaEngine> socket;

  // `transaction_bytes`: the size of the TLM transactions a row is split into
  // (sim.transaction_bytes; 0: one per row); timing does not depend on it.
  DmaEngine(sc_core::sc_module_name name, const timing::AccelTiming& timing,
            uint64_t transaction_bytes, const Clocks& clocks, Bus& bus, Tracer* tracer);

  // Queues a request; the sink is told when it completes. The request must stay alive until then.
  void submit(DmaRequest* request);
  // Drops queued requests (soft reset). Transfers on the bus finish and are reported as usual.
  void reset();
  // Makes the first transfer of job `job` address unmapped memory (fault injection).
  void injectUnmapped(uint32_t job) { unmapped_job_ = job; }

  uint32_t channels() const { return static_cast<uint32_t>(channel_.size()); }

 private:
  void dispatch();
  // Moves this time step's submissions into the FIFO, in requester order.
  void admitArrivals();
  // Starts queued requests on free channels.
  void startQueued();
  void start(uint32_t channel, DmaRequest* request);
  void transferDone(uint32_t port, const timing::Completion& completion) override;
  // Moves the data; false (with the request's error fields set) on an error response.
  bool moveData(DmaRequest& request, sc_core::sc_time* latency);
  void finish(uint32_t channel);

  Clocks clocks_;
  sc_core::sc_time setup_;
  uint64_t transaction_bytes_;
  Bus& bus_;
  std::vector<DmaRequest*> arrivals_;  // submitted, not yet admitted to the FIFO
  std::vector<DmaRequest*> queue_;     // FIFO from queue_head_ on; emptied once drained
  size_t queue_head_ = 0;
  std::vector<DmaRequest*> channel_;
  std::multimap<sc_core::sc_time, uint32_t> failed_;  // channels whose failed request ends then
  sc_core::sc_event kick_;
  tlm::tlm_generic_payload payload_;  // reused for every transaction
  Tracer* tracer_;
  std::vector<Tracer::Signal> sig_busy_, sig_bytes_;
  Tracer::Signal sig_total_ = 0;
  uint64_t total_bytes_ = 0;
  int64_t unmapped_job_ = -1;
};

}  // namespace hilsim::model
