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
  cmake -S . -B "$dir" -DHILSIM_SHARED_DIR="$shared" "$@" >/dev/null
  cmake --build "$dir" -j"$jobs"
}

echo "== default build: every test"
build build -DCMAKE_BUILD_TYPE=Release
(cd build && ctest -j"$jobs" --output-on-failure --timeout 300)

if [ "${HILSIM_TEST_QUICK:-0}" = "1" ]; then exit 0; fi

echo "== -O3 -march=native build: bit-exactness and determinism tests"
build build-native -DCMAKE_BUILD_TYPE=Release -DHILSIM_NATIVE=ON -DHILSIM_BUILD_BENCH=OFF \
  -DHILSIM_REFERENCE_HILSIM="$PWD/build/hilsim"
(cd build-native && ctest -j"$jobs" --output-on-failure --timeout 300 -L 'golden|determinism')

echo "== ASan + UBSan build: every test"
build build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHILSIM_SANITIZE=ON -DHILSIM_BUILD_BENCH=OFF
(cd build-asan && ctest -j"$jobs" --output-on-failure --timeout 900)

echo "== fuzzing: model loader, chunk-plan reader, config loader"
HILSIM_SHARED_DIR="$shared" FUZZ_SECONDS=${HILSIM_FUZZ_SECONDS:-60} ./scripts/fuzz.sh
echo "all tests passed"
