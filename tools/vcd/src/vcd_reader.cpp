#include "hilsim/vcd/vcd_reader.h"

#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unordered_map>

#include "hilsim/errors.h"

namespace hilsim::vcd {
namespace {

// Whitespace separates every token of a VCD; control characters count as whitespace.
inline bool isSpace(char c) {
  return static_cast<unsigned char>(c) <= ' ';
}

// A token quoted for an error message: printable, at most 40 characters.
std::string shown(std::string_view token) {
  std::string out = "'";
  for (size_t i = 0; i < token.size() && i < 40; ++i) {
    const unsigned char c = static_cast<unsigned char>(token[i]);
    out += (c >= 0x20 && c < 0x7f) ? static_cast<char>(c) : '?';
  }
  return out + (token.size() > 40 ? "...'" : "'");
}

// Splits the input into whitespace-separated tokens, reading it in large chunks; tracks lines.
class Tokenizer {
 public:
  Tokenizer(std::istream& in, const std::string& name) : in_(in), name_(name), buf_(1 << 20) {}

  // The next token, valid until the following call; false at the end of the input.
  bool next(std::string_view* token) {
    while (true) {
      if (pos_ == end_ && !refill(pos_)) return false;
      const char c = buf_[pos_];
      if (!isSpace(c)) break;
      if (c == '\n') ++line_;
      ++pos_;
    }
    token_line_ = line_;
    size_t start = pos_;
    while (true) {
      while (pos_ < end_ && !isSpace(buf_[pos_])) ++pos_;
      if (pos_ < end_) break;
      const size_t kept = pos_ - start;
      if (!refill(start)) {
        terminated_ = false;
        *token = std::string_view(buf_.data(), kept);
        return true;
      }
      start = 0;
    }
    *token = std::string_view(buf_.data() + start, pos_ - start);
    return true;
  }

  // The line of the last token.
  size_t line() const { return token_line_; }
  // False if the input ended right after the last token, without a line end.
  bool terminated() const { return terminated_; }

  [[noreturn]] void fail(const std::string& problem) const { failAt(token_line_, problem); }
  [[noreturn]] void failAt(size_t line, const std::string& problem) const {
    throw InputError(name_ + ":" + std::to_string(line) + ": " + problem);
  }

 private:
  // Keeps buf_[keep, end_) at the front and appends more input; false at the end of the input.
  bool refill(size_t keep) {
    const size_t kept = end_ - keep;
    if (kept > 0 && keep > 0) std::memmove(buf_.data(), buf_.data() + keep, kept);
    pos_ -= keep;
    end_ = kept;
    if (kept == buf_.size()) buf_.resize(buf_.size() * 2);
    if (eof_) return false;
    in_.read(buf_.data() + end_, static_cast<std::streamsize>(buf_.size() - end_));
    const std::streamsize got = in_.gcount();
    if (in_.bad()) throw InputError(name_ + ": read error after line " + std::to_string(line_));
    if (got <= 0) {
      eof_ = true;
      return false;
    }
    end_ += static_cast<size_t>(got);
    return true;
  }

  std::istream& in_;
  const std::string& name_;
  std::vector<char> buf_;
  size_t pos_ = 0;
  size_t end_ = 0;
  size_t line_ = 1;
  size_t token_line_ = 1;
  bool eof_ = false;
  bool terminated_ = true;
};

// Identifier codes of one or two printable characters index a dense table; longer ones a map.
constexpr int kPrintable = '~' - '!' + 1;
int shortCodeSlot(std::string_view code) {
  auto in_range = [](char c) { return c >= '!' && c <= '~'; };
  if (code.size() == 1 && in_range(code[0])) return code[0] - '!';
  if (code.size() == 2 && in_range(code[0]) && in_range(code[1]))
    return kPrintable + (code[0] - '!') * kPrintable + (code[1] - '!');
  return -1;
}

class Parser {
 public:
  Parser(Tokenizer& tok, Handler& handler)
      : tok_(tok), handler_(handler), short_codes_(kPrintable + kPrintable * kPrintable, -1) {}

  void run() {
    readHeader();
    handler_.header(header_);
    readValues();
  }

 private:
  // Tokens up to the closing $end of the construct `keyword` opened on line `line`.
  std::vector<std::string> tokensUntilEnd(std::string_view keyword, size_t line) {
    std::vector<std::string> out;
    std::string_view t;
    while (true) {
      if (!tok_.next(&t))
        tok_.fail("the file ends inside " + std::string(keyword) + " opened on line " +
                  std::to_string(line) + " (truncated?)");
      if (t == "$end") return out;
      out.emplace_back(t);
    }
  }
  std::string textUntilEnd(std::string_view keyword, size_t line) {
    std::string text;
    for (const std::string& t : tokensUntilEnd(keyword, line))
      text += (text.empty() ? "" : " ") + t;
    return text;
  }

  void readHeader() {
    std::string_view t;
    bool first = true;
    while (true) {
      if (!tok_.next(&t)) {
        if (first) tok_.fail("the file is empty, not a VCD");
        tok_.fail("the file ends before $enddefinitions (truncated?)");
      }
      if (t[0] != '$') {
        if (first)
          tok_.fail("not a VCD file: expected a declaration such as $timescale, found " + shown(t));
        tok_.fail("expected a declaration keyword, found " + shown(t));
      }
      first = false;
      const std::string keyword(t);
      const size_t line = tok_.line();
      if (keyword == "$enddefinitions") {
        if (!tokensUntilEnd(keyword, line).empty()) tok_.fail("$enddefinitions takes no arguments");
        return;
      }
      if (keyword == "$date") {
        header_.date = textUntilEnd(keyword, line);
      } else if (keyword == "$version") {
        header_.version = textUntilEnd(keyword, line);
      } else if (keyword == "$comment") {
        header_.comments.push_back(textUntilEnd(keyword, line));
      } else if (keyword == "$timescale") {
        readTimescale(textUntilEnd(keyword, line));
      } else if (keyword == "$scope") {
        const std::vector<std::string> args = tokensUntilEnd(keyword, line);
        if (args.size() != 2) tok_.fail("$scope needs a type and a name");
        scopes_.push_back(args[1]);
      } else if (keyword == "$upscope") {
        if (!tokensUntilEnd(keyword, line).empty()) tok_.fail("$upscope takes no arguments");
        if (scopes_.empty()) tok_.fail("$upscope without an open $scope");
        scopes_.pop_back();
      } else if (keyword == "$var") {
        readVar(tokensUntilEnd(keyword, line), line);
      } else {
        // $comment, and declarations this reader does not need (e.g. GTKWave's $attrbegin).
        tokensUntilEnd(keyword, line);
      }
    }
  }

  void readTimescale(const std::string& text) {
    std::string compact;
    for (char c : text)
      if (!isSpace(c)) compact += c;
    size_t digits = 0;
    while (digits < compact.size() && compact[digits] >= '0' && compact[digits] <= '9') ++digits;
    const std::string number = compact.substr(0, digits), unit = compact.substr(digits);
    static const std::pair<const char*, int> kUnits[] = {{"s", 0},   {"ms", -3},  {"us", -6},
                                                         {"ns", -9}, {"ps", -12}, {"fs", -15}};
    const int* exponent = nullptr;
    for (const auto& u : kUnits)
      if (unit == u.first) exponent = &u.second;
    if ((number != "1" && number != "10" && number != "100") || !exponent)
      tok_.fail("bad $timescale " + shown(text) +
                ": expected 1, 10 or 100 and a unit s, ms, us, ns, ps or fs");
    header_.timescale.magnitude = static_cast<uint32_t>(std::stoul(number));
    header_.timescale.exponent = *exponent;
    header_.timescale.given = true;
  }

  void readVar(const std::vector<std::string>& args, size_t line) {
    if (args.size() < 4)
      tok_.fail("$var needs a type, a width, an identifier code and a reference");
    Var v;
    v.type = args[0];
    v.line = line;
    uint32_t width = 0;
    const std::string& w = args[1];
    const auto [end, ec] = std::from_chars(w.data(), w.data() + w.size(), width);
    if (ec != std::errc() || end != w.data() + w.size() || width == 0)
      tok_.fail("bad width " + shown(w) + " in $var (expected a positive integer)");
    v.width = width;
    v.code = args[2];
    for (const std::string& s : scopes_) v.name += s + ".";
    v.name += args[3];
    for (size_t i = 4; i < args.size(); ++i) v.range += args[i];

    const int slot = shortCodeSlot(v.code);
    auto it = codes_.find(v.code);
    if (it == codes_.end()) {
      v.code_index = header_.code_count++;
      codes_.emplace(v.code, v.code_index);
      if (slot >= 0) short_codes_[static_cast<size_t>(slot)] = static_cast<int32_t>(v.code_index);
      header_.code_width.push_back(width);
      header_.code_real.push_back(v.type == "real" || v.type == "realtime");
      code_names_.push_back(v.name);
    } else {
      v.code_index = it->second;
      if (header_.code_width[v.code_index] != width)
        tok_.fail("identifier code " + shown(v.code) + " of '" + v.name + "' has width " +
                  std::to_string(width) + ", but its alias '" + code_names_[v.code_index] +
                  "' has width " + std::to_string(header_.code_width[v.code_index]));
    }
    header_.vars.push_back(std::move(v));
  }

  size_t lookup(std::string_view code) {
    const int slot = shortCodeSlot(code);
    if (slot >= 0) {
      const int32_t index = short_codes_[static_cast<size_t>(slot)];
      if (index >= 0) return static_cast<size_t>(index);
    } else {
      key_.assign(code.data(), code.size());
      const auto it = codes_.find(key_);
      if (it != codes_.end()) return it->second;
    }
    tok_.fail("unknown identifier code " + shown(code) + " (no $var declares it)");
  }

  // The identifier code token that follows a vector or real value.
  size_t codeAfter(char kind, std::string_view value) {
    std::string_view code;
    if (!tok_.next(&code))
      tok_.fail("value " + shown(kind + std::string(value)) +
                " has no identifier code after it (truncated?)");
    return lookup(code);
  }

  void readValues() {
    std::string_view t;
    bool have_time = false;
    uint64_t last_time = 0;
    size_t block_line = 0;  // line of the open $dumpvars/$dumpall/$dumpon/$dumpoff, or 0
    while (tok_.next(&t)) {
      switch (t[0]) {
        case '#': {
          uint64_t time = 0;
          const auto [end, ec] = std::from_chars(t.data() + 1, t.data() + t.size(), time);
          if (t.size() < 2 || ec != std::errc() || end != t.data() + t.size())
            tok_.fail("bad timestamp " + shown(t));
          if (have_time && time < last_time)
            tok_.fail("time goes backwards: #" + std::to_string(time) + " after #" +
                      std::to_string(last_time));
          have_time = true;
          last_time = time;
          handler_.time(time);
          break;
        }
        case '0':
        case '1':
        case 'x':
        case 'X':
        case 'z':
        case 'Z': {
          if (t.size() < 2) tok_.fail("value " + shown(t) + " has no identifier code");
          static const char kBits[] = "01xz";
          const char c = t[0];
          const char* bit = c == '0'                 ? kBits
                            : c == '1'               ? kBits + 1
                            : (c == 'x' || c == 'X') ? kBits + 2
                                                     : kBits + 3;
          handler_.change(lookup(t.substr(1)), ValueKind::kBits, std::string_view(bit, 1));
          break;
        }
        case 'b':
        case 'B': {
          // Reading the identifier code may move the buffer: keep the bits in scratch_.
          const std::string_view bits = normalizedBits(t);
          const size_t index = codeAfter('b', bits);
          if (bits.size() > header_.code_width[index])
            tok_.fail("value " + shown("b" + scratch_) + " has " + std::to_string(bits.size()) +
                      " bits, but '" + code_names_[index] + "' is " +
                      std::to_string(header_.code_width[index]) + " bits wide");
          handler_.change(index, ValueKind::kBits, bits);
          break;
        }
        case 'r':
        case 'R': {
          double number = 0;
          const char* first = t.data() + 1;
          const auto [end, ec] = std::from_chars(first, t.data() + t.size(), number);
          if (t.size() < 2 || (ec != std::errc() && ec != std::errc::result_out_of_range) ||
              end != t.data() + t.size())
            tok_.fail("bad real value " + shown(t));
          scratch_.assign(t.data() + 1, t.size() - 1);
          const size_t index = codeAfter('r', scratch_);
          handler_.change(index, ValueKind::kReal, scratch_);
          break;
        }
        case '$': {
          if (t == "$dumpvars" || t == "$dumpall" || t == "$dumpon" || t == "$dumpoff") {
            if (block_line) tok_.fail(std::string(t) + " inside another block (missing $end?)");
            block_line = tok_.line();
          } else if (t == "$end") {
            if (!block_line) tok_.fail("$end without an open $dumpvars/$dumpall/$dumpon/$dumpoff");
            block_line = 0;
          } else if (t == "$comment") {
            tokensUntilEnd("$comment", tok_.line());
          } else {
            tok_.fail("unexpected " + shown(t) + " among the value changes");
          }
          break;
        }
        default:
          tok_.fail("cannot read " + shown(t) + " as a timestamp or a value change");
      }
    }
    if (block_line)
      tok_.fail("the file ends inside the block opened on line " + std::to_string(block_line) +
                " (truncated?)");
    if (!tok_.terminated()) tok_.fail("the last line has no line end (truncated?)");
  }

  // The bits of a vector value token "b...", lower case, copied to scratch_; fails on anything
  // but 0 1 x z.
  std::string_view normalizedBits(std::string_view token) {
    const std::string_view bits = token.substr(1);
    if (bits.empty()) tok_.fail("vector value " + shown(token) + " has no bits");
    bool upper = false;
    for (char c : bits) {
      if (c == '0' || c == '1' || c == 'x' || c == 'z') continue;
      if (c == 'X' || c == 'Z') {
        upper = true;
        continue;
      }
      tok_.fail("vector value " + shown(token) + " holds " + shown(std::string_view(&c, 1)) +
                " (bits are 0, 1, x or z)");
    }
    scratch_.assign(bits.data(), bits.size());
    if (upper)
      for (char& c : scratch_) c = (c == 'X') ? 'x' : (c == 'Z') ? 'z' : c;
    return scratch_;
  }

  Tokenizer& tok_;
  Handler& handler_;
  Header header_;
  std::vector<std::string> scopes_;
  std::unordered_map<std::string, size_t> codes_;
  std::vector<int32_t> short_codes_;
  std::vector<std::string> code_names_;
  std::string key_;
  std::string scratch_;
};

}  // namespace

double Timescale::seconds() const {
  return static_cast<double>(magnitude) * std::pow(10.0, exponent);
}

std::string Timescale::text() const {
  static const char* kUnits[] = {"s", "ms", "us", "ns", "ps", "fs"};
  return std::to_string(magnitude) + " " + kUnits[-exponent / 3];
}

void readStream(std::istream& in, const std::string& name, Handler& handler) {
  Tokenizer tok(in, name);
  Parser(tok, handler).run();
}

void readFile(const std::string& path, Handler& handler) {
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec)) throw InputError("'" + path + "' is a directory");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError("cannot open '" + path + "': " + std::strerror(errno));
  readStream(in, path, handler);
}

}  // namespace hilsim::vcd
