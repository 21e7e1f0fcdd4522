#include "hilsim/base/spool.h"

#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "hilsim/errors.h"

namespace hilsim {

Spool::Spool() {
  const char* dir = std::getenv("TMPDIR");
  std::string pattern = std::string(dir && *dir ? dir : "/tmp") + "/hilsim-spool-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = ::mkstemp(name.data());
  if (fd < 0)
    throw InputError("cannot create a temporary file in '" + pattern.substr(0, pattern.rfind('/')) +
                     "': " + std::strerror(errno));
  ::unlink(name.data());
  file_ = ::fdopen(fd, "w+b");
  if (!file_) {
    const int error = errno;
    ::close(fd);
    throw InputError(std::string("cannot open a temporary file: ") + std::strerror(error));
  }
}

Spool::~Spool() {
  if (file_) std::fclose(file_);
}

void Spool::fail(const char* what) {
  throw InputError(std::string("temporary file: cannot ") + what + ": " +
                   (std::ferror(file_) ? std::strerror(errno) : "it ends early"));
}

void Spool::putU64(uint64_t value) {
  if (std::fwrite(&value, sizeof value, 1, file_) != 1) fail("write");
}

void Spool::putString(std::string_view text) {
  putU64(text.size());
  if (!text.empty() && std::fwrite(text.data(), 1, text.size(), file_) != text.size())
    fail("write");
}

void Spool::rewind() {
  if (std::fflush(file_) != 0 || std::fseek(file_, 0, SEEK_SET) != 0) fail("write");
}

uint64_t Spool::getU64() {
  uint64_t value = 0;
  if (std::fread(&value, sizeof value, 1, file_) != 1) fail("read");
  return value;
}

std::string Spool::getString() {
  std::string text(getU64(), '\0');
  if (!text.empty() && std::fread(text.data(), 1, text.size(), file_) != text.size()) fail("read");
  return text;
}

}  // namespace hilsim
