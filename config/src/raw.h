#pragma once
// The raw layer: the config as written, every value optional and remembering where it came from,
// kept by the key's path; one table row (keys.cpp) reads it and writes the resolved field.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace hilsim::config::detail {

// Where a value came from: a file and 1-based line, or one `--set key=value` override.
struct Origin {
  std::string file;
  int line = 0;                              // 0: not known
  std::optional<std::string> override_text;  // "accel.num_cores=8" for a value from --set

  static Origin inFile(std::string file, int line) { return Origin{std::move(file), line, {}}; }
  static Origin fromOverride(std::string text) { return Origin{"", 0, std::move(text)}; }
  // "configs/x.yaml:12", "configs/x.yaml" or "--set accel.num_cores=8".
  std::string where() const;
};

// Throws hilsim::ConfigError("<where>: <message>").
[[noreturn]] void fail(const Origin& origin, const std::string& message);

template <class T>
struct Opt {
  std::optional<T> value;
  Origin origin;
};
using RawInt = Opt<int64_t>;
using RawFloat = Opt<double>;
using RawBool = Opt<bool>;
using RawString = Opt<std::string>;  // enums and names, checked by the resolver

// The values given in files and overrides, by key path ("cpu.flash_wait_states"); a later value
// of a key replaces an earlier one. Which paths exist is the key table's business (keys.cpp).
class RawConfig {
 public:
  template <class T>
  void set(const std::string& key, T value, Origin origin) {
    values_[key] = Entry{std::move(value), std::move(origin)};
  }
  // The value of `key` if it was given as a T (the key table stores each key as one type).
  template <class T>
  Opt<T> get(const std::string& key) const {
    const auto it = values_.find(key);
    if (it == values_.end()) return {};
    const T* v = std::get_if<T>(&it->second.value);
    return v ? Opt<T>{*v, it->second.origin} : Opt<T>{};
  }
  // Where `key` was given, or null when it takes its default.
  const Origin* given(const std::string& key) const {
    const auto it = values_.find(key);
    return it == values_.end() ? nullptr : &it->second.origin;
  }

 private:
  struct Entry {
    std::variant<int64_t, double, bool, std::string> value;
    Origin origin;
  };
  std::map<std::string, Entry> values_;
};

// Reads `path` and the files it includes (included files first, then the file's own keys).
void readConfigFile(const std::string& path, RawConfig& raw);
// The same for text already in memory, shown in messages as `name`.
void readConfigText(const std::string& text, const std::string& name, RawConfig& raw);
// Applies one `--set key=value` override; the value is a YAML scalar (or a mapping for a group).
void applyOverride(const std::string& text, RawConfig& raw);

}  // namespace hilsim::config::detail
