// The two measurements bench/e2e.sh needs beside the hilsim executable:
//
//   hilsim_e2e_bench native --layer 1x1024x1024 [--iterations N]
//     Time per call of oneDNN's int8 matmul (when built against libdnnl-dev) and of hilsim's own
//     dispatched kernel on the layer `hilsim gen-model --layers K,N --batch ROWS` writes (same
//     weights), single-threaded. Prints one line per kernel: "native NAME WALL_US CPU_US" (medians
//     of 31 batches; CPU = this process's user + system time).
//
//   hilsim_e2e_bench time --repeat R -- COMMAND [ARGS]... [--- COMMAND [ARGS]...]...
//     Runs each COMMAND R times as a whole process (stdout and stderr to /dev/null), the commands
//     in turn so that each sees the same load, and prints one line per command:
//     "time BEST_WALL_US MEDIAN_WALL_US BEST_CPU_US" (CPU = user + system of the child). Exits 1
//     if any run fails.

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "hilsim/base/rng.h"
#include "hilsim/modelgen/model_gen.h"
#include "hilsim/rt/interpreter.h"
#include "native_gemv.h"

namespace {

using Clock = std::chrono::steady_clock;

[[noreturn]] void usage() {
  std::fprintf(
      stderr,
      "usage: hilsim_e2e_bench native --layer ROWSxKxN [--iterations N]\n"
      "       hilsim_e2e_bench time --repeat R -- COMMAND [ARGS]... [--- COMMAND...]...\n");
  std::exit(2);
}

double micros(Clock::duration d) {
  return std::chrono::duration<double, std::micro>(d).count();
}

// CPU time of this process (user + system), microseconds.
double cpuMicros() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) * 1e6 + static_cast<double>(ts.tv_nsec) * 1e-3;
}

int nativeCommand(int argc, char** argv) {
  uint32_t rows = 1, k = 1024, n = 1024;
  long iterations = 20000;
  for (int i = 2; i + 1 < argc; i += 2) {
    const std::string arg = argv[i];
    if (arg == "--layer") {
      if (std::sscanf(argv[i + 1], "%ux%ux%u", &rows, &k, &n) != 3) usage();
    } else if (arg == "--iterations") {
      iterations = std::atol(argv[i + 1]);
    } else {
      usage();
    }
  }
  // The weights of the generated layer, as the simulated run uses them.
  hilsim::modelgen::MlpSpec spec;
  spec.layers = {k, n};
  spec.batch = rows;
  hilsim::rt::Model model =
      hilsim::rt::Model::fromBytes(hilsim::modelgen::generateMlp(spec), "bench layer");
  const hilsim::rt::OpResolver ref = hilsim::rt::referenceOpResolver();
  hilsim::rt::Interpreter probe(model, ref);
  const hilsim::rt::Tensor* filter = probe.nodes()[0].inputs[1];
  const std::vector<int8_t> weights(filter->as<int8_t>(), filter->as<int8_t>() + filter->bytes);
  std::vector<int8_t> input(uint64_t{rows} * k);
  hilsim::Rng rng(3);
  for (int8_t& v : input) v = static_cast<int8_t>(rng.range(-128, 127));
  std::vector<int32_t> y(uint64_t{rows} * n);

  std::vector<std::unique_ptr<hilsim::bench::NativeGemv>> natives;
  for (bool u8 : {false, true})
    if (auto dnnl = hilsim::bench::makeOneDnnGemv(rows, k, n, weights, u8))
      natives.push_back(std::move(dnnl));
  natives.push_back(hilsim::bench::makeOwnGemv(rows, k, n, weights));
  constexpr int kBatches = 31;
  const long per_batch = std::max(1L, iterations / kBatches);
  for (auto& g : natives) {
    for (int i = 0; i < 50; ++i) g->run(input.data(), y.data());
    std::vector<double> walls, cpus;
    for (int b = 0; b < kBatches; ++b) {
      const double cpu0 = cpuMicros();
      const auto start = Clock::now();
      for (long i = 0; i < per_batch; ++i) g->run(input.data(), y.data());
      walls.push_back(micros(Clock::now() - start) / static_cast<double>(per_batch));
      cpus.push_back((cpuMicros() - cpu0) / static_cast<double>(per_batch));
    }
    std::sort(walls.begin(), walls.end());
    std::sort(cpus.begin(), cpus.end());
    std::string name = g->name();
    std::replace(name.begin(), name.end(), ' ', '_');
    std::printf("native %s %.3f %.3f\n", name.c_str(), walls[walls.size() / 2],
                cpus[cpus.size() / 2]);
  }
  return 0;
}

struct Timing {
  std::vector<double> walls;
  double best_cpu = 1e300;
};

// Runs argv (null-terminated) once as a whole process; false if it fails.
bool runOnce(char** argv, Timing* t) {
  const auto start = Clock::now();
  const pid_t pid = fork();
  if (pid < 0) {
    std::perror("fork");
    return false;
  }
  if (pid == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1);
    dup2(null, 2);
    execv(argv[0], argv);
    _exit(127);
  }
  int status = 0;
  rusage ru{};
  if (wait4(pid, &status, 0, &ru) != pid) {
    std::perror("wait4");
    return false;
  }
  const double wall = micros(Clock::now() - start);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    std::fprintf(stderr, "hilsim_e2e_bench: %s failed (status %d)\n", argv[0], status);
    return false;
  }
  t->walls.push_back(wall);
  const double cpu = static_cast<double>(ru.ru_utime.tv_sec + ru.ru_stime.tv_sec) * 1e6 +
                     static_cast<double>(ru.ru_utime.tv_usec + ru.ru_stime.tv_usec);
  t->best_cpu = std::min(t->best_cpu, cpu);
  return true;
}

// Commands separated by "---" run in turn, R rounds, so that each sees the same load.
int timeCommand(int argc, char** argv) {
  int repeat = 7, first = -1;
  for (int i = 2; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--repeat" && i + 1 < argc) {
      repeat = std::atoi(argv[++i]);
    } else if (arg == "--") {
      first = i + 1;
      break;
    } else {
      usage();
    }
  }
  if (first < 0 || first >= argc || repeat < 1) usage();
  std::vector<std::vector<char*>> commands(1);
  for (int i = first; i < argc; ++i) {
    if (std::strcmp(argv[i], "---") == 0) {
      commands.emplace_back();
    } else {
      commands.back().push_back(argv[i]);
    }
  }
  for (auto& c : commands) {
    if (c.empty()) usage();
    c.push_back(nullptr);
  }
  std::vector<Timing> timings(commands.size());
  for (int r = 0; r < repeat; ++r)
    for (size_t c = 0; c < commands.size(); ++c)
      if (!runOnce(commands[c].data(), &timings[c])) return 1;
  for (Timing& t : timings) {
    std::sort(t.walls.begin(), t.walls.end());
    std::printf("time %.1f %.1f %.1f\n", t.walls[0], t.walls[t.walls.size() / 2], t.best_cpu);
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) usage();
  const std::string command = argv[1];
  if (command == "native") return nativeCommand(argc, argv);
  if (command == "time") return timeCommand(argc, argv);
  usage();
}
