// Sweeps through build/hilsim: results and plots, reruns, interruption, GNU parallel and
// --collect; crossover.

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <thread>

#include "files.h"
#include "golden_cases.h"
#include "hilsim/report/csv.h"
#include "runner.h"
#include "xml_check.h"

namespace hilsim::test {
namespace {

namespace fs = std::filesystem;

std::string text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

size_t lines(const std::string& s) {
  return static_cast<size_t>(std::count(s.begin(), s.end(), '\n'));
}

std::string writeSpec(const std::string& dir, const std::string& body) {
  const std::string path = dir + "/spec.yaml";
  std::ofstream(path) << body;
  return path;
}

// 2 models x 2 x 2 grid points; small and quick.
const char* kSmallSpec = R"(base_config: )" HILSIM_SOURCE_DIR R"(/configs/default.yaml
models:
  - name: small
    layers: 64,32,10
    activation: relu
  - name: square
    layers: 128,128
grid:
  accel.num_cores: [1, 4]
  bus.width_bytes: [8, 32]
run:
  invocations: 3
plots:
  - name: cycles
    x: accel.num_cores
    y: cycles
    series: bus.width_bytes
  - name: speedup
    x: accel.num_cores
    y: speedup
    series: bus.width_bytes
  - name: breakdown
    kind: stacked
    where: {accel.num_cores: 4, bus.width_bytes: 32}
)";

void expectValidSvg(const std::string& path) {
  const XmlCheck x = checkXml(text(path));
  ASSERT_TRUE(x.ok) << path << ": " << x.error;
  EXPECT_EQ(x.root, "svg") << path;
  // A title, axis labels and legend entries are all text elements.
  EXPECT_GE(x.texts.size(), 6u) << path;
  // It renders (librsvg, installed by scripts/deps.sh).
  EXPECT_EQ(runShell("rsvg-convert '" + path + "' -o '" + path + ".png'"), 0) << path;
}

// A sweep over real CNNs: every convolution of every point is a row with its GEMM shape, on the
// accelerator in auto mode, and the totals beat the reference path.
TEST(Sweep, TakesRealConvolutionalModels) {
  const std::string dir = makeTempDir("sweep-cnn");
  const std::string spec = writeSpec(dir, R"(base_config: )" HILSIM_SOURCE_DIR
                                          R"(/configs/default.yaml
models:
  - file: )" + sharedDir() + R"(/models/person_detect.tflite
  - file: )" + sharedDir() + R"(/models/mlperf_kws_ref_model.tflite
grid:
  accel.num_cores: [1, 4]
run:
  mode: auto
  invocations: 2
)");
  const RunOutcome r = runHilsim({"sweep", spec, "--out", dir + "/out", "--jobs", "2"}, 300);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream csv(text(dir + "/out/results.csv"));
  std::string line;
  std::getline(csv, line);
  size_t convs = 0, totals = 0;
  while (std::getline(csv, line)) {
    if (line.find(",total,") != std::string::npos) {
      ++totals;
      continue;
    }
    if (line.find("CONV_2D") == std::string::npos) continue;
    ++convs;
    EXPECT_NE(line.find(",accel,"), std::string::npos) << line;
    EXPECT_TRUE(line.find(" SAME ") != std::string::npos ||
                line.find(" VALID ") != std::string::npos)
        << line;
  }
  EXPECT_EQ(totals, 4u);
  EXPECT_EQ(convs, 2u * (28 + 9));
}

TEST(Sweep, ProducesResultsAndPlotsAndRerunSkipsFinishedPoints) {
  const std::string dir = makeTempDir("sweep-small");
  const std::string spec = writeSpec(dir, kSmallSpec);
  RunOutcome r = runHilsim({"sweep", spec, "--out", dir + "/out", "--jobs", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("8 of 8 points"), std::string::npos) << r.out;
  const std::string results = text(dir + "/out/results.csv");
  // Header, then per point: its layers and a totals row (small: 2 layers, square: 1).
  EXPECT_EQ(lines(results), 1u + 4 * (2 + 1) + 4 * (1 + 1));
  EXPECT_EQ(results.rfind(
                "point,model,accel.num_cores,bus.width_bytes,layer,op,shape,macs,path,cycles", 0),
            0u);
  for (const char* plot : {"cycles-small", "cycles-square", "speedup-small", "breakdown-square"}) {
    SCOPED_TRACE(plot);
    const std::string path = dir + "/out/plots/" + std::string(plot) + ".svg";
    expectValidSvg(path);
    const XmlCheck x = checkXml(text(path));
    const std::string all = [&] {
      std::string s;
      for (const std::string& t : x.texts) s += t + "|";
      return s;
    }();
    if (std::string(plot).rfind("breakdown", 0) == 0) {
      EXPECT_NE(all.find("host CPU cycles per inference"), std::string::npos) << all;
      EXPECT_NE(all.find("compute"), std::string::npos) << all;
    } else {
      EXPECT_NE(all.find("accel.num_cores"), std::string::npos) << all;
      EXPECT_NE(all.find("bus.width_bytes = 8"), std::string::npos) << all;
      EXPECT_NE(all.find("bus.width_bytes = 32"), std::string::npos) << all;
    }
  }
  // A rerun runs nothing and writes the same results.
  r = runHilsim({"sweep", spec, "--out", dir + "/out"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(8 skipped, 0 run, 0 failed)"), std::string::npos) << r.out;
  EXPECT_EQ(text(dir + "/out/results.csv"), results);
}

TEST(Sweep, KillingItMidwayLosesNoFinishedPoint) {
  const std::string dir = makeTempDir("sweep-kill");
  // 40 points of a layer slow enough to kill the sweep while points run.
  const std::string spec = writeSpec(dir, R"(models:
  - name: big
    layers: 1024,1024
grid:
  accel.num_cores: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20]
  bus.width_bytes: [8, 16]
run:
  invocations: 200
)");
  const std::string out = dir + "/out";
  const int pid = startHilsim({"sweep", spec, "--out", out, "--jobs", "2"});
  auto finished = [&] {
    size_t n = 0;
    std::error_code ec;
    if (fs::exists(out + "/points"))
      for (const auto& p : fs::directory_iterator(out + "/points", ec))
        n += fs::exists(p.path() / "layers.csv");
    return n;
  };
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (finished() < 3 && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  ::kill(-pid, SIGKILL);  // the sweep and every point it runs, at once
  int status = 0;
  ::waitpid(pid, &status, 0);
  const size_t kept = finished();
  ASSERT_GE(kept, 3u);
  ASSERT_LT(kept, 40u) << "the sweep finished before it could be killed";
  // Every result file present is complete: a header and one row per invocation.
  for (const auto& p : fs::directory_iterator(out + "/points")) {
    if (fs::exists(p.path() / "layers.csv")) {
      EXPECT_EQ(lines(text((p.path() / "layers.csv").string())), 1u + 200u) << p.path();
    }
  }
  EXPECT_FALSE(fs::exists(out + "/results.csv") && lines(text(out + "/results.csv")) == 0);
  // Running it again finishes the rest without redoing the kept points, and cleans up.
  const RunOutcome r = runHilsim({"sweep", spec, "--out", out, "--jobs", "2"}, 300);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("(" + std::to_string(kept) + " skipped"), std::string::npos) << r.out;
  EXPECT_EQ(lines(text(out + "/results.csv")), 1u + 40u * 2);
  for (const auto& e : fs::recursive_directory_iterator(out))
    EXPECT_EQ(e.path().filename().string().find(".tmp."), std::string::npos) << e.path();
}

TEST(Sweep, EmittedJobsRunUnderGnuParallelAndCollectGivesTheSameRows) {
  const std::string dir = makeTempDir("sweep-parallel");
  const std::string spec = writeSpec(dir, kSmallSpec);
  ASSERT_EQ(runHilsim({"sweep", spec, "--out", dir + "/inproc"}).exit_code, 0);
  RunOutcome r =
      runHilsim({"sweep", spec, "--out", dir + "/jobs", "--emit-jobs", dir + "/jobs.txt"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(lines(text(dir + "/jobs.txt")), 8u);
  ASSERT_EQ(runShell("parallel --will-cite -j 2 < '" + dir + "/jobs.txt'"), 0);
  r = runHilsim({"sweep", "--collect", dir + "/jobs"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("collected 8 of 8 points"), std::string::npos) << r.out;
  EXPECT_EQ(text(dir + "/jobs/results.csv"), text(dir + "/inproc/results.csv"));
}

TEST(Sweep, BadSpecsNameFileAndLine) {
  const std::string dir = makeTempDir("sweep-bad");
  auto run = [&](const std::string& body) {
    return runHilsim({"sweep", writeSpec(dir, body), "--out", dir + "/out"});
  };
  RunOutcome r = run("models:\n  - layers: 8,8\ngird:\n  accel.num_cores: [1]\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("spec.yaml:3: unknown key 'gird'"), std::string::npos) << r.err;
  r = run("models:\n  - layers: 8,8\ngrid:\n  accel.num_coers: [1, 2]\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("spec.yaml:4: accel.num_coers"), std::string::npos) << r.err;
  r = run("models:\n  - layers: 8,8\ngrid:\n  accel.num_cores:\n    - 1\n    - 65\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("spec.yaml:6: accel.num_cores = '65'"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1..64"), std::string::npos) << r.err;
  // Each value loads on its own, the combination does not: the error names both values' lines.
  r =
      run("models:\n  - name: m\n    layers: 8,8\ngrid:\n  accel.dma.max_burst_bytes: [16, 64]\n"
          "  bus.width_bytes:\n    - 16\n    - 32\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("spec.yaml: point m accel.dma.max_burst_bytes=16 (line 5) "
                       "bus.width_bytes=32 (line 8): "),
            std::string::npos)
      << r.err;
  r = run("models:\n  - file: nothere.tflite\n");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("spec.yaml:2: model file"), std::string::npos) << r.err;
}

TEST(Crossover, BreakEvenSeparatesLosingFromWinningSizes) {
  const std::string dir = makeTempDir("crossover");
  // A driver this costly moves every family's break-even above its smallest size.
  const RunOutcome r =
      runHilsim({"crossover", "--config", std::string(HILSIM_SOURCE_DIR) + "/configs/m4.yaml",
                 "--set", "cpu.model=cost", "--set", "cpu.driver_job_cycles=8000", "--out", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string be = text(dir + "/break_even.csv");
  EXPECT_EQ(lines(be), 10u);  // the header, 4 FULLY_CONNECTED and 5 convolution families
  // Every simulated size below a family's break-even loses, every size at or above it wins.
  std::istringstream rows(text(dir + "/crossover.csv"));
  std::string line;
  std::getline(rows, line);
  std::map<std::string, uint64_t> break_even;
  std::istringstream be_rows(be);
  std::getline(be_rows, line);
  while (std::getline(be_rows, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    ASSERT_GE(f.size(), 4u);
    ASSERT_FALSE(f[3].empty()) << line;
    break_even[f[0]] = std::stoull(f[3]);
  }
  size_t checked = 0;
  while (std::getline(rows, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    const uint64_t macs = std::stoull(f[4]), accel = std::stoull(f[5]), ref = std::stoull(f[6]);
    if (macs < break_even[f[0]]) {
      EXPECT_GE(accel, ref) << line;
    } else {
      EXPECT_LT(accel, ref) << line;
    }
    ++checked;
  }
  EXPECT_GT(checked, 20u);
  for (const char* family : {"square", "wide_k4n", "narrow_n4k", "batch8_square"}) {
    expectValidSvg(dir + "/crossover-" + family + ".svg");
    expectValidSvg(dir + "/crossover-energy-" + family + ".svg");
  }
}

// The energy columns beside the cycles: every simulated size has both paths' energy, and
// offload_saves_energy says which is smaller; every size from a family's energy break-even on
// saves energy, the size before it does not.
TEST(Crossover, EnergyColumnsAreConsistent) {
  const std::string dir = makeTempDir("crossover-energy");
  const RunOutcome r =
      runHilsim({"crossover", "--config", std::string(HILSIM_SOURCE_DIR) + "/configs/m4.yaml",
                 "--set", "cpu.model=cost", "--set", "cpu.driver_job_cycles=8000", "--out", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::istringstream rows(text(dir + "/crossover.csv"));
  std::string line;
  std::getline(rows, line);
  EXPECT_EQ(line,
            "family,rows,k,n,macs,accel_cycles,ref_cycles,predicted_accel_cycles,offload_pays,"
            "accel_energy_uj,ref_energy_uj,predicted_accel_energy_uj,offload_saves_energy");
  std::map<std::string, std::vector<std::pair<uint64_t, bool>>> saves;
  while (std::getline(rows, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    ASSERT_EQ(f.size(), 13u) << line;
    ASSERT_FALSE(f[9].empty()) << line;  // every size ran accelerated in compare mode
    const double accel = std::stod(f[9]), ref = std::stod(f[10]);
    EXPECT_GT(accel, 0.0) << line;
    EXPECT_GT(ref, 0.0) << line;
    EXPECT_EQ(f[12], accel < ref ? "true" : "false") << line;
    saves[f[0]].push_back({std::stoull(f[4]), accel < ref});
  }
  std::istringstream be_rows(text(dir + "/break_even.csv"));
  std::getline(be_rows, line);
  size_t with_energy_break_even = 0;
  while (std::getline(be_rows, line)) {
    std::vector<std::string> f;
    std::stringstream ss(line);
    for (std::string x; std::getline(ss, x, ',');) f.push_back(x);
    if (f.size() < 7 || f[6].empty()) continue;
    ++with_energy_break_even;
    const uint64_t be = std::stoull(f[6]);
    for (const auto& [macs, saved] : saves[f[0]])
      if (macs >= be) EXPECT_TRUE(saved) << f[0] << " " << macs;
  }
  EXPECT_GT(with_energy_break_even, 0u);
  expectValidSvg(dir + "/crossover-energy-conv3x3.svg");
}

// On the default platform the executed driver is cheap enough that the smallest square layer
// already pays: crossover says so instead of presenting that size as the break-even.
TEST(Crossover, SaysWhenTheSmallestSizeTriedAlreadyPays) {
  const std::string dir = makeTempDir("crossover-smallest");
  const RunOutcome r = runHilsim({"crossover", "--out", dir});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("<= 16 "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("already pays at the smallest size tried"), std::string::npos) << r.out;
  const std::string be = text(dir + "/break_even.csv");
  EXPECT_EQ(be.substr(0, be.find('\n')),
            "family,rows,k_per_n,break_even_macs,predicted_break_even_macs,"
            "pays_from_smallest_size,break_even_energy_macs,predicted_break_even_energy_macs");
  EXPECT_NE(be.find("\nsquare,1,1,16,"), std::string::npos) << be;
  EXPECT_NE(be.find(",true,"), std::string::npos) << be;
  const std::string svg = text(dir + "/crossover-square.svg");
  EXPECT_NE(svg.find("pays from the smallest size tried"), std::string::npos);
}

// A Pareto plot of energy against area: pareto.csv lists exactly the points of results.csv's
// totals that no other point beats on both, checked here against every pair.
TEST(Sweep, ParetoPlotListsTheNonDominatedPoints) {
  const std::string dir = makeTempDir("sweep-pareto");
  const std::string spec = writeSpec(dir, R"(base_config: )" HILSIM_SOURCE_DIR
                                          R"(/configs/default.yaml
models:
  - name: small
    layers: 64,32,10
grid:
  accel.num_cores: [1, 2, 4]
zip:
  - accel.core.array_rows: [8, 16]
    accel.core.array_cols: [8, 16]
run:
  invocations: 2
plots:
  - name: front
    kind: pareto
    x: area_mm2
    y: energy_uj
)");
  const RunOutcome r = runHilsim({"sweep", spec, "--out", dir + "/out", "--jobs", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto results = report::parseCsv(text(dir + "/out/results.csv"), "results.csv");
  const auto pareto = report::parseCsv(text(dir + "/out/pareto.csv"), "pareto.csv");
  ASSERT_GE(results.size(), 2u);
  ASSERT_GE(pareto.size(), 2u);
  auto column = [](const std::vector<std::string>& header, const std::string& name) {
    const auto it = std::find(header.begin(), header.end(), name);
    EXPECT_NE(it, header.end()) << name;
    return static_cast<size_t>(it - header.begin());
  };
  const size_t r_point = column(results[0], "point"), r_layer = column(results[0], "layer"),
               r_area = column(results[0], "area_mm2"), r_energy = column(results[0], "energy_uj");
  std::map<std::string, std::pair<double, double>> totals;  // point -> (area, energy)
  for (size_t i = 1; i < results.size(); ++i)
    if (results[i][r_layer] == "total")
      totals[results[i][r_point]] = {std::stod(results[i][r_area]),
                                     std::stod(results[i][r_energy])};
  ASSERT_EQ(totals.size(), 6u);
  std::set<std::string> front;
  const size_t p_point = column(pareto[0], "point"), p_plot = column(pareto[0], "plot");
  for (size_t i = 1; i < pareto.size(); ++i) {
    EXPECT_EQ(pareto[i][p_plot], "front");
    front.insert(pareto[i][p_point]);
  }
  for (const auto& [point, xy] : totals) {
    bool dominated = false;
    for (const auto& [other, o] : totals)
      dominated = dominated || (o.first <= xy.first && o.second <= xy.second &&
                                (o.first < xy.first || o.second < xy.second));
    EXPECT_EQ(front.count(point) == 1, !dominated) << point;
    EXPECT_GT(xy.first, 0) << point;   // every point has an accelerator area
    EXPECT_GT(xy.second, 0) << point;  // and an energy
  }
  expectValidSvg(dir + "/out/plots/front.svg");
}

}  // namespace
}  // namespace hilsim::test
