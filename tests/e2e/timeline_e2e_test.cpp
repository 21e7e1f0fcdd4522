// `hilsim run --timeline`: the Chrome trace-event / Perfetto timeline of a small MLP parses as
// JSON, has a track for the CPU, the DMA channels, the bus and every core, nests each core's jobs
// inside the CPU span of their layer, and --timeline-layers bounds it.

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "files.h"
#include "golden_cases.h"
#include "json_file.h"
#include "runner.h"

namespace hilsim::test {
namespace {

void expectOk(const RunOutcome& r) {
  ASSERT_FALSE(r.timed_out) << r.command;
  ASSERT_EQ(r.exit_code, 0) << r.command << "\n" << r.err;
}

struct Span {
  int pid = 0;
  int tid = 0;
  std::string name;
  double ts = 0;
  double dur = 0;
  JsonDoc args;
};

struct Timeline {
  std::map<int, std::string> processes;                // pid -> name
  std::map<std::pair<int, int>, std::string> threads;  // (pid, tid) -> name
  std::vector<Span> spans;                             // in file order
};

Timeline load(const std::string& path) {
  const JsonDoc doc = readJsonFile(path);
  Timeline t;
  const JsonDoc events = doc.at("traceEvents");
  EXPECT_TRUE(events.is_array());
  for (const JsonDoc& e : events) {
    const std::string ph = e.at("ph").get<std::string>();
    const int pid = e.at("pid").get<int>();
    const int tid = e.at("tid").get<int>();
    if (ph == "M") {
      const std::string what = e.at("name").get<std::string>();
      if (what == "process_name") t.processes[pid] = e.at("args").at("name").get<std::string>();
      if (what == "thread_name") t.threads[{pid, tid}] = e.at("args").at("name").get<std::string>();
      continue;
    }
    EXPECT_EQ(ph, "X");
    t.spans.push_back({pid, tid, e.at("name").get<std::string>(), e.at("ts").get<double>(),
                       e.at("dur").get<double>(), e.at("args")});
  }
  return t;
}

class TimelineRun : public ::testing::Test {
 protected:
  void SetUp() override {
    expectOk(runHilsim({"gen-model", "--layers", "64,32,10", "--out", model_}));
  }
  // Runs two invocations offloaded with a timeline (and `extra` options); returns the report.
  JsonDoc run(const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {
        "run",    "--model",    model_, "--mode",   "accel",          "--invocations",
        "2",      "--timeline", json_,  "--report", dir_ + "/r.json", "--per-invocation",
        "--quiet"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunOutcome r = runHilsim(args);
    EXPECT_EQ(r.exit_code, 0) << r.command << "\n" << r.err;
    return readJsonFile(dir_ + "/r.json");
  }

  std::string dir_ = makeTempDir(std::string("timeline-") +
                                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::string model_ = dir_ + "/m.tflite";
  std::string json_ = dir_ + "/t.json";
};

TEST_F(TimelineRun, TracksSpansAndNesting) {
  const JsonDoc report = run();
  const int cores = report.at("config").at("accel").at("num_cores").get<int>();
  ASSERT_GE(cores, 1);
  const Timeline t = load(json_);

  std::set<std::string> processes;
  for (const auto& [pid, name] : t.processes) processes.insert(name);
  EXPECT_TRUE(processes.count("cpu"));
  EXPECT_TRUE(processes.count("dma"));
  EXPECT_TRUE(processes.count("bus"));
  for (int c = 0; c < cores; ++c) EXPECT_TRUE(processes.count("core" + std::to_string(c))) << c;

  // The CPU's layer spans: (invocation, layer) -> [begin, end].
  std::map<std::pair<int, int>, std::pair<double, double>> layers;
  std::map<std::pair<int, int>, std::vector<const Span*>> tracks;
  for (const Span& s : t.spans) {
    EXPECT_GE(s.dur, 0) << s.name;
    EXPECT_TRUE(t.threads.count({s.pid, s.tid})) << "unnamed track " << s.pid << "/" << s.tid;
    tracks[{s.pid, s.tid}].push_back(&s);
    if (t.processes.at(s.pid) == "cpu" && s.args.contains("op")) {
      EXPECT_EQ(s.args.at("op").get<std::string>(), "FULLY_CONNECTED");
      EXPECT_EQ(s.args.at("path").get<std::string>(), "accel");
      layers[{s.args.at("invocation").get<int>(), s.args.at("layer").get<int>()}] = {s.ts,
                                                                                     s.ts + s.dur};
    }
  }
  ASSERT_EQ(layers.size(), report.at("layers").size());

  // Every core job lies inside the CPU span of a layer, the one its args name; core 0 runs one
  // job per offloaded layer, the others at most that (a small layer leaves cores idle).
  constexpr double kSlack = 0;  // times are exact in float64
  for (int c = 0; c < cores; ++c) {
    int jobs = 0;
    for (const Span& s : t.spans) {
      if (t.processes.at(s.pid) != "core" + std::to_string(c) || s.name != "job") continue;
      ++jobs;
      EXPECT_GE(s.args.at("tiles").get<int>(), 1);
      const int layer = s.args.at("layer").get<int>();
      bool inside = false;
      for (const auto& [key, window] : layers)
        if (key.second == layer && s.ts >= window.first - kSlack &&
            s.ts + s.dur <= window.second + kSlack)
          inside = true;
      EXPECT_TRUE(inside) << "core" << c << " job at " << s.ts << " of layer " << layer;
    }
    if (c == 0)
      EXPECT_EQ(jobs, static_cast<int>(layers.size()));
    else
      EXPECT_LE(jobs, static_cast<int>(layers.size())) << "core" << c;
  }

  // Per track, spans that do not enclose others (all but layers and core jobs) come in time
  // order without overlapping; so do the enclosing ones among themselves.
  for (const auto& [key, spans] : tracks) {
    std::map<bool, double> end;
    for (const Span* s : spans) {
      const bool enclosing = s->name == "job" || s->args.contains("op");
      if (end.count(enclosing))
        EXPECT_GE(s->ts, end[enclosing] - kSlack)
            << t.threads.at(key) << " " << s->name << " at " << s->ts;
      end[enclosing] = s->ts + s->dur;
    }
  }

  // DMA transfers carry their size; the bus shows transfers.
  int transfers = 0;
  for (const Span& s : t.spans)
    if (t.processes.at(s.pid) == "dma") {
      EXPECT_GT(s.args.at("bytes").get<int>(), 0);
      ++transfers;
    }
  EXPECT_GT(transfers, 0);
  EXPECT_GT(tracks.size(), 3u);
}

// Read the way a viewer reads it: each span ends at ts + dur summed in float64, and the spans of a
// track, ordered by begin (longer first), must nest or follow each other with no slack at all.
// person_detect's 31 layers, offloaded and on the CPU, give thousands of spans at odd times.
TEST(Timeline, SpansNestExactlyInFloat64AsViewersAddThem) {
  const std::string dir = makeTempDir("timeline-float64");
  const std::string json = dir + "/t.json";
  const RunOutcome r = runHilsim({"run", "--model", sharedDir() + "/models/person_detect.tflite",
                                  "--mode", "auto", "--timeline", json, "--quiet"});
  expectOk(r);
  const Timeline t = load(json);
  std::map<std::pair<int, int>, std::vector<const Span*>> tracks;
  for (const Span& s : t.spans) tracks[{s.pid, s.tid}].push_back(&s);
  size_t checked = 0;
  for (auto& [key, spans] : tracks) {
    std::stable_sort(spans.begin(), spans.end(), [](const Span* a, const Span* b) {
      return a->ts != b->ts ? a->ts < b->ts : a->dur > b->dur;
    });
    std::vector<const Span*> open;
    for (const Span* s : spans) {
      while (!open.empty() && open.back()->ts + open.back()->dur <= s->ts) open.pop_back();
      if (!open.empty())
        ASSERT_LE(s->ts + s->dur, open.back()->ts + open.back()->dur)
            << t.threads.at(key) << ": " << s->name << " at " << s->ts << " overlaps "
            << open.back()->name << " at " << open.back()->ts;
      open.push_back(s);
      ++checked;
    }
  }
  EXPECT_GT(checked, 1000u);

  // The host CPU's activity lies inside its layer's span; where the two are equal (a layer run
  // on the CPU), the layer's span comes first in the file, so viewers keep the layer outside.
  int layers = 0, equal = 0;
  for (size_t i = 0; i < t.spans.size(); ++i) {
    const Span& s = t.spans[i];
    if (t.processes.at(s.pid) != "cpu" || s.args.contains("op")) continue;
    const Span* layer = nullptr;
    for (const Span& l : t.spans)
      if (l.pid == s.pid && l.args.contains("op") && l.ts <= s.ts && s.ts + s.dur <= l.ts + l.dur &&
          (!layer || l.dur < layer->dur))
        layer = &l;
    if (!layer) continue;  // activity between layers (none in this model)
    ++layers;
    if (layer->ts == s.ts && layer->dur == s.dur) {
      ++equal;
      EXPECT_LT(layer, &s) << s.name << " at " << s.ts << " precedes its layer in the file";
    }
  }
  EXPECT_GT(layers, 0);
  EXPECT_GT(equal, 0) << "no layer ran on the CPU alone";

  // Bus spans are named by the port, as the VCD's filter names bus.owner.
  std::set<std::string> bus_names;
  for (const Span& s : t.spans)
    if (t.processes.at(s.pid) == "bus") bus_names.insert(s.name);
  EXPECT_TRUE(bus_names.count("cpu"));
  EXPECT_TRUE(bus_names.count("dma.ch0"));
  for (const std::string& name : bus_names)
    EXPECT_TRUE(name == "cpu" || name == "shared" || name.rfind("dma.ch", 0) == 0) << name;
}

TEST_F(TimelineRun, LayerRangeBoundsIt) {
  run({"--timeline-layers", "1-1"});
  const Timeline t = load(json_);
  ASSERT_FALSE(t.spans.empty());
  int layer_spans = 0;
  bool core_jobs = false;
  for (const Span& s : t.spans) {
    if (s.args.contains("op")) {
      ++layer_spans;
      EXPECT_EQ(s.args.at("layer").get<int>(), 1);
      EXPECT_EQ(s.args.at("invocation").get<int>(), 0);
    }
    if (s.args.contains("layer"))
      EXPECT_EQ(s.args.at("layer").get<int>(), 1) << s.name << " at " << s.ts;
    core_jobs |= s.name == "job";
  }
  EXPECT_EQ(layer_spans, 1);
  EXPECT_TRUE(core_jobs);
}

TEST_F(TimelineRun, BadLayerRangeExitsTwo) {
  const RunOutcome r = runHilsim(
      {"run", "--model", model_, "--timeline", json_, "--timeline-layers", "5-7", "--quiet"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_NE(r.err.find("--timeline-layers 5-7"), std::string::npos) << r.err;
  const RunOutcome no_timeline =
      runHilsim({"run", "--model", model_, "--timeline-layers", "0-1", "--quiet"});
  EXPECT_EQ(no_timeline.exit_code, 2) << no_timeline.err;
}

}  // namespace
}  // namespace hilsim::test
