#include "hilsim/base/io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "hilsim/errors.h"

namespace hilsim {
namespace fs = std::filesystem;

std::vector<uint8_t> readFile(const std::string& path, const std::string& what) {
  const std::string shown = what + " '" + path + "': ";
  if (path.empty()) throw InputError(what + ": empty path");
  // POSIX rather than a stream: an ifstream opens a directory and reports its size as huge.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw InputError(shown + "cannot read: " + std::strerror(errno));
  struct FdCloser {
    int fd;
    ~FdCloser() { ::close(fd); }
  } closer{fd};
  struct stat st {};
  if (::fstat(fd, &st) != 0) throw InputError(shown + "cannot read: " + std::strerror(errno));
  if (S_ISDIR(st.st_mode)) throw InputError(shown + "is a directory");
  // Read straight into the buffer: a regular file's size is known, a pipe grows it as it goes.
  std::vector<uint8_t> bytes(S_ISREG(st.st_mode) ? static_cast<size_t>(st.st_size) + 1 : 65536);
  size_t used = 0;
  for (;;) {
    if (used == bytes.size()) bytes.resize(bytes.size() * 2);
    const ssize_t n = ::read(fd, bytes.data() + used, bytes.size() - used);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      throw InputError(shown + "cannot read: " + std::strerror(errno));
    }
    used += static_cast<size_t>(n);
  }
  bytes.resize(used);
  return bytes;
}

std::string readTextFile(const std::string& path, const std::string& what) {
  const std::vector<uint8_t> bytes = readFile(path, what);
  return std::string(bytes.begin(), bytes.end());
}

void checkWritable(const std::string& path, const std::string& what) {
  if (path.empty()) throw InputError(what + ": empty path");
  const fs::path parent = fs::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty() && !fs::is_directory(parent, ec))
    throw InputError(what + " '" + path + "': directory '" + parent.string() + "' does not exist");
  if (fs::is_directory(path, ec)) throw InputError(what + " '" + path + "' is a directory");
}

void writeFileAtomic(const std::string& path, const void* data, size_t size) {
  checkWritable(path, "output");
  const fs::path target(path);
  const std::string tmp = (target.parent_path() / ("." + target.filename().string() + ".tmp." +
                                                   std::to_string(::getpid())))
                              .string();
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) throw InputError("cannot write '" + path + "': " + std::strerror(errno));
  const auto* p = static_cast<const uint8_t*>(data);
  size_t left = size;
  while (left > 0) {
    const ssize_t n = ::write(fd, p, left);
    if (n < 0) {
      if (errno == EINTR) continue;
      const std::string err = std::strerror(errno);
      ::close(fd);
      ::unlink(tmp.c_str());
      throw InputError("cannot write '" + path + "': " + err);
    }
    p += n;
    left -= static_cast<size_t>(n);
  }
  if (::close(fd) != 0 || ::rename(tmp.c_str(), path.c_str()) != 0) {
    const std::string err = std::strerror(errno);
    ::unlink(tmp.c_str());
    throw InputError("cannot write '" + path + "': " + err);
  }
}

}  // namespace hilsim
