#!/usr/bin/env bash
# Sets up rocm-miner on a fresh Debian 12 machine: the HIP toolchain from Debian, then the package.
set -euo pipefail
cd "$(dirname "$0")"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
if ! [ -f /usr/include/hip/hip_runtime.h ] || ! ls /usr/lib/llvm-*/lib/clang/*/include/__clang_hip_runtime_wrapper.h >/dev/null 2>&1; then
  $SUDO apt-get install -y -q hipcc >/dev/null 2>&1 || { $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q hipcc >/dev/null; }
fi
# the instance walk's body reader is a C extension (miner/parse/_flat.c): a C compiler and Python's headers
if ! command -v cc >/dev/null 2>&1; then
  $SUDO apt-get install -y -q gcc >/dev/null 2>&1 || { $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q gcc >/dev/null; }
fi
if ! python3 -c "import os, sysconfig, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))"; then
  $SUDO apt-get install -y -q python3-dev >/dev/null 2>&1 || { $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q python3-dev >/dev/null; }
fi
python3 -m pip install -q -e '.[test,verify]' 2>&1 | grep -v -E "^WARNING: (Running pip as|Location)" || true
