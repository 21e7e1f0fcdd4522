// YAML -> RawConfig: files, includes and --set overrides, every value stamped with its origin.

#include <yaml-cpp/depthguard.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "hilsim/errors.h"
#include "keys.h"
#include "raw.h"
#include "text.h"
#include "yaml_documents.h"

namespace hilsim::config::detail {
namespace {

namespace fs = std::filesystem;

// What is being read: one file, or one override.
struct Source {
  std::string file;                   // as shown in messages; empty for an override
  std::string override_text;          // for an override
  std::map<std::string, int> leaves;  // keys this file set, with their line

  Origin at(const YAML::Node& node) const {
    if (file.empty()) return Origin::fromOverride(override_text);
    return Origin::inFile(file, node.Mark().line + 1);
  }
};

std::string describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Map:
      return "a mapping";
    case YAML::NodeType::Sequence:
      return "a list";
    case YAML::NodeType::Scalar:
      return "'" + node.Scalar() + "'";
    default:
      return "no value (null)";
  }
}

bool isQuoted(const YAML::Node& scalar) {
  return scalar.Tag() == "!" || scalar.Tag() == "tag:yaml.org,2002:str";
}

std::string duplicateMessage(const std::string& path, int first_line) {
  return "duplicate key '" + path + "'" +
         (first_line > 0 ? " (first at line " + std::to_string(first_line) + ")" : "");
}

void walkValue(const YAML::Node& value, const std::string& path, const Origin& origin, Source& src,
               RawConfig& raw);

void walkMapping(const YAML::Node& map, const std::string& prefix, Source& src, RawConfig& raw) {
  std::map<std::string, int> seen;
  for (const auto& entry : map) {
    const Origin origin = src.at(entry.first);
    if (!entry.first.IsScalar() || entry.first.Scalar().empty())
      fail(origin, "expected a key name" + (prefix.empty() ? "" : " under '" + prefix + "'") +
                       ", got " + describe(entry.first));
    const std::string& name = entry.first.Scalar();
    const std::string path = prefix.empty() ? name : prefix + "." + name;
    const auto [first, fresh] = seen.emplace(name, origin.line);
    if (!fresh) fail(origin, duplicateMessage(path, first->second));
    if (prefix.empty() && name == "include") continue;  // read before the file's own keys
    walkValue(entry.second, path, origin, src, raw);
  }
}

void walkValue(const YAML::Node& value, const std::string& path, const Origin& origin, Source& src,
               RawConfig& raw) {
  if (const KeySpec* spec = findKey(path)) {
    if (!value.IsScalar())
      fail(origin, path + ": expected " + spec->expected + ", got " + describe(value));
    if (!src.file.empty()) {
      // The same key reached twice in one file, e.g. nested and as a dotted name.
      const auto [first, fresh] = src.leaves.emplace(path, origin.line);
      if (!fresh) fail(origin, duplicateMessage(path, first->second));
    }
    spec->store(raw, Scalar{value.Scalar(), isQuoted(value)}, origin);
    return;
  }
  if (isGroup(path)) {
    if (value.IsNull()) return;  // a group with every key left out
    if (!value.IsMap())
      fail(origin,
           path + ": expected a mapping of the keys under '" + path + "', got " + describe(value));
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

void readIncludes(const YAML::Node& value, const Origin& key_origin, const std::string& shown,
                  const fs::path& path, Chain& chain, RawConfig& raw) {
  Source src{shown, "", {}};
  std::vector<std::pair<std::string, Origin>> targets;
  if (value.IsScalar()) {
    targets.emplace_back(value.Scalar(), key_origin);
  } else if (value.IsSequence()) {
    for (const YAML::Node& item : value) {
      if (!item.IsScalar())
        fail(src.at(item), "include: expected a file name, got " + describe(item));
      targets.emplace_back(item.Scalar(), src.at(item));
    }
  } else {
    fail(key_origin,
         "include: expected a file name or a list of file names, got " + describe(value));
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

// yaml-cpp's message for its nesting guard says "bad file"; say what is wrong.
std::string yamlProblem(const YAML::Exception& e) {
  if (dynamic_cast<const YAML::DeepRecursion*>(&e)) return "nested too deeply";
  return e.msg;
}

void readText(const std::string& shown, const fs::path& path, const std::string& text, Chain& chain,
              RawConfig& raw);

void readFile(const std::string& shown, const fs::path& path, Chain& chain, RawConfig& raw) {
  readText(shown, path, readText(shown, path), chain, raw);
}

void readText(const std::string& shown, const fs::path& path, const std::string& text, Chain& chain,
              RawConfig& raw) {
  YAML::Node root;
  try {
    const DocumentScan scan = scanDocuments(text, 3);
    if (scan.stuck) {
      const YAML::Mark& at = scan.starts.back();
      const size_t pos = static_cast<size_t>(at.pos);
      const bool printable = pos < text.size() && text[pos] > ' ' && text[pos] < 127;
      fail(Origin::inFile(shown, at.line + 1),
           "YAML syntax error: unexpected " +
               (printable ? "'" + std::string(1, text[pos]) + "'" : std::string("character")) +
               " at column " + std::to_string(at.column + 1));
    }
    if (scan.starts.size() > 1)
      fail(Origin::inFile(shown, scan.starts[1].line + 1),
           "more than one YAML document (a config file holds one mapping)");
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    fail(Origin::inFile(shown, e.mark.is_null() ? 0 : e.mark.line + 1),
         "YAML syntax error: " + yamlProblem(e));
  }
  Source src{shown, "", {}};
  if (root.IsNull()) return;  // an empty file sets nothing

  if (!root.IsMap())
    fail(src.at(root),
         "the top level must be a mapping of keys (include, accel, bus, memory, "
         "cpu, sim), got " +
             describe(root));

  // Included files first, so that this file's own keys override them.
  for (const auto& entry : root) {
    if (entry.first.IsScalar() && entry.first.Scalar() == "include") {
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

  YAML::Node value;
  try {
    value = YAML::Load(text.substr(equals + 1));
  } catch (const YAML::Exception& e) {
    fail(origin, "YAML syntax error in the value: " + yamlProblem(e));
  }
  Source src{"", text, {}};
  walkValue(value, key, origin, src, raw);
}

}  // namespace hilsim::config::detail
