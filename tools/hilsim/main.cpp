// hilsim: the command-line front end. The only place that prints errors and chooses exit codes:
// 0 success, 2 usage / input / configuration error, 3 simulation failure, 130 / 143 stopped by
// SIGINT / SIGTERM.

#include <unistd.h>

#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <optional>
#include <string>

#include "commands.h"
#include "hilsim/base/io.h"
#include "hilsim/base/log.h"
#include "hilsim/core/dot.h"
#include "hilsim/errors.h"

namespace {

struct Command {
  const char* name;
  int (*run)(int, char**, int);
  const char* summary;
};

constexpr Command kCommands[] = {
    {"run", hilsim::cli::runCommand, "simulate inference and print the per-layer table"},
    {"annotate", hilsim::cli::annotateCommand,
     "write chunk plans for the FULLY_CONNECTED and convolution layers of a model"},
    {"strip", hilsim::cli::stripCommand, "remove every hilsim annotation from a model"},
    {"inspect", hilsim::cli::inspectCommand,
     "show tensors, operators, quantization and annotations of a model"},
    {"gen-model", hilsim::cli::genModelCommand, "write a synthetic MLP of FULLY_CONNECTED layers"},
    {"trace-stats", hilsim::cli::traceStatsCommand,
     "activity per signal, and per-layer core utilization, from a VCD"},
    {"sweep", hilsim::cli::sweepCommand, "architecture exploration over a parameter grid"},
    {"crossover", hilsim::cli::crossoverCommand,
     "find, per layer shape family, where offloading starts to pay"},
    {"cpu-run", hilsim::cli::cpuRunCommand,
     "run one firmware function on the host CPU's instruction-set simulator"},
    {"calibrate", hilsim::cli::calibrateCommand,
     "fit the CPU cost model's coefficients to the reference kernels on the simulator"},
    {"config", hilsim::cli::configCommand, "print the fully resolved hardware configuration"},
};

void printUsage(std::ostream& out) {
  out << "usage: hilsim <command> [options]\n\n"
         "hilsim simulates an M-core int8 matmul accelerator behind a TFLite-Micro-style "
         "runtime.\n\n"
         "commands:\n";
  for (const Command& c : kCommands) {
    std::string name = c.name;
    name.resize(12, ' ');
    out << "  " << name << c.summary << "\n";
  }
  out << "\nRun 'hilsim <command> --help' for the options of a command.\n";
}

// One readable line: newlines inside a message become spaces.
std::string oneLine(std::string message) {
  for (char& c : message)
    if (c == '\n' || c == '\r') c = ' ';
  return message;
}

// HILSIM_DATAPATH=portable|avx2|avx512 forces the cores' datapath; a name this CPU cannot run
// is an error rather than a silent fallback, so a run never claims a path it did not take.
void applyDatapathOverride() {
  const char* forced = std::getenv("HILSIM_DATAPATH");
  if (forced == nullptr) return;
  const std::optional<hilsim::core::DotPath> path = hilsim::core::dotPathByName(forced);
  if (!path)
    throw hilsim::UsageError(std::string("HILSIM_DATAPATH=") + forced +
                             " is not one of portable|avx2|avx512");
  std::string available;
  for (hilsim::core::DotPath p : hilsim::core::availableDotPaths()) {
    if (p == *path) {
      hilsim::core::selectDotPath(p);
      return;
    }
    available += (available.empty() ? "" : ", ") + std::string(hilsim::core::dotPathName(p));
  }
  throw hilsim::UsageError(std::string("HILSIM_DATAPATH=") + forced +
                           ": this CPU cannot run that datapath (it can run " + available + ")");
}

// Ctrl-C or SIGTERM: remove the temporary files of the outputs being written, say so in one line
// and exit 128 + the signal. Only async-signal-safe calls.
extern "C" void onStopSignal(int signal) {
  hilsim::removeRegisteredTemporaries();
  const char* message = signal == SIGINT
                            ? "hilsim: interrupted (SIGINT); unfinished output files removed\n"
                            : "hilsim: terminated (SIGTERM); unfinished output files removed\n";
  const ssize_t ignored = ::write(STDERR_FILENO, message, std::strlen(message));
  (void)ignored;
  ::_exit(128 + signal);
}

void catchStopSignals() {
  struct sigaction action {};
  action.sa_handler = onStopSignal;
  sigemptyset(&action.sa_mask);
  sigaction(SIGINT, &action, nullptr);
  sigaction(SIGTERM, &action, nullptr);
}

}  // namespace

// SystemC's library wants an sc_main; hilsim drives the simulation from main instead.
extern "C" int sc_main(int, char**) {
  return 0;
}

int main(int argc, char** argv) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
  catchStopSignals();
  hilsim::log::setLevel(hilsim::LogLevel::kWarn);
  if (argc < 2) {
    printUsage(std::cerr);
    return 2;
  }
  const std::string name = argv[1];
  if (name == "--help" || name == "-h" || name == "help") {
    printUsage(std::cout);
    return 0;
  }
  if (name == "--version") {
    std::cout << "hilsim " << HILSIM_VERSION << "\n";
    return 0;
  }
  try {
    applyDatapathOverride();
    for (const Command& c : kCommands)
      if (name == c.name) return c.run(argc, argv, 2);
    std::cerr << "hilsim: unknown command '" << name << "' (see hilsim --help)\n";
    return 2;
  } catch (const hilsim::SimulationError& e) {
    std::cerr << "hilsim: simulation failed: " << oneLine(e.what()) << "\n";
    return 3;
  } catch (const hilsim::UsageError& e) {
    std::cerr << "hilsim: " << oneLine(e.what()) << "\n";
    return 2;
  } catch (const std::bad_alloc&) {
    std::cerr << "hilsim: out of memory\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "hilsim: internal error: " << oneLine(e.what()) << "\n";
    return 1;
  }
}
