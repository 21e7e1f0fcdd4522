// trace-stats on a VCD that SystemC's own trace writer produced: signals of several types change
// a known number of times at known instants. One elaboration per process (own main below).

#include <gtest/gtest.h>

#include <cstdlib>
#include <string>
#include <systemc>

#include "files.h"
#include "json_file.h"
#include "runner.h"

extern "C" int sc_main(int, char**) {
  return 0;
}  // unused: main below drives the tests

namespace hilsim::test {
namespace {

// Every 10 ns for five steps: `flag` toggles (5 changes), `count` steps 3, 6, ... 15 (5),
// `level` takes -1, -3, -5 on odd steps (3), `ratio` takes 0.5 .. 2.0 on the first four (4).
SC_MODULE(Stimulus) {
  sc_core::sc_signal<bool> flag{"flag"};
  sc_core::sc_signal<sc_dt::sc_uint<8>> count{"count"};
  sc_core::sc_signal<int> level{"level"};
  sc_core::sc_signal<double> ratio{"ratio"};

  SC_CTOR(Stimulus) {
    SC_THREAD(run);
  }

  void run() {
    for (int step = 1; step <= 5; ++step) {
      wait(10, sc_core::SC_NS);
      flag.write(!flag.read());
      count.write(static_cast<unsigned>(3 * step));
      if (step % 2) level.write(-step);
      if (step <= 4) ratio.write(0.5 * step);
    }
  }
};

TEST(TraceStatsSystemC, CountsTheChangesOfEverySignal) {
  const std::string dir = makeTempDir("trace-stats-systemc");
  Stimulus stimulus("stimulus");
  sc_core::sc_trace_file* tf = sc_core::sc_create_vcd_trace_file((dir + "/foreign").c_str());
  tf->set_time_unit(1, sc_core::SC_NS);
  sc_core::sc_trace(tf, stimulus.flag, "flag");
  sc_core::sc_trace(tf, stimulus.count, "count");
  sc_core::sc_trace(tf, stimulus.level, "level");
  sc_core::sc_trace(tf, stimulus.ratio, "ratio");
  sc_core::sc_start(100, sc_core::SC_NS);
  sc_core::sc_close_vcd_trace_file(tf);

  const RunOutcome text = runHilsim({"trace-stats", dir + "/foreign.vcd"});
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("timescale 1 ns"), std::string::npos) << text.out;

  const RunOutcome r = runHilsim({"trace-stats", dir + "/foreign.vcd", "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const JsonDoc stats = parseJson(r.out);
  EXPECT_TRUE(stats.at("hilsim").is_null());
  EXPECT_EQ(stats.at("timescale").at("text").get<std::string>(), "1 ns");
  struct Expected {
    std::string name;
    uint64_t width;
    uint64_t changes;
    uint64_t last_change;
    uint64_t distinct;  // values taken, counting the initial 0 (not counted for 1-bit signals)
  };
  const Expected expected[] = {{"flag", 1, 5, 50, 0},
                               {"count", 8, 5, 50, 6},
                               {"level", 32, 3, 50, 4},
                               {"ratio", 0, 4, 40, 5}};
  ASSERT_EQ(stats.at("signals").size(), 4u) << r.out;
  for (const Expected& e : expected) {
    JsonDoc signal;
    for (const JsonDoc& s : stats.at("signals")) {
      const std::string name = s.at("name").get<std::string>();
      if (name.size() >= e.name.size() &&
          name.compare(name.size() - e.name.size(), e.name.size(), e.name) == 0)
        signal = s;
    }
    ASSERT_FALSE(signal.is_null()) << e.name << " missing in\n" << r.out;
    if (e.width) {
      EXPECT_EQ(signal.at("width").get<uint64_t>(), e.width) << e.name;
    }
    EXPECT_EQ(signal.at("changes").get<uint64_t>(), e.changes) << e.name;
    EXPECT_EQ(signal.at("first_change").get<uint64_t>(), 10u) << e.name;
    EXPECT_EQ(signal.at("last_change").get<uint64_t>(), e.last_change) << e.name;
    EXPECT_EQ(signal.value("distinct_values", uint64_t{0}), e.distinct) << e.name;
  }
  // SystemC stamps the end of the simulation (100 ns) when it closes the file; `flag` is 1 in
  // [10, 20), [30, 40) and [50, 100).
  EXPECT_EQ(stats.at("end_time").get<uint64_t>(), 100u);
  for (const JsonDoc& s : stats.at("signals")) {
    if (s.at("name").get<std::string>().find("flag") != std::string::npos) {
      EXPECT_EQ(s.at("time_high").get<uint64_t>(), 70u);
    }
  }
  EXPECT_EQ(stats.at("total_changes").get<uint64_t>(), 5u + 5u + 3u + 4u);
}

}  // namespace
}  // namespace hilsim::test

int main(int argc, char** argv) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
