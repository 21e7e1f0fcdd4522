#!/usr/bin/env bash
# Regenerates the figures README.md shows: the exploration sweep and the crossover of the
# walk-through (docs/images/*.png, rendered from the SVG plots), and prints the headline numbers
# the README quotes (break-even per family, person_detect's speed-up). Run from anywhere after a
# build; the outputs go under out/readme (git ignores out/).
#   ./scripts/readme_figures.sh [build/hilsim]
set -euo pipefail
cd "$(dirname "$0")/.."

H=${1:-build/hilsim}
shared=${HILSIM_SHARED_DIR:-$PWD/../shared}
O=out/readme
mkdir -p "$O" docs/images
command -v rsvg-convert >/dev/null || { echo "rsvg-convert (librsvg2-bin) is needed" >&2; exit 2; }

# The walk-through's sweep and crossover, as README.md runs them.
"$H" sweep configs/sweeps/explore.yaml --out "$O/explore" >/dev/null
"$H" crossover --config configs/m4.yaml --out "$O/crossover" | tee "$O/crossover.txt"

render() {  # SVG -> PNG at the size the README shows
  rsvg-convert --width 860 --height 500 --background-color white "$1" -o "$2"
}
render "$O/explore/plots/cycles_vs_cores-fc1024.svg" docs/images/cycles_vs_cores-fc1024.png
render "$O/crossover/crossover-square.svg" docs/images/crossover-square.png
render "$O/explore/plots/breakdown-mlp.svg" docs/images/breakdown-mlp.png
render "$O/explore/plots/energy_vs_area.svg" docs/images/energy_vs_area.png

# The energy break-even beside the cycle break-even: a Cortex-M4F host with a costly driver.
"$H" crossover --config configs/m4.yaml --set cpu.preset=cortex-m4f --set cpu.model=cost \
  --set cpu.driver_job_cycles=8000 --out "$O/crossover-energy" | tee "$O/crossover-energy.txt"
render "$O/crossover-energy/crossover-energy-square.svg" docs/images/crossover-energy-square.png

# The sweep points the README quotes: fc1024 with 16x16 arrays, against cores, bus width and SRAM.
echo "fc1024, 16x16 arrays: cores, bus bytes, SRAM bytes, cycles per inference"
awk -F, 'NR == 1 { for (i = 1; i <= NF; ++i) col[$i] = i; next }
  $col["model"] == "fc1024" && $col["layer"] == "total" && $col["accel.core.array_rows"] == 16 {
    print $col["accel.num_cores"], $col["bus.width_bytes"], $col["accel.core.sram_bytes"],
          $col["cycles"] }' "$O/explore/results.csv" | sort -n -k3 -k2 -k1

# person_detect annotated for the 4-core preset and run where offloading pays.
if [ -f "$shared/models/person_detect.tflite" ]; then
  "$H" annotate --model "$shared/models/person_detect.tflite" --config configs/m4.yaml \
    --out "$O/pd.m4.tflite" --quiet
  "$H" run --model "$O/pd.m4.tflite" --config configs/m4.yaml --mode auto --invocations 2 \
    --report "$O/pd.json" | grep -E '^(model|CPU cycles|total:)'
fi
echo "figures: docs/images/; outputs: $O"
