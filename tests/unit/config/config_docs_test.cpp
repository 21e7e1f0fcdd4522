// configs/README.md documents every key with the unit, default and range the loader uses.

#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <set>
#include <sstream>

#include "config_test_util.h"

namespace hilsim::test {
namespace {

// The cells of a Markdown table row; "\|" inside a cell is a literal bar.
std::vector<std::string> cells(const std::string& row) {
  std::vector<std::string> out;
  std::string cell;
  for (size_t i = 1; i < row.size(); ++i) {
    if (row[i] == '\\' && i + 1 < row.size() && row[i + 1] == '|') {
      cell += '|';
      ++i;
    } else if (row[i] == '|') {
      const size_t b = cell.find_first_not_of(' '), e = cell.find_last_not_of(' ');
      out.push_back(b == std::string::npos ? "" : cell.substr(b, e - b + 1));
      cell.clear();
    } else {
      cell += row[i];
    }
  }
  return out;
}

// Rows of the key table: "| `accel.num_cores` | unit | default | range | meaning |".
std::map<std::string, std::vector<std::string>> readmeKeyRows() {
  std::ifstream in(sourcePath("configs/README.md"));
  EXPECT_TRUE(in) << "cannot read configs/README.md";
  std::map<std::string, std::vector<std::string>> rows;
  for (std::string line; std::getline(in, line);) {
    if (line.rfind("| `", 0) != 0) continue;
    std::vector<std::string> c = cells(line);
    if (c.size() < 5 || c[0].size() < 3) continue;
    rows[c[0].substr(1, c[0].size() - 2)] = c;
  }
  return rows;
}

TEST(ConfigDocs, ReadmeDocumentsEveryKey) {
  const auto rows = readmeKeyRows();
  for (const config::KeyInfo& key : config::configKeys()) {
    SCOPED_TRACE(key.key);
    const auto it = rows.find(key.key);
    ASSERT_NE(it, rows.end()) << "configs/README.md has no row for `" << key.key << "`";
    EXPECT_EQ(it->second[1], key.unit);
    EXPECT_EQ(it->second[2], key.default_value);
    EXPECT_EQ(it->second[3], key.range);
    EXPECT_FALSE(it->second[4].empty());
  }
}

TEST(ConfigDocs, ReadmeDocumentsNoOtherKeys) {
  std::set<std::string> known;
  for (const config::KeyInfo& key : config::configKeys()) known.insert(key.key);
  for (const auto& [key, row] : readmeKeyRows()) {
    if (key.find('.') == std::string::npos) continue;
    EXPECT_TRUE(known.count(key)) << "configs/README.md documents an unknown key: " << key;
  }
}

TEST(ConfigDocs, EveryKeyIsDescribed) {
  for (const config::KeyInfo& key : config::configKeys()) {
    SCOPED_TRACE(key.key);
    EXPECT_FALSE(key.type.empty());
    EXPECT_FALSE(key.unit.empty());
    EXPECT_FALSE(key.default_value.empty());
    EXPECT_FALSE(key.range.empty());
    EXPECT_FALSE(key.doc.empty());
  }
}

TEST(ConfigDocs, DefaultYamlMentionsEveryKey) {
  // Keys with derived defaults appear commented out; the leaf name is there either way.
  std::ifstream in(sourcePath("configs/default.yaml"));
  std::stringstream text;
  text << in.rdbuf();
  for (const config::KeyInfo& key : config::configKeys()) {
    if (key.key.rfind("cpu.coefficients.", 0) == 0) continue;  // documented in the README
    const std::string leaf = key.key.substr(key.key.rfind('.') + 1);
    EXPECT_NE(text.str().find(" " + leaf + ":"), std::string::npos) << key.key;
  }
}

}  // namespace
}  // namespace hilsim::test
