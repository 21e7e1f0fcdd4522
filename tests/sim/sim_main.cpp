// Entry point of the SystemC tests. SystemC allows one elaboration per process, so each test
// must run in a process of its own: ctest does that (gtest_discover_tests), and running the
// binary by hand needs --gtest_filter naming one test.

#include <gtest/gtest.h>

#include <cstdlib>
#include <systemc>

int sc_main(int, char**) { return 0; }  // unused: main below drives the tests

int main(int argc, char** argv) {
  setenv("SC_COPYRIGHT_MESSAGE", "DISABLE", 1);
  ::testing::InitGoogleTest(&argc, argv);
  return RUN_ALL_TESTS();
}
