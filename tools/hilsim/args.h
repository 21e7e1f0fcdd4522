#pragma once
// A small command-line parser: --flag, --option VALUE (or --option=VALUE), repeatable options and
// positionals. Unknown flags, missing values and stray arguments throw hilsim::UsageError.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "hilsim/base/parse.h"

namespace hilsim::cli {

class ArgParser {
 public:
  ArgParser(std::string command, std::string summary);

  void flag(const std::string& name, bool* target, const std::string& help);
  void option(const std::string& name, std::string* target, const std::string& metavar,
              const std::string& help);
  void option(const std::string& name, std::optional<std::string>* target,
              const std::string& metavar, const std::string& help);
  void repeated(const std::string& name, std::vector<std::string>* target,
                const std::string& metavar, const std::string& help);
  void positional(const std::string& name, std::string* target, bool required,
                  const std::string& help);

  // Parses argv[first..argc). Returns false when --help was given (help already printed).
  bool parse(int argc, char** argv, int first);
  std::string help() const;

 private:
  struct Option {
    std::string name;
    std::string metavar;  // empty for flags
    std::string help;
    std::function<void(const std::string&)> set;
  };
  struct Positional {
    std::string name;
    std::string* target;
    bool required;
    std::string help;
  };
  const Option* findOption(const std::string& name) const;

  std::string command_;
  std::string summary_;
  std::vector<Option> options_;
  std::vector<Positional> positionals_;
};

}  // namespace hilsim::cli
