// The progress line: nothing for short work or when disabled, one redrawn line for long work,
// erased at the end.

#include "hilsim/base/progress.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

namespace hilsim {
namespace {

using namespace std::chrono_literals;

ProgressLine::Options immediate() {
  ProgressLine::Options o;
  o.delay = 0ms;
  o.interval = 0ms;
  return o;
}

TEST(ProgressLine, TextSaysDoneTotalPercentAndEta) {
  std::ostringstream out;
  const ProgressLine line(out, true, "run:", "layers", immediate());
  EXPECT_EQ(line.text(25, 100, 10.0s), "run: 25/100 layers (25%), ETA 30 s");
  EXPECT_EQ(line.text(1, 3, 100.0s), "run: 1/3 layers (33%), ETA 3 min 20 s");
  EXPECT_EQ(line.text(1, 2, 7200.0s), "run: 1/2 layers (50%), ETA 2 h 00 min");
  EXPECT_EQ(line.text(0, 10, 1.0s), "run: 0/10 layers (0%)");
  EXPECT_EQ(line.text(7, 0, 1.0s), "run: 7 layers");
}

TEST(ProgressLine, DrawsOneLineAndErasesIt) {
  std::ostringstream out;
  {
    ProgressLine line(out, true, "sweep:", "points", immediate());
    line.update(1, 4);
    line.update(2, 4);
  }
  const std::string text = out.str();
  EXPECT_EQ(text.rfind("\r\x1b[K"), text.size() - 4) << text;  // erased at the end
  EXPECT_NE(text.find("\rsweep: 1/4 points (25%)"), std::string::npos) << text;
  EXPECT_NE(text.find("\rsweep: 2/4 points (50%)"), std::string::npos) << text;
  EXPECT_EQ(text.find('\n'), std::string::npos) << text;  // one line, redrawn in place
}

TEST(ProgressLine, NothingForShortWork) {
  std::ostringstream out;
  {
    ProgressLine line(out, true, "run:", "layers");  // default delay: 1 s
    for (uint64_t i = 1; i <= 1000; ++i) line.update(i, 1000);
  }
  EXPECT_EQ(out.str(), "");
}

TEST(ProgressLine, NothingWhenDisabled) {
  std::ostringstream out;
  {
    ProgressLine line(out, false, "run:", "layers", immediate());
    line.update(1, 2);
    line.clear();
  }
  EXPECT_EQ(out.str(), "");
}

TEST(ProgressLine, RedrawsAtMostOncePerInterval) {
  std::ostringstream out;
  ProgressLine::Options o;
  o.delay = 0ms;
  o.interval = 10s;
  ProgressLine line(out, true, "run:", "layers", o);
  for (uint64_t i = 1; i <= 100; ++i) line.update(i, 100);
  const std::string text = out.str();
  EXPECT_EQ(std::count(text.begin(), text.end(), '\r'), 1) << text;
}

}  // namespace
}  // namespace hilsim
