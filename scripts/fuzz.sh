#!/usr/bin/env bash
# Builds the libFuzzer targets with clang (AddressSanitizer and UndefinedBehaviorSanitizer on) and
# runs each for FUZZ_SECONDS (default 60), seeded from ../shared's models and goldens, small
# one-operator models of the reference kernels, the config presets and generated chunk plans.
# The corpora grow in build-fuzz/fuzz-corpus between runs.
# A crash, hang or sanitizer report fails the script and names the input; add the input to
# tests/fuzz/regressions/<target>/ once it is fixed.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${FUZZ_SECONDS:-60}
shared=${HILSIM_SHARED_DIR:-$PWD/../shared}
build=build-fuzz

# -O1 with line tables only (-g1): enough for the sanitizers' reports, and much quicker to build.
CC=clang CXX=clang++ cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DHILSIM_FUZZ=ON \
  -DHILSIM_BUILD_BENCH=OFF -DHILSIM_SHARED_DIR="$shared" -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g1" \
  -DCMAKE_C_FLAGS_RELWITHDEBINFO="-O1 -g1" >/dev/null
cmake --build "$build" -j"${HILSIM_JOBS:-2}" --target hilsim_fuzz_model hilsim_fuzz_plan \
  hilsim_fuzz_config hilsim_fuzz_seeds hilsim_fuzz_model_seeds

seeds="$build/fuzz-seeds"
rm -rf "$seeds"
mkdir -p "$seeds/model" "$seeds/plan" "$seeds/config"
cp "$shared"/models/*.tflite "$seeds/model/"
for d in "$shared"/golden/*/; do cp "$d/model.tflite" "$seeds/model/$(basename "$d").tflite"; done
"$build/tests/fuzz/hilsim_fuzz_model_seeds" "$seeds/model"
cp configs/*.yaml "$seeds/config/"
"$build/tests/fuzz/hilsim_fuzz_seeds" "$seeds/plan"

status=0
for target in model plan config; do
  corpus="$build/fuzz-corpus/$target"
  artifacts="$build/fuzz-artifacts/$target/"
  mkdir -p "$corpus" "$artifacts"
  log="$build/fuzz-$target.log"
  echo "== fuzzing $target for ${seconds} s"
  # -timeout: one input running longer is a hang; `timeout` bounds the whole run even if the
  # fuzzer's own crash handling stalls.
  if timeout -k 10 $((seconds + 120)) "$build/tests/fuzz/hilsim_fuzz_$target" \
      -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -malloc_limit_mb=1024 \
      -print_final_stats=1 -artifact_prefix="$artifacts" \
      "$corpus" "$seeds/$target" >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    echo "   $runs executions, corpus $(ls "$corpus" | wc -l) inputs, no crash"
  else
    status=1
    echo "   FAILED: see $log; inputs:"
    ls "$artifacts"
    tail -40 "$log"
  fi
done
exit $status
