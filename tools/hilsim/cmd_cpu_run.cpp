#include <cstdio>
#include <cstring>
#include <iostream>
#include <limits>

#include "args.h"
#include "commands.h"
#include "hilsim/base/json.h"
#include "hilsim/base/log.h"
#include "hilsim/base/progress.h"
#include "hilsim/config/loader.h"
#include "hilsim/errors.h"
#include "hilsim/firmware/host_mcu.h"
#include "hilsim/iss/cpu.h"
#include "hilsim/iss/memory_map.h"

namespace hilsim::cli {
namespace {

constexpr uint64_t kDefaultMaxInstructions = 10'000'000'000ull;

// A 32-bit argument: decimal (optionally negative, stored as two's complement) or 0x hex.
uint32_t parseArgument(const std::string& text) {
  const std::string what = "--arg";
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    const std::string digits = text.substr(2);
    if (digits.size() > 8 ||
        digits.find_first_not_of("0123456789abcdefABCDEF") != std::string::npos)
      throw UsageError(what + ": expected a 32-bit value, got '" + text + "'");
    return uint32_t(std::stoul(digits, nullptr, 16));
  }
  const bool negative = !text.empty() && text[0] == '-';
  const uint64_t magnitude = parseUnsigned(what, negative ? text.substr(1) : text);
  if (negative ? magnitude > 0x8000'0000ull : magnitude > 0xffff'ffffull)
    throw UsageError(what + ": '" + text + "' does not fit in 32 bits");
  return negative ? uint32_t(0 - magnitude) : uint32_t(magnitude);
}

std::string hex(uint32_t v) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08x", v);
  return text;
}

std::string joined(const std::vector<std::string>& names) {
  std::string out;
  for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
  return out;
}

}  // namespace

int cpuRunCommand(int argc, char** argv, int first) {
  std::string path, entry;
  std::vector<std::string> arg_texts, sets;
  std::optional<std::string> config_path, max_text;
  std::string returns = "int";
  bool json = false, quiet = false;
  ArgParser args(
      "cpu-run",
      "Runs one function of a firmware ELF on the instruction-set simulator of the configured\n"
      "host CPU (cpu.preset) and prints the cycles and instructions it took until it returned.\n"
      "Exits 2 for bad input (missing file, not an ELF, unknown symbol, a preset without a\n"
      "simulator) and 3 when the function faults, touches unmapped memory, executes WFI or\n"
      "runs past the instruction limit.");
  args.positional("FILE.elf", &path, true, "firmware executable for the memory map");
  args.option("--entry", &entry, "SYMBOL", "function to call");
  args.repeated("--arg", &arg_texts, "N",
                "argument in r0-r3 / a0-a7, in order (decimal, negative or 0x hex; repeatable)");
  args.option("--config", &config_path, "C.yaml", "hardware config (default: embedded defaults)");
  args.repeated("--set", &sets, "key=value", "override one config key (repeatable)");
  args.option("--max-instructions", &max_text, "N",
              "stop as a runaway after N instructions (default 10000000000)");
  args.flag("--json", &json, "print {\"cycles\": N, \"instructions\": M}");
  args.option("--returns", &returns, "int|float",
              "what the function returns (default int); float reads s0 under the Arm\n"
              "hard-float ABI, else r0 / a0");
  args.flag("--quiet", &quiet, "no progress line on the terminal");
  if (!args.parse(argc, argv, first)) return 0;
  if (entry.empty()) throw UsageError("cpu-run: --entry SYMBOL is required");
  if (returns != "int" && returns != "float")
    throw UsageError("--returns: '" + returns + "' is not one of int|float");

  std::vector<config::Override> overrides;
  for (const std::string& s : sets) overrides.push_back({s});
  const config::HardwareConfig config = config::loadConfig(config_path.value_or(""), overrides);
  log::setLevel(config.sim.log_level);
  if (!iss::coreForPreset(config.cpu.preset))
    throw UsageError("cpu-run: cpu.preset '" + config.cpu.preset +
                     "' has no instruction-set simulator (presets with one: " +
                     joined(iss::issPresetNames()) + ")");

  iss::CpuOptions options = firmware::hostCpuOptions(config.cpu);
  options.max_instructions =
      max_text ? parseUnsigned("--max-instructions", *max_text) : kDefaultMaxInstructions;
  if (options.max_instructions == 0) throw UsageError("--max-instructions: must be at least 1");
  std::vector<uint32_t> values;
  for (const std::string& t : arg_texts) values.push_back(parseArgument(t));
  const size_t max_args = options.core == iss::Core::kRv32im ? 8 : 4;
  if (values.size() > max_args)
    throw UsageError("cpu-run: at most " + std::to_string(max_args) + " --arg on " +
                     config.cpu.preset);

  const iss::ElfImage image = iss::ElfImage::fromFile(path);
  const iss::ElfSymbol symbol = image.symbol(entry);
  iss::Cpu cpu(options);
  cpu.mapZeroed(iss::kPersistentSramBase, iss::kPersistentSramBytes);
  cpu.mapZeroed(iss::kArenaSramBase, iss::kArenaSramBytes);
  cpu.loadElf(image);
  // The core's set-up that the program ships (examples/cpu_run/hilsim_app_start.c), outside the
  // counted figures.
  if (const std::optional<iss::ElfSymbol> init = image.findSymbol("hilsim_app_init")) {
    const iss::RunResult r = cpu.call(init->value, {});
    if (r.reason != iss::StopReason::kReturned)
      throw SimulationError("cpu-run: hilsim_app_init: pc " + hex(r.pc) + ": " +
                            (r.reason == iss::StopReason::kFault ? r.fault : "did not return"));
  }

  // On a terminal the call pauses every few million instructions to show its progress against
  // the instruction limit; the pauses do not change its timing.
  ProgressLine progress(std::cerr, stderrIsTerminal() && !quiet, "cpu-run:", "instructions");
  constexpr uint64_t kProgressInstructions = 20'000'000;
  if (stderrIsTerminal() && !quiet) cpu.setPauseInterval(kProgressInstructions);
  values.resize(max_args, 0);
  iss::RunResult r = max_args == 8
                         ? cpu.call(symbol.value, {values[0], values[1], values[2], values[3],
                                                   values[4], values[5], values[6], values[7]})
                         : cpu.call(symbol.value, {values[0], values[1], values[2], values[3]});
  while (r.reason == iss::StopReason::kStopRequested) {
    progress.update(cpu.instructions(), options.max_instructions);
    const uint64_t cycles = r.cycles, instructions = r.instructions;
    r = cpu.resume();
    r.cycles += cycles;
    r.instructions += instructions;
  }
  progress.clear();
  switch (r.reason) {
    case iss::StopReason::kReturned:
      break;
    case iss::StopReason::kFault:
      throw SimulationError("cpu-run: " + entry + ": pc " + hex(r.pc) + ": " + r.fault);
    case iss::StopReason::kWaitForInterrupt:
      throw SimulationError("cpu-run: " + entry + ": pc " + hex(r.pc) +
                            ": WFI, but cpu-run has no interrupt source");
    case iss::StopReason::kStopRequested:
      throw SimulationError("cpu-run: " + entry + ": pc " + hex(r.pc) + ": stopped");
  }
  // A float result is in s0 under the Arm hard-float ABI; a soft-float ABI returns its bits in
  // r0 / a0, where the integer result is.
  const bool in_s0 = image.machine() == iss::ElfMachine::kArm && image.hardFloatAbi();
  const uint32_t float_bits = in_s0 ? cpu.readFloatRegister(0) : r.return_value;
  float float_value = 0.0f;
  std::memcpy(&float_value, &float_bits, sizeof float_value);
  const iss::FlashStats& f = cpu.flashStats();
  if (json) {
    const Json flash = {
        {"line_reads", f.line_reads},       {"icache_hits", f.icache_hits},
        {"icache_misses", f.icache_misses}, {"dcache_hits", f.dcache_hits},
        {"dcache_misses", f.dcache_misses}, {"model_line_reads", f.model_line_reads}};
    Json result = {{"cycles", r.cycles}, {"instructions", r.instructions}, {"flash", flash}};
    if (returns == "float") result["return"] = double(float_value);
    std::cout << formatJson(result, JsonLayout{0}) << "\n";
  } else {
    std::cout << "cycles " << r.cycles << "\ninstructions " << r.instructions << "\nreturn ";
    if (returns == "float")
      std::cout << shortestNumber(double(float_value)) << " ("
                << (in_s0                                      ? "s0"
                    : image.machine() == iss::ElfMachine::kArm ? "r0"
                                                               : "a0")
                << ")\n";
    else
      std::cout << hex(r.return_value) << "\n";
    std::cout << "flash line_reads " << f.line_reads << " icache_hits " << f.icache_hits
              << " icache_misses " << f.icache_misses << " dcache_hits " << f.dcache_hits
              << " dcache_misses " << f.dcache_misses << " model_line_reads " << f.model_line_reads
              << "\n";
    std::printf("time_us %.3f (%s at %g MHz)\n", double(r.cycles) / config.cpu.clock_mhz,
                config.cpu.preset.c_str(), config.cpu.clock_mhz);
  }
  return 0;
}

}  // namespace hilsim::cli
