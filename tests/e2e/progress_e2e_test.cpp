// Long work shows one updating progress line on a terminal (a pseudo-terminal here), and none
// when stderr is a file or with --quiet.

#include <gtest/gtest.h>
#include <poll.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <csignal>

#include "files.h"
#include "runner.h"

namespace hilsim::test {
namespace {

struct TerminalRun {
  int exit_code = -1;
  std::string text;  // everything written to the terminal
};

// Runs hilsim with its stdin, stdout and stderr on a pseudo-terminal.
TerminalRun runOnTerminal(const std::vector<std::string>& args, double timeout_seconds = 120) {
  std::vector<std::string> argv_s = {hilsimPath()};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& a : argv_s) argv.push_back(a.data());
  argv.push_back(nullptr);
  int master = -1;
  const pid_t pid = forkpty(&master, nullptr, nullptr, nullptr);
  if (pid < 0) throw std::runtime_error("forkpty failed");
  if (pid == 0) {
    execv(argv[0], argv.data());
    _exit(127);
  }
  TerminalRun r;
  const auto deadline =
      std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_seconds);
  char buffer[4096];
  while (std::chrono::steady_clock::now() < deadline) {
    pollfd p{master, POLLIN, 0};
    if (poll(&p, 1, 100) <= 0) continue;
    const ssize_t n = read(master, buffer, sizeof buffer);
    if (n <= 0) break;  // EIO once the child has closed the terminal
    r.text.append(buffer, static_cast<size_t>(n));
  }
  int status = 0;
  if (waitpid(pid, &status, WNOHANG) == 0) {
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
  }
  close(master);
  if (WIFEXITED(status)) r.exit_code = WEXITSTATUS(status);
  return r;
}

class Progress : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = makeTestDir();
    ASSERT_EQ(runHilsim({"gen-model", "--layers", "512,512,512,10", "--out", dir_ + "/m.tflite"})
                  .exit_code,
              0);
  }
  // Reference kernels executed on the instruction-set simulator: well over a second.
  std::vector<std::string> longRun() const {
    return {"run", "--model", dir_ + "/m.tflite",         "--mode",
            "ref", "--set",   "cpu.preset=cortex-m0plus", "--invocations",
            "200"};
  }
  std::string dir_;
};

TEST_F(Progress, ALongRunShowsOneLineOnATerminal) {
  const TerminalRun r = runOnTerminal(longRun());
  ASSERT_EQ(r.exit_code, 0) << r.text;
  EXPECT_NE(r.text.find("\rrun: "), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("/600 layers ("), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("ETA "), std::string::npos) << r.text;
  // The line is erased before the table is printed.
  const size_t last = r.text.rfind("\rrun: ");
  const size_t erased = r.text.find("\r\x1b[K", last);
  ASSERT_NE(erased, std::string::npos) << r.text;
  EXPECT_LT(erased, r.text.find("total: "));
}

TEST_F(Progress, NoLineWhenStderrIsNotATerminalOrQuiet) {
  const RunOutcome piped = runHilsim(longRun());
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.err.find("run: "), std::string::npos) << piped.err;
  EXPECT_EQ(piped.err.find('\r'), std::string::npos) << piped.err;

  std::vector<std::string> quiet = longRun();
  quiet.push_back("--quiet");
  const TerminalRun r = runOnTerminal(quiet);
  ASSERT_EQ(r.exit_code, 0) << r.text;
  EXPECT_EQ(r.text.find("run: "), std::string::npos) << r.text;
}

// cpu-run pauses the call to draw the line; the figures are those of an uninterrupted call.
TEST(CpuRunProgress, ALongCallShowsTheLineAndTheSameCycles) {
  const std::string elf = std::string(HILSIM_BINARY_DIR) + "/tests/iss/probes_m4.elf";
  if (readFile(elf).empty()) GTEST_FAIL() << "missing " << elf << " (build hilsim_iss_probes)";
  const std::vector<std::string> args = {
      "cpu-run", elf,         "--entry", "count_down",
      "--arg",   "500000000", "--set",   "cpu.preset=cortex-m4f"};
  const TerminalRun terminal = runOnTerminal(args);
  ASSERT_EQ(terminal.exit_code, 0) << terminal.text;
  EXPECT_NE(terminal.text.find("\rcpu-run: "), std::string::npos) << terminal.text;
  EXPECT_NE(terminal.text.find("/10000000000 instructions ("), std::string::npos) << terminal.text;
  const RunOutcome piped = runHilsim(args);
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.err, "");
  const size_t at = piped.out.find("cycles ");
  ASSERT_NE(at, std::string::npos) << piped.out;
  const std::string figures = piped.out.substr(at, piped.out.find("\nreturn") - at);
  EXPECT_NE(terminal.text.find(figures.substr(0, figures.find('\n'))), std::string::npos)
      << figures << "\n"
      << terminal.text;
  EXPECT_NE(terminal.text.find(figures.substr(figures.find('\n') + 1)), std::string::npos)
      << figures << "\n"
      << terminal.text;
}

}  // namespace
}  // namespace hilsim::test
