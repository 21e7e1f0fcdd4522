#!/usr/bin/env bash
# Whole-process speed of the instruction-set simulator against the cost model:
#   bench/iss_speed.sh [BUILD_DIR] [MODEL.tflite]
# For each ISS preset, times `hilsim run --mode ref` of the model with cpu.model iss and with
# cpu.model cost, alternating, REPEAT times each (default 7), and prints the median wall times,
# their ratio and the simulated instructions per host second. PRESETS="p1 p2" picks the presets;
# EXTRA="--set k=v ..." adds settings to both runs (for example cpu.flash_wait_states=0).
set -euo pipefail

build=${1:-build}
model=${2:-"$(cd "$(dirname "$0")/.." && pwd)/../shared/models/person_detect.tflite"}
hilsim=${HILSIM:-$build/hilsim}
repeat=${REPEAT:-7}
presets=${PRESETS:-"cortex-m0plus cortex-m4f cortex-m33 rv32im"}
read -r -a extra <<<"${EXTRA:-}"

[ -x "$hilsim" ] || { echo "iss_speed.sh: no executable $hilsim" >&2; exit 2; }
[ -f "$model" ] || { echo "iss_speed.sh: no model $model" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Wall milliseconds of one run.
timed() {
  local start end
  start=$(date +%s%N)
  "$hilsim" run --model "$model" --mode ref --quiet "$@" >/dev/null
  end=$(date +%s%N)
  echo $(((end - start) / 1000000))
}

median() { sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }

printf '%-14s %10s %10s %7s %14s\n' preset "iss ms" "cost ms" ratio "instr/s (M)"
for preset in $presets; do
  set_args=(--set "cpu.preset=$preset" "${extra[@]}")
  "$hilsim" run --model "$model" --mode ref --quiet "${set_args[@]}" --report "$work/r.json" \
    >/dev/null
  instructions=$(grep -o '"iss_instructions": *[0-9]*' "$work/r.json" | grep -o '[0-9]*$')
  : >"$work/iss"
  : >"$work/cost"
  for _ in $(seq "$repeat"); do
    timed "${set_args[@]}" >>"$work/iss"
    timed "${set_args[@]}" --set cpu.model=cost >>"$work/cost"
  done
  iss_ms=$(median <"$work/iss")
  cost_ms=$(median <"$work/cost")
  awk -v p="$preset" -v i="$iss_ms" -v c="$cost_ms" -v n="$instructions" 'BEGIN {
    printf "%-14s %10d %10d %6.1fx %14.0f\n", p, i, c, i / c, n / (i / 1000) / 1e6 }'
done
