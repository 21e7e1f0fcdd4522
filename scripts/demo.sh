#!/usr/bin/env bash
# Installs what hilsim needs, builds it, and runs the main job on embedded defaults: the bundled
# demo MLP on the default 4-core accelerator, annotated, then run in compare mode.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/deps.sh
# The demo shares build/ with ./scripts/test.sh, so it never turns the test suite off there; it
# only builds the executable. Without the shared test data beside the repository (which the
# suite needs to configure), it builds in build-demo/ instead.
shared=${HILSIM_SHARED_DIR:-$PWD/../shared}
if [ -f "$shared/golden/index.json" ]; then
  dir=build
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DHILSIM_BUILD_TESTS=ON \
    -DHILSIM_SHARED_DIR="$shared" >/dev/null
else
  dir=build-demo
  cmake -S . -B "$dir" -DCMAKE_BUILD_TYPE=Release -DHILSIM_BUILD_TESTS=OFF \
    -DHILSIM_BUILD_BENCH=OFF >/dev/null
fi
cmake --build "$dir" -j"$(nproc)" --target hilsim
H=./$dir/hilsim

mkdir -p out/demo
$H gen-model --layers 784,256,128,10 --activation relu --out out/demo/mlp.tflite
$H annotate --model out/demo/mlp.tflite --out out/demo/mlp.annotated.tflite
$H run --model out/demo/mlp.annotated.tflite --mode compare \
  --report out/demo/report.json --csv out/demo/layers.csv --vcd out/demo/trace.vcd
echo
echo "report: out/demo/report.json, out/demo/layers.csv; trace: out/demo/trace.vcd"
