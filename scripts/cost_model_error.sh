#!/usr/bin/env bash
# How far the CPU cost model is from the instruction-set simulator on real models: for every
# preset, kernel library and model given, runs `hilsim run --mode ref` once with cpu.model=iss and
# once with cpu.model=cost and prints the total reference cycles of both, the total's relative
# error and the median layer's relative error (the bounds of
# tests/e2e/calibrate_e2e_test.cpp: 5% and 10%).
#
#   scripts/cost_model_error.sh [-b BUILD_DIR] [-p PRESETS] [-k LIBRARIES] [-l] [MODEL...]
#
# PRESETS and LIBRARIES are comma-separated (default: the four ISS cores; reference). MODEL is a
# path or a file name in $HILSIM_SHARED_DIR/models (default: every model there but the three whose
# ISS runs take tens of seconds: mobilenet_v2, mlperf_ic_resnet_large, person_detect; name them to
# include them; audio_preprocessor_int8 is left out: hilsim has no kernels for its signal
# operators). -l also prints each layer: operator, ISS and cost cycles, relative error. Extra
# `--set k=v` for both runs go in HILSIM_SET (space-separated k=v). The table goes to stdout as
# tab-separated columns; needs python3.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build
presets=cortex-m0plus,cortex-m4f,cortex-m33,rv32im
libraries=reference
per_layer=0
while getopts "b:p:k:l" opt; do
  case $opt in
    b) build=$OPTARG ;;
    p) presets=$OPTARG ;;
    k) libraries=$OPTARG ;;
    l) per_layer=1 ;;
    *) sed -n '2,17p' "$0" >&2; exit 2 ;;
  esac
done
shift $((OPTIND - 1))

shared=${HILSIM_SHARED_DIR:-$PWD/../shared}
hilsim=$build/hilsim
[ -x "$hilsim" ] || { echo "error: $hilsim not built" >&2; exit 2; }

models=("$@")
if [ ${#models[@]} -eq 0 ]; then
  for m in "$shared"/models/*.tflite; do
    case $(basename "$m") in
      mobilenet_v2_*|mlperf_ic_resnet_large_*|person_detect.tflite) ;;
      audio_preprocessor_*) ;; # custom signal operators hilsim does not run
      *) models+=("$m") ;;
    esac
  done
fi

extra=()
for kv in ${HILSIM_SET:-}; do extra+=(--set "$kv"); done

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

printf 'preset\tkernels\tmodel\tlayers\tiss_cycles\tcost_cycles\ttotal_err_pct\tmedian_layer_err_pct\n'
for preset in ${presets//,/ }; do
  for lib in ${libraries//,/ }; do
    for m in "${models[@]}"; do
      [ -f "$m" ] || m=$shared/models/$m
      name=$(basename "$m" .tflite)
      ok=1
      for cpu_model in iss cost; do
        if ! "$hilsim" run --model "$m" --mode ref --quiet --seed 1 \
          --report "$tmp/$cpu_model.json" --set "cpu.preset=$preset" --set "cpu.kernels=$lib" \
          --set "cpu.model=$cpu_model" "${extra[@]}" 2>"$tmp/err"; then
          printf '%s\t%s\t%s\terror (%s): %s\n' "$preset" "$lib" "$name" "$cpu_model" \
            "$(head -1 "$tmp/err")"
          ok=0
          break
        fi
      done
      [ $ok = 1 ] || continue
      python3 - "$tmp/iss.json" "$tmp/cost.json" "$preset" "$lib" "$name" "$per_layer" <<'EOF'
import json, statistics, sys
iss_path, cost_path, preset, lib, name, per_layer = sys.argv[1:]
iss = json.load(open(iss_path))["layers"]
cost = json.load(open(cost_path))["layers"]
assert len(iss) == len(cost), "the two runs report different layers"
errors = []
for i, (a, b) in enumerate(zip(iss, cost)):
    x, y = float(a["ref_cycles"]), float(b["ref_cycles"])
    errors.append(abs(y - x) / max(x, 1.0))
    if per_layer == "1":
        print(f"  layer {i}\t{a.get('op', '?')}\t{x:.0f}\t{y:.0f}\t{100 * (y - x) / max(x, 1.0):+.1f}%")
ti = sum(float(a["ref_cycles"]) for a in iss)
tc = sum(float(b["ref_cycles"]) for b in cost)
print(f"{preset}\t{lib}\t{name}\t{len(iss)}\t{ti:.0f}\t{tc:.0f}\t"
      f"{100 * (tc - ti) / ti:+.1f}\t{100 * statistics.median(errors):.1f}")
EOF
    done
  done
done
