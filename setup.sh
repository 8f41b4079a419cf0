#!/usr/bin/env bash
# Sets up rocm-miner on a fresh Debian 12 machine: the HIP toolchain from Debian, then the package.
set -euo pipefail
cd "$(dirname "$0")"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
if ! [ -f /usr/include/hip/hip_runtime.h ] || ! ls /usr/lib/llvm-*/lib/clang/*/include/__clang_hip_runtime_wrapper.h >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get install -y -q hipcc >/dev/null 2>&1 || { $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q hipcc >/dev/null; }
fi
python3 -m pip install -q -e '.[test,verify]' 2>&1 | grep -v -E "^WARNING: (Running pip as|Location)" || true
