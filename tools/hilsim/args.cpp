#include "args.h"

#include <CLI/CLI.hpp>
#include <iostream>

#include "hilsim/errors.h"

namespace hilsim::cli {

ArgParser::ArgParser(std::string command, std::string summary)
    : command_(std::move(command)),
      app_(std::make_unique<CLI::App>(std::move(summary) + "\n", "hilsim " + command_)) {
  app_->option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  // Unknown options and stray arguments are left over for parse() to report in one line.
  app_->allow_extras();
  // Wide enough for the longest "--option METAVAR" beside its help.
  app_->get_formatter()->column_width(36);
}

ArgParser::~ArgParser() = default;

void ArgParser::flag(const std::string& name, bool* target, const std::string& help) {
  app_->add_flag(name, *target, help);
}

void ArgParser::option(const std::string& name, std::string* target, const std::string& metavar,
                       const std::string& help) {
  app_->add_option(name, *target, help)->type_name(metavar);
}

void ArgParser::option(const std::string& name, std::optional<std::string>* target,
                       const std::string& metavar, const std::string& help) {
  app_->add_option_function<std::string>(
          name, [target](const std::string& value) { *target = value; }, help)
      ->type_name(metavar);
}

void ArgParser::repeated(const std::string& name, std::vector<std::string>* target,
                         const std::string& metavar, const std::string& help) {
  app_->add_option(name, *target, help)
      ->type_name(metavar)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll)
      ->allow_extra_args(false);
}

void ArgParser::positional(const std::string& name, std::string* target, bool required,
                           const std::string& help) {
  app_->add_option(name, *target, help)->type_name("")->required(required);
}

bool ArgParser::parse(int argc, char** argv, int first) {
  try {
    // The command's name, argv[first - 1], stands where CLI11 expects the program's.
    app_->parse(argc - first + 1, argv + first - 1);
  } catch (const CLI::CallForHelp&) {
    std::cout << help();
    return false;
  } catch (const CLI::ParseError& e) {
    // An unknown option explains a later error (a missing positional) better than the error.
    rejectLeftovers();
    throw UsageError(command_ + ": " + e.what());
  }
  rejectLeftovers();
  return true;
}

void ArgParser::rejectLeftovers() const {
  for (const std::string& arg : app_->remaining()) {
    if (arg == "--") continue;
    if (arg.rfind("--", 0) == 0)
      throw UsageError(command_ + ": unknown option '" + arg.substr(0, arg.find('=')) +
                       "' (see hilsim " + command_ + " --help)");
    if (arg.size() > 1 && arg[0] == '-')
      throw UsageError(command_ + ": unknown option '" + arg + "'");
    throw UsageError(command_ + ": unexpected argument '" + arg + "'");
  }
}

std::string ArgParser::help() const {
  return app_->help();
}

}  // namespace hilsim::cli
