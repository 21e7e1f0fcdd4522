#include "hilsim/model/accelerator.h"

#include <cstring>

#include "hilsim/base/log.h"

namespace hilsim::model {

namespace regs = drv::regs;

namespace {
spdlog::logger& logger() {
  static const std::shared_ptr<spdlog::logger> instance = log::get("accel");
  return *instance;
}
}  // namespace

Accelerator::Accelerator(sc_core::sc_module_name name, const timing::PlatformTiming& timing,
                         uint64_t transaction_bytes, const Clocks& clocks, Bus& bus, Tracer* tracer,
                         uint64_t mem_base, uint64_t mem_size)
    : sc_module(name),
      reg_socket("reg_socket"),
      irq("irq"),
      geometry_(timing.geometry),
      dma_channels_(timing.accel.dma_channels),
      clocks_(clocks),
      access_delay_(clocks.accel * static_cast<double>(timing.accel.reg_access_cycles)),
      irq_latency_(clocks.accel * static_cast<double>(timing.accel.irq_latency_cycles)),
      mem_base_(mem_base),
      mem_size_(mem_size),
      tracer_(tracer) {
  reg_socket.register_b_transport(this, &Accelerator::b_transport);
  reg_socket.register_transport_dbg(this, &Accelerator::transport_dbg);
  if (tracer_) sig_irq_ = tracer_->add("", "irq", 1);
  dma_ = std::make_unique<DmaEngine>("dma", timing.accel, transaction_bytes, clocks, bus, tracer);
  for (uint32_t c = 0; c < geometry_.num_cores; ++c) {
    srams_.push_back(std::make_unique<Memory>(("sram" + std::to_string(c)).c_str(),
                                              geometry_.sram_bytes, sc_core::SC_ZERO_TIME));
    cores_.push_back(std::make_unique<MatmulCore>(("core" + std::to_string(c)).c_str(), c, timing,
                                                  clocks, *dma_, *srams_.back(), *this, tracer));
  }
  resetRegisters();
  SC_HAS_PROCESS(Accelerator);
  SC_METHOD(driveIrq);
  sensitive << irq_updates_;
  dont_initialize();
}

Accelerator::~Accelerator() = default;

void Accelerator::resetRegisters() {
  for (const regs::Register& r : regs::kRegisters)
    if (r.offset == regs::IRQ_MASK) irq_mask_ = r.reset;
  irq_status_ = 0;
  job_table_ = 0;
  core_mask_ = 0;
  job_count_ = 0;
}

uint32_t Accelerator::readRegister(uint32_t offset) const {
  const uint32_t num_cores = static_cast<uint32_t>(cores_.size());
  if (offset >= regs::CORE_BANK_BASE) {
    const CoreResult& r =
        cores_[(offset - regs::CORE_BANK_BASE) / regs::CORE_BANK_STRIDE]->result();
    switch ((offset - regs::CORE_BANK_BASE) % regs::CORE_BANK_STRIDE) {
      case regs::CORE_STATUS:
        return (r.busy ? regs::CORE_BUSY : 0) | (r.error ? regs::CORE_ERROR : 0) |
               static_cast<uint32_t>(r.error_code) << regs::STATUS_ERROR_CODE_SHIFT;
      case regs::CORE_BUSY_CYCLES:
        return r.counters.busy_cycles;
      case regs::CORE_STARTUP_CYCLES:
        return r.counters.startup_cycles;
      case regs::CORE_COMPUTE_CYCLES:
        return r.counters.compute_cycles;
      case regs::CORE_LOAD_WAIT_CYCLES:
        return r.counters.load_wait_cycles;
      case regs::CORE_STORE_WAIT_CYCLES:
        return r.counters.store_wait_cycles;
      case regs::CORE_TILES:
        return r.counters.tiles;
      case regs::CORE_STALL_CYCLES:
        return r.counters.stall_cycles;
      default:
        return 0;
    }
  }
  switch (offset) {
    case regs::ID:
      return regs::kMagic;
    case regs::VERSION:
      return regs::kVersion;
    case regs::CONFIG:
      return (num_cores & regs::CONFIG_CORES_MASK) << regs::CONFIG_CORES_SHIFT |
             (dma_channels_ & regs::CONFIG_CHANNELS_MASK) << regs::CONFIG_CHANNELS_SHIFT |
             static_cast<uint32_t>(geometry_.dataflow) << regs::CONFIG_DATAFLOW_SHIFT |
             (geometry_.double_buffer ? regs::CONFIG_DOUBLE_BUFFER : 0);
    case regs::ARRAY:
      return geometry_.array_rows | geometry_.array_cols << 16;
    case regs::SRAM_BYTES_LO:
      return static_cast<uint32_t>(geometry_.sram_bytes);
    case regs::SRAM_BYTES_HI:
      return static_cast<uint32_t>(geometry_.sram_bytes >> 32);
    case regs::MEM_BASE_LO:
      return static_cast<uint32_t>(mem_base_);
    case regs::MEM_BASE_HI:
      return static_cast<uint32_t>(mem_base_ >> 32);
    case regs::MEM_SIZE_LO:
      return static_cast<uint32_t>(mem_size_);
    case regs::MEM_SIZE_HI:
      return static_cast<uint32_t>(mem_size_ >> 32);
    case regs::STATUS:
      return (busy_ ? regs::STATUS_BUSY : 0) | (done_ ? regs::STATUS_DONE : 0) |
             (error_ ? regs::STATUS_ERROR : 0) |
             static_cast<uint32_t>(error_code_) << regs::STATUS_ERROR_CODE_SHIFT |
             (error_core_ & regs::STATUS_ERROR_CORE_MASK) << regs::STATUS_ERROR_CORE_SHIFT;
    case regs::IRQ_STATUS:
      return irq_status_;
    case regs::IRQ_MASK:
      return irq_mask_;
    case regs::JOB_TABLE_LO:
      return static_cast<uint32_t>(job_table_);
    case regs::JOB_TABLE_HI:
      return static_cast<uint32_t>(job_table_ >> 32);
    case regs::CORE_MASK_LO:
      return static_cast<uint32_t>(core_mask_);
    case regs::CORE_MASK_HI:
      return static_cast<uint32_t>(core_mask_ >> 32);
    case regs::JOB_COUNT:
      return job_count_;
    case regs::ERROR_ADDR_LO:
      return static_cast<uint32_t>(error_addr_);
    case regs::ERROR_ADDR_HI:
      return static_cast<uint32_t>(error_addr_ >> 32);
    default:
      return 0;
  }
}

void Accelerator::writeRegister(uint32_t offset, uint32_t value, const sc_core::sc_time& delay) {
  switch (offset) {
    case regs::CTRL:
      if (value & regs::CTRL_SOFT_RESET) softReset(delay);
      if (value & regs::CTRL_START) startJob(delay);
      return;
    case regs::IRQ_STATUS:  // write one to clear
      irq_status_ &= ~value;
      updateIrq(delay);
      return;
    case regs::IRQ_MASK:
      irq_mask_ = value & (regs::IRQ_DONE | regs::IRQ_ERROR);
      updateIrq(delay);
      return;
    case regs::JOB_TABLE_LO:
      job_table_ = (job_table_ & ~0xFFFF'FFFFull) | value;
      return;
    case regs::JOB_TABLE_HI:
      job_table_ = (job_table_ & 0xFFFF'FFFFull) | uint64_t{value} << 32;
      return;
    case regs::CORE_MASK_LO:
      core_mask_ = (core_mask_ & ~0xFFFF'FFFFull) | value;
      return;
    case regs::CORE_MASK_HI:
      core_mask_ = (core_mask_ & 0xFFFF'FFFFull) | uint64_t{value} << 32;
      return;
    default:
      return;
  }
}

void Accelerator::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  const uint64_t offset = trans.get_address();
  if (trans.get_data_length() != 4 || offset % 4 != 0 || offset >= regs::kBlockBytes ||
      trans.get_byte_enable_ptr()) {
    trans.set_response_status(tlm::TLM_ADDRESS_ERROR_RESPONSE);
    return;
  }
  delay += access_delay_;
  const regs::Register* reg =
      regs::findRegister(static_cast<uint32_t>(offset), static_cast<uint32_t>(cores_.size()));
  if (!reg || (trans.is_read() && !regs::readable(*reg)) ||
      (trans.is_write() && !regs::writable(*reg)) || (!trans.is_read() && !trans.is_write())) {
    trans.set_response_status(tlm::TLM_COMMAND_ERROR_RESPONSE);
    return;
  }
  uint32_t value = 0;
  if (trans.is_read()) {
    value = readRegister(static_cast<uint32_t>(offset));
    std::memcpy(trans.get_data_ptr(), &value, 4);
  } else {
    std::memcpy(&value, trans.get_data_ptr(), 4);
    writeRegister(static_cast<uint32_t>(offset), value, delay);
  }
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

unsigned int Accelerator::transport_dbg(tlm::tlm_generic_payload& trans) {
  // Reads of one or more consecutive registers, without side effects.
  const uint64_t offset = trans.get_address();
  const unsigned int len = trans.get_data_length();
  if (!trans.is_read() || len == 0 || len % 4 != 0 || offset % 4 != 0 ||
      offset + len > regs::kBlockBytes)
    return 0;
  const uint32_t num_cores = static_cast<uint32_t>(cores_.size());
  for (unsigned int i = 0; i < len; i += 4) {
    const regs::Register* reg = regs::findRegister(static_cast<uint32_t>(offset + i), num_cores);
    if (!reg || !regs::readable(*reg)) return i;
    const uint32_t value = readRegister(static_cast<uint32_t>(offset + i));
    std::memcpy(trans.get_data_ptr() + i, &value, 4);
  }
  return len;
}

void Accelerator::startJob(const sc_core::sc_time& delay) {
  if (busy_) {
    error_code_ = regs::ErrorCode::kStartWhileBusy;
    return;
  }
  const uint64_t all = cores_.size() >= 64 ? ~uint64_t{0} : (uint64_t{1} << cores_.size()) - 1;
  current_job_ = jobs_started_++;
  last_start_ = sc_core::sc_time_stamp() + delay;
  done_ = false;
  error_ = false;
  error_code_ = regs::ErrorCode::kNone;
  error_addr_ = 0;
  irq_suppressed_ = false;
  if (core_mask_ == 0 || (core_mask_ & ~all) != 0) {
    error_ = true;
    done_ = true;
    error_code_ = regs::ErrorCode::kBadDescriptor;
    irq_status_ |= regs::IRQ_ERROR;
    last_done_ = last_start_;
    updateIrq(delay + irq_latency_);
    return;
  }
  busy_ = true;
  cores_pending_ = 0;
  for (uint32_t c = 0; c < cores_.size(); ++c)
    if (core_mask_ >> c & 1u) {
      ++cores_pending_;
      cores_[c]->start(job_table_, current_job_, delay);
    }
  logger().debug("job {} starts on {} cores (mask {:#x})", current_job_, cores_pending_,
                 core_mask_);
}

void Accelerator::softReset(const sc_core::sc_time& delay) {
  logger().debug("soft reset");
  for (auto& core : cores_) core->abort();
  dma_->reset();
  busy_ = done_ = error_ = false;
  error_code_ = regs::ErrorCode::kNone;
  error_addr_ = 0;
  error_core_ = 0;
  irq_status_ = 0;
  irq_suppressed_ = false;
  cores_pending_ = 0;
  updateIrq(delay);
}

void Accelerator::coreDone(uint32_t core) {
  const CoreResult& r = cores_[core]->result();
  if (r.error && !error_) {
    error_ = true;
    error_code_ = r.error_code;
    error_core_ = core;
    error_addr_ = r.error_addr;
  }
  if (cores_pending_ == 0 || --cores_pending_ > 0) return;
  busy_ = false;
  done_ = true;
  ++job_count_;
  if (error_)
    logger().debug("job {} failed on core {}: {}", current_job_, error_core_,
                   regs::errorName(error_code_));
  else
    logger().debug("job {} done", current_job_);
  last_done_ = sc_core::sc_time_stamp();
  irq_status_ |= error_ ? regs::IRQ_ERROR : regs::IRQ_DONE;
  if (irq_lost_job_ >= 0 && current_job_ == static_cast<uint32_t>(irq_lost_job_)) {
    irq_lost_job_ = -1;
    irq_suppressed_ = true;  // the status says done, but the line never rises
  }
  updateIrq(irq_latency_);
}

void Accelerator::updateIrq(const sc_core::sc_time& delay) {
  irq_updates_.notify(delay);
}

void Accelerator::driveIrq() {
  const bool level = (irq_status_ & irq_mask_) != 0 && !irq_suppressed_;
  irq.write(level);
  if (tracer_) tracer_->set(sig_irq_, level ? 1 : 0);
}

}  // namespace hilsim::model
