#include "hilsim/firmware/host_mcu.h"

#include <cstdio>
#include <cstring>

#include "hilsim/errors.h"
#include "hilsim/firmware/images.h"
#include "hilsim/iss/memory_map.h"
#include "hilsim/kernels/abi/words.h"

namespace hilsim::firmware {
namespace {

uint32_t pageRound(size_t bytes) {
  const size_t page = iss::Cpu::kPageBytes;
  return static_cast<uint32_t>((bytes + page - 1) / page * page);
}

}  // namespace

iss::CpuOptions hostCpuOptions(const config::CpuConfig& cpu) {
  const std::optional<iss::Core> core = iss::coreForPreset(cpu.preset);
  if (!core) throw ConfigError("cpu.preset '" + cpu.preset + "' has no instruction-set simulator");
  iss::CpuOptions o;
  o.core = *core;
  o.memory = cpu.memory;
  o.branch_predictor = iss::presetInfo(cpu.preset)->branch_predictor;
  return o;
}

HostMcu::HostMcu(const config::CpuConfig& cpu, rt::HostClock& clock)
    : cpu_(std::make_unique<iss::Cpu>(hostCpuOptions(cpu))),
      image_(iss::ElfImage::fromFile(imagePath(cpu.preset,
                                               cpu.kernels == timing::KernelLibrary::kOptimized
                                                   ? ImageLibrary::kOptimized
                                                   : ImageLibrary::kReference,
                                               config::toString(cpu.firmware_opt)))),
      clock_(clock) {
  cpu_->loadElf(image_);
  kernel_entry_ = entry("hs_kernel");
  call_words_ = image_.symbol("hs_call_words").value;
  const iss::RunResult init = cpu_->call(entry("hs_cpu_init"), {});
  if (init.reason != iss::StopReason::kReturned)
    throw SimulationError("firmware hs_cpu_init did not return: " + init.fault);
}

HostMcu::~HostMcu() = default;

uint32_t HostMcu::entry(const char* name) const {
  const iss::ElfSymbol s = image_.symbol(name);
  return s.value | (s.thumb ? 1u : 0u);
}

void HostMcu::forgetMappings() {
  for (const Region& r : regions_) cpu_->unmap(r.target, r.bytes);
  regions_.clear();
  next_persistent_ = 0;
}

void HostMcu::mapArena(uint8_t* base, size_t bytes) {
  forgetMappings();
  if (bytes > iss::kArenaSramBytes)
    throw ModelError("the tensor arena (" + std::to_string(bytes) +
                     " bytes) does not fit the host MCU's SRAM map");
  cpu_->mapHostMemory(iss::kArenaSramBase, base, bytes, true);
  regions_.push_back({base, bytes, iss::kArenaSramBase});
}

void HostMcu::mapPersistent(uint8_t* base, size_t bytes) {
  const uint32_t at = iss::kPersistentSramBase + next_persistent_;
  if (uint64_t{next_persistent_} + pageRound(bytes) > iss::kPersistentSramBytes)
    throw ModelError("the kernels' prepared parameters do not fit the host MCU's SRAM map");
  cpu_->mapHostMemory(at, base, bytes, true);
  regions_.push_back({base, bytes, at});
  next_persistent_ += pageRound(bytes);
}

void HostMcu::mapModel(const uint8_t* base, size_t bytes) {
  if (bytes > iss::kModelFlashBytes)
    throw ModelError("the model (" + std::to_string(bytes) +
                     " bytes) does not fit the host MCU's flash map");
  cpu_->mapBytes(iss::kModelFlashBase, base, bytes);
  regions_.push_back({base, bytes, iss::kModelFlashBase});
}

uint32_t HostMcu::address(const void* host) const {
  const auto* p = static_cast<const uint8_t*>(host);
  for (const Region& r : regions_)
    if (p >= r.host && p < r.host + r.bytes) return r.target + static_cast<uint32_t>(p - r.host);
  throw SimulationError("a kernel passed host memory outside the memory mapped into the ISS");
}

uint64_t HostMcu::run(uint32_t kernel_id, const uint32_t* words, size_t count) {
  cpu_->writeMemory(call_words_, words, count * sizeof(uint32_t));
  const uint64_t cycles_before = cpu_->cycles();
  const uint64_t instructions_before = cpu_->instructions();
  const iss::RunResult r = cpu_->call(kernel_entry_, {kernel_id, call_words_});
  if (r.reason != iss::StopReason::kReturned)
    throw SimulationError("firmware kernel " + std::to_string(kernel_id) + " stopped at pc 0x" +
                          [&] {
                            char pc[16];
                            std::snprintf(pc, sizeof pc, "%08x", r.pc);
                            return std::string(pc);
                          }() +
                          ": " + (r.fault.empty() ? iss::toString(r.reason) : r.fault));
  if (r.return_value != 0)
    throw SimulationError("firmware kernel " + std::to_string(kernel_id) +
                          " refused its call (status " + std::to_string(r.return_value) +
                          "): the image and the host disagree on the call's layout");
  const uint64_t cycles = cpu_->cycles() - cycles_before;
  kernel_instructions_ += cpu_->instructions() - instructions_before;
  clock_.advance(cycles, rt::CpuActivity::kKernel);
  return cycles;
}

std::optional<iss::FlashStats> HostMcu::flashCounts() const {
  return cpu_->flashStats();
}

}  // namespace hilsim::firmware
