#!/usr/bin/env bash
# Refits the CPU cost model's shipped coefficients: runs `hilsim calibrate` for every preset with
# an instruction-set simulator and its own table in timing/src/cpu_presets.cpp, for each kernel
# library, and rewrites that table's row with the fitted values (a coefficient the fit leaves out
# keeps its value). Then rebuild and check with scripts/cost_model_error.sh.
#
#   scripts/refit_cost_model.sh [-b BUILD_DIR] [-k LIBRARIES] [-p PRESETS] [-K KEEP]
#
# LIBRARIES: comma-separated, default reference,optimized,os (os: the reference kernels built at
# cpu.firmware_opt Os). PRESETS: comma-separated, default every row of the library's table
# (reference: calibrated(), optimized: calibratedOptimized(), os: calibratedOs(); the board
# presets without a row use their core's). KEEP: comma-separated coefficient names or
# prefixes (e.g. lstm_) whose table values stay as they are. The fitted configs are left in
# BUILD_DIR/refit/. Needs python3 and clang-format.
set -euo pipefail
cd "$(dirname "$0")/.."

build=build
libraries=reference,optimized,os
presets=
keep=
while getopts "b:k:p:K:" opt; do
  case $opt in
    b) build=$OPTARG ;;
    k) libraries=$OPTARG ;;
    p) presets=$OPTARG ;;
    K) keep=$OPTARG ;;
    *) sed -n '2,13p' "$0" >&2; exit 2 ;;
  esac
done
hilsim=$build/hilsim
[ -x "$hilsim" ] || { echo "error: $hilsim not built" >&2; exit 2; }
table_file=timing/src/cpu_presets.cpp
out=$build/refit
mkdir -p "$out"

table_function() {
  case $1 in
    reference) echo calibrated ;;
    optimized) echo calibratedOptimized ;;
    os) echo calibratedOs ;;
    *) echo "error: unknown library '$1' (reference, optimized, os)" >&2; exit 2 ;;
  esac
}

# The presets with a row in a table function's table.
table_rows() {
  python3 - "$table_file" "$1" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
start = text.index(f"& {sys.argv[2]}() {{")
body = text[start:text.index("return table;", start)]
print(" ".join(re.findall(r'\{"([\w-]+)",', body)))
EOF
}

for lib in ${libraries//,/ }; do
  fn=$(table_function "$lib")
  rows=${presets//,/ }
  [ -n "$rows" ] || rows=$(table_rows "$fn")
  for preset in $rows; do
    cal=$out/$preset.$lib.yaml
    echo "calibrate $preset $lib -> $cal" >&2
    if [ "$lib" = os ]; then
      "$hilsim" calibrate --set "cpu.preset=$preset" --set cpu.kernels=reference \
        --set cpu.firmware_opt=Os --out "$cal"
    else
      "$hilsim" calibrate --set "cpu.preset=$preset" --set "cpu.kernels=$lib" --out "$cal"
    fi
    python3 - "$table_file" "$fn" "$preset" "$cal" "$keep" <<'EOF'
import re, sys
path, fn, preset, cal_path, keep = sys.argv[1:]
keep = [k for k in keep.split(",") if k]
text = open(path).read()

# The field order of struct Calibrated.
m = re.search(r"struct Calibrated \{(.*?)\};", text, re.S)
fields = re.findall(r"\w+", m.group(1).replace("double", ""))

# The fitted coefficients: the `cpu.coefficients:` block of the config calibrate wrote.
fitted, inside = {}, False
for line in open(cal_path):
    if line.startswith("  coefficients:"):
        inside = True
    elif inside and line.startswith("    "):
        key, value = line.strip().split(":")
        fitted[key] = float(value)
    elif inside:
        break

start = text.index(f"& {fn}() {{")
end = text.index("return table;", start)
row = re.compile(r'\{"' + re.escape(preset) + r'",\s*\{([^}]*)\}\}', re.S)
m = row.search(text, start, end)
if not m:
    sys.exit(f"error: {fn}() has no row for {preset}")
values = [v.strip() for v in m.group(1).split(",") if v.strip()]
assert len(values) == len(fields), f"{preset}: {len(values)} values for {len(fields)} fields"
changed = []
for i, f in enumerate(fields):
    if f in fitted and not any(f == k or f.startswith(k) for k in keep):
        new = f"{fitted[f]:.6g}"
        if new != values[i]:
            changed.append(f"{f} {values[i]} -> {new}")
        values[i] = new
text = text[: m.start(1)] + ", ".join(values) + text[m.end(1):]
open(path, "w").write(text)
print(f"{fn}() {preset}: {len(changed)} coefficients changed", file=sys.stderr)
for c in changed:
    print("  " + c, file=sys.stderr)
EOF
  done
done
clang-format -i "$table_file"
