#pragma once
// File helpers for the CLI. Every output is written to a temporary file beside the target and
// renamed into place, so a failed run never leaves a partial file.

#include <cstdint>
#include <string>
#include <vector>

namespace hilsim {

// Reads a whole file (a regular file, or a pipe such as /dev/stdin). `what` names the file's role
// in messages ("model", "--input", "sweep spec"). Throws InputError with one line:
// "<what> '<path>': is a directory" or "<what> '<path>': cannot read: <strerror>".
std::vector<uint8_t> readFile(const std::string& path, const std::string& what = "file");
std::string readTextFile(const std::string& path, const std::string& what = "file");

// Temporary files that a stop signal must not leave behind. An object of this class registers
// `path` for its lifetime (register before the file is created); removeRegisteredTemporaries()
// unlinks every registered path and is async-signal-safe, for main's SIGINT and SIGTERM handler.
// At most kMaxRegisteredTemporaries are tracked at once (further ones are not removed by it).
class RegisteredTemporary {
 public:
  static constexpr size_t kMaxRegisteredTemporaries = 64;
  RegisteredTemporary() = default;
  explicit RegisteredTemporary(const std::string& path);
  ~RegisteredTemporary();
  RegisteredTemporary(RegisteredTemporary&& other) noexcept : slot_(other.slot_) {
    other.slot_ = -1;
  }
  RegisteredTemporary& operator=(RegisteredTemporary&& other) noexcept;
  RegisteredTemporary(const RegisteredTemporary&) = delete;
  RegisteredTemporary& operator=(const RegisteredTemporary&) = delete;

 private:
  void release();
  int slot_ = -1;
};
// Unlinks every registered temporary file; async-signal-safe.
void removeRegisteredTemporaries() noexcept;

// A file written piece by piece into a temporary file beside `path` and renamed into place by
// commit(). Destroyed without commit() (after an error or an exception), it removes the temporary
// file and leaves `path` as it was. Errors are InputError naming `path`.
class AtomicFileWriter {
 public:
  explicit AtomicFileWriter(const std::string& path);
  ~AtomicFileWriter();
  AtomicFileWriter(const AtomicFileWriter&) = delete;
  AtomicFileWriter& operator=(const AtomicFileWriter&) = delete;

  void write(const void* data, size_t size);
  void commit();

 private:
  [[noreturn]] void fail(int error);

  std::string path_, tmp_;
  RegisteredTemporary registration_;
  int fd_ = -1;
};

// Writes `bytes` to `path` atomically; throws InputError naming it.
void writeFileAtomic(const std::string& path, const void* data, size_t size);
inline void writeFileAtomic(const std::string& path, const std::string& text) {
  writeFileAtomic(path, text.data(), text.size());
}
inline void writeFileAtomic(const std::string& path, const std::vector<uint8_t>& bytes) {
  writeFileAtomic(path, bytes.data(), bytes.size());
}

// Checks early that `path` can be created (its directory exists and a file can be created in it,
// tried with a temporary file that is removed at once), so a long run does not fail at the end.
// Throws InputError with one line naming `what` (the option) and `path`.
void checkWritable(const std::string& path, const std::string& what);

}  // namespace hilsim
