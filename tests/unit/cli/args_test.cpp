// The command-line parser of every hilsim command (CLI11 underneath): values, repetition, help,
// and the one-line usage errors that main turns into exit code 2.

#include "args.h"

#include <gtest/gtest.h>

#include <sstream>

#include "hilsim/errors.h"

namespace hilsim::cli {
namespace {

struct Parsed {
  std::string model, seed = "1", positional;
  std::optional<std::string> report;
  std::vector<std::string> sets;
  bool quiet = false;
  bool ran = false;  // parse() returned true
};

// Parses "hilsim run ARGS..." with a representative set of options.
Parsed parse(std::vector<std::string> args, bool positional_required = false) {
  args.insert(args.begin(), {"hilsim", "run"});
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  Parsed p;
  ArgParser parser("run", "Runs a model.");
  parser.option("--model", &p.model, "M.tflite", "model to run");
  parser.option("--seed", &p.seed, "S", "seed (default 1)");
  parser.option("--report", &p.report, "r.json", "write the report");
  parser.repeated("--set", &p.sets, "key=value", "override one key (repeatable)");
  parser.flag("--quiet", &p.quiet, "do not print the table");
  parser.positional("M.tflite", &p.positional, positional_required, "a positional");
  p.ran = parser.parse(static_cast<int>(argv.size()), argv.data(), 2);
  return p;
}

std::string usageError(const std::vector<std::string>& args, bool positional_required = false) {
  try {
    parse(args, positional_required);
  } catch (const UsageError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(Args, OptionsFlagsRepeatedAndPositionals) {
  const Parsed p = parse({"--model", "m.tflite", "--set", "a=1", "--quiet", "--set=b=2",
                          "--report=r.json", "pos.tflite"});
  EXPECT_TRUE(p.ran);
  EXPECT_EQ(p.model, "m.tflite");
  EXPECT_EQ(p.seed, "1");  // untouched when not given
  EXPECT_EQ(p.report, "r.json");
  EXPECT_EQ(p.sets, (std::vector<std::string>{"a=1", "b=2"}));
  EXPECT_TRUE(p.quiet);
  EXPECT_EQ(p.positional, "pos.tflite");
  EXPECT_FALSE(parse({}).report.has_value());
}

TEST(Args, TheLastValueOfAnOptionGivenTwiceCounts) {
  EXPECT_EQ(parse({"--seed", "1", "--seed", "2"}).seed, "2");
}

TEST(Args, ARepeatedOptionTakesOneValuePerOccurrenceNegativeOnesToo) {
  const Parsed p = parse({"--set", "-5", "--set", "0x3", "model.tflite"});
  EXPECT_EQ(p.sets, (std::vector<std::string>{"-5", "0x3"}));
  EXPECT_EQ(p.positional, "model.tflite");
}

TEST(Args, AfterDoubleDashADashedWordIsAPositional) {
  EXPECT_EQ(parse({"--", "-odd.tflite"}).positional, "-odd.tflite");
}

TEST(Args, UnknownOptionsAndStrayArgumentsAreOneLineErrors) {
  EXPECT_EQ(usageError({"--bogus"}), "run: unknown option '--bogus' (see hilsim run --help)");
  EXPECT_EQ(usageError({"--bogus=3"}), "run: unknown option '--bogus' (see hilsim run --help)");
  EXPECT_EQ(usageError({"--mod", "x"}), "run: unknown option '--mod' (see hilsim run --help)");
  EXPECT_EQ(usageError({"-x"}), "run: unknown option '-x'");
  EXPECT_EQ(usageError({"a", "b"}), "run: unexpected argument 'b'");
  // The unknown option is named rather than the positional it left missing.
  EXPECT_EQ(usageError({"--bogus"}, true), "run: unknown option '--bogus' (see hilsim run --help)");
}

TEST(Args, MissingValuesAndPositionalsNameTheOption) {
  const std::string missing_value = usageError({"--model"});
  EXPECT_EQ(missing_value.rfind("run: --model", 0), 0u) << missing_value;
  EXPECT_EQ(missing_value.find('\n'), std::string::npos) << missing_value;
  const std::string missing_positional = usageError({}, true);
  EXPECT_EQ(missing_positional.rfind("run: M.tflite", 0), 0u) << missing_positional;
}

TEST(Args, HelpListsEveryOptionWithItsMeaningAndStopsTheCommand) {
  std::ostringstream captured;
  std::streambuf* old = std::cout.rdbuf(captured.rdbuf());
  const Parsed p = parse({"--model", "m.tflite", "--help"});
  std::cout.rdbuf(old);
  EXPECT_FALSE(p.ran);
  const std::string help = captured.str();
  for (const char* text : {"Runs a model.", "hilsim run", "--model M.tflite", "model to run",
                           "--seed S", "seed (default 1)", "--report r.json", "write the report",
                           "--set key=value", "override one key (repeatable)", "--quiet",
                           "do not print the table", "M.tflite", "a positional", "--help"})
    EXPECT_NE(help.find(text), std::string::npos) << text << " missing in\n" << help;
  std::cout.rdbuf(captured.rdbuf());
  EXPECT_FALSE(parse({"-h"}).ran);
  std::cout.rdbuf(old);
}

}  // namespace
}  // namespace hilsim::cli
