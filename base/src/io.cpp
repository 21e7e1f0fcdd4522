#include "hilsim/base/io.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <mutex>
#include <stdexcept>

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

namespace {

// The registry of temporary files: fixed slots, so that a signal handler reads it without
// allocating or locking. A slot's path is written before `used` is set and only read while set.
struct TemporarySlot {
  std::atomic<bool> used{false};
  char path[PATH_MAX] = {};
};
std::array<TemporarySlot, RegisteredTemporary::kMaxRegisteredTemporaries> g_temporaries;
std::mutex g_temporaries_mutex;  // between registering threads; never taken by the handler

}  // namespace

RegisteredTemporary::RegisteredTemporary(const std::string& path) {
  if (path.size() >= PATH_MAX) return;
  std::lock_guard<std::mutex> lock(g_temporaries_mutex);
  for (size_t i = 0; i < g_temporaries.size(); ++i) {
    TemporarySlot& slot = g_temporaries[i];
    if (slot.used.load(std::memory_order_acquire)) continue;
    std::memcpy(slot.path, path.c_str(), path.size() + 1);
    slot.used.store(true, std::memory_order_release);
    slot_ = static_cast<int>(i);
    return;
  }
}

RegisteredTemporary::~RegisteredTemporary() {
  release();
}

void RegisteredTemporary::release() {
  if (slot_ < 0) return;
  std::lock_guard<std::mutex> lock(g_temporaries_mutex);
  g_temporaries[static_cast<size_t>(slot_)].used.store(false, std::memory_order_release);
  slot_ = -1;
}

RegisteredTemporary& RegisteredTemporary::operator=(RegisteredTemporary&& other) noexcept {
  if (this != &other) {
    release();
    slot_ = other.slot_;
    other.slot_ = -1;
  }
  return *this;
}

void removeRegisteredTemporaries() noexcept {
  for (TemporarySlot& slot : g_temporaries)
    if (slot.used.load(std::memory_order_acquire)) ::unlink(slot.path);
}

namespace {

// The temporary file an output is written through, beside it: ".<name>.tmp.<pid>".
std::string temporaryPath(const std::string& path) {
  const fs::path target(path);
  return (target.parent_path() /
          ("." + target.filename().string() + ".tmp." + std::to_string(::getpid())))
      .string();
}

}  // namespace

void checkWritable(const std::string& path, const std::string& what) {
  if (path.empty()) throw InputError(what + ": empty path");
  const fs::path parent = fs::path(path).parent_path();
  std::error_code ec;
  if (!parent.empty() && !fs::is_directory(parent, ec))
    throw InputError(what + " '" + path + "': directory '" + parent.string() + "' does not exist");
  if (fs::is_directory(path, ec)) throw InputError(what + " '" + path + "' is a directory");
  // Create and remove the temporary file the output will be written through: permissions, a
  // read-only file system or a full directory table answer now rather than after the work.
  const std::string probe = temporaryPath(path);
  const RegisteredTemporary registration(probe);
  const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
  if (fd < 0) {
    if (errno == EEXIST) return;  // a temporary of this process is being written there
    throw InputError(what + " '" + path + "': cannot create: " + std::strerror(errno));
  }
  ::close(fd);
  ::unlink(probe.c_str());
}

AtomicFileWriter::AtomicFileWriter(const std::string& path) : path_(path) {
  checkWritable(path, "output");
  tmp_ = temporaryPath(path);
  registration_ = RegisteredTemporary(tmp_);
  fd_ = ::open(tmp_.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd_ < 0) throw InputError("cannot write '" + path_ + "': " + std::strerror(errno));
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd_ < 0) return;
  ::close(fd_);
  ::unlink(tmp_.c_str());
}

void AtomicFileWriter::fail(int error) {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
  ::unlink(tmp_.c_str());
  throw InputError("cannot write '" + path_ + "': " + std::strerror(error));
}

void AtomicFileWriter::write(const void* data, size_t size) {
  if (fd_ < 0) throw std::logic_error("AtomicFileWriter::write after commit");
  const auto* p = static_cast<const uint8_t*>(data);
  while (size > 0) {
    const ssize_t n = ::write(fd_, p, size);
    if (n < 0) {
      if (errno == EINTR) continue;
      fail(errno);
    }
    p += n;
    size -= static_cast<size_t>(n);
  }
}

void AtomicFileWriter::commit() {
  if (fd_ < 0) throw std::logic_error("AtomicFileWriter::commit twice");
  const int fd = fd_;
  fd_ = -1;
  if (::close(fd) != 0 || ::rename(tmp_.c_str(), path_.c_str()) != 0) {
    const int error = errno;
    ::unlink(tmp_.c_str());
    throw InputError("cannot write '" + path_ + "': " + std::strerror(error));
  }
}

void writeFileAtomic(const std::string& path, const void* data, size_t size) {
  AtomicFileWriter file(path);
  file.write(data, size);
  file.commit();
}

}  // namespace hilsim
