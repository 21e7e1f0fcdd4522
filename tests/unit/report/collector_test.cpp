// The layer collector's run-wide figures against the per-invocation records they summarize, and
// the report written from them: the same table and totals whether or not every invocation's
// records are kept.

#include "hilsim/report/collector.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>

#include "hilsim/report/report.h"
#include "json_file.h"

namespace hilsim::report {
namespace {

using test::JsonDoc;
using test::parseJson;

constexpr uint32_t kInvocations = 7;
constexpr int kLayers = 4;

// Records as the interpreter makes them: every layer per invocation in order, cycles varying
// from one invocation to the next, layer 1 offloaded in some invocations only.
std::vector<rt::LayerRecord> makeRecords() {
  std::vector<rt::LayerRecord> records;
  uint64_t state = 12345, clock = 0;
  auto next = [&state] {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return state >> 40;
  };
  for (uint32_t inv = 0; inv < kInvocations; ++inv)
    for (int index = 0; index < kLayers; ++index) {
      rt::LayerRecord r;
      r.invocation = inv;
      r.index = index;
      r.op =
          index == 3 ? tflite::BuiltinOperator::SOFTMAX : tflite::BuiltinOperator::FULLY_CONNECTED;
      r.name = "layer" + std::to_string(index);
      if (index != 3) r.gemm = rt::GemmShape{1, 16u * (index + 1), 8};
      r.macs = r.gemm ? r.gemm->macs() : 0;
      const bool accel = index == 0 || (index == 1 && inv % 3 != 1);
      r.path = accel ? rt::ExecPath::kAccel : rt::ExecPath::kRef;
      r.reason = accel ? "offload pays" : "reference kernel";
      r.start_cycle = clock;
      r.cycles = 100 + next() % 5000;
      r.ref_cycles = 4000 + (index == 2 ? next() % 7 : 0);
      if (accel) {
        rt::AccelBreakdown a;
        a.fixed_cycles = r.cycles / 3;
        a.variable_cycles = r.cycles - a.fixed_cycles;
        a.per_core = {{0, r.cycles / 2, 0.5}, {1, r.cycles / 4, 0.25}};
        r.accel = a;
      }
      clock += r.cycles;
      records.push_back(r);
    }
  return records;
}

RunReport reportOf(const LayerCollector& collector) {
  RunReport report;
  report.model_path = "synthetic";
  report.mode = "auto";
  report.config_source = "embedded defaults";
  report.invocations = kInvocations;
  report.layers = collector.records();
  report.per_invocation = collector.perInvocation();
  report.layer_stats = collector.stats();
  return report;
}

TEST(LayerCollector, StatsEqualThePerInvocationRecords) {
  const std::vector<rt::LayerRecord> records = makeRecords();
  LayerCollector every(true);
  for (const rt::LayerRecord& r : records) every.endLayer(r);
  ASSERT_EQ(every.records().size(), records.size());

  // Sums, extremes and counts worked out from the kept records, independently of LayerStats.
  struct Expected {
    uint64_t sum = 0, min = UINT64_MAX, max = 0, ref_sum = 0, ref_min = UINT64_MAX, ref_max = 0;
    uint64_t accel_sum = 0, macs = 0;
    uint32_t count = 0, accel = 0;
  };
  std::map<int, Expected> expected;
  uint64_t accel_records = 0;
  for (const rt::LayerRecord& r : every.records()) {
    Expected& e = expected[r.index];
    e.sum += r.cycles;
    e.min = std::min(e.min, r.cycles);
    e.max = std::max(e.max, r.cycles);
    e.ref_sum += r.ref_cycles;
    e.ref_min = std::min(e.ref_min, r.ref_cycles);
    e.ref_max = std::max(e.ref_max, r.ref_cycles);
    e.macs += r.macs;
    ++e.count;
    if (r.path == rt::ExecPath::kAccel) {
      ++e.accel;
      e.accel_sum += r.cycles;
      ++accel_records;
    }
  }
  ASSERT_EQ(every.stats().size(), static_cast<size_t>(kLayers));
  EXPECT_EQ(every.accelRecords(), accel_records);
  for (const LayerStats& s : every.stats()) {
    const Expected& e = expected.at(s.first.index);
    SCOPED_TRACE("layer " + std::to_string(s.first.index));
    EXPECT_EQ(s.first.invocation, 0u);
    EXPECT_EQ(s.invocations, e.count);
    EXPECT_EQ(s.accel_invocations, e.accel);
    EXPECT_EQ(s.cycles_sum, e.sum);
    EXPECT_EQ(s.cycles_min, e.min);
    EXPECT_EQ(s.cycles_max, e.max);
    EXPECT_EQ(s.accel_cycles_sum, e.accel_sum);
    EXPECT_EQ(s.ref_cycles_sum, e.ref_sum);
    EXPECT_EQ(s.ref_cycles_min, e.ref_min);
    EXPECT_EQ(s.ref_cycles_max, e.ref_max);
    EXPECT_EQ(s.macs_sum, e.macs);
  }
  // The layer that was offloaded in some invocations only.
  EXPECT_GT(every.stats()[1].accel_invocations, 0u);
  EXPECT_LT(every.stats()[1].accel_invocations, kInvocations);
  EXPECT_LT(every.stats()[1].cycles_min, every.stats()[1].cycles_max);
}

TEST(LayerCollector, KeepsTheFirstInvocationUnlessAsked) {
  const std::vector<rt::LayerRecord> records = makeRecords();
  LayerCollector first(false), every(true);
  for (const rt::LayerRecord& r : records) {
    first.endLayer(r);
    every.endLayer(r);
  }
  ASSERT_EQ(first.records().size(), static_cast<size_t>(kLayers));
  for (int i = 0; i < kLayers; ++i) {
    EXPECT_EQ(first.records()[i].invocation, 0u);
    EXPECT_EQ(first.records()[i].cycles, records[i].cycles);
  }
  ASSERT_EQ(first.stats().size(), every.stats().size());
  for (size_t i = 0; i < first.stats().size(); ++i) {
    EXPECT_EQ(first.stats()[i].cycles_sum, every.stats()[i].cycles_sum);
    EXPECT_EQ(first.stats()[i].cycles_max, every.stats()[i].cycles_max);
  }
  EXPECT_EQ(first.accelRecords(), every.accelRecords());
}

TEST(LayerCollector, ReportIsTheSameWithAndWithoutEveryInvocation) {
  const std::vector<rt::LayerRecord> records = makeRecords();
  LayerCollector first(false), every(true);
  for (const rt::LayerRecord& r : records) {
    first.endLayer(r);
    every.endLayer(r);
  }
  const RunReport a = reportOf(first), b = reportOf(every);
  std::ostringstream table_a, table_b;
  printReport(table_a, a);
  printReport(table_b, b);
  EXPECT_EQ(table_a.str(), table_b.str());
  EXPECT_NE(table_a.str().find("mixed"), std::string::npos) << table_a.str();

  // run_totals are the sums over every record.
  uint64_t cycles = 0, accel = 0, ref = 0;
  for (const rt::LayerRecord& r : records) {
    cycles += r.cycles;
    ref += r.ref_cycles;
    if (r.path == rt::ExecPath::kAccel) accel += r.cycles;
  }
  const Totals t = a.runTotals();
  EXPECT_EQ(t.cycles, cycles);
  EXPECT_EQ(t.accel_cycles, accel);
  EXPECT_EQ(t.cpu_cycles, cycles - accel);
  EXPECT_EQ(t.ref_cycles, ref);
  EXPECT_EQ(a.totals().cycles, (cycles + kInvocations / 2) / kInvocations);

  // JSON: `layers` holds the kept records; `layer_stats` the same figures either way.
  const JsonDoc ja = parseJson(reportJson(a)), jb = parseJson(reportJson(b));
  EXPECT_EQ(ja.at("layers").size(), static_cast<size_t>(kLayers));
  EXPECT_EQ(jb.at("layers").size(), records.size());
  ASSERT_EQ(ja.at("layer_stats").size(), static_cast<size_t>(kLayers));
  for (size_t i = 0; i < static_cast<size_t>(kLayers); ++i) {
    const JsonDoc s = ja.at("layer_stats")[i];
    EXPECT_EQ(s, jb.at("layer_stats")[i]);
    uint64_t sum = 0, min = UINT64_MAX, max = 0;
    for (const JsonDoc& l : jb.at("layers"))
      if (l.at("index").get<size_t>() == i) {
        sum += l.at("cycles").get<uint64_t>();
        min = std::min(min, l.at("cycles").get<uint64_t>());
        max = std::max(max, l.at("cycles").get<uint64_t>());
      }
    EXPECT_EQ(s.at("invocations").get<uint32_t>(), kInvocations);
    EXPECT_EQ(s.at("cycles").at("sum").get<uint64_t>(), sum);
    EXPECT_EQ(s.at("cycles").at("min").get<uint64_t>(), min);
    EXPECT_EQ(s.at("cycles").at("max").get<uint64_t>(), max);
    EXPECT_EQ(s.at("cycles").at("mean").get<uint64_t>(), (sum + kInvocations / 2) / kInvocations);
  }
  // CSV: one row per kept record (and the header).
  const std::string csv_a = reportCsv(a);
  EXPECT_EQ(std::count(csv_a.begin(), csv_a.end(), '\n'), kLayers + 1);
  const std::string csv_b = reportCsv(b);
  EXPECT_EQ(std::count(csv_b.begin(), csv_b.end(), '\n'),
            static_cast<std::ptrdiff_t>(records.size()) + 1);
}

}  // namespace
}  // namespace hilsim::report
