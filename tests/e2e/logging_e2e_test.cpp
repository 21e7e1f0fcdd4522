// Log lines: one named logger per component, simulated time on every line of a simulation, and
// sim.log_level controlling all of them.

#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <sstream>

#include "runner.h"

namespace hilsim::test {
namespace {

TEST(Logging, DebugLinesNameTheirComponentAndCarrySimulatedTime) {
  const RunOutcome r = runHilsim(
      {"run", "--mode", "accel", "--set", "sim.log_level=debug", "--invocations", "2", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::regex timed(R"(^hilsim: debug: \[([a-z]+) @ ([0-9]+\.[0-9]{6}) us\] .+)");
  std::set<std::string> components;
  double last_job_done = -1;
  std::istringstream lines(r.err);
  for (std::string line; std::getline(lines, line);) {
    std::smatch m;
    if (line.rfind("hilsim: debug: ", 0) != 0) continue;        // the CLI's own notes
    if (line.rfind("hilsim: debug: [sim] ", 0) == 0) continue;  // before the simulation starts
    ASSERT_TRUE(std::regex_match(line, m, timed)) << line;
    components.insert(m[1]);
    if (m[1] == "driver" && line.find(": done") != std::string::npos) {
      const double at = std::stod(m[2]);
      EXPECT_GT(at, last_job_done) << "simulated time goes forward: " << line;
      last_job_done = at;
    }
  }
  for (const char* c : {"driver", "accel", "runtime"})
    EXPECT_TRUE(components.count(c)) << c << " logged nothing:\n" << r.err;
}

TEST(Logging, TheLevelSilencesEveryComponent) {
  const RunOutcome r = runHilsim({"run", "--mode", "accel", "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err.find("debug"), std::string::npos) << r.err;
  const RunOutcome off =
      runHilsim({"run", "--mode", "accel", "--set", "sim.log_level=off", "--quiet"});
  EXPECT_EQ(off.err.find("hilsim: debug"), std::string::npos) << off.err;
}

}  // namespace
}  // namespace hilsim::test
