// Unicorn and Capstone are loaded when the instruction-set simulator first needs them, not when
// hilsim starts: the two libraries carry about 160,000 relocations, which the dynamic loader
// would otherwise process on every start (most of `hilsim --help`'s time), although only
// cpu.model iss uses them. hilsim is not linked against them; these definitions of the functions
// the ISS calls open the library on first use (by soname, else the path found at configure time)
// and forward to it. A library that cannot be loaded is a ConfigError naming it.

#include <capstone/capstone.h>
#include <dlfcn.h>
#include <unicorn/unicorn.h>

#include <cstdarg>
#include <mutex>
#include <string>

#include "hilsim/errors.h"
#include "lazy_libs.h"

namespace {

struct Library {
  Library(const char* soname_, const char* path_, const char* needed_by_)
      : soname(soname_), path(path_), needed_by(needed_by_) {}
  const char* soname;
  const char* path;
  const char* needed_by;
  void* handle = nullptr;
  std::once_flag once;
  std::string error;
};

Library unicorn{HILSIM_UNICORN_SONAME, HILSIM_UNICORN_PATH, "unicorn"};
Library capstone{HILSIM_CAPSTONE_SONAME, HILSIM_CAPSTONE_PATH, "capstone"};

void* symbol(Library& lib, const char* name) {
  std::call_once(lib.once, [&lib] {
    lib.handle = dlopen(lib.soname, RTLD_NOW | RTLD_LOCAL);
    if (lib.handle == nullptr) {
      lib.error = dlerror();
      lib.handle = dlopen(lib.path, RTLD_NOW | RTLD_LOCAL);
    }
  });
  if (lib.handle == nullptr)
    throw hilsim::ConfigError(std::string("cpu.model iss needs ") + lib.soname + " (" +
                              lib.needed_by + "), which cannot be loaded: " + lib.error);
  void* fn = dlsym(lib.handle, name);
  if (fn == nullptr)
    throw hilsim::ConfigError(std::string(lib.soname) + " has no " + name + ": " + dlerror());
  return fn;
}

// The real function `name` of `lib`, looked up once per call site's function.
#define HILSIM_FORWARD(lib, name) \
  static const auto real = reinterpret_cast<decltype(&name)>(symbol(lib, #name))

}  // namespace

void* hilsim::iss::unicornFunction(const char* name) {
  return symbol(unicorn, name);
}

extern "C" {

unsigned int uc_version(unsigned int* major, unsigned int* minor) {
  HILSIM_FORWARD(unicorn, uc_version);
  return real(major, minor);
}

uc_err uc_open(uc_arch arch, uc_mode mode, uc_engine** uc) {
  HILSIM_FORWARD(unicorn, uc_open);
  return real(arch, mode, uc);
}
uc_err uc_close(uc_engine* uc) {
  HILSIM_FORWARD(unicorn, uc_close);
  return real(uc);
}
const char* uc_strerror(uc_err code) {
  HILSIM_FORWARD(unicorn, uc_strerror);
  return real(code);
}
// Every control hilsim uses passes integers or pointers; their count is part of the control
// word (UC_CTL's nr field), so they are forwarded as 64-bit values (the x86-64 and AArch64
// calling conventions pass these in the same registers either way).
uc_err uc_ctl(uc_engine* uc, uc_control_type control, ...) {
  HILSIM_FORWARD(unicorn, uc_ctl);
  const unsigned count = (static_cast<unsigned>(control) >> 26) & 0xFu;
  uint64_t args[4] = {};
  va_list ap;
  va_start(ap, control);
  for (unsigned i = 0; i < count && i < 4; ++i) args[i] = va_arg(ap, uint64_t);
  va_end(ap);
  return real(uc, control, args[0], args[1], args[2], args[3]);
}
uc_err uc_emu_start(uc_engine* uc, uint64_t begin, uint64_t until, uint64_t timeout, size_t count) {
  HILSIM_FORWARD(unicorn, uc_emu_start);
  return real(uc, begin, until, timeout, count);
}
uc_err uc_emu_stop(uc_engine* uc) {
  HILSIM_FORWARD(unicorn, uc_emu_stop);
  return real(uc);
}
// The hook types hilsim uses take no extra arguments; UC_HOOK_INSN takes one, UC_HOOK_TCG_OPCODE
// two (integers).
uc_err uc_hook_add(uc_engine* uc, uc_hook* hh, int type, void* callback, void* user_data,
                   uint64_t begin, uint64_t end, ...) {
  HILSIM_FORWARD(unicorn, uc_hook_add);
  const unsigned count = type == UC_HOOK_INSN ? 1 : type == UC_HOOK_TCG_OPCODE ? 2 : 0;
  uint64_t args[2] = {};
  va_list ap;
  va_start(ap, end);
  for (unsigned i = 0; i < count; ++i) args[i] = va_arg(ap, uint64_t);
  va_end(ap);
  return real(uc, hh, type, callback, user_data, begin, end, args[0], args[1]);
}
uc_err uc_mem_map(uc_engine* uc, uint64_t address, size_t size, uint32_t perms) {
  HILSIM_FORWARD(unicorn, uc_mem_map);
  return real(uc, address, size, perms);
}
uc_err uc_mem_map_ptr(uc_engine* uc, uint64_t address, size_t size, uint32_t perms, void* ptr) {
  HILSIM_FORWARD(unicorn, uc_mem_map_ptr);
  return real(uc, address, size, perms, ptr);
}
uc_err uc_mmio_map(uc_engine* uc, uint64_t address, size_t size, uc_cb_mmio_read_t read_cb,
                   void* user_data_read, uc_cb_mmio_write_t write_cb, void* user_data_write) {
  HILSIM_FORWARD(unicorn, uc_mmio_map);
  return real(uc, address, size, read_cb, user_data_read, write_cb, user_data_write);
}
uc_err uc_mem_unmap(uc_engine* uc, uint64_t address, size_t size) {
  HILSIM_FORWARD(unicorn, uc_mem_unmap);
  return real(uc, address, size);
}
uc_err uc_mem_read(uc_engine* uc, uint64_t address, void* bytes, size_t size) {
  HILSIM_FORWARD(unicorn, uc_mem_read);
  return real(uc, address, bytes, size);
}
uc_err uc_mem_write(uc_engine* uc, uint64_t address, const void* bytes, size_t size) {
  HILSIM_FORWARD(unicorn, uc_mem_write);
  return real(uc, address, bytes, size);
}
uc_err uc_mem_regions(uc_engine* uc, uc_mem_region** regions, uint32_t* count) {
  HILSIM_FORWARD(unicorn, uc_mem_regions);
  return real(uc, regions, count);
}
uc_err uc_reg_read(uc_engine* uc, int regid, void* value) {
  HILSIM_FORWARD(unicorn, uc_reg_read);
  return real(uc, regid, value);
}
uc_err uc_reg_write(uc_engine* uc, int regid, const void* value) {
  HILSIM_FORWARD(unicorn, uc_reg_write);
  return real(uc, regid, value);
}
uc_err uc_free(void* mem) {
  HILSIM_FORWARD(unicorn, uc_free);
  return real(mem);
}
uc_err uc_context_alloc(uc_engine* uc, uc_context** context) {
  HILSIM_FORWARD(unicorn, uc_context_alloc);
  return real(uc, context);
}
uc_err uc_context_free(uc_context* context) {
  HILSIM_FORWARD(unicorn, uc_context_free);
  return real(context);
}
uc_err uc_context_save(uc_engine* uc, uc_context* context) {
  HILSIM_FORWARD(unicorn, uc_context_save);
  return real(uc, context);
}
uc_err uc_context_restore(uc_engine* uc, uc_context* context) {
  HILSIM_FORWARD(unicorn, uc_context_restore);
  return real(uc, context);
}

cs_err CAPSTONE_API cs_open(cs_arch arch, cs_mode mode, csh* handle) {
  HILSIM_FORWARD(capstone, cs_open);
  return real(arch, mode, handle);
}
cs_err CAPSTONE_API cs_close(csh* handle) {
  HILSIM_FORWARD(capstone, cs_close);
  return real(handle);
}
cs_err CAPSTONE_API cs_option(csh handle, cs_opt_type type, size_t value) {
  HILSIM_FORWARD(capstone, cs_option);
  return real(handle, type, value);
}
size_t CAPSTONE_API cs_disasm(csh handle, const uint8_t* code, size_t code_size, uint64_t address,
                              size_t count, cs_insn** insn) {
  HILSIM_FORWARD(capstone, cs_disasm);
  return real(handle, code, code_size, address, count, insn);
}
void CAPSTONE_API cs_free(cs_insn* insn, size_t count) {
  HILSIM_FORWARD(capstone, cs_free);
  real(insn, count);
}
cs_err CAPSTONE_API cs_regs_access(csh handle, const cs_insn* insn, cs_regs regs_read,
                                   uint8_t* regs_read_count, cs_regs regs_write,
                                   uint8_t* regs_write_count) {
  HILSIM_FORWARD(capstone, cs_regs_access);
  return real(handle, insn, regs_read, regs_read_count, regs_write, regs_write_count);
}

}  // extern "C"
