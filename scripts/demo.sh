#!/usr/bin/env bash
# Installs what hilsim needs, builds it, and runs the main job on embedded defaults: the bundled
# demo MLP on the default 4-core accelerator, annotated, then run in compare mode.
set -euo pipefail
cd "$(dirname "$0")/.."

./scripts/deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release -DHILSIM_BUILD_TESTS=OFF -DHILSIM_BUILD_BENCH=OFF >/dev/null
cmake --build build -j"$(nproc)" --target hilsim

mkdir -p out/demo
./build/hilsim gen-model --layers 784,256,128,10 --activation relu --out out/demo/mlp.tflite
./build/hilsim annotate --model out/demo/mlp.tflite --out out/demo/mlp.annotated.tflite
./build/hilsim run --model out/demo/mlp.annotated.tflite --mode compare \
  --report out/demo/report.json --csv out/demo/layers.csv --vcd out/demo/trace.vcd
echo
echo "report: out/demo/report.json, out/demo/layers.csv; trace: out/demo/trace.vcd"
