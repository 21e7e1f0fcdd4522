// Replays every saved fuzz input (tests/fuzz/regressions/<target>/) through its target: each must
// end without a crash, a sanitizer report or an unexpected exception.

#include <gtest/gtest.h>

#include <filesystem>

#include "files.h"
#include "fuzz_entries.h"

namespace hilsim::fuzz {
namespace {

namespace fs = std::filesystem;

void replay(const std::string& target, void (*entry)(const uint8_t*, size_t)) {
  const fs::path dir = fs::path(HILSIM_SOURCE_DIR) / "tests/fuzz/regressions" / target;
  size_t count = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    if (!e.is_regular_file() || e.path().filename() == "README.md") continue;
    const std::vector<uint8_t> bytes = test::readFile(e.path().string());
    SCOPED_TRACE(e.path().string());
    EXPECT_NO_THROW(entry(bytes.data(), bytes.size()));
    ++count;
  }
  EXPECT_GT(count, 0u) << "no saved inputs in " << dir;
  testing::Test::RecordProperty("inputs", static_cast<int>(count));
}

TEST(FuzzRegressions, Model) {
  replay("model", fuzzModel);
}
TEST(FuzzRegressions, Plan) {
  replay("plan", fuzzPlan);
}
TEST(FuzzRegressions, Config) {
  replay("config", fuzzConfig);
}

}  // namespace
}  // namespace hilsim::fuzz
