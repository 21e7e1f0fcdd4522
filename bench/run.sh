#!/usr/bin/env bash
# Measures the simulator's speed: host time per simulated inference of a 1x1024x1024 and a
# 1x4000x4 int8 layer on 1, 4 and 16 cores, against the best native int8 product measured in the
# same process (oneDNN when built with libdnnl-dev, and hilsim's own dispatched kernel), and
# SystemC delta cycles per layer. Native kernels run single-threaded, like the simulator.
#   bench/run.sh [BUILD_DIR]   (default: build; needs -DHILSIM_BUILD_BENCH=ON, the default)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
bench="$build/bench/hilsim_layer_bench"
if [ ! -x "$bench" ]; then
  cmake -S . -B "$build" >/dev/null
  cmake --build "$build" -j"$(nproc)" --target hilsim_layer_bench
fi
export OMP_NUM_THREADS=1
for cores in 1 4 16; do "$bench" --layer 1x1024x1024 --cores "$cores" --iterations 3000; done
for cores in 1 4 16; do "$bench" --layer 1x4000x4 --cores "$cores" --iterations 20000; done
