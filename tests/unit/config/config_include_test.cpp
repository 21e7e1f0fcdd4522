// `include:` composition and the precedence of files and --set overrides.

#include <gtest/gtest.h>

#include "config_test_util.h"

namespace hilsim::test {
namespace {

using config::HardwareConfig;
using config::loadConfig;

class ConfigInclude : public ::testing::Test {
 protected:
  void SetUp() override {
    const ::testing::TestInfo* info = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = makeTempDir(std::string("config_include_") + info->name());
  }
  std::string write(const std::string& name, const std::string& text) {
    return writeText(dir_, name, text);
  }
  std::string dir_;
};

TEST_F(ConfigInclude, PathsAreRelativeToTheIncludingFile) {
  write("base.yaml", "accel:\n  num_cores: 3\n  clock_mhz: 100\n");
  write("sub/mid.yaml", "include: ../base.yaml\naccel:\n  num_cores: 2\n");
  const std::string top = write("top.yaml", "include: sub/mid.yaml\nbus:\n  latency_cycles: 9\n");
  const HardwareConfig hw = loadConfig(top);
  EXPECT_EQ(hw.accel.num_cores, 2u);     // the including file overrides what it includes
  EXPECT_EQ(hw.accel.clock_mhz, 100.0);  // from the innermost file
  EXPECT_EQ(hw.bus.latency_cycles, 9u);
}

TEST_F(ConfigInclude, IncludedFilesApplyInOrderThenTheFileThenOverrides) {
  write("a.yaml", "accel:\n  num_cores: 2\n  irq_latency_cycles: 20\n");
  write("b.yaml", "accel:\n  num_cores: 3\n  reg_access_cycles: 30\n");
  // `include` may come after the file's own keys: it is still applied first.
  const std::string top =
      write("top.yaml", "accel:\n  reg_access_cycles: 40\ninclude: [a.yaml, b.yaml]\n");
  HardwareConfig hw = loadConfig(top);
  EXPECT_EQ(hw.accel.num_cores, 3u);
  EXPECT_EQ(hw.accel.irq_latency_cycles, 20u);
  EXPECT_EQ(hw.accel.reg_access_cycles, 40u);

  hw = loadConfig(top, {{"accel.reg_access_cycles=50"}, {"accel.num_cores=5"}});
  EXPECT_EQ(hw.accel.reg_access_cycles, 50u);
  EXPECT_EQ(hw.accel.num_cores, 5u);
}

TEST_F(ConfigInclude, ADerivedDefaultFollowsTheFinalValue) {
  write("base.yaml", "accel:\n  num_cores: 2\n");
  const std::string top = write("top.yaml", "include: base.yaml\naccel:\n  num_cores: 6\n");
  EXPECT_EQ(loadConfig(top).accel.dma.channels, 6u);
}

TEST_F(ConfigInclude, TheSameFileTwiceIsNotACycle) {
  write("common.yaml", "accel:\n  num_cores: 2\n");
  write("a.yaml", "include: common.yaml\n");
  const std::string top = write("top.yaml", "include: [a.yaml, common.yaml]\n");
  EXPECT_EQ(loadConfig(top).accel.num_cores, 2u);
}

TEST_F(ConfigInclude, MissingFile) {
  const std::string top = write("top.yaml", "# comment\ninclude: missing.yaml\n");
  EXPECT_EQ(loadError(top), top + ":2: include 'missing.yaml': file not found");
}

TEST_F(ConfigInclude, MissingFileInAList) {
  write("a.yaml", "");
  const std::string top = write("top.yaml", "include:\n  - a.yaml\n  - nope.yaml\n");
  EXPECT_EQ(loadError(top), top + ":3: include 'nope.yaml': file not found");
}

TEST_F(ConfigInclude, MissingFileNamedInAnIncludedFile) {
  const std::string mid = write("sub/mid.yaml", "include: gone.yaml\n");
  const std::string top = write("top.yaml", "include: sub/mid.yaml\n");
  EXPECT_EQ(loadError(top), mid + ":1: include 'gone.yaml': file not found");
}

TEST_F(ConfigInclude, Cycle) {
  const std::string a = write("a.yaml", "include: b.yaml\n");
  const std::string b = write("b.yaml", "accel:\n  num_cores: 2\ninclude: a.yaml\n");
  EXPECT_EQ(loadError(a),
            b + ":3: include 'a.yaml': include cycle (" + a + " -> " + b + " -> " + a + ")");
}

TEST_F(ConfigInclude, SelfInclude) {
  const std::string a = write("a.yaml", "include: a.yaml\n");
  EXPECT_EQ(loadError(a), a + ":1: include 'a.yaml': include cycle (" + a + " -> " + a + ")");
}

TEST_F(ConfigInclude, ErrorsInsideAnIncludedFileNameThatFile) {
  const std::string base = write("base.yaml", "accel:\n  num_cores: 100\n");
  const std::string top = write("top.yaml", "include: base.yaml\n");
  EXPECT_EQ(loadError(top), base + ":2: accel.num_cores = 100 is out of range (1..64)");
}

TEST_F(ConfigInclude, RangesApplyToTheFinalValueTypesToEveryValue) {
  write("range.yaml", "accel:\n  num_cores: 100\n");
  const std::string top = write("top.yaml", "include: range.yaml\naccel:\n  num_cores: 4\n");
  EXPECT_EQ(loadConfig(top).accel.num_cores, 4u);

  const std::string type = write("type.yaml", "accel:\n  num_cores: four\n");
  const std::string top2 = write("top2.yaml", "include: type.yaml\naccel:\n  num_cores: 4\n");
  EXPECT_EQ(loadError(top2), type + ":2: accel.num_cores: expected an integer, got 'four'");
}

TEST_F(ConfigInclude, BadIncludeValues) {
  const std::string map = write("map.yaml", "include:\n  a: b\n");
  EXPECT_EQ(loadError(map),
            map + ":1: include: expected a file name or a list of file names, got a mapping");
  const std::string null = write("null.yaml", "include:\n");
  EXPECT_EQ(
      loadError(null),
      null + ":1: include: expected a file name or a list of file names, got no value (null)");
  const std::string nested = write("nested.yaml", "include:\n  - [a.yaml]\n");
  EXPECT_EQ(loadError(nested), nested + ":2: include: expected a file name, got a list");
  const std::string dir = write("dir.yaml", "include: sub\n");
  write("sub/x.yaml", "");
  EXPECT_EQ(loadError(dir), dir + ":1: include 'sub': not a regular file");
  const std::string twice = write("twice.yaml", "include: []\ninclude: []\n");
  EXPECT_EQ(loadError(twice), twice + ":2: duplicate key 'include' (first at line 1)");
}

TEST_F(ConfigInclude, IncludeOnlyAtTheTopLevel) {
  const std::string top = write("top.yaml", "accel:\n  include: x.yaml\n");
  EXPECT_EQ(loadError(top), top +
                                ":2: unknown key 'accel.include' (valid keys under 'accel': "
                                "num_cores, clock_mhz, irq_latency_cycles, reg_access_cycles, "
                                "core, dma)");
  EXPECT_EQ(loadError("", {{"include=x.yaml"}}),
            "--set include=x.yaml: 'include' is only valid at the top level of a config file");
}

}  // namespace
}  // namespace hilsim::test
