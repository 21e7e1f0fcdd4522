// trace-stats on hilsim's own traces, through build/hilsim: per-core busy time and per-layer
// windows agree with the run's report; the .gtkw beside the trace names every signal; bad
// inputs exit 2 with one line naming the file and the line.

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "files.h"
#include "json_file.h"
#include "runner.h"

namespace hilsim::test {
namespace {

void expectOk(const RunOutcome& r) {
  ASSERT_FALSE(r.timed_out) << r.command;
  ASSERT_EQ(r.exit_code, 0) << r.command << "\n" << r.err;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// A 512-256-64 MLP run offloaded on four cores for three invocations, traced and reported, with
// the host at trace-stats' default clock (400 MHz).
class TraceStatsRun : public ::testing::Test {
 protected:
  void SetUp() override {
    expectOk(runHilsim({"gen-model", "--layers", "512,256,64", "--out", dir_ + "/m.tflite"}));
    expectOk(
        runHilsim({"run", "--model", dir_ + "/m.tflite", "--config",
                   std::string(HILSIM_SOURCE_DIR) + "/configs/m4.yaml", "--set",
                   "cpu.clock_mhz=400", "--mode", "accel", "--invocations", "3", "--per-invocation",
                   "--vcd", vcd_, "--report", dir_ + "/r.json", "--quiet"}));
    report_ = readJsonFile(dir_ + "/r.json");
  }
  JsonDoc stats(const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args = {"trace-stats", vcd_, "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    const RunOutcome r = runHilsim(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return parseJson(r.out);
  }

  std::string dir_ = makeTempDir(std::string("trace-stats-") +
                                 ::testing::UnitTest::GetInstance()->current_test_info()->name());
  std::string vcd_ = dir_ + "/t.vcd";
  JsonDoc report_;
};

TEST_F(TraceStatsRun, CoreBusyTimeAgreesWithTheReport) {
  ASSERT_EQ(report_.at("config").at("cpu").at("clock_mhz").get<double>(),
            400.0);  // trace-stats' default
  const JsonDoc layers = report_.at("layers");
  ASSERT_EQ(layers.size(), 6u);         // two layers, three invocations
  std::map<uint64_t, double> expected;  // core -> busy cycles summed over layers and invocations
  for (const JsonDoc& layer : layers) {
    ASSERT_EQ(layer.at("path").get<std::string>(), "accel");
    for (const JsonDoc& c : layer.at("accel").at("per_core"))
      expected[c.at("core").get<uint64_t>()] += c.at("busy_cycles").get<double>();
  }
  const JsonDoc hilsim = stats().at("hilsim");
  ASSERT_TRUE(hilsim.is_object());
  ASSERT_EQ(hilsim.at("per_core").size(), 4u);
  for (const JsonDoc& c : hilsim.at("per_core")) {
    const uint64_t core = c.at("core").get<uint64_t>();
    ASSERT_TRUE(expected.count(core)) << core;
    EXPECT_NEAR(c.at("busy_cycles").get<double>(), expected[core], double(layers.size()))
        << "core " << core;
  }
}

TEST_F(TraceStatsRun, OneWindowPerLayerInvocationAsLongAsTheReportSays) {
  const JsonDoc layers = report_.at("layers");
  const JsonDoc windows = stats().at("hilsim").at("windows");
  ASSERT_EQ(windows.size(), layers.size());
  for (size_t i = 0; i < layers.size(); ++i) {
    const JsonDoc w = windows[i], layer = layers[i];
    EXPECT_EQ(w.at("layer").get<uint64_t>(), layer.at("index").get<uint64_t>()) << i;
    EXPECT_EQ(w.at("invocation").get<uint64_t>(), i / 2) << i;
    EXPECT_TRUE(w.at("complete").get<bool>()) << i;
    EXPECT_NEAR(w.at("cycles").get<double>(), layer.at("cycles").get<double>(), 1.0) << i;
    std::map<uint64_t, double> busy;
    for (const JsonDoc& c : layer.at("accel").at("per_core"))
      busy[c.at("core").get<uint64_t>()] = c.at("busy_cycles").get<double>();
    for (const JsonDoc& c : w.at("per_core"))
      EXPECT_NEAR(c.at("busy_cycles").get<double>(), busy.at(c.at("core").get<uint64_t>()), 1.0)
          << "window " << i << " core " << c.at("core");
  }
  // Another host clock scales the cycles.
  const JsonDoc at800 = stats({"--cpu-mhz", "800"}).at("hilsim").at("windows");
  EXPECT_NEAR(at800[0].at("cycles").get<double>(), 2 * windows[0].at("cycles").get<double>(), 1e-6);
}

TEST_F(TraceStatsRun, TextReportShowsSignalsWindowsAndCores) {
  const RunOutcome r = runHilsim({"trace-stats", vcd_});
  expectOk(r);
  for (const char* part :
       {"timescale 1 ps", "hilsim.core3.busy", "hilsim.dma.bytes_total",
        "layer windows (host CPU at 400 MHz", "core busy over the trace", "core0", "core3"})
    EXPECT_NE(r.out.find(part), std::string::npos) << part << "\n" << r.out;
}

TEST_F(TraceStatsRun, GtkwBesideTheTraceNamesEverySignal) {
  const std::string gtkw = slurp(dir_ + "/t.gtkw");
  ASSERT_FALSE(gtkw.empty());
  EXPECT_NE(gtkw.find("[dumpfile] \"t.vcd\""), std::string::npos) << gtkw;
  std::set<std::string> traced;
  std::vector<std::string> groups;
  std::istringstream lines(gtkw);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty() || line[0] == '[' || line[0] == '@' || line[0] == '*' || line[0] == '^')
      continue;
    if (line[0] == '-') {
      if (groups.empty() || groups.back() != line.substr(1)) groups.push_back(line.substr(1));
      continue;
    }
    traced.insert(line);
  }
  const JsonDoc signals = stats().at("signals");
  ASSERT_EQ(traced.size(), signals.size()) << gtkw;
  for (const JsonDoc& s : signals) {
    // GTKWave names a vector by its name and bit range.
    const uint64_t width = s.at("width").get<uint64_t>();
    const std::string name = s.at("name").get<std::string>() +
                             (width > 1 ? "[" + std::to_string(width - 1) + ":0]" : "");
    EXPECT_TRUE(traced.count(name)) << name << "\n" << gtkw;
  }
  const std::vector<std::string> expected_groups = {"cpu",     "core0",   "core1",   "core2",
                                                    "core3",   "dma.ch0", "dma.ch1", "dma.ch2",
                                                    "dma.ch3", "dma",     "bus"};
  EXPECT_EQ(groups, expected_groups);
}

// The wave-pane width in pixels on which GTKWave shows `span` time units whole at `zoom`: its own
// "zoom fit" sets zoom = -log2((span + 1) / (pixels - 4) x 200).
double panePixels(double span, double zoom) {
  return (span + 1) * 200 / std::pow(2.0, -zoom) + 4;
}

// The save file opens on the whole trace: starts at 0, zoomed so the trace's time range fills a
// wave pane of 740 pixels (the 1400-pixel window leaves 776 for it), named markers A and B at its
// ends; enumerations are shown through filter files written beside it.
TEST_F(TraceStatsRun, GtkwOpensOnTheWholeTraceWithNamedEnumerations) {
  const std::string gtkw = slurp(dir_ + "/t.gtkw");
  EXPECT_NE(gtkw.find("\n[timestart] 0\n"), std::string::npos) << gtkw;
  const size_t star = gtkw.find("\n*");
  ASSERT_NE(star, std::string::npos) << gtkw;
  std::istringstream zoom_line(gtkw.substr(star + 2, gtkw.find('\n', star + 2) - star - 2));
  double zoom = 0;
  int64_t marker = 0;
  std::vector<int64_t> named;
  zoom_line >> zoom >> marker;
  for (int64_t v; zoom_line >> v;) named.push_back(v);
  ASSERT_EQ(named.size(), 26u) << gtkw;  // GTKWave's named markers A..Z
  EXPECT_EQ(marker, -1);
  EXPECT_EQ(named[0], 0);
  // The trace ends at the last value change.
  uint64_t last_change = 0;
  std::istringstream vcd(slurp(vcd_));
  for (std::string line; std::getline(vcd, line);)
    if (!line.empty() && line[0] == '#') last_change = std::stoull(line.substr(1));
  EXPECT_EQ(named[1], static_cast<int64_t>(last_change));
  EXPECT_NEAR(panePixels(static_cast<double>(last_change), zoom), 740.0, 0.5) << "zoom " << zoom;

  // Each enumeration: decimal with the translate flag (0x2000), then "^N file", then the signal.
  std::map<std::string, std::string> filter_of;  // signal -> filter file
  std::istringstream lines(gtkw);
  std::string flags, filter;
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    if (line[0] == '@') {
      flags = line;
    } else if (line[0] == '^') {
      filter = line.substr(line.find(' ') + 1);
    } else if (line.rfind("hilsim.", 0) == 0) {
      if (!filter.empty()) {
        EXPECT_EQ(flags, "@2024") << line;
        filter_of[line] = filter;
      }
      filter.clear();
    }
  }
  const std::string state = filter_of["hilsim.cpu.state[1:0]"];
  ASSERT_FALSE(state.empty()) << gtkw;
  // Named without a directory: GTKWave looks for them beside the save file, wherever the set is
  // moved.
  EXPECT_EQ(state, "t.cpu_state.filter");
  EXPECT_NE(slurp(dir_ + "/" + state).find("\n1 kernel\n2 driver\n"), std::string::npos);
  for (int c = 0; c < 4; ++c) {
    const std::string phase = filter_of["hilsim.core" + std::to_string(c) + ".phase[2:0]"];
    EXPECT_EQ(phase, "t.core_phase.filter") << c;
  }
  EXPECT_NE(slurp(dir_ + "/t.core_phase.filter").find("\n3 compute\n4 store\n"), std::string::npos);
  EXPECT_EQ(filter_of["hilsim.bus.owner[7:0]"], "t.bus_owner.filter");
  EXPECT_NE(slurp(dir_ + "/t.bus_owner.filter").find("\n3 dma.ch3\n4 cpu\n"), std::string::npos);
  EXPECT_EQ(filter_of.size(), 6u);  // cpu.state, four phases, bus.owner
}

// With --vcd-layers the view starts and zooms on the window.
TEST_F(TraceStatsRun, GtkwOfAWindowStartsThere) {
  expectOk(runHilsim({"run", "--model", dir_ + "/m.tflite", "--config",
                      std::string(HILSIM_SOURCE_DIR) + "/configs/m4.yaml", "--mode", "accel",
                      "--vcd", dir_ + "/w.vcd", "--vcd-layers", "1-1", "--quiet"}));
  const std::string gtkw = slurp(dir_ + "/w.gtkw");
  const size_t at = gtkw.find("[timestart] ");
  ASSERT_NE(at, std::string::npos);
  const uint64_t start = std::stoull(gtkw.substr(at + 12));
  EXPECT_GT(start, 0u);
  const size_t star = gtkw.find("\n*");
  ASSERT_NE(star, std::string::npos);
  std::istringstream zoom_line(gtkw.substr(star + 2));
  double zoom = 0;
  int64_t marker = 0, a = 0, b = 0;
  zoom_line >> zoom >> marker >> a >> b;
  EXPECT_EQ(a, static_cast<int64_t>(start));
  EXPECT_GT(b, a);
  EXPECT_NEAR(panePixels(static_cast<double>(b - a), zoom), 740.0, 0.5) << "zoom " << zoom;
}

TEST_F(TraceStatsRun, BadInputsExitTwoNamingFileAndLine) {
  const std::string vcd = slurp(vcd_);
  auto check = [&](const std::string& path, const std::string& expected) {
    const RunOutcome r = runHilsim({"trace-stats", path});
    EXPECT_EQ(r.exit_code, 2) << r.command << "\n" << r.out;
    EXPECT_NE(r.err.find(expected), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_TRUE(r.out.empty()) << r.out;
  };
  check(dir_ + "/missing.vcd", "cannot open '" + dir_ + "/missing.vcd'");
  check(dir_ + "/m.tflite", dir_ + "/m.tflite:1: not a VCD file");

  // Cut in the middle of a value change line.
  const size_t line_start = vcd.find("\nb", vcd.size() / 2) + 1;
  const size_t line_no = std::count(vcd.begin(), vcd.begin() + line_start, '\n') + 1;
  writeFile(dir_ + "/cut.vcd", std::vector<uint8_t>(vcd.begin(), vcd.begin() + line_start + 2));
  check(dir_ + "/cut.vcd", dir_ + "/cut.vcd:" + std::to_string(line_no) + ":");

  // A value that is not one.
  std::string bad = vcd;
  bad.replace(line_start, 1, "q");
  writeFile(dir_ + "/bad.vcd", std::vector<uint8_t>(bad.begin(), bad.end()));
  check(dir_ + "/bad.vcd", dir_ + "/bad.vcd:" + std::to_string(line_no) + ": cannot read 'q");

  // Cut inside the header.
  const size_t header_cut = vcd.find("$var") + 3;
  writeFile(dir_ + "/header.vcd", std::vector<uint8_t>(vcd.begin(), vcd.begin() + header_cut));
  check(dir_ + "/header.vcd", dir_ + "/header.vcd:");

  const RunOutcome usage = runHilsim({"trace-stats", vcd_, "--cpu-mhz", "fast"});
  EXPECT_EQ(usage.exit_code, 2);
  EXPECT_NE(usage.err.find("--cpu-mhz"), std::string::npos) << usage.err;
}

}  // namespace
}  // namespace hilsim::test
