#!/usr/bin/env bash
# hilsim's latency of the four MLPerf Tiny models with the optimized kernels on the CPU alone
# (--mode ref, cpu.kernels=optimized, cpu.model=iss), beside MLPerf Tiny's published latencies
# of the boards they stand for:
#   stm32l4r5 (Cortex-M4F, 120 MHz, its flash system) for the NUCLEO-L4R5ZI rows:
#     TFLite Micro 2.3.1 + CMSIS-NN (v0.5) and microTVM + CMSIS-NN (v1.0);
#   ra6m4 (Cortex-M33, 200 MHz, its flash and SRAM wait states and flash cache) for the
#     Renesas EK-RA6M4 row: TFLite Micro + CMSIS-NN (v0.7).
# Prints a Markdown table (milliseconds per inference). Usage:
#   bench/published_latency.sh [BUILD_DIR] [MODELS_DIR]
# from the repository root; defaults: build and ../shared/models.
set -euo pipefail

build_dir=${1:-build}
models_dir=${2:-../shared/models}
hilsim="$build_dir/hilsim"
[ -x "$hilsim" ] || { echo "no hilsim at $hilsim (build it first)" >&2; exit 2; }

# name, model file, published ms: L4R5ZI TFLM+CMSIS-NN v0.5, L4R5ZI microTVM v1.0, RA6M4 v0.7
rows=(
  "AD (anomaly detection)|mlperf_ad01_int8.tflite|10.05|8.61|4.61"
  "KWS (DS-CNN)|mlperf_kws_ref_model.tflite|181.9|99.8|50.6"
  "VWW (MobileNet V1 0.25)|mlperf_vww_96_int8.tflite|600.6|301.2|162.4"
  "IC (ResNet-8)|mlperf_ic_resnet8_quant.tflite|704.2|389.6|246.2"
)

# Milliseconds per inference of one run, from the summary's "total: ... (X ms at F MHz)".
latency_ms() {
  local model=$1
  shift
  "$hilsim" run --model "$model" --mode ref --set cpu.model=iss --set cpu.kernels=optimized "$@" |
    sed -n 's/^total: .* cycles per invocation (\([0-9.]*\) ms at .*/\1/p'
}

echo "| model | hilsim stm32l4r5 120 MHz | L4R5ZI TFLM + CMSIS-NN (v0.5) | L4R5ZI microTVM + CMSIS-NN (v1.0) | hilsim ra6m4 200 MHz | RA6M4 TFLM + CMSIS-NN (v0.7) |"
echo "|---|---|---|---|---|---|"
for row in "${rows[@]}"; do
  IFS='|' read -r name file l4_tflm l4_tvm ra6m4 <<<"$row"
  model="$models_dir/$file"
  [ -f "$model" ] || { echo "missing model $model" >&2; exit 2; }
  l4=$(latency_ms "$model" --set cpu.preset=stm32l4r5)
  ra=$(latency_ms "$model" --set cpu.preset=ra6m4)
  [ -n "$l4" ] && [ -n "$ra" ] || { echo "no latency in hilsim's summary for $file" >&2; exit 2; }
  echo "| $name | $l4 | $l4_tflm | $l4_tvm | $ra | $ra6m4 |"
done
