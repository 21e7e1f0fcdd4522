#include "hilsim/sweep/sweep.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <map>

#include "hilsim/base/io.h"
#include "hilsim/base/progress.h"
#include "hilsim/config/yaml_writer.h"
#include "hilsim/errors.h"
#include "hilsim/sweep/sweep_results.h"

extern char** environ;

namespace hilsim::sweep {
namespace {

namespace fs = std::filesystem;

// The stop signal received (SIGINT or SIGTERM), or 0.
std::atomic<int> g_stop{0};
void onSignal(int signal) {
  g_stop = signal;
}

std::string selfPath() {
  char buf[4096];
  const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
  if (n <= 0) throw InputError("cannot find the hilsim executable");
  buf[n] = '\0';
  return buf;
}

std::string pointDir(const std::string& dir, const SweepPoint& p) {
  return dir + "/points/" + p.id;
}

std::string modelPath(const std::string& dir, const SweepModel& m) {
  return m.generated() ? fs::absolute(dir + "/models/" + m.name + ".tflite").string() : m.file;
}

std::vector<std::string> pointCommand(const std::string& self, const std::string& dir,
                                      const SweepSpec& spec, const SweepPoint& p) {
  const std::string out = fs::absolute(pointDir(dir, p)).string();
  std::vector<std::string> argv = {self, "run", "--model", modelPath(dir, *p.model)};
  if (!spec.base_config.empty()) {
    argv.push_back("--config");
    argv.push_back(spec.base_config);
  }
  for (const auto& [k, v] : p.overrides) {
    argv.push_back("--set");
    argv.push_back(k + "=" + v);
  }
  for (const std::string& a : {std::string("--mode"), spec.mode, std::string("--invocations"),
                               std::to_string(spec.invocations), std::string("--seed"),
                               std::to_string(spec.seed), std::string("--csv"), out + "/layers.csv",
                               std::string("--per-invocation"), std::string("--quiet")})
    argv.push_back(a);
  return argv;
}

std::string shellQuote(const std::string& s) {
  if (s.find_first_not_of(
          "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@") ==
      std::string::npos)
    return s;
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

std::string commandLine(const std::vector<std::string>& argv) {
  std::string line;
  for (const std::string& a : argv) line += (line.empty() ? "" : " ") + shellQuote(a);
  return line;
}

// For a YAML double-quoted scalar.
std::string escapeForDoubleQuotes(const std::string& s) {
  std::string escaped;
  for (char c : s) escaped += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
  return escaped;
}

// The spec with every path absolute, so DIR holds all that --collect needs.
void writeResolvedSpec(const SweepSpec& spec, const std::string& path) {
  config::YamlWriter y;
  y.beginMap();
  if (!spec.base_config.empty()) y.key("base_config").value(spec.base_config);
  y.key("models").beginSeq();
  for (const SweepModel& m : spec.models) {
    y.beginMap().key("name").value(m.name);
    if (!m.generated()) {
      y.key("file").value(m.file);
    } else {
      std::string layers;
      for (uint32_t l : m.gen.layers) layers += (layers.empty() ? "" : ",") + std::to_string(l);
      y.key("layers").value(layers).key("batch").value(uint64_t{m.gen.batch});
      y.key("dtype").value(m.gen.float32 ? "float32" : "int8");
      y.key("weights").value(m.gen.per_channel ? "per-channel" : "per-tensor");
      y.key("activation").value(m.gen.activation).key("seed").value(m.gen.seed);
    }
    y.endMap();
  }
  y.endSeq();
  if (!spec.set.empty()) {
    y.key("set").beginMap();
    for (const auto& [k, v] : spec.set) y.key(k).value(v);
    y.endMap();
  }
  auto lists = [&](const KeyLists& kv) {
    y.beginMap();
    for (const auto& [k, values] : kv) {
      y.key(k).beginSeq(true);
      for (const std::string& v : values) y.value(v);
      y.endSeq();
    }
    y.endMap();
  };
  if (!spec.grid.empty()) {
    y.key("grid");
    lists(spec.grid);
  }
  if (!spec.zips.empty()) {
    y.key("zip").beginSeq();
    for (const KeyLists& group : spec.zips) lists(group);
    y.endSeq();
  }
  y.key("run").beginMap().key("mode").value(spec.mode);
  y.key("invocations").value(spec.invocations).key("seed").value(spec.seed).endMap();
  if (!spec.plots.empty()) {
    y.key("plots").beginSeq();
    for (const PlotSpec& p : spec.plots) {
      y.beginMap().key("name").value(p.name).key("kind").value(p.kind);
      if (!p.x.empty()) y.key("x").value(p.x).key("y").value(p.y);
      if (!p.series.empty()) y.key("series").value(p.series);
      if (!p.model.empty()) y.key("model").value(p.model);
      if (p.log_y) y.key("log_y").value("true");
      if (!p.where.empty()) {
        y.key("where").beginMap();
        for (const auto& [k, v] : p.where) y.key(k).value(v);
        y.endMap();
      }
      y.endMap();
    }
    y.endSeq();
  }
  y.endMap();
  writeFileAtomic(path, y.str());
}

// The point's values and the exact command (add --report r.json to it for the full report).
std::string pointYaml(const SweepSpec& spec, const SweepPoint& p, const std::string& dir,
                      const std::string& self) {
  std::string text = "model: " + p.model->name + "\n";
  for (const auto& [k, v] : p.values) text += k + ": " + v + "\n";
  const std::string command = commandLine(pointCommand(self, dir, spec, p));
  return text + "command: \"" + escapeForDoubleQuotes(command) + "\"\n";
}

// Temporary files a killed run left in a point directory.
void removeStaleTemporaries(const std::string& point_dir) {
  std::error_code ec;
  for (const auto& entry : fs::directory_iterator(point_dir, ec))
    if (entry.path().filename().string().find(".tmp.") != std::string::npos)
      fs::remove(entry.path(), ec);
}

// Prepares DIR: the resolved spec, generated models, point directories.
void prepare(const SweepSpec& spec, const std::vector<SweepPoint>& points, const std::string& dir,
             const std::string& self) {
  std::error_code ec;
  fs::create_directories(dir + "/models", ec);
  fs::create_directories(dir + "/points", ec);
  if (ec) throw InputError("cannot create sweep directory '" + dir + "': " + ec.message());
  writeResolvedSpec(spec, dir + "/sweep.yaml");
  for (const SweepModel& m : spec.models)
    if (m.generated()) {
      const std::string path = dir + "/models/" + m.name + ".tflite";
      if (!fs::exists(path)) writeFileAtomic(path, modelgen::generateMlp(m.gen));
    }
  for (const SweepPoint& p : points) {
    const std::string pd = pointDir(dir, p);
    fs::create_directories(pd, ec);
    removeStaleTemporaries(pd);
    const std::string text = pointYaml(spec, p, dir, self);
    if (!fs::exists(pd + "/point.yaml")) writeFileAtomic(pd + "/point.yaml", text);
  }
}

bool finished(const std::string& dir, const SweepPoint& p) {
  return fs::exists(pointDir(dir, p) + "/layers.csv");
}

std::string lastLine(const std::string& path) {
  std::string text;
  try {
    text = readTextFile(path);
  } catch (const Error&) {
    return "";
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  const size_t nl = text.rfind('\n');
  return nl == std::string::npos ? text : text.substr(nl + 1);
}

// Points without results in DIR; the others count as skipped.
std::vector<const SweepPoint*> unfinishedPoints(const std::vector<SweepPoint>& points,
                                                const std::string& dir, size_t& skipped) {
  std::vector<const SweepPoint*> pending;
  for (const SweepPoint& p : points) {
    if (finished(dir, p))
      ++skipped;
    else
      pending.push_back(&p);
  }
  return pending;
}

void writeJobList(const std::string& path, const SweepSpec& spec, const std::string& dir,
                  const std::string& self, const std::vector<const SweepPoint*>& pending) {
  std::string text;
  for (const SweepPoint* p : pending) text += commandLine(pointCommand(self, dir, spec, *p)) + "\n";
  writeFileAtomic(path, text);
}

// The SIGINT and SIGTERM handlers in place before the sweep caught them.
struct SavedSignals {
  struct sigaction interrupt {};
  struct sigaction terminate {};
};

SavedSignals catchStopSignals() {
  g_stop = 0;
  struct sigaction action {};
  action.sa_handler = onSignal;
  sigemptyset(&action.sa_mask);
  SavedSignals saved;
  sigaction(SIGINT, &action, &saved.interrupt);
  sigaction(SIGTERM, &action, &saved.terminate);
  return saved;
}

void restoreSignals(const SavedSignals& saved) {
  sigaction(SIGINT, &saved.interrupt, nullptr);
  sigaction(SIGTERM, &saved.terminate, nullptr);
}

// Starts `argv` with stdout discarded and stderr in `log`; returns its pid.
pid_t spawnPoint(std::vector<std::string> args, const std::string& log) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 2, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (rc != 0)
    throw SimulationError("cannot start a sweep point: " + std::string(std::strerror(rc)));
  return pid;
}

// A failed point with its values and the last line of its log.
std::string failureSummary(const std::string& dir, const SweepPoint& p) {
  std::string values;
  for (const auto& [k, v] : p.values) values += " " + k + "=" + v;
  return "point " + p.id + " (" + p.model->name + values +
         "): " + lastLine(pointDir(dir, p) + "/log.txt");
}

// Runs points as child processes, options.jobs at a time. Once a stop signal arrives it starts
// no more and terminates the running ones, which are then not counted as failed.
class PointPool {
 public:
  PointPool(const SweepSpec& spec, const SweepOptions& options, const std::string& self,
            SweepOutcome& outcome)
      : spec_(spec), options_(options), self_(self), outcome_(outcome) {}

  // Counts into the outcome: ran, failed, first_failure, interrupted, stopped_points,
  // stop_signal.
  void run(const std::vector<const SweepPoint*>& pending) {
    ProgressLine progress(std::cerr, stderrIsTerminal(), "sweep:", "points");
    size_t next = 0;
    while ((next < pending.size() && !g_stop) || !running_.empty()) {
      while (!g_stop && next < pending.size() && running_.size() < options_.jobs)
        start(*pending[next++]);
      if (running_.empty()) break;
      if (g_stop)
        for (const auto& [pid, p] : running_) ::kill(pid, SIGTERM);
      int status = 0;
      const pid_t pid = ::waitpid(-1, &status, 0);
      if (pid < 0) {
        if (errno == EINTR) continue;
        break;
      }
      if (finish(pid, status)) progress.update(done_, pending.size());
    }
    progress.clear();
    outcome_.stop_signal = g_stop;
    outcome_.interrupted = g_stop != 0;
  }

 private:
  void start(const SweepPoint& p) {
    const pid_t pid = spawnPoint(pointCommand(self_, options_.dir, spec_, p),
                                 pointDir(options_.dir, p) + "/log.txt");
    running_[pid] = &p;
  }

  // Returns false if `pid` is not one of the running points.
  bool finish(pid_t pid, int status) {
    const auto it = running_.find(pid);
    if (it == running_.end()) return false;
    const SweepPoint& p = *it->second;
    running_.erase(it);
    const bool has_results = finished(options_.dir, p);
    if (g_stop && !has_results) {
      // Stopped mid-run by the interrupt: not finished, and not a failure.
      ++outcome_.stopped_points;
      return true;
    }
    ++done_;
    ++outcome_.ran;
    const bool ok = WIFEXITED(status) && WEXITSTATUS(status) == 0 && has_results;
    if (!ok && !g_stop) {
      ++outcome_.failed;
      if (outcome_.first_failure.empty()) outcome_.first_failure = failureSummary(options_.dir, p);
    }
    return true;
  }

  const SweepSpec& spec_;
  const SweepOptions& options_;
  const std::string& self_;
  SweepOutcome& outcome_;
  std::map<pid_t, const SweepPoint*> running_;
  size_t done_ = 0;
};

}  // namespace

SweepOutcome runSweep(const SweepSpec& spec, const SweepOptions& options) {
  const std::vector<SweepPoint> points = expandPoints(spec);
  const std::string self = selfPath();
  prepare(spec, points, options.dir, self);
  SweepOutcome outcome;
  outcome.points = points.size();
  const std::vector<const SweepPoint*> pending =
      unfinishedPoints(points, options.dir, outcome.skipped);
  if (options.emit_jobs) {
    writeJobList(*options.emit_jobs, spec, options.dir, self, pending);
    return outcome;
  }
  // Ctrl-C or SIGTERM stop the sweep cleanly.
  const SavedSignals saved = catchStopSignals();
  PointPool(spec, options, self, outcome).run(pending);
  restoreSignals(saved);
  return outcome;
}

CollectOutcome collectSweep(const std::string& dir) {
  const std::string spec_path = dir + "/sweep.yaml";
  if (!fs::exists(spec_path))
    throw InputError("'" + dir + "' is not a sweep directory (no sweep.yaml)");
  const SweepSpec spec = readSweepSpec(spec_path);
  const std::vector<SweepPoint> points = expandPoints(spec);
  const SweepResults results = readResults(spec, points, dir);
  CollectOutcome outcome;
  outcome.points = points.size();
  outcome.finished = results.finished_points;
  writeFileAtomic(dir + "/results.csv", resultsCsv(spec, results));
  if (std::any_of(spec.plots.begin(), spec.plots.end(),
                  [](const PlotSpec& p) { return p.kind == "pareto"; }))
    writeFileAtomic(dir + "/pareto.csv", paretoCsv(spec, results));
  outcome.plots = writePlots(spec, results, dir + "/plots");
  return outcome;
}

}  // namespace hilsim::sweep
