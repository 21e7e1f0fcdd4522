// The engine, its memories and the run loop. Timing is charged per basic block: a block hook adds
// the block's cached static cost plus what depends on the previous block (taken branch, branch
// prediction, results still in flight); divide hooks add their operand-dependent cycles; the model
// flash, when it has wait states, is read through a counting path (src/unicorn_fast_paths.cpp).

#include "cpu_impl.h"

namespace hilsim::iss {

const char* toString(StopReason reason) {
  switch (reason) {
    case StopReason::kReturned:
      return "returned";
    case StopReason::kWaitForInterrupt:
      return "wait for interrupt";
    case StopReason::kStopRequested:
      return "stop requested";
    case StopReason::kFault:
      return "fault";
  }
  return "?";
}

Cpu::Cpu(const CpuOptions& options)
    : impl_((checkFlashOptions(options.memory.flash), std::make_unique<Impl>(options))) {
  Impl& s = *impl_;
  const EngineConfig& e = s.info.engine;
  uc_err err = uc_open(uc_arch(e.arch), uc_mode(e.mode), &s.uc);
  if (err != UC_ERR_OK)
    throw Error(std::string("cannot create the CPU engine: ") + uc_strerror(err));
  uc_ctl_set_cpu_model(s.uc, e.cpu_model);
  if (!s.riscv) {
    // Arm engines default to 1 KB pages. 4 KB pages make host mappings simpler and halve the
    // aliasing in the engine's direct-mapped TLB. Unicorn 2.0.1 sets twice the requested size.
    uint32_t page = 0;
    uc_ctl_set_page_size(s.uc, kPageBytes);
    uc_ctl_get_page_size(s.uc, &page);
    if (page != kPageBytes) {
      uc_close(s.uc);
      s.uc = nullptr;
      err = uc_open(uc_arch(e.arch), uc_mode(e.mode), &s.uc);
      if (err != UC_ERR_OK)
        throw Error(std::string("cannot create the CPU engine: ") + uc_strerror(err));
      uc_ctl_set_cpu_model(s.uc, e.cpu_model);
      uc_ctl_set_page_size(s.uc, uint32_t(uint64_t(kPageBytes) * kPageBytes / page));
      uc_ctl_get_page_size(s.uc, &page);
    }
    if (page != kPageBytes)
      throw Error("the CPU engine does not support " + std::to_string(kPageBytes) + "-byte pages");
    s.thumb = std::make_unique<ThumbTiming>(s.options);
  }
  if ((err = uc_mem_map(s.uc, kFlashCodeBase, kFlashCodeBytes, UC_PROT_READ | UC_PROT_EXEC)) ||
      (err = uc_mem_map(s.uc, kFirmwareSramBase, kFirmwareSramBytes, UC_PROT_ALL)) ||
      (err = uc_mem_map(s.uc, kReturnSentinel, kPageBytes, UC_PROT_READ | UC_PROT_EXEC)))
    s.engineError("cannot map the flash and SRAM", err);
  s.paths.addWritable(kFirmwareSramBase, kFirmwareSramBytes);
  if (!s.riscv) {
    if ((err = uc_mem_map(s.uc, kSystemControlBase, kSystemControlBytes,
                          UC_PROT_READ | UC_PROT_WRITE)))
      s.engineError("cannot map the system control space", err);
    s.paths.addWritable(kSystemControlBase, kSystemControlBytes);
  }
  uc_hook hook;
  uc_hook_add(s.uc, &hook, UC_HOOK_BLOCK,
              reinterpret_cast<void*>(s.riscv ? &Impl::blockHook : &Impl::armBlockHook), &s, 1, 0);
  uc_hook_add(s.uc, &hook, UC_HOOK_MEM_INVALID, reinterpret_cast<void*>(&Impl::invalidHook), &s, 1,
              0);
}

Cpu::~Cpu() = default;

Core Cpu::core() const {
  return impl_->options.core;
}
uint32_t Cpu::flashWaitStates() const {
  return impl_->options.memory.flash_wait_states;
}
uint32_t Cpu::sramWaitStates() const {
  return impl_->options.memory.sram_wait_states;
}
uint64_t Cpu::cycles() const {
  return impl_->cycles;
}
uint64_t Cpu::instructions() const {
  return impl_->instructions;
}
const FlashStats& Cpu::flashStats() const {
  return impl_->flash.stats();
}
bool Cpu::suspended() const {
  return !impl_->frames.empty() && !impl_->running;
}
void Cpu::requestStop() {
  impl_->stop_requested = true;
}
void Cpu::setPauseInterval(uint64_t instructions) {
  impl_->pause_interval = instructions;
}

RunResult Cpu::call(uint32_t entry, std::initializer_list<uint32_t> args) {
  return impl_->start(entry, args, false);
}

RunResult Cpu::callInterrupt(uint32_t handler) {
  if (!suspended()) throw std::logic_error("Cpu::callInterrupt needs a suspended call");
  return impl_->start(handler, {}, true);
}

RunResult Cpu::resume() {
  Impl& s = *impl_;
  if (s.running || s.frames.empty()) throw std::logic_error("Cpu::resume without a suspended call");
  return s.run(s.frames.back().resume_pc);
}

}  // namespace hilsim::iss
