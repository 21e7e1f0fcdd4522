#pragma once
// Typed errors shared by every hilsim library. Library code throws these; only the CLI's main
// turns them into an exit code and one line on stderr.

#include <stdexcept>
#include <string>

namespace hilsim {

// Base of all hilsim errors. what() is one readable line.
class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// A usage, input or configuration problem: exit code 2.
class UsageError : public Error {
 public:
  using Error::Error;
};

// A model file that cannot be loaded or run: exit code 2.
class ModelError : public UsageError {
 public:
  using UsageError::UsageError;
};

// A bad input or output file, or an I/O failure: exit code 2.
class InputError : public UsageError {
 public:
  using UsageError::UsageError;
};

// A bad hardware configuration: exit code 2.
class ConfigError : public UsageError {
 public:
  using UsageError::UsageError;
};

// The simulation itself failed (watchdog, bus error, driver timeout): exit code 3.
class SimulationError : public Error {
 public:
  using Error::Error;
};

}  // namespace hilsim
