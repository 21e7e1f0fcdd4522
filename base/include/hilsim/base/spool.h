#pragma once
// A temporary file that holds records too many to keep in memory: written once as a run goes,
// then read back from the start as often as needed. The file is unlinked as soon as it is
// created, so nothing is left behind by an error, a signal or a crash.

#include <cstdint>
#include <cstdio>
#include <string>
#include <string_view>

namespace hilsim {

class Spool {
 public:
  // Creates the file in $TMPDIR (else /tmp). Throws InputError when it cannot.
  Spool();
  ~Spool();
  Spool(const Spool&) = delete;
  Spool& operator=(const Spool&) = delete;

  void putU64(uint64_t value);
  void putString(std::string_view text);
  // Records written so far (each endRecord() counts one).
  void endRecord() { ++records_; }
  uint64_t records() const { return records_; }

  // Starts reading from the beginning; writing is over once reading starts.
  void rewind();
  // Read in the order written. Throw InputError on a read error or a file that ends early.
  uint64_t getU64();
  std::string getString();

 private:
  [[noreturn]] void fail(const char* what);

  std::FILE* file_ = nullptr;
  uint64_t records_ = 0;
};

}  // namespace hilsim
