#pragma once
// The options of one hilsim command, parsed by CLI11: --flag, --option VALUE (or --option=VALUE;
// given twice, the last counts), options repeated to collect values, positionals, -h/--help. Values
// stay text, which each command checks (hilsim/base/parse.h). Unknown options, stray arguments and
// options without their value throw hilsim::UsageError naming the command.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "hilsim/base/parse.h"

namespace CLI {
class App;
}

namespace hilsim::cli {

class ArgParser {
 public:
  // `summary` heads the command's --help.
  ArgParser(std::string command, std::string summary);
  ~ArgParser();
  ArgParser(const ArgParser&) = delete;
  ArgParser& operator=(const ArgParser&) = delete;

  // The help texts may span lines ("\n"); --help indents the continuations.
  void flag(const std::string& name, bool* target, const std::string& help);
  void option(const std::string& name, std::string* target, const std::string& metavar,
              const std::string& help);
  void option(const std::string& name, std::optional<std::string>* target,
              const std::string& metavar, const std::string& help);
  // Each occurrence adds one value.
  void repeated(const std::string& name, std::vector<std::string>* target,
                const std::string& metavar, const std::string& help);
  void positional(const std::string& name, std::string* target, bool required,
                  const std::string& help);

  // Parses argv[first..argc). Returns false when --help was given (help already printed).
  bool parse(int argc, char** argv, int first);
  std::string help() const;

 private:
  // Throws UsageError for the first argument CLI11 left over: an unknown option or a stray one.
  void rejectLeftovers() const;

  std::string command_;
  std::unique_ptr<CLI::App> app_;
};

}  // namespace hilsim::cli
