#pragma once
// The accelerator: register block (drv/regs.h), job controller, interrupt line, DMA engine and M
// matmul cores with their SRAMs. Register accesses are LT: the block adds reg_access_cycles to
// the delay and applies side effects (START) at the annotated time, without waiting.

#include <tlm_utils/simple_target_socket.h>
#include <cstdint>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>

#include "hilsim/drv/regs.h"
#include "hilsim/model/bus.h"
#include "hilsim/model/clocks.h"
#include "hilsim/model/dma_engine.h"
#include "hilsim/model/matmul_core.h"
#include "hilsim/model/memory.h"
#include "hilsim/model/tracer.h"
#include "hilsim/timing/platform_timing.h"

namespace hilsim::model {

class Accelerator : public sc_core::sc_module, public CoreListener {
 public:
  tlm_utils::simple_target_socket<Accelerator> reg_socket;
  sc_core::sc_out<bool> irq;

  // The cores, their SRAM and the DMA engine as `timing` says; `transaction_bytes` as DmaEngine.
  Accelerator(sc_core::sc_module_name name, const timing::PlatformTiming& timing,
              uint64_t transaction_bytes, const Clocks& clocks, Bus& bus, Tracer* tracer,
              uint64_t mem_base, uint64_t mem_size);
  ~Accelerator() override;

  DmaEngine& dma() { return *dma_; }
  Memory& sram(uint32_t core) { return *srams_.at(core); }
  const MatmulCore& core(uint32_t core) const { return *cores_.at(core); }
  uint32_t numCores() const { return static_cast<uint32_t>(cores_.size()); }
  bool busy() const { return busy_; }
  uint32_t jobsStarted() const { return jobs_started_; }
  // Loses the completion interrupt of job `job` (fault injection).
  void injectIrqLost(uint32_t job) { irq_lost_job_ = job; }
  // When the last START took effect, and when the last job's last core finished.
  const sc_core::sc_time& lastJobStart() const { return last_start_; }
  const sc_core::sc_time& lastJobDone() const { return last_done_; }

 private:
  void b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  unsigned int transport_dbg(tlm::tlm_generic_payload& trans);
  // The value of a readable register, and the effect of a write to a writable one (the register
  // table in drv/regs.h says which are which).
  uint32_t readRegister(uint32_t offset) const;
  void writeRegister(uint32_t offset, uint32_t value, const sc_core::sc_time& delay);
  void resetRegisters();
  void startJob(const sc_core::sc_time& delay);
  void softReset(const sc_core::sc_time& delay);
  void coreDone(uint32_t core) override;
  void updateIrq(const sc_core::sc_time& delay);
  void driveIrq();

  const timing::AccelGeometry geometry_;
  const uint32_t dma_channels_;
  Clocks clocks_;
  sc_core::sc_time access_delay_;
  sc_core::sc_time irq_latency_;
  uint64_t mem_base_;
  uint64_t mem_size_;
  Tracer* tracer_;
  Tracer::Signal sig_irq_ = 0;

  std::unique_ptr<DmaEngine> dma_;
  std::vector<std::unique_ptr<Memory>> srams_;
  std::vector<std::unique_ptr<MatmulCore>> cores_;

  // Register state.
  uint32_t irq_status_ = 0;
  uint32_t irq_mask_ = 0;
  uint64_t job_table_ = 0;
  uint64_t core_mask_ = 0;
  uint32_t job_count_ = 0;
  bool busy_ = false;
  bool done_ = false;
  bool error_ = false;
  drv::regs::ErrorCode error_code_ = drv::regs::ErrorCode::kNone;
  uint32_t error_core_ = 0;
  uint64_t error_addr_ = 0;

  uint32_t jobs_started_ = 0;
  uint32_t current_job_ = 0;
  uint32_t cores_pending_ = 0;
  int64_t irq_lost_job_ = -1;
  bool irq_suppressed_ = false;
  sc_core::sc_event_queue irq_updates_;  // several updates may be pending at once
  sc_core::sc_time last_start_;
  sc_core::sc_time last_done_;
};

}  // namespace hilsim::model
