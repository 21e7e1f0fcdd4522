// YAML -> RawConfig: files, includes and --set overrides, every value stamped with its origin.

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "hilsim/config/document.h"
#include "hilsim/errors.h"
#include "keys.h"
#include "raw.h"
#include "text.h"

namespace hilsim::config::detail {
namespace {

namespace fs = std::filesystem;

// What is being read: one file, or one override.
struct Source {
  std::string file;                   // as shown in messages; empty for an override
  std::string override_text;          // for an override
  std::map<std::string, int> leaves;  // keys this file set, with their line

  Origin at(const Node& node) const {
    if (file.empty()) return Origin::fromOverride(override_text);
    return Origin::inFile(file, node.line());
  }
};

std::string duplicateMessage(const std::string& path, int first_line) {
  return "duplicate key '" + path + "'" +
         (first_line > 0 ? " (first at line " + std::to_string(first_line) + ")" : "");
}

void walkValue(const Node& value, const std::string& path, const Origin& origin, Source& src,
               RawConfig& raw);

void walkMapping(const Node& map, const std::string& prefix, Source& src, RawConfig& raw) {
  std::map<std::string, int> seen;
  for (const auto& entry : map.entries()) {
    const Origin origin = src.at(entry.first);
    if (!entry.first.isScalar() || entry.first.scalar().empty())
      fail(origin, "expected a key name" + (prefix.empty() ? "" : " under '" + prefix + "'") +
                       ", got " + entry.first.describe());
    const std::string& name = entry.first.scalar();
    const std::string path = prefix.empty() ? name : prefix + "." + name;
    const auto [first, fresh] = seen.emplace(name, origin.line);
    if (!fresh) fail(origin, duplicateMessage(path, first->second));
    if (prefix.empty() && name == "include") continue;  // read before the file's own keys
    walkValue(entry.second, path, origin, src, raw);
  }
}

void walkValue(const Node& value, const std::string& path, const Origin& origin, Source& src,
               RawConfig& raw) {
  if (const KeySpec* spec = findKey(path)) {
    if (!value.isScalar())
      fail(origin, path + ": expected " + spec->expected + ", got " + value.describe());
    if (!src.file.empty()) {
      // The same key reached twice in one file, e.g. nested and as a dotted name.
      const auto [first, fresh] = src.leaves.emplace(path, origin.line);
      if (!fresh) fail(origin, duplicateMessage(path, first->second));
    }
    spec->store(raw, Scalar{value.scalar(), value.quoted()}, origin);
    return;
  }
  if (isGroup(path)) {
    if (value.isNull()) return;  // a group with every key left out
    if (!value.isMapping())
      fail(origin,
           path + ": expected a mapping of the keys under '" + path + "', got " + value.describe());
    walkMapping(value, path, src, raw);
    return;
  }
  if (path == "include") fail(origin, "'include' is only valid at the top level of a config file");
  fail(origin, unknownKeyMessage(path));
}

std::string readText(const std::string& shown, const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream text;
  text << in.rdbuf();
  if (!in) fail(Origin::inFile(shown, 0), "cannot read the file");
  return text.str();
}

// The files being read, outermost first, to detect include cycles.
struct Chain {
  std::vector<fs::path> canonical;
  std::vector<std::string> shown;
};

void readFile(const std::string& shown, const fs::path& path, Chain& chain, RawConfig& raw);

void readIncludes(const Node& value, const Origin& key_origin, const std::string& shown,
                  const fs::path& path, Chain& chain, RawConfig& raw) {
  Source src{shown, "", {}};
  std::vector<std::pair<std::string, Origin>> targets;
  if (value.isScalar()) {
    targets.emplace_back(value.scalar(), key_origin);
  } else if (value.isSequence()) {
    for (const Node& item : value.items()) {
      if (!item.isScalar())
        fail(src.at(item), "include: expected a file name, got " + item.describe());
      targets.emplace_back(item.scalar(), src.at(item));
    }
  } else {
    fail(key_origin,
         "include: expected a file name or a list of file names, got " + value.describe());
  }

  for (const auto& [name, origin] : targets) {
    if (name.empty()) fail(origin, "include: expected a file name, got an empty string");
    const fs::path relative(name);
    const fs::path file = relative.is_absolute() ? relative : path.parent_path() / relative;
    const std::string file_shown =
        (relative.is_absolute() ? relative : fs::path(shown).parent_path() / relative)
            .lexically_normal()
            .string();
    std::error_code ec;
    if (!fs::exists(file, ec)) fail(origin, "include '" + name + "': file not found");
    if (!fs::is_regular_file(file, ec)) fail(origin, "include '" + name + "': not a regular file");
    const fs::path canonical = fs::canonical(file, ec);
    const auto loop = std::find(chain.canonical.begin(), chain.canonical.end(), canonical);
    if (loop != chain.canonical.end()) {
      std::vector<std::string> cycle(chain.shown.begin() + (loop - chain.canonical.begin()),
                                     chain.shown.end());
      cycle.push_back(file_shown);
      fail(origin, "include '" + name + "': include cycle (" + join(cycle, " -> ") + ")");
    }
    chain.canonical.push_back(canonical);
    chain.shown.push_back(file_shown);
    readFile(file_shown, file, chain, raw);
    chain.canonical.pop_back();
    chain.shown.pop_back();
  }
}

void readText(const std::string& shown, const fs::path& path, const std::string& text, Chain& chain,
              RawConfig& raw);

void readFile(const std::string& shown, const fs::path& path, Chain& chain, RawConfig& raw) {
  readText(shown, path, readText(shown, path), chain, raw);
}

void readText(const std::string& shown, const fs::path& path, const std::string& text, Chain& chain,
              RawConfig& raw) {
  const Document doc = parseYaml(text, shown);
  const Node& root = doc.root;
  Source src{shown, "", {}};
  if (root.isNull()) return;  // an empty file sets nothing

  if (!root.isMapping())
    fail(src.at(root),
         "the top level must be a mapping of keys (include, accel, bus, memory, "
         "cpu, mcu, sim), got " +
             root.describe());

  // Included files first, so that this file's own keys override them.
  for (const auto& entry : root.entries()) {
    if (entry.first.isScalar() && entry.first.scalar() == "include") {
      readIncludes(entry.second, src.at(entry.first), shown, path, chain, raw);
      break;  // a second `include` is reported as a duplicate key below
    }
  }
  walkMapping(root, "", src, raw);
}

}  // namespace

std::string Origin::where() const {
  if (override_text) return "--set " + *override_text;
  if (file.empty()) return "default";
  return line > 0 ? file + ":" + std::to_string(line) : file;
}

void fail(const Origin& origin, const std::string& message) {
  throw ConfigError(origin.where() + ": " + message);
}

void readConfigFile(const std::string& path, RawConfig& raw) {
  std::error_code ec;
  const Origin origin = Origin::inFile(path, 0);
  if (!fs::exists(path, ec)) fail(origin, "file not found");
  if (!fs::is_regular_file(path, ec)) fail(origin, "not a regular file");
  Chain chain{{fs::canonical(path, ec)}, {path}};
  readFile(path, path, chain, raw);
}

void readConfigText(const std::string& text, const std::string& name, RawConfig& raw) {
  Chain chain{{fs::absolute(name)}, {name}};
  readText(name, name, text, chain, raw);
}

void applyOverride(const std::string& text, RawConfig& raw) {
  const Origin origin = Origin::fromOverride(text);
  const size_t equals = text.find('=');
  if (equals == std::string::npos) fail(origin, "expected key=value");
  const auto trim = [](std::string s) {
    const size_t begin = s.find_first_not_of(" \t");
    const size_t end = s.find_last_not_of(" \t");
    return begin == std::string::npos ? std::string() : s.substr(begin, end - begin + 1);
  };
  const std::string key = trim(text.substr(0, equals));
  if (key.empty()) fail(origin, "expected key=value, got an empty key");

  Node value;
  try {
    value = parseYamlValue(text.substr(equals + 1));
  } catch (const ConfigError& e) {
    fail(origin, e.what());
  }
  Source src{"", text, {}};
  walkValue(value, key, origin, src, raw);
}

}  // namespace hilsim::config::detail
