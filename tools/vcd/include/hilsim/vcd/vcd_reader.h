#pragma once
// A streaming reader of Value Change Dump files (IEEE 1364-2005 section 18). It reads the header
// into a Header, then reports each timestamp and value change to a handler as it goes, so a trace
// of any size is read in one pass with a fixed-size buffer. Errors are hilsim::InputError with one
// line "file:line: problem".

#include <cstddef>
#include <cstdint>
#include <istream>
#include <string>
#include <string_view>
#include <vector>

namespace hilsim::vcd {

struct Timescale {
  uint32_t magnitude = 1;  // 1, 10 or 100
  int exponent = -9;       // unit as a power of ten: s 0, ms -3, us -6, ns -9, ps -12, fs -15
  bool given = false;      // false: the file has no $timescale (1 ns is assumed)

  double seconds() const;    // one tick in seconds
  std::string text() const;  // "1 ps", "10 ns"
};

struct Var {
  std::string type;  // wire, reg, integer, real, event, ...
  uint32_t width = 1;
  std::string code;       // identifier code
  std::string name;       // full hierarchical name: the scopes and the reference joined by '.'
  std::string range;      // bit select after the reference ("[7:0]"), or empty
  size_t code_index = 0;  // index of the identifier code; aliases share it
  size_t line = 0;        // line of the declaration
};

struct Header {
  std::string version;
  std::string date;
  std::vector<std::string> comments;  // text of each $comment in the header
  Timescale timescale;
  std::vector<Var> vars;
  size_t code_count = 0;             // distinct identifier codes
  std::vector<uint32_t> code_width;  // per identifier code
  std::vector<bool> code_real;       // per identifier code: declared as real
};

enum class ValueKind { kBits, kReal };

class Handler {
 public:
  virtual ~Handler() = default;
  virtual void header(const Header& header) = 0;
  // A timestamp (#N); never smaller than the previous one.
  virtual void time(uint64_t t) = 0;
  // A value change of the identifier code `code_index`. kBits: the bits as written, most
  // significant first, of 0 1 x z (lower case), possibly fewer than the width (IEEE 1364
  // left-extension applies); a scalar change gives one bit. kReal: the number's text.
  // The view is valid during the call only.
  virtual void change(size_t code_index, ValueKind kind, std::string_view value) = 0;
};

// Reads the VCD `path`. Throws InputError naming the file (and the line) on any problem: a missing
// file, a file that is not a VCD, a malformed declaration or value, a truncated file.
void readFile(const std::string& path, Handler& handler);
// Reads a VCD from `in`; `name` names it in errors.
void readStream(std::istream& in, const std::string& name, Handler& handler);

}  // namespace hilsim::vcd
