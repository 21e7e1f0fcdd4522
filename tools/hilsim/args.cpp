#include "args.h"

#include <iostream>
#include <sstream>

#include "hilsim/errors.h"

namespace hilsim::cli {

ArgParser::ArgParser(std::string command, std::string summary)
    : command_(std::move(command)), summary_(std::move(summary)) {}

void ArgParser::flag(const std::string& name, bool* target, const std::string& help) {
  options_.push_back({name, "", help, [target](const std::string&) { *target = true; }});
}

void ArgParser::option(const std::string& name, std::string* target, const std::string& metavar,
                       const std::string& help) {
  options_.push_back({name, metavar, help, [target](const std::string& v) { *target = v; }});
}

void ArgParser::option(const std::string& name, std::optional<std::string>* target,
                       const std::string& metavar, const std::string& help) {
  options_.push_back({name, metavar, help, [target](const std::string& v) { *target = v; }});
}

void ArgParser::repeated(const std::string& name, std::vector<std::string>* target,
                         const std::string& metavar, const std::string& help) {
  options_.push_back(
      {name, metavar, help, [target](const std::string& v) { target->push_back(v); }});
}

void ArgParser::positional(const std::string& name, std::string* target, bool required,
                           const std::string& help) {
  positionals_.push_back({name, target, required, help});
}

const ArgParser::Option* ArgParser::findOption(const std::string& name) const {
  for (const Option& o : options_)
    if (o.name == name) return &o;
  return nullptr;
}

bool ArgParser::parse(int argc, char** argv, int first) {
  size_t next_positional = 0;
  for (int i = first; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      std::cout << help();
      return false;
    }
    if (arg.size() > 2 && arg.compare(0, 2, "--") == 0) {
      std::string value;
      bool has_value = false;
      const size_t eq = arg.find('=');
      if (eq != std::string::npos) {
        value = arg.substr(eq + 1);
        arg = arg.substr(0, eq);
        has_value = true;
      }
      const Option* opt = findOption(arg);
      if (!opt)
        throw UsageError(command_ + ": unknown option '" + arg + "' (see hilsim " + command_ +
                         " --help)");
      if (opt->metavar.empty()) {
        if (has_value) throw UsageError(command_ + ": " + arg + " takes no value");
        opt->set("");
        continue;
      }
      if (!has_value) {
        if (i + 1 >= argc)
          throw UsageError(command_ + ": " + arg + " needs a value (" + opt->metavar + ")");
        value = argv[++i];
      }
      opt->set(value);
      continue;
    }
    if (arg.size() > 1 && arg[0] == '-' && arg != "-")
      throw UsageError(command_ + ": unknown option '" + arg + "'");
    if (next_positional >= positionals_.size())
      throw UsageError(command_ + ": unexpected argument '" + arg + "'");
    *positionals_[next_positional++].target = arg;
  }
  for (size_t p = next_positional; p < positionals_.size(); ++p)
    if (positionals_[p].required)
      throw UsageError(command_ + ": missing argument " + positionals_[p].name);
  return true;
}

std::string ArgParser::help() const {
  std::ostringstream out;
  out << "usage: hilsim " << command_;
  for (const Option& o : options_)
    out << " [" << o.name << (o.metavar.empty() ? "" : " " + o.metavar) << "]";
  for (const Positional& p : positionals_)
    out << " " << (p.required ? "" : "[") << p.name << (p.required ? "" : "]");
  out << "\n\n" << summary_ << "\n";
  if (!positionals_.empty() || !options_.empty()) out << "\n";
  for (const Positional& p : positionals_) out << "  " << p.name << "\n      " << p.help << "\n";
  for (const Option& o : options_)
    out << "  " << o.name << (o.metavar.empty() ? "" : " " + o.metavar) << "\n      " << o.help
        << "\n";
  out << "  --help\n      show this help\n";
  return out.str();
}

}  // namespace hilsim::cli
