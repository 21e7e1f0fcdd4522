#pragma once
// One matmul core: a systolic array with local SRAM. On start it fetches its job descriptor and
// takes the steps of the job's schedule (timing/core_schedule.h): each waits for its input band
// and weight tile (and a free output buffer), computes for SCALE-Sim's cycles (core_timing.h),
// and stores its outputs, while the loads of the next step go on when double buffering is on;
// then it waits for every store. A FULLY_CONNECTED job has one band, the input, and a step per
// weight tile; a convolution (matmul_core_conv.cpp) has bands of input rows, whose windows the
// core's address generator forms. One thread; one wait per transfer or step, never per cycle.

#include <cstdint>
#include <systemc>
#include <vector>

#include "hilsim/core/im2col.h"
#include "hilsim/drv/driver.h"
#include "hilsim/drv/regs.h"
#include "hilsim/model/clocks.h"
#include "hilsim/model/dma_engine.h"
#include "hilsim/model/memory.h"
#include "hilsim/model/tracer.h"
#include "hilsim/timing/conv_schedule.h"
#include "hilsim/timing/core_schedule.h"
#include "hilsim/timing/core_timing.h"
#include "hilsim/timing/platform_timing.h"

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
  // Takes the array and dataflow from `timing.geometry`, the start-up from `timing.accel`.
  MatmulCore(sc_core::sc_module_name name, uint32_t id, const timing::PlatformTiming& timing,
             const Clocks& clocks, DmaEngine& dma, Memory& sram, CoreListener& listener,
             Tracer* tracer);

  // Starts a job `delay` from now (LT annotation of the START register write).
  void start(uint64_t table_addr, uint32_t job, const sc_core::sc_time& delay);
  // Abandons the running job (soft reset). Transfers in flight are ignored when they end.
  void abort();
  const CoreResult& result() const { return result_; }

 private:
  // How a stage of a job ends: the job goes on, has failed (fail() called), or was aborted.
  enum class Outcome { kGoOn, kFailed, kAborted };
  // The job being executed: its schedule and what its steps have measured so far, and a
  // FULLY_CONNECTED job's descriptor.
  struct RunningJob {
    bool conv = false;  // a convolution: its descriptor is in `conv_`
    std::vector<timing::CoreStep> steps;
    drv::regs::JobDescriptor desc;
    uint64_t input_bytes = 0;
    uint64_t output_bytes = 0;
    bool double_buffer = false;  // asked for by the descriptor and enabled on this core
    sc_core::sc_time start, load_wait, compute;
    sc_core::sc_time store_wait;  // waits for an output buffer before the last stores
    uint64_t stall_cycles = 0;
  };
  // The convolution job being executed (matmul_core_conv.cpp).
  struct RunningConv {
    drv::regs::ConvJobDescriptor desc;
    timing::ConvGeometry geo;
    timing::ConvCoreWork work;
    core::WindowSource source;  // first_row and rows set per band
  };

  void run();
  // One job, in the stages below: fetch the descriptor, check it, take every step, wait for the
  // stores.
  void execute();
  Outcome fetchDescriptor();
  // Decodes a FULLY_CONNECTED descriptor, checks it is well formed and fits in the SRAM, and
  // plans its steps.
  Outcome acceptDescriptor();
  // The same for a convolution descriptor.
  Outcome acceptConvDescriptor();
  Outcome runSteps();
  // Issues the loads of step `s` issued early (while the step before computes) or the others.
  void issueLoads(size_t s, bool early);
  // Waits for the operands and the output buffer of step `s`.
  Outcome waitForStep(size_t s);
  // Computes step `s`; false if the job was aborted meanwhile.
  bool computeStep(size_t s);
  void storeStep(size_t s);
  Outcome waitForStores();
  // What differs between the kinds of job: the loads, the arithmetic (returning the step's
  // compute cycles) and the store of a step.
  DmaRequest fcInputLoad();
  DmaRequest fcTileLoad(const timing::CoreStep& step);
  uint64_t computeFcTile(const timing::CoreStep& step);
  DmaRequest fcTileStore(const timing::CoreStep& step);
  DmaRequest convBandLoad(const timing::CoreStep& step);
  DmaRequest convTileLoad(const timing::CoreStep& step);
  uint64_t computeConvStep(const timing::CoreStep& step);
  DmaRequest convStepStore(const timing::CoreStep& step);
  // Records the error of a finished transfer, if any.
  Outcome failOnError(const DmaRequest& r);
  bool fitsSram(uint64_t offset, uint64_t bytes) const;
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
  DmaRequest desc_req_;
  DmaRequest band_req_[2], tile_req_[2];  // the last load into each buffer
  std::vector<DmaRequest> out_reqs_;
  RunningJob running_;
  RunningConv conv_;
  std::vector<int8_t> windows_;  // the address generator's output for one step (not SRAM)
  CoreResult result_;
};

}  // namespace hilsim::model
