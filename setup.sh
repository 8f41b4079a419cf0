#!/usr/bin/env bash
# Sets up rocm-miner on a fresh Debian 12 machine: the Debian packages the library profiles' parse recipes
# need (allowlists/*.toml [[system_headers]]; today hipcc, libfmt-dev, librocprim-dev, librocsparse-dev),
# Graphviz (the report's graphs) and Chromium (the report's tests run in it, through Playwright), a C
# compiler and Python's headers for the package's compiled modules, then the package.
set -euo pipefail
cd "$(dirname "$0")"
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive

profile_packages() {
  python3 - <<'PY'
import glob, tomllib
names = set()
for path in glob.glob("allowlists/*.toml"):
    with open(path, "rb") as fh:
        names.update(h["package"] for h in tomllib.load(fh).get("system_headers", []))
print(" ".join(sorted(names)))
PY
}

wanted="$(profile_packages) graphviz chromium"
command -v cc >/dev/null 2>&1 || wanted="$wanted gcc"
python3 -c "import os, sysconfig, sys; sys.exit(not os.path.exists(os.path.join(sysconfig.get_paths()['include'], 'Python.h')))" \
  || wanted="$wanted python3-dev"
missing=""
for pkg in $wanted; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing="$missing $pkg"
done
if [ -n "$missing" ]; then
  echo "setup.sh: installing Debian packages:$missing"
  # shellcheck disable=SC2086
  $SUDO apt-get install -y -q $missing >/dev/null 2>&1 \
    || { $SUDO apt-get update -q >/dev/null && $SUDO apt-get install -y -q $missing >/dev/null; }
fi

# a failed install fails set-up (the grep only quiets pip's notes about running as root)
python3 -m pip install -q -e '.[test,verify]' 2>&1 | { grep -v -E "^WARNING: (Running pip as|Location)" || true; }
