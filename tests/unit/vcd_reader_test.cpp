// The VCD reader and trace-stats' figures on small hand-written traces, and every malformed input
// as an InputError naming the file and the line.

#include <gtest/gtest.h>

#include <sstream>
#include <string>
#include <vector>

#include "hilsim/errors.h"
#include "hilsim/vcd/trace_stats.h"
#include "hilsim/vcd/vcd_reader.h"

// hilsim_cli carries the SystemC platform; SystemC's library wants an sc_main.
extern "C" int sc_main(int, char**) {
  return 0;
}

namespace hilsim::vcd {
namespace {

struct Recorder final : vcd::Handler {
  vcd::Header h;
  std::vector<std::string> events;  // "#t" and "code=value" (reals as "code=r<text>")
  void header(const vcd::Header& header) override { h = header; }
  void time(uint64_t t) override { events.push_back("#" + std::to_string(t)); }
  void change(size_t code, vcd::ValueKind kind, std::string_view v) override {
    events.push_back(std::to_string(code) + "=" + (kind == vcd::ValueKind::kReal ? "r" : "") +
                     std::string(v));
  }
};

Recorder read(const std::string& text) {
  std::istringstream in(text);
  Recorder r;
  vcd::readStream(in, "t.vcd", r);
  return r;
}

// The error message of reading `text`, or "" if it reads.
std::string error(const std::string& text) {
  try {
    read(text);
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

TraceStats stats(const std::string& text) {
  std::istringstream in(text);
  return computeTraceStats(in, "t.vcd");
}

const std::string kHead = "$timescale 1ns $end\n$scope module top $end\n";

TEST(VcdReader, ScopesNestAndNameSignals) {
  const Recorder r = read(
      "$date today $end\n$version tool 1.0\n $end\n$comment a\nnote $end\n"
      "$timescale 1ps $end\n"
      "$scope module top $end\n$var wire 1 ! clk $end\n"
      "$scope module sub $end\n$var reg 8 \" data [7:0] $end\n$upscope $end\n"
      "$var integer 32 # n $end\n$upscope $end\n$enddefinitions $end\n");
  EXPECT_EQ(r.h.date, "today");
  EXPECT_EQ(r.h.version, "tool 1.0");
  ASSERT_EQ(r.h.vars.size(), 3u);
  EXPECT_EQ(r.h.vars[0].name, "top.clk");
  EXPECT_EQ(r.h.vars[1].name, "top.sub.data");
  EXPECT_EQ(r.h.vars[1].range, "[7:0]");
  EXPECT_EQ(r.h.vars[1].width, 8u);
  EXPECT_EQ(r.h.vars[2].name, "top.n");
  EXPECT_EQ(r.h.vars[2].type, "integer");
  EXPECT_EQ(r.h.vars[2].line, 12u);
}

TEST(VcdReader, TimescaleForms) {
  struct Case {
    const char* text;
    uint32_t magnitude;
    int exponent;
  };
  for (const Case& c : {Case{"1ps", 1, -12}, Case{"1 ps", 1, -12}, Case{"10 ns", 10, -9},
                        Case{"\n  100fs\n", 100, -15}, Case{"1 s", 1, 0}, Case{"10us", 10, -6},
                        Case{"100 ms", 100, -3}}) {
    const Recorder r = read(std::string("$timescale ") + c.text + " $end\n$enddefinitions $end\n");
    EXPECT_EQ(r.h.timescale.magnitude, c.magnitude) << c.text;
    EXPECT_EQ(r.h.timescale.exponent, c.exponent) << c.text;
    EXPECT_TRUE(r.h.timescale.given);
  }
  EXPECT_EQ(read("$timescale 10 ns $end\n$enddefinitions $end\n").h.timescale.text(), "10 ns");
  EXPECT_DOUBLE_EQ(read("$timescale 100 ps $end\n$enddefinitions $end\n").h.timescale.seconds(),
                   1e-10);
  EXPECT_FALSE(read("$enddefinitions $end\n").h.timescale.given);
}

TEST(VcdReader, AliasesAndMultiCharacterCodes) {
  const Recorder r = read(kHead +
                          "$var wire 1 !! a $end\n$var wire 1 abc b $end\n"
                          "$var wire 1 !! a_alias $end\n$var wire 1 ~ c $end\n"
                          "$upscope $end\n$enddefinitions $end\n#0\n1!!\n0abc\n1~\n");
  EXPECT_EQ(r.h.code_count, 3u);
  EXPECT_EQ(r.h.vars[0].code_index, r.h.vars[2].code_index);
  EXPECT_NE(r.h.vars[0].code_index, r.h.vars[1].code_index);
  EXPECT_EQ(r.events, (std::vector<std::string>{"#0", "0=1", "1=0", "2=1"}));
}

TEST(VcdReader, ValuesOfEveryKind) {
  const Recorder r = read(kHead +
                          "$var wire 1 ! s $end\n$var reg 4 \" v $end\n$var real 64 # f $end\n"
                          "$upscope $end\n$enddefinitions $end\n"
                          "#0\n$dumpvars\nx!\nbx \"\nr0 #\n$end\n"
                          "#5\n0!\nb1010 \"\nr1.5 #\n#6\nX! Z!\nz!\nB1xZ \"\nR-2.5e3 #\n");
  EXPECT_EQ(r.events,
            (std::vector<std::string>{"#0", "0=x", "1=x", "2=r0", "#5", "0=0", "1=1010", "2=r1.5",
                                      "#6", "0=x", "0=z", "0=z", "1=1xz", "2=r-2.5e3"}));
}

TEST(VcdReader, DumpBlocksAndComments) {
  const Recorder r = read(kHead +
                          "$var wire 1 ! s $end\n$upscope $end\n$enddefinitions $end\n"
                          "$comment starts $end\n#0\n$dumpvars 1! $end\n#10\n$dumpoff x! $end\n"
                          "#20\n$dumpon 0! $end\n#30\n$dumpall 0! $end\n$comment the end $end\n");
  EXPECT_EQ(r.events,
            (std::vector<std::string>{"#0", "0=1", "#10", "0=x", "#20", "0=0", "#30", "0=0"}));
}

TEST(VcdReader, ReadsAcrossBufferBoundaries) {
  // Several MiB: tokens straddle the reader's chunks, and one value is larger than a chunk.
  std::string text = kHead + "$var wire 1 abcdefgh s $end\n$var reg 3000000 # big $end\n" +
                     "$upscope $end\n$enddefinitions $end\n";
  const int steps = 300000;
  for (int i = 0; i < steps; ++i)
    text += "#" + std::to_string(i) + "\n" + (i % 2 ? "1" : "0") + "abcdefgh\n";
  text += "b1" + std::string(2999999, '0') + " #\n";
  const Recorder r = read(text);
  ASSERT_EQ(r.events.size(), 2u * steps + 1);
  EXPECT_EQ(r.events[2 * steps - 2], "#" + std::to_string(steps - 1));
  EXPECT_EQ(r.events.back().size(), 2 + 3000000u);
}

struct Bad {
  const char* name;
  std::string text;
  const char* expected;  // the start of the message
};

class Malformed : public ::testing::TestWithParam<Bad> {};

TEST_P(Malformed, IsAnInputErrorNamingFileAndLine) {
  const std::string message = error(GetParam().text);
  EXPECT_EQ(message.rfind(GetParam().expected, 0), 0u) << message;
}

const std::string kOne = kHead + "$var wire 1 ! s $end\n$var reg 4 \" v $end\n$upscope $end\n" +
                         "$enddefinitions $end\n";  // 6 lines

INSTANTIATE_TEST_SUITE_P(
    VcdReader, Malformed,
    ::testing::Values(
        Bad{"Empty", "", "t.vcd:1: the file is empty"},
        Bad{"NotAVcd", "hello world\n", "t.vcd:1: not a VCD file"},
        Bad{"Binary", std::string("\x1c\0\0\0TFL3", 8) + "\n", "t.vcd:1: not a VCD file"},
        Bad{"StrayTextInHeader", "$timescale 1ns $end\nwire\n", "t.vcd:2: expected a declaration"},
        Bad{"BadTimescaleNumber", "$timescale 2 ns $end\n", "t.vcd:1: bad $timescale"},
        Bad{"BadTimescaleUnit", "\n$timescale 1 xs $end\n", "t.vcd:2: bad $timescale"},
        Bad{"VarWidthZero", kHead + "$var wire 0 ! s $end\n", "t.vcd:3: bad width"},
        Bad{"VarWidthText", kHead + "$var wire w ! s $end\n", "t.vcd:3: bad width"},
        Bad{"VarTooShort", kHead + "$var wire 1 ! $end\n", "t.vcd:3: $var needs"},
        Bad{"ScopeWithoutName", "$scope module $end\n", "t.vcd:1: $scope needs"},
        Bad{"UpscopeWithoutScope", "$upscope $end\n", "t.vcd:1: $upscope without"},
        Bad{"AliasOfOtherWidth", kHead + "$var wire 1 ! a $end\n$var reg 2 ! b $end\n",
            "t.vcd:4: identifier code '!'"},
        Bad{"HeaderTruncated", kHead + "$var wire 1 ! s $end\n", "t.vcd:3: the file ends before"},
        Bad{"CommentNotClosed", "$comment\nnever\nclosed\n",
            "t.vcd:3: the file ends inside $comment opened on line 1"},
        Bad{"VarNotClosed", kHead + "$var wire 1 ! s\n",
            "t.vcd:3: the file ends inside $var opened on line 3"},
        Bad{"UnknownCode", kOne + "#0\n1?\n", "t.vcd:8: unknown identifier code '?'"},
        Bad{"UnknownLongCode", kOne + "#0\n1abcd\n", "t.vcd:8: unknown identifier code 'abcd'"},
        Bad{"ScalarWithoutCode", kOne + "#0\n1\n", "t.vcd:8: value '1' has no identifier code"},
        Bad{"BadBit", kOne + "#0\nb102 \"\n", "t.vcd:8: vector value 'b102' holds '2'"},
        Bad{"EmptyVector", kOne + "#0\nb \"\n", "t.vcd:8: vector value 'b' has no bits"},
        Bad{"VectorTooWide", kOne + "#0\nb10101 \"\n", "t.vcd:8: value 'b10101' has 5 bits"},
        Bad{"VectorWithoutCode", kOne + "#0\nb1010\n", "t.vcd:8: value 'b1010' has no identifier"},
        Bad{"BadReal", kOne + "#0\nr1.5x \"\n", "t.vcd:8: bad real value 'r1.5x'"},
        Bad{"BadTimestamp", kOne + "#0\n#12a\n", "t.vcd:8: bad timestamp '#12a'"},
        Bad{"EmptyTimestamp", kOne + "#\n", "t.vcd:7: bad timestamp '#'"},
        Bad{"TimeBackwards", kOne + "#10\n#9\n", "t.vcd:8: time goes backwards: #9 after #10"},
        Bad{"Garbage", kOne + "#0\nhello\n", "t.vcd:8: cannot read 'hello'"},
        Bad{"StrayEnd", kOne + "#0\n$end\n", "t.vcd:8: $end without an open"},
        Bad{"NestedDump", kOne + "$dumpvars\n$dumpall\n", "t.vcd:8: $dumpall inside another"},
        Bad{"UnknownKeyword", kOne + "$scope module m $end\n", "t.vcd:7: unexpected '$scope'"},
        Bad{"DumpNotClosed", kOne + "#0\n$dumpvars\n0!\n",
            "t.vcd:9: the file ends inside the block opened on line 8"},
        Bad{"LastLineCut", kOne + "#0\n1!\n#1", "t.vcd:9: the last line has no line end"}),
    [](const auto& info) { return std::string(info.param.name); });

TEST(TraceStats, ChangesTimesAndDistinctValues) {
  const TraceStats s = stats(kHead +
                             "$var wire 1 ! s $end\n$var reg 4 \" v $end\n$var wire 1 ! s2 $end\n"
                             "$var real 64 # f $end\n$upscope $end\n$enddefinitions $end\n"
                             "#100\n$dumpvars\n0!\nbx \"\nr0 #\n$end\n"
                             "#110\n1!\nb0101 \"\n#120\nb101 \"\nr2.5 #\n#130\n0!\nb0 \"\n"
                             "#140\nb1x \"\n1!\nr-0 #\n#160\n0!\n");
  EXPECT_EQ(s.timescale.text(), "1 ns");
  EXPECT_EQ(s.start_time, 100u);
  EXPECT_EQ(s.end_time, 160u);
  ASSERT_EQ(s.signals.size(), 4u);
  const SignalStats& bit = s.signals[0];
  EXPECT_EQ(bit.name, "top.s");
  EXPECT_EQ(bit.changes, 4u);
  EXPECT_EQ(bit.first_change, 110u);
  EXPECT_EQ(bit.last_change, 160u);
  EXPECT_EQ(bit.time_nonzero, 20u + 20u);  // at 1 in [110,130) and [140,160)
  EXPECT_EQ(bit.time_known, 60u);
  const SignalStats& vec = s.signals[1];
  EXPECT_EQ(vec.changes, 3u);  // b0101 -> b101 is no change (left extension)
  EXPECT_EQ(vec.time_known, 30u);
  EXPECT_EQ(vec.time_nonzero, 20u);
  EXPECT_EQ(vec.distinct_values, 4u);  // x, 5, 0, 1x
  const SignalStats& alias = s.signals[2];
  EXPECT_EQ(alias.name, "top.s2");
  EXPECT_EQ(alias.changes, bit.changes);
  const SignalStats& real = s.signals[3];
  EXPECT_EQ(real.changes, 2u);  // 0 -> 2.5 -> -0 (equal to 0)
  EXPECT_EQ(real.time_nonzero, 20u);
  EXPECT_EQ(real.distinct_values, 2u);
  EXPECT_EQ(s.total_changes, 4u + 3u + 2u);
  EXPECT_FALSE(s.hilsim);
}

TEST(TraceStats, HilsimLayerWindowsAndCoreBusy) {
  const TraceStats s = stats(
      "$timescale 1ps $end\n$scope module hilsim $end\n$var reg 32 : layer $end\n"
      "$scope module core1 $end\n$var wire 1 a busy $end\n$upscope $end\n"
      "$scope module core0 $end\n$var wire 1 b busy $end\n$upscope $end\n"
      "$upscope $end\n$enddefinitions $end\n"
      "#0\n$dumpvars\nbx :\n0a\n0b\n$end\n"
      "#10\nb111 :\nb0 :\n#15\n1a\n1b\n#25\n0a\n#30\nb1 :\n#35\n1a\n#40\n0a\n0b\n#50\nbx :\n"
      "#60\nb0 :\n#70\n1b\n#80\n");
  ASSERT_TRUE(s.hilsim);
  const HilsimStats& h = *s.hilsim;
  EXPECT_EQ(h.cores, (std::vector<uint32_t>{0, 1}));
  const std::vector<LayerWindow> windows = h.windows();
  ASSERT_EQ(windows.size(), 3u);  // layer 7 held for no time is no window
  EXPECT_EQ(windows[0].layer, 0u);
  EXPECT_EQ(windows[0].start, 10u);
  EXPECT_EQ(windows[0].end, 30u);
  EXPECT_EQ(windows[0].core_busy, (std::vector<uint64_t>{15, 10}));
  EXPECT_EQ(windows[1].layer, 1u);
  EXPECT_EQ(windows[1].invocation, 0u);
  EXPECT_EQ(windows[1].core_busy, (std::vector<uint64_t>{10, 5}));
  EXPECT_TRUE(windows[1].complete);
  EXPECT_EQ(windows[2].invocation, 1u);
  EXPECT_EQ(windows[2].start, 60u);
  EXPECT_EQ(windows[2].end, 80u);
  EXPECT_FALSE(windows[2].complete);
  EXPECT_EQ(windows[2].core_busy, (std::vector<uint64_t>{10, 0}));
  EXPECT_EQ(h.core_busy, (std::vector<uint64_t>{35, 15}));

  const std::string json = traceStatsJson(s, 400);
  EXPECT_NE(json.find("\"cycles\": 0.008"), std::string::npos) << json;  // 20 ps at 400 MHz
  EXPECT_NE(traceStatsText(s, 400).find("layer windows"), std::string::npos);
}

}  // namespace
}  // namespace hilsim::vcd
