#include "hilsim/base/io.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "hilsim/errors.h"

namespace hilsim {
namespace fs = std::filesystem;

std::vector<uint8_t> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (!in) throw InputError("cannot open '" + path + "': " + std::strerror(errno));
  const std::streamsize size = in.tellg();
  if (size < 0) throw InputError("cannot read '" + path + "'");
  std::vector<uint8_t> bytes(static_cast<size_t>(size));
  in.seekg(0);
  if (size > 0 && !in.read(reinterpret_cast<char*>(bytes.data()), size))
    throw InputError("cannot read '" + path + "'");
  return bytes;
}

std::string readTextFile(const std::string& path) {
  const std::vector<uint8_t> bytes = readFile(path);
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
