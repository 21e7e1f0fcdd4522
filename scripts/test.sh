#!/usr/bin/env bash
# Builds hilsim and runs every test:
#   1. the default (portable, Release) build: the whole suite;
#   2. an -O3 -march=native build: the bit-exactness tests (GCC's int8 dot product pitfall) and
#      the determinism tests, which also check that it reproduces step 1's results byte for byte;
#   3. an AddressSanitizer + UndefinedBehaviorSanitizer build: the whole suite again;
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

build() {  # build DIR [cmake options...]
  local dir=$1
  shift
  # The suite is turned on explicitly: build/ may have been configured by demo.sh.
  cmake -S . -B "$dir" -DHILSIM_SHARED_DIR="$shared" -DHILSIM_BUILD_TESTS=ON "$@" >/dev/null
  cmake --build "$dir" -j"$jobs"
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
  build build-native -DCMAKE_BUILD_TYPE=Release -DHILSIM_NATIVE=ON -DHILSIM_BUILD_BENCH=OFF \
    -DHILSIM_REFERENCE_HILSIM="$PWD/build/hilsim"
  run_ctest build-native --timeout 300 -L 'golden|determinism'
}
asan_stage() {
  build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHILSIM_SANITIZE=ON -DHILSIM_BUILD_BENCH=OFF
  run_ctest build-asan --timeout 900
}
fuzz_stage() {
  HILSIM_SHARED_DIR="$shared" FUZZ_SECONDS=${HILSIM_FUZZ_SECONDS:-60} ./scripts/fuzz.sh
}

stage "default build: every test" default_stage
if [ "${HILSIM_TEST_QUICK:-0}" = "1" ]; then exit 0; fi
stage "-O3 -march=native build: bit-exactness and determinism tests" native_stage
stage "ASan + UBSan build: every test" asan_stage
stage "fuzzing: model loader, chunk-plan reader, config loader" fuzz_stage
echo "all tests passed"
