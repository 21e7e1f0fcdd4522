#!/usr/bin/env bash
# Installs the Debian 12 packages hilsim needs to build and test (only those missing).
# Runs apt-get as root, or through sudo when not root.
set -euo pipefail

packages=(
  cmake g++ make pkg-config
  libsystemc-dev libflatbuffers-dev flatbuffers-compiler libyaml-cpp-dev libspdlog-dev
  nlohmann-json3-dev libcli11-dev
  libgtest-dev libgmock-dev libbenchmark-dev
  clang libclang-rt-14-dev   # fuzzers and sanitizer builds
  parallel                   # tests of sweep job files
  libdnnl-dev ocl-icd-opencl-dev opencl-c-headers   # oneDNN, the benchmarks' native baseline
  librsvg2-bin               # renders the SVG plots in tests
  libunicorn-dev libcapstone-dev   # the host MCU's instruction-set simulator
  gcc-arm-none-eabi libnewlib-arm-none-eabi libstdc++-arm-none-eabi-newlib   # Cortex-M firmware and tests
  gcc-riscv64-unknown-elf picolibc-riscv64-unknown-elf                        # RV32IM firmware and tests
)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  exit 0
fi
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
echo "installing: ${missing[*]}"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
