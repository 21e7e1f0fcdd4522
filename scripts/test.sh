#!/usr/bin/env bash
# Builds hilsim and runs every test:
#   1. the default (portable, Release) build: the whole suite;
#   2. an -O3 -march=native build: the bit-exactness tests (GCC's int8 dot product pitfall) and
#      the determinism tests, which also check that it reproduces step 1's results byte for byte
#      (the firmware goldens are left out: the ISS does not run host code);
#   3. an AddressSanitizer + UndefinedBehaviorSanitizer build: the tests labelled `sanitize` (bad
#      inputs, fault injection, the ISS report); HILSIM_TEST_FULL=1 runs the whole suite there;
#   4. the libFuzzer targets (clang), each for HILSIM_FUZZ_SECONDS (default 60).
# HILSIM_SHARED_DIR overrides where ../shared is. HILSIM_TEST_QUICK=1 runs only step 1.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/deps.sh
jobs=${HILSIM_JOBS:-2}
shared=${HILSIM_SHARED_DIR:-$PWD/../shared}
if [ ! -f "$shared/golden/index.json" ]; then
  echo "error: the shared test data is missing: $shared/golden/index.json" >&2
  exit 1
fi

configure() {  # configure DIR [cmake options...]
  local dir=$1
  shift
  # The suite is turned on explicitly: build/ may have been configured by demo.sh.
  cmake -S . -B "$dir" -DHILSIM_SHARED_DIR="$shared" -DHILSIM_BUILD_TESTS=ON "$@" >/dev/null
}
build() {  # build DIR [cmake options...]: configures and builds everything
  configure "$@"
  cmake --build "$1" -j"$jobs"
}
build_targets() {  # build_targets DIR TARGET...: builds the executable and the given tests
  local dir=$1
  shift
  cmake --build "$dir" -j"$jobs" --target hilsim "$@"
}

run_ctest() {  # run_ctest DIR [ctest options...]: fails when no test is found
  local dir=$1
  shift
  (cd "$dir" && ctest -j"$jobs" --output-on-failure --no-tests=error "$@")
}

stage() {  # stage TITLE COMMAND...: runs one step and prints its wall time
  local title=$1 start
  shift
  echo "== $title"
  start=$(date +%s)
  "$@"
  echo "== $title: $(($(date +%s) - start)) s"
}

default_stage() {
  build build -DCMAKE_BUILD_TYPE=Release
  run_ctest build --timeout 300
}
native_stage() {
  configure build-native -DCMAKE_BUILD_TYPE=Release -DHILSIM_NATIVE=ON -DHILSIM_BUILD_BENCH=OFF \
    -DHILSIM_REFERENCE_HILSIM="$PWD/build/hilsim" -DHILSIM_FIRMWARE_PREBUILT="$PWD/build/firmware"
  build_targets build-native hilsim_golden_e2e_tests hilsim_runtime_golden_tests \
    hilsim_kernel_tests hilsim_conv_e2e_tests hilsim_determinism_e2e_tests
  run_ctest build-native --timeout 300 -L 'golden|determinism' -E 'GoldenIss'
}
asan_stage() {
  # -O1 with line tables only: what the sanitizers need for readable reports; sanitized
  # translation units compile in about 0.4 of the time they take at -O2 -g.
  configure build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHILSIM_SANITIZE=ON \
    -DHILSIM_BUILD_BENCH=OFF -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
    -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" -DHILSIM_FIRMWARE_PREBUILT="$PWD/build/firmware"
  if [ "${HILSIM_TEST_FULL:-0}" = "1" ]; then
    cmake --build build-asan -j"$jobs"
    run_ctest build-asan --timeout 900
    return
  fi
  build_targets build-asan hilsim_sanitize_tests
  run_ctest build-asan --timeout 900 -L '^sanitize$'
}
fuzz_stage() {
  HILSIM_SHARED_DIR="$shared" FUZZ_SECONDS=${HILSIM_FUZZ_SECONDS:-60} ./scripts/fuzz.sh
}

stage "default build: every test" default_stage
if [ "${HILSIM_TEST_QUICK:-0}" = "1" ]; then exit 0; fi
stage "-O3 -march=native build: bit-exactness and determinism tests" native_stage
stage "ASan + UBSan build: bad inputs, faults, the ISS report" asan_stage
stage "fuzzing: model loader, chunk-plan reader, config loader" fuzz_stage
echo "all tests passed"
