// Cpu's memories: host memory shared in place, copied read-only regions, the counted model
// flash, MMIO windows, and loading an ELF image's segments.

#include "cpu_impl.h"

#include <cctype>

namespace hilsim::iss {

void Cpu::mapHostMemory(uint32_t base, void* host, size_t bytes, bool writable) {
  if (base % kPageBytes != 0 || reinterpret_cast<uintptr_t>(host) % kPageBytes != 0)
    throw InputError("mapHostMemory at " + hex(base) +
                     ": base and host memory must be aligned to " + std::to_string(kPageBytes) +
                     " bytes");
  const uc_err err = uc_mem_map_ptr(impl_->uc, base, roundUpToPage(bytes),
                                    UC_PROT_READ | (writable ? UC_PROT_WRITE : 0), host);
  if (err != UC_ERR_OK) impl_->engineError("cannot map " + hex(base), err);
  if (writable) impl_->paths.addWritable(base, roundUpToPage(bytes));
}

void Cpu::mapBytes(uint32_t base, const void* data, size_t bytes) {
  Impl& s = *impl_;
  if (base % kPageBytes != 0)
    throw InputError("mapBytes at " + hex(base) + ": base must be aligned to " +
                     std::to_string(kPageBytes) + " bytes");
  const uint64_t size = roundUpToPage(std::max<size_t>(bytes, 1));
  PageBuffer buffer = allocatePages(size);
  if (bytes != 0) std::memcpy(buffer.get(), data, bytes);
  uc_err err;
  if (s.options.memory.flash_wait_states > 0 &&
      (inRegion(base, size, kModelFlashBase, kModelFlashBytes) ||
       inRegion(base, size, kFlashCodeBase, kFlashCodeBytes))) {
    auto region = std::make_unique<Impl::CountedRegion>(
        Impl::CountedRegion{&s, base, size, std::move(buffer)});
    err = uc_mmio_map(s.uc, base, size, &Impl::countedRead, region.get(), &Impl::countedWrite,
                      region.get());
    if (err == UC_ERR_OK) {
      s.paths.addCounted(base, size, region->data.get());
      s.counted.push_back(std::move(region));
    }
  } else {
    err = uc_mem_map_ptr(s.uc, base, size, UC_PROT_READ, buffer.get());
    if (err == UC_ERR_OK) s.owned.emplace_back(base, std::move(buffer));
  }
  if (err != UC_ERR_OK) s.engineError("cannot map " + hex(base), err);
}

void Cpu::unmap(uint32_t base, size_t bytes) {
  Impl& s = *impl_;
  const uc_err err = uc_mem_unmap(s.uc, base, roundUpToPage(std::max<size_t>(bytes, 1)));
  if (err != UC_ERR_OK) s.engineError("cannot unmap " + hex(base), err);
  s.paths.removeRegion(base);
  for (size_t i = 0; i < s.owned.size();)
    if (s.owned[i].first == base)
      s.owned.erase(s.owned.begin() + static_cast<std::ptrdiff_t>(i));
    else
      ++i;
  for (size_t i = 0; i < s.counted.size();)
    if (s.counted[i]->base == base)
      s.counted.erase(s.counted.begin() + static_cast<std::ptrdiff_t>(i));
    else
      ++i;
}

void Cpu::mapZeroed(uint32_t base, size_t bytes) {
  if (base % kPageBytes != 0)
    throw InputError("mapZeroed at " + hex(base) + ": base must be aligned to " +
                     std::to_string(kPageBytes) + " bytes");
  const uc_err err =
      uc_mem_map(impl_->uc, base, roundUpToPage(bytes), UC_PROT_READ | UC_PROT_WRITE);
  if (err != UC_ERR_OK) impl_->engineError("cannot map " + hex(base), err);
  impl_->paths.addWritable(base, roundUpToPage(bytes));
}

void Cpu::mapMmio(uint32_t base, size_t bytes, MmioHandler& handler) {
  Impl& s = *impl_;
  if (base % kPageBytes != 0)
    throw InputError("mapMmio at " + hex(base) + ": base must be aligned to " +
                     std::to_string(kPageBytes) + " bytes");
  auto binding = std::make_unique<Impl::MmioBinding>(
      Impl::MmioBinding{&s, base, roundUpToPage(bytes), &handler});
  const uc_err err = uc_mmio_map(s.uc, base, roundUpToPage(bytes), &Impl::mmioRead, binding.get(),
                                 &Impl::mmioWrite, binding.get());
  if (err != UC_ERR_OK) s.engineError("cannot map MMIO at " + hex(base), err);
  s.mmios.push_back(std::move(binding));
}

void Cpu::writeMemory(uint32_t address, const void* data, size_t bytes) {
  const uc_err err = uc_mem_write(impl_->uc, address, data, bytes);
  if (err != UC_ERR_OK) impl_->engineError("cannot write " + hex(address), err);
}

void Cpu::readMemory(uint32_t address, void* data, size_t bytes) const {
  const uc_err err = uc_mem_read(impl_->uc, address, data, bytes);
  if (err != UC_ERR_OK) impl_->engineError("cannot read " + hex(address), err);
}

uint32_t Cpu::readRegister(unsigned n) const {
  if (n >= (impl_->riscv ? 32u : 16u)) throw std::logic_error("no such core register");
  return impl_->reg(impl_->regId(n));
}

uint32_t Cpu::readFloatRegister(unsigned n) const {
  if (impl_->riscv || n >= 32u) throw std::logic_error("no such floating-point register");
  uint32_t value = 0;
  const uc_err err = uc_reg_read(impl_->uc, UC_ARM_REG_S0 + int(n), &value);
  if (err != UC_ERR_OK) impl_->engineError("cannot read s" + std::to_string(n), err);
  return value;
}

namespace {

// The whole pages of the flash code region that hold read-only data of `image` and none of its
// instructions, as runs of consecutive pages.
std::vector<ElfRange> constantPageRuns(const ElfImage& image) {
  const auto pageOf = [](uint64_t address) { return address / Cpu::kPageBytes; };
  std::vector<bool> constant(pageOf(kFlashCodeBytes), false);
  for (const ElfRange& r : image.constantSections()) {
    if (!inRegion(r.address, r.bytes, kFlashCodeBase, kFlashCodeBytes)) continue;
    const uint64_t first = pageOf(uint64_t(r.address) + Cpu::kPageBytes - 1);
    const uint64_t end = pageOf(uint64_t(r.address) + r.bytes);
    for (uint64_t p = first; p < end; ++p) constant[p] = true;
  }
  for (const ElfRange& r : image.codeSections()) {
    if (!inRegion(r.address, r.bytes, kFlashCodeBase, kFlashCodeBytes)) continue;
    for (uint64_t p = pageOf(r.address); p <= pageOf(uint64_t(r.address) + r.bytes - 1); ++p)
      constant[p] = false;
  }
  std::vector<ElfRange> runs;
  for (uint64_t p = 0; p < constant.size(); ++p) {
    if (!constant[p]) continue;
    const uint32_t address = uint32_t(kFlashCodeBase + p * Cpu::kPageBytes);
    if (!runs.empty() && runs.back().address + runs.back().bytes == address)
      runs.back().bytes += Cpu::kPageBytes;
    else
      runs.push_back({address, Cpu::kPageBytes});
  }
  return runs;
}

// Tag_CPU_arch values (ARM IHI 0045) of the M-profile architectures.
std::string armArchitectureName(uint32_t tag) {
  switch (tag) {
    case 10:
      return "Armv7";
    case 11:
      return "Armv6-M";
    case 12:
      return "Armv6S-M";
    case 13:
      return "Armv7E-M";
    case 16:
      return "Armv8-M Baseline";
    case 17:
      return "Armv8-M Mainline";
    case 21:
      return "Armv8.1-M Mainline";
    default:
      return "architecture " + std::to_string(tag) + " (Tag_CPU_arch)";
  }
}

// What the compiler says the code of `image` needs, against what `info`'s core has: its
// architecture (Tag_CPU_arch) and profile, its floating-point unit (Tag_FP_arch: up to 6,
// VFPv4-D16, the Cortex-M4F's FPv4-SP; up to 8, FPv5-D16, the Cortex-M33's FPv5-SP), Neon and
// MVE (no Cortex-M here has them); on RISC-V the ISA string's extensions (the E31 is rv32imac).
// Returns why it cannot run, or "".
std::string buildAttributesProblem(const ElfImage& image, const CoreInfo& info) {
  const ElfAttributes& a = image.attributes();
  const std::string core = std::string(info.preset);
  if (image.machine() == ElfMachine::kRiscV) {
    const std::string& isa = a.riscv_arch;
    if (isa.empty()) return "";
    if (isa.rfind("rv32", 0) != 0) return "built for " + isa + ", not a 32-bit RISC-V core";
    // The single-letter extensions of the first component, then "_"-separated ones.
    std::vector<std::string> extensions;
    size_t at = 4;
    const size_t first_end = std::min(isa.find('_'), isa.size());
    while (at < first_end) {
      if (std::isalpha(static_cast<unsigned char>(isa[at])))
        extensions.push_back(isa.substr(at, 1));
      ++at;
      while (at < first_end &&
             (std::isdigit(static_cast<unsigned char>(isa[at])) || isa[at] == 'p'))
        ++at;
    }
    for (size_t next = first_end; next < isa.size();) {
      const size_t end = std::min(isa.find('_', next + 1), isa.size());
      std::string name = isa.substr(next + 1, end - next - 1);
      while (!name.empty() &&
             (std::isdigit(static_cast<unsigned char>(name.back())) || name.back() == 'p'))
        name.pop_back();
      if (!name.empty()) extensions.push_back(name);
      next = end;
    }
    for (const std::string& e : extensions) {
      const bool single = e.size() == 1;
      const bool runs = single ? std::string("imac").find(e) != std::string::npos
                               : !(e.rfind("zf", 0) == 0 || e.rfind("zd", 0) == 0 ||
                                   e.rfind("zh", 0) == 0 || e.rfind("zv", 0) == 0);
      if (!runs)
        return "built for " + isa + ": the " + e + " extension is not on " + core + " (rv32imac)";
    }
    return "";
  }
  uint32_t newest = 0;  // the newest architecture the core runs code of
  uint32_t fp_limit = 0;
  switch (info.core) {
    case Core::kCortexM0Plus:
      newest = 12;
      break;
    case Core::kCortexM4F:
      newest = 13;
      fp_limit = 6;
      break;
    case Core::kCortexM33:
      newest = 17;
      fp_limit = 8;
      break;
    case Core::kRv32im:
      return "";
  }
  const std::string arch = newest == 12 ? "Armv6-M" : armArchitectureName(newest);
  if (a.fp_arch && *a.fp_arch != 0) {
    if (fp_limit == 0)
      return "uses floating-point instructions (Tag_FP_arch " + std::to_string(*a.fp_arch) +
             "), and " + core + " has no FPU";
    if (*a.fp_arch > fp_limit)
      return "needs a newer FPU (Tag_FP_arch " + std::to_string(*a.fp_arch) + ") than " + core +
             "'s";
  }
  // 'A', 'R' or 'S' (either): not the microcontroller profile.
  if (a.cpu_arch_profile && *a.cpu_arch_profile != 0 && *a.cpu_arch_profile != 'M')
    return std::string("built for the ") + char(*a.cpu_arch_profile) + " profile, and " + core +
           " is a microcontroller (" + arch + ")";
  if (a.cpu_arch) {
    const uint32_t v = *a.cpu_arch;
    // Armv7 with the M profile is Armv7-M; Armv8-M Baseline code needs Armv8-M.
    const bool runs = (v >= 10 && v <= 13 && v <= newest && (v >= 11 || newest >= 13)) ||
                      ((v == 16 || v == 17) && newest == 17);
    if (!runs)
      return "built for " + armArchitectureName(v) + ", which " + core + " (" + arch +
             ") cannot run";
  }
  if (a.simd_arch && *a.simd_arch != 0) return "uses Advanced SIMD (Neon), not on " + core;
  if (a.mve_arch && *a.mve_arch != 0) return "uses MVE (Helium), not on " + core;
  return "";
}

}  // namespace

void Cpu::loadElf(const ElfImage& image) {
  Impl& s = *impl_;
  const bool wants_riscv = image.machine() == ElfMachine::kRiscV;
  if (wants_riscv != s.riscv)
    throw InputError(image.name() + ": an " + (wants_riscv ? "RISC-V" : "Arm") +
                     " executable cannot run on " + s.info.preset);
  if (const std::string problem = buildAttributesProblem(image, s.info); !problem.empty())
    throw InputError(image.name() + ": " + problem);

  // Constant pages counted for an image loaded before become plain flash again.
  for (size_t i = s.counted.size(); i-- > 0;) {
    const Impl::CountedRegion& r = *s.counted[i];
    if (!inRegion(r.base, r.bytes, kFlashCodeBase, kFlashCodeBytes)) continue;
    const uint32_t base = r.base;
    const uint64_t bytes = r.bytes;
    unmap(base, bytes);
    if (const uc_err err = uc_mem_map(s.uc, base, bytes, UC_PROT_READ | UC_PROT_EXEC))
      s.engineError("cannot map the flash at " + hex(base), err);
  }

  // The model flash segments become one read-only region spanning them.
  uint64_t model_first = std::numeric_limits<uint64_t>::max(), model_end = 0;
  for (const ElfSegment& seg : image.segments()) {
    if (!inRegion(seg.vaddr, seg.mem_bytes, kModelFlashBase, kModelFlashBytes)) continue;
    model_first = std::min<uint64_t>(model_first, seg.vaddr / kPageBytes * kPageBytes);
    model_end = std::max<uint64_t>(model_end, uint64_t(seg.vaddr) + seg.mem_bytes);
  }
  if (model_end != 0) {
    std::vector<uint8_t> span(model_end - model_first, 0);
    for (const ElfSegment& seg : image.segments())
      if (inRegion(seg.vaddr, seg.mem_bytes, kModelFlashBase, kModelFlashBytes))
        std::copy(seg.bytes.begin(), seg.bytes.end(), span.begin() + (seg.vaddr - model_first));
    mapBytes(uint32_t(model_first), span.data(), span.size());
  }

  uc_mem_region* regions = nullptr;
  uint32_t region_count = 0;
  uc_mem_regions(s.uc, &regions, &region_count);
  auto mapped = [&](const ElfSegment& seg) {
    for (uint32_t i = 0; i < region_count; ++i)
      if (inRegion(seg.vaddr, seg.mem_bytes, regions[i].begin,
                   regions[i].end - regions[i].begin + 1))
        return true;
    return false;
  };
  auto in_mmio = [&](const ElfSegment& seg) {
    for (const auto& m : s.mmios)
      if (uint64_t(seg.vaddr) < uint64_t(m->base) + m->bytes &&
          uint64_t(m->base) < uint64_t(seg.vaddr) + seg.mem_bytes)
        return true;
    return false;
  };
  std::string error;
  for (const ElfSegment& seg : image.segments()) {
    if (inRegion(seg.vaddr, seg.mem_bytes, kModelFlashBase, kModelFlashBytes)) continue;
    if (!mapped(seg) || in_mmio(seg)) {
      error = image.name() + ": segment at " + hex(seg.vaddr) + " (" +
              std::to_string(seg.mem_bytes) + " bytes) lies outside mapped memory";
      break;
    }
    uc_mem_write(s.uc, seg.vaddr, seg.bytes.data(), seg.bytes.size());
    const std::vector<uint8_t> zeros(seg.mem_bytes - seg.bytes.size(), 0);
    if (!zeros.empty())
      uc_mem_write(s.uc, seg.vaddr + uint32_t(seg.bytes.size()), zeros.data(), zeros.size());
  }
  uc_free(regions);
  if (!error.empty()) throw InputError(error);

  // With flash wait states, loads of the image's read-only data in the flash code region go
  // through the flash memory system as model-flash loads do: the pages holding only such data
  // become counted regions (a page shared with code stays plain flash).
  if (s.options.memory.flash_wait_states > 0)
    for (const ElfRange& run : constantPageRuns(image)) {
      std::vector<uint8_t> data(run.bytes);
      readMemory(run.address, data.data(), data.size());
      if (const uc_err err = uc_mem_unmap(s.uc, run.address, run.bytes))
        s.engineError("cannot unmap the flash at " + hex(run.address), err);
      mapBytes(run.address, data.data(), data.size());
    }

  // Newly written code must be translated and timed afresh; its divides get their hooks first.
  for (const ElfSegment& seg : image.segments()) {
    if (!seg.executable) continue;
    uc_ctl_remove_cache(s.uc, seg.vaddr, uint64_t(seg.vaddr) + seg.mem_bytes);
    for (const DivideSite& site :
         scanDivides(s.options.core, seg.vaddr, seg.bytes.data(), seg.bytes.size())) {
      if (!s.hooked_divides.insert(site.address).second) continue;
      uc_hook hook;
      uc_hook_add(s.uc, &hook, UC_HOOK_CODE, reinterpret_cast<void*>(&Impl::divideHook), &s,
                  site.address, site.address);
    }
  }
  s.blocks.clear();
  s.fast.assign(kFastSlots, Impl::Slot{});
  s.flash.invalidate();
  s.divides.clear();
}

}  // namespace hilsim::iss
