#pragma once
// One matmul core: a systolic array with local SRAM. On start it fetches its job descriptor,
// loads the input and the first weight tile, then for each tile computes (SCALE-Sim cycles,
// core_timing.h) and stores its outputs, loading the next tile during compute when double
// buffering is on. One thread; one wait per transfer or tile, never per cycle.

#include <cstdint>
#include <systemc>
#include <vector>

#include "hilsim/drv/driver.h"
#include "hilsim/drv/regs.h"
#include "hilsim/model/clocks.h"
#include "hilsim/model/dma_engine.h"
#include "hilsim/model/memory.h"
#include "hilsim/model/params.h"
#include "hilsim/model/tracer.h"
#include "hilsim/timing/core_timing.h"

namespace hilsim::model {

class CoreListener {
 public:
  virtual ~CoreListener() = default;
  virtual void coreDone(uint32_t core) = 0;
};

struct CoreResult {
  bool busy = false;
  bool error = false;
  drv::regs::ErrorCode error_code = drv::regs::ErrorCode::kNone;
  uint64_t error_addr = 0;
  drv::CoreCounters counters;
};

class MatmulCore : public sc_core::sc_module, public DmaSink {
 public:
  MatmulCore(sc_core::sc_module_name name, uint32_t id, const CoreParams& params,
             const Clocks& clocks, DmaEngine& dma, Memory& sram, CoreListener& listener,
             Tracer* tracer);

  // Starts a job `delay` from now (LT annotation of the START register write).
  void start(uint64_t table_addr, uint32_t job, const sc_core::sc_time& delay);
  // Abandons the running job (soft reset). Transfers in flight are ignored when they end.
  void abort();
  const CoreResult& result() const { return result_; }

 private:
  void run();
  void execute();
  // Waits until `r` is done; returns false if the job was aborted meanwhile.
  bool waitFor(const DmaRequest& r);
  bool aborted() const { return generation_ != job_generation_; }
  void dmaDone(DmaRequest& request) override;
  void fail(drv::regs::ErrorCode code, uint64_t addr = 0);
  // A transfer between memory and this core's SRAM at `sram_offset`.
  DmaRequest makeRequest(DmaRequest::Direction dir, uint64_t mem_addr, uint64_t sram_offset,
                         uint64_t bytes);
  uint64_t accelCycles(const sc_core::sc_time& t) const { return toCycles(t, clocks_.accel); }

  uint32_t id_;
  Clocks clocks_;
  timing::Dataflow dataflow_;
  timing::ArrayShape array_;
  bool double_buffer_;
  sc_core::sc_time startup_;
  DmaEngine& dma_;
  Memory& sram_;
  CoreListener& listener_;
  Tracer* tracer_;
  Tracer::Signal sig_busy_ = 0, sig_tile_ = 0, sig_phase_ = 0;

  sc_core::sc_event start_event_;
  sc_core::sc_event dma_event_;
  uint64_t table_addr_ = 0;
  uint32_t job_ = 0;
  uint64_t generation_ = 0;      // bumped by abort()
  uint64_t job_generation_ = 0;  // generation the running job started in
  bool pending_start_ = false;

  uint8_t descriptor_[drv::regs::kDescriptorBytes] = {};
  DmaRequest desc_req_, input_req_, tile_req_[2];
  std::vector<DmaRequest> out_reqs_;
  CoreResult result_;
};

}  // namespace hilsim::model
