#!/usr/bin/env bash
# Measures hilsim's speed as a user runs it: whole `hilsim run` processes.
#   bench/e2e.sh [BUILD_DIR]     (default: build)
#   REPEAT=R: runs each process R times (default 15); FRAMES=N: N + 1 frames (default 200);
#   HILSIM=PATH: the executable to measure (default BUILD_DIR/hilsim)
#
# Per inference = (best time of `run --invocations 201` - best time of `run --invocations 1`) / 200
# for a generated 1x1024->1024 and 1x4000->4 int8 FULLY_CONNECTED layer, annotated for 4 and 16
# cores (configs/m4.yaml, m16.yaml) and run in accel mode. Beside it, in the same run, the time
# per call of oneDNN's int8 matmul on the same layer (signed and unsigned activations; the faster
# counts) and of hilsim's own datapath kernel, single-threaded like the simulator. Last the whole
# process of a small run (hello_world) and of `hilsim --help`. Times are best of REPEAT; wall
# clock, and CPU (user + system) beside it for a loaded machine. The 1- and 201-frame runs
# alternate, so that both see the same load; on a busy machine raise FRAMES (the difference of
# two processes is only as exact as the quieter of them).
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
repeat=${REPEAT:-15}
frames=${FRAMES:-200}
hilsim=${HILSIM:-$build/hilsim}
bench="$build/bench/hilsim_e2e_bench"
models=${HILSIM_MODELS:-/work/shared/models}
if [ ! -x "$hilsim" ] || [ ! -x "$bench" ]; then
  cmake -S . -B "$build" -DHILSIM_BUILD_BENCH=ON >/dev/null
  cmake --build "$build" -j"$(nproc)" --target hilsim hilsim_e2e_bench
fi
export OMP_NUM_THREADS=1
hilsim=$(realpath "$hilsim")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# "time BEST_WALL MEDIAN_WALL BEST_CPU" (microseconds) of a whole process.
timed() { "$bench" time --repeat "$repeat" -- "$@"; }

echo "hilsim e2e: best of $repeat processes; per inference = (t($((frames + 1)) frames) - t(1 frame)) / $frames"
echo "machine: $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(nproc) cores," \
  "load $(cut -d' ' -f1-3 /proc/loadavg), datapath $(grep -qw avx512_vnni /proc/cpuinfo && echo avx512 || echo avx2-or-less)"
printf '%-12s %5s | %9s %9s | %9s %9s %9s | %8s %8s | %s\n' layer cores "wall/inf" "cpu/inf" \
  "oneDNN" "oneDNN" "own" "x oneDNN" "x oneDNN" "goal, on cpu time"
printf '%-12s %5s | %9s %9s | %9s %9s %9s | %8s %8s |\n' "" "" "us" "us" "wall us" "cpu us" \
  "cpu us" "wall" "cpu"
for layer in 1x1024x1024 1x4000x4; do
  IFS=x read -r rows k n <<<"$layer"
  "$hilsim" gen-model --layers "$k,$n" --batch "$rows" --out "$tmp/$layer.tflite" >/dev/null
  dnn_wall=1e30 dnn_cpu=1e30 own=1e30
  while read -r _ name wall cpu; do
    case "$name" in
      oneDNN*)
        dnn_wall=$(awk -v a="$dnn_wall" -v b="$wall" 'BEGIN { print (b < a ? b : a) }')
        dnn_cpu=$(awk -v a="$dnn_cpu" -v b="$cpu" 'BEGIN { print (b < a ? b : a) }')
        ;;
      *) own=$cpu ;;
    esac
  done < <("$bench" native --layer "$layer")
  for cores in 4 16; do
    model="$tmp/${layer}_m$cores.tflite"
    "$hilsim" annotate --model "$tmp/$layer.tflite" --config "configs/m$cores.yaml" \
      --policy all --quiet --out "$model"
    run=("$hilsim" run --model "$model" --config "configs/m$cores.yaml" --mode accel --quiet)
    { read -r _ wall1 _ cpu1; read -r _ walln _ cpun; } < <(timed "${run[@]}" --invocations 1 \
      --- "${run[@]}" --invocations $((frames + 1)))
    awk -v layer="$layer" -v cores="$cores" -v w1="$wall1" -v wn="$walln" -v c1="$cpu1" \
      -v cn="$cpun" -v f="$frames" -v dw="$dnn_wall" -v dc="$dnn_cpu" -v own="$own" 'BEGIN {
        w = (wn - w1) / f; c = (cn - c1) / f
        if (layer == "1x1024x1024") goal = sprintf("<= %dx: %.2fx", cores == 4 ? 4 : 6, c / dc)
        else goal = sprintf("<= +%.1f us: %+.1f us", 2 + 1.5 * cores, c - dc)
        printf "%-12s %5d | %9.2f %9.2f | %9.2f %9.2f %9.2f | %8.2f %8.2f | %s\n",
               layer, cores, w, c, dw, dc, own, w / dw, c / dc, goal }'
  done
done

read -r _ wall _ cpu < <(timed "$hilsim" run --model "$models/hello_world_int8.tflite")
printf 'small run (hilsim run --model hello_world_int8.tflite): %.1f ms wall, %.1f ms cpu (goal <= 15 ms)\n' \
  "$(awk -v x="$wall" 'BEGIN { print x / 1000 }')" "$(awk -v x="$cpu" 'BEGIN { print x / 1000 }')"
read -r _ wall _ cpu < <(timed "$hilsim" --help)
printf 'start-up (hilsim --help): %.1f ms wall, %.1f ms cpu\n' \
  "$(awk -v x="$wall" 'BEGIN { print x / 1000 }')" "$(awk -v x="$cpu" 'BEGIN { print x / 1000 }')"
