#pragma once
// Runs the hilsim executable as a user would and captures what it did.

#include <string>
#include <vector>

namespace hilsim::test {

struct RunOutcome {
  int exit_code = -1;    // -1 if killed by a signal
  int signal = 0;        // the signal that ended it, or 0
  bool timed_out = false;
  std::string out;
  std::string err;
  std::string command;   // for messages
};

// Runs build/hilsim with `args`; kills it after `timeout_seconds`.
RunOutcome runHilsim(const std::vector<std::string>& args, double timeout_seconds = 120);
// Starts build/hilsim with `args` in a process group of its own (stdout and stderr discarded) and
// returns its pid, which is also the group id.
int startHilsim(const std::vector<std::string>& args);
// The same with stdout and stderr written to the files `out_path` and `err_path`.
int startHilsim(const std::vector<std::string>& args, const std::string& out_path,
                const std::string& err_path);
// Runs `command` with /bin/sh; returns its exit code.
int runShell(const std::string& command);
std::string hilsimPath();

}  // namespace hilsim::test
