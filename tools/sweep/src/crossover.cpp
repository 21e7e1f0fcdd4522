#include "hilsim/sweep/crossover.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <string>

#include "hilsim/config/derived.h"
#include "hilsim/errors.h"
#include "hilsim/firmware/driver_timing.h"
#include "hilsim/modelgen/conv_gen.h"
#include "hilsim/modelgen/model_gen.h"
#include "hilsim/planner/conv_plan.h"
#include "hilsim/planner/layer_energy.h"
#include "hilsim/planner/planner_timing.h"
#include "hilsim/planner/predict.h"
#include "hilsim/plot/svg_plot.h"
#include "hilsim/report/csv.h"
#include "hilsim/report/energy.h"
#include "hilsim/report/report.h"
#include "hilsim/rt/interpreter.h"
#include "hilsim/sim/session.h"

namespace hilsim::sweep {

using plot::LineChart;
using plot::renderSvg;
using plot::Series;
using plot::tickLabel;
using report::csvField;
namespace {

uint32_t kOf(const ShapeFamily& f, uint64_t n) {
  return static_cast<uint32_t>(std::max<uint64_t>(1, n * f.k_per_n_num / f.k_per_n_den));
}

// Member n of a convolution family, with TensorFlow Lite's SAME padding.
timing::ConvGeometry convMember(const ShapeFamily& f, uint32_t n) {
  timing::ConvGeometry g;
  g.in_h = g.in_w = f.image;
  g.in_c = g.out_c = n;
  g.filter_h = g.filter_w = f.filter;
  g.stride_h = g.stride_w = f.stride;
  g.out_h = g.out_w = (f.image + f.stride - 1) / f.stride;
  const int64_t pad = (int64_t{g.out_h} - 1) * f.stride + f.filter - f.image;
  g.pad_h = g.pad_w = static_cast<uint32_t>(std::max<int64_t>(pad, 0) / 2);
  g.depthwise = f.depthwise;
  return g;
}

std::vector<uint8_t> memberModel(const ShapeFamily& f, uint32_t n) {
  if (!f.conv) {
    modelgen::MlpSpec spec;
    spec.layers = {kOf(f, n), n};
    spec.batch = f.rows;
    spec.seed = n;
    return modelgen::generateMlp(spec);
  }
  modelgen::ConvSpec spec;
  spec.in_h = spec.in_w = f.image;
  spec.in_c = spec.out_c = n;
  spec.filter_h = spec.filter_w = f.filter;
  spec.stride = f.stride;
  spec.depthwise = f.depthwise;
  spec.seed = n;
  return modelgen::generateConv(spec);
}

struct MemberPrediction {
  uint64_t cycles = 0;
  double energy_uj = 0;
};

// The planner's prediction for member n; zeros if it does not fit.
MemberPrediction predictMember(const config::HardwareConfig& config, const ShapeFamily& f,
                               uint32_t n) {
  const planner::Hardware hw = config::accelGeometry(config);
  const timing::PlatformTiming t = planner::plannerTiming(config, firmware::measureDriverPath);
  try {
    const planner::Plan plan = f.conv ? planner::makeConvPlan(hw, convMember(f, n), t)
                                      : planner::makePlan(hw, {f.rows, kOf(f, n), n});
    const planner::Prediction p = planner::predictAccelerated(plan, t);
    return {p.cycles, planner::accelEnergy(plan, p.breakdown, t, config.energy.params()).totalUj()};
  } catch (const ModelError&) {
    return {};
  }
}

// Runs one layer twice in compare mode and returns the second invocation's figures.
CrossoverPoint measure(sim::HostSide& side, const config::HardwareConfig& config,
                       const ShapeFamily& f, uint32_t n) {
  rt::Model model = rt::Model::fromBytes(memberModel(f, n), "crossover layer");
  report::LayerCollector collector;
  rt::InterpreterOptions options;
  options.clock = &side.host;
  options.profiler = &collector;
  options.cost_model = config::costModel(config);
  options.kernels = config.cpu.kernels;
  options.cpu_target = side.mcu;
  CrossoverPoint p;
  {
    rt::Interpreter interp(model, side.resolver, options);
    interp.allocate();
    std::memset(interp.input(0).data, 3, interp.input(0).bytes);
    interp.invoke();  // places the weights
    interp.invoke();
  }
  side.driver.releaseAll();  // the interpreter and its device buffers are gone
  const rt::LayerRecord& r = collector.records().back();
  p.family = f.name;
  const rt::GemmShape gemm =
      f.conv ? planner::convGemm(convMember(f, n)) : rt::GemmShape{f.rows, kOf(f, n), n};
  p.rows = gemm.rows;
  p.k = gemm.k;
  p.n = gemm.n;
  p.macs = r.macs;
  p.ref_cycles = r.ref_cycles;
  p.accel_cycles = r.path == rt::ExecPath::kAccel ? r.cycles : 0;
  const report::LayerActions actions = report::layerActions(r, config, true);
  if (p.accel_cycles) p.accel_energy_uj = report::energyOf(actions, config).totalUj();
  p.ref_energy_uj = report::refEnergyUj(r.ref_cycles, actions.ref_flash_line_reads, config);
  const MemberPrediction predicted = predictMember(config, f, n);
  p.predicted_accel_cycles = predicted.cycles;
  p.predicted_accel_energy_uj = predicted.energy_uj;
  return p;
}

bool pays(const CrossoverPoint& p) {
  return p.accel_cycles > 0 && p.accel_cycles < p.ref_cycles;
}

bool savesEnergy(const CrossoverPoint& p) {
  return p.accel_cycles > 0 && p.accel_energy_uj < p.ref_energy_uj;
}

std::string number(double value) {
  char text[32];
  std::snprintf(text, sizeof text, "%.6g", value);
  return text;
}

}  // namespace

const std::vector<ShapeFamily>& defaultFamilies() {
  static const std::vector<ShapeFamily> families = [] {
    std::vector<ShapeFamily> out = {{"square", 1, 1, 1},
                                    {"wide_k4n", 1, 4, 1},
                                    {"narrow_n4k", 1, 1, 4},
                                    {"batch8_square", 8, 1, 1}};
    auto conv = [&out](std::string name, bool depthwise, uint32_t image, uint32_t filter,
                       uint32_t stride, uint32_t max_n) {
      ShapeFamily f;
      f.name = std::move(name);
      f.conv = true;
      f.depthwise = depthwise;
      f.image = image;
      f.filter = filter;
      f.stride = stride;
      f.max_n = max_n;
      const uint32_t out_side = (image + stride - 1) / stride;
      f.rows = out_side * out_side;
      f.k_per_n_num = filter * filter;
      out.push_back(f);
    };
    conv("conv1x1", false, 4, 1, 1, 256);
    conv("conv3x3", false, 4, 3, 1, 256);
    conv("conv3x3_s2", false, 8, 3, 2, 256);
    conv("conv3x3_48px", false, 48, 3, 1, 64);
    conv("dwconv3x3", true, 16, 3, 1, 256);
    return out;
  }();
  return families;
}

std::vector<FamilyResult> runCrossover(const config::HardwareConfig& config,
                                       const std::vector<ShapeFamily>& families,
                                       const ProgressCallback& progress) {
  std::vector<FamilyResult> results;
  uint64_t done = 0, total = 0;
  for (const ShapeFamily& f : families)
    for (uint32_t n = f.conv ? 1 : 4; n <= f.max_n; n *= 2) {
      if (!f.conv && uint64_t{kOf(f, n)} * n > (uint64_t{1} << 24)) break;
      ++total;
    }
  auto measured = [&] {
    if (progress) progress(++done, total);
  };
  sim::runSession(config, sim::Mode::kCompare, nullptr, [&](sim::HostSide& side) {
    for (const ShapeFamily& f : families) {
      FamilyResult fr;
      fr.family = f;
      std::map<uint32_t, CrossoverPoint> by_n;
      // Sizes double from tiny to large (up to 16M weights).
      std::optional<uint32_t> lose, win;
      for (uint32_t n = f.conv ? 1 : 4; n <= f.max_n; n *= 2) {
        if (!f.conv && uint64_t{kOf(f, n)} * n > (uint64_t{1} << 24)) break;
        const CrossoverPoint p = measure(side, config, f, n);
        measured();
        by_n[n] = p;
        if (pays(p)) {
          if (!win) win = n;
        } else if (!win) {
          lose = n;
        }
      }
      // Bisection between the last losing and the first winning size.
      if (win && lose) {
        uint32_t lo = *lose, hi = *win;
        while (hi - lo > 1 && hi > lo * 1.02) {
          const uint32_t mid = lo + (hi - lo) / 2;
          ++total;
          const CrossoverPoint p = measure(side, config, f, mid);
          measured();
          by_n[mid] = p;
          (pays(p) ? hi : lo) = mid;
        }
        win = hi;
      }
      for (const auto& [n, p] : by_n) fr.points.push_back(p);
      if (win) fr.break_even_macs = by_n[*win].macs;
      fr.pays_from_smallest = win && !lose;
      // By energy: the first size from which every larger simulated size saves energy.
      for (auto it = by_n.rbegin(); it != by_n.rend() && savesEnergy(it->second); ++it)
        fr.break_even_energy_macs = it->second.macs;
      const planner::Hardware hw = config::accelGeometry(config);
      const timing::PlatformTiming timing =
          planner::plannerTiming(config, firmware::measureDriverPath);
      const energy::EnergyParams params = config.energy.params();
      const timing::CpuCostModel cpu = config::costModel(config);
      auto breakEven = [&](const planner::ObjectiveSetting& objective) {
        return f.conv
                   ? planner::convBreakEvenMacs(convMember(f, 64), hw, timing, cpu, objective)
                   : planner::breakEvenMacs({f.rows, kOf(f, 64), 64}, hw, timing, cpu, objective);
      };
      fr.predicted_break_even = breakEven({});
      fr.predicted_break_even_energy = breakEven({planner::Objective::kEnergy, &params});
      results.push_back(std::move(fr));
    }
  });
  return results;
}

std::string crossoverCsv(const std::vector<FamilyResult>& results) {
  std::string out =
      "family,rows,k,n,macs,accel_cycles,ref_cycles,predicted_accel_cycles,offload_pays,"
      "accel_energy_uj,ref_energy_uj,predicted_accel_energy_uj,offload_saves_energy\n";
  for (const FamilyResult& r : results)
    for (const CrossoverPoint& p : r.points)
      out += csvField(p.family) + "," + std::to_string(p.rows) + "," + std::to_string(p.k) + "," +
             std::to_string(p.n) + "," + std::to_string(p.macs) + "," +
             std::to_string(p.accel_cycles) + "," + std::to_string(p.ref_cycles) + "," +
             std::to_string(p.predicted_accel_cycles) + "," + (pays(p) ? "true" : "false") + "," +
             (p.accel_cycles ? number(p.accel_energy_uj) : "") + "," + number(p.ref_energy_uj) +
             "," + (p.predicted_accel_cycles ? number(p.predicted_accel_energy_uj) : "") + "," +
             (savesEnergy(p) ? "true" : "false") + "\n";
  return out;
}

std::string breakEvenCsv(const std::vector<FamilyResult>& results) {
  std::string out =
      "family,rows,k_per_n,break_even_macs,predicted_break_even_macs,"
      "pays_from_smallest_size,break_even_energy_macs,predicted_break_even_energy_macs\n";
  for (const FamilyResult& r : results) {
    char ratio[32];
    std::snprintf(ratio, sizeof ratio, "%g",
                  double(r.family.k_per_n_num) / double(r.family.k_per_n_den));
    out += csvField(r.family.name) + "," + std::to_string(r.family.rows) + "," + ratio + "," +
           (r.break_even_macs ? std::to_string(*r.break_even_macs) : "") + "," +
           (r.predicted_break_even ? std::to_string(*r.predicted_break_even) : "") + "," +
           (r.pays_from_smallest ? "true" : "false") + "," +
           (r.break_even_energy_macs ? std::to_string(*r.break_even_energy_macs) : "") + "," +
           (r.predicted_break_even_energy ? std::to_string(*r.predicted_break_even_energy) : "") +
           "\n";
  }
  return out;
}

namespace {

// The family in words, under each plot's title.
std::string familySubtitle(const FamilyResult& r) {
  char sub[160];
  if (r.family.conv)
    std::snprintf(sub, sizeof sub,
                  "%s%ux%u window, stride %u, on %ux%u pixels, n channels in and out; second "
                  "invocation",
                  r.family.depthwise ? "depthwise " : "", r.family.filter, r.family.filter,
                  r.family.stride, r.family.image, r.family.image);
  else
    std::snprintf(sub, sizeof sub,
                  "rows %u, k = %g n; second invocation (weights already in place)", r.family.rows,
                  double(r.family.k_per_n_num) / double(r.family.k_per_n_den));
  return sub;
}

// What one crossover chart plots: cycles or energy, each point's three values and the
// family's break-even with its marker's label.
struct ChartMetric {
  const char* quantity;  // in the title: "cycles" or "energy"
  const char* y_label;
  double (*accel)(const CrossoverPoint&);
  double (*ref)(const CrossoverPoint&);
  double (*predicted)(const CrossoverPoint&);
  std::optional<uint64_t> break_even_macs;
  std::string marker_prefix;
};

std::string crossoverChart(const FamilyResult& r, const ChartMetric& metric) {
  LineChart chart;
  chart.title = std::string("accelerated vs reference ") + metric.quantity + ": " + r.family.name;
  chart.subtitle = familySubtitle(r);
  chart.x_label = "layer size (MACs per inference)";
  chart.y_label = metric.y_label;
  chart.log_x = chart.log_y = true;
  Series accel{"accelerated (simulated)", {}, {}, false};
  Series ref{"reference kernel", {}, {}, false};
  Series predicted{"accelerated (predicted)", {}, {}, true};
  for (const CrossoverPoint& p : r.points) {
    if (p.accel_cycles) {
      accel.x.push_back(double(p.macs));
      accel.y.push_back(metric.accel(p));
    }
    ref.x.push_back(double(p.macs));
    ref.y.push_back(metric.ref(p));
    if (p.predicted_accel_cycles) {
      predicted.x.push_back(double(p.macs));
      predicted.y.push_back(metric.predicted(p));
    }
  }
  chart.series = {accel, ref, predicted};
  if (metric.break_even_macs)
    for (const CrossoverPoint& p : r.points)
      if (p.macs == *metric.break_even_macs)
        chart.markers.push_back({double(p.macs), metric.accel(p),
                                 metric.marker_prefix + tickLabel(double(p.macs)) + " MACs"});
  return renderSvg(chart);
}

}  // namespace

std::string crossoverSvg(const FamilyResult& r) {
  return crossoverChart(
      r,
      {"cycles", "host CPU cycles per inference",
       [](const CrossoverPoint& p) { return double(p.accel_cycles); },
       [](const CrossoverPoint& p) { return double(p.ref_cycles); },
       [](const CrossoverPoint& p) { return double(p.predicted_accel_cycles); }, r.break_even_macs,
       r.pays_from_smallest ? "pays from the smallest size tried, " : "break-even "});
}

std::string crossoverEnergySvg(const FamilyResult& r) {
  return crossoverChart(r, {"energy", "energy per inference (uJ)",
                            [](const CrossoverPoint& p) { return p.accel_energy_uj; },
                            [](const CrossoverPoint& p) { return p.ref_energy_uj; },
                            [](const CrossoverPoint& p) { return p.predicted_accel_energy_uj; },
                            r.break_even_energy_macs, "energy break-even "});
}

}  // namespace hilsim::sweep
