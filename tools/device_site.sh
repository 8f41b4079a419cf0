#!/usr/bin/env bash
# Builds .carry/site.tar.xz: the Python packages that the verify loop on Ray needs on the device machine and its
# image lacks (Ray, pydantic, the openai client and what they need), as CPython 3.12 x86-64 wheels unpacked into
# one folder, with the parts of Ray an evaluator never loads left out (the Java jar, the dashboard's web client,
# RLlib, Data, Tune, Train, Serve), so that it travels within the device's 64 MiB.
#
#   tools/device_site.sh            # here, once; then, in a device run that names .carry in carry:
#   tar xJf .carry/site.tar.xz -C /tmp && export PYTHONPATH=/tmp/site && python3 tools/bench_ray.py ...
set -euo pipefail
cd "$(dirname "$0")/.."

# pinned to the versions the tests run with here
packages=(
  ray==2.60.0 jsonschema==4.26.0 jsonschema-specifications==2025.9.1 referencing==0.37.0 rpds-py==0.30.0
  pydantic==2.13.4 pydantic-core==2.46.4 annotated-types==0.7.0 typing-inspection==0.4.2
  openai==3.60.0 httpx2==2.16.2 httpcore2==2.16.2 truststore==0.10.5 jiter==0.19.0 sniffio==1.3.1 jsonlines==4.0.0
)
unused=(jars dashboard/client rllib data tune train serve llm air/examples tests)

exclude=$(git rev-parse --git-path info/exclude)  # the main checkout's, also from a worktree: that is what travels
grep -qx '/.carry/' "$exclude" 2>/dev/null || { mkdir -p "$(dirname "$exclude")" && echo '/.carry/' >>"$exclude"; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
platforms=()
for p in manylinux_2_28_x86_64 manylinux_2_27_x86_64 manylinux_2_17_x86_64 manylinux2014_x86_64 manylinux1_x86_64; do
  platforms+=(--platform "$p")
done
python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 --implementation cp \
  "${platforms[@]}" -d "$work/wheels" "${packages[@]}"
mkdir -p "$work/site"
for wheel in "$work"/wheels/*.whl; do
  unzip -q -o "$wheel" -d "$work/site"  # keeps the execute bits of raylet and gcs_server
done
for part in "${unused[@]}"; do
  rm -rf "$work/site/ray/$part"
done
find "$work/site" -name '__pycache__' -prune -exec rm -rf {} +
chmod -R u+rwX,go+rX "$work/site"
mkdir -p .carry
tar -C "$work" -cJf .carry/site.tar.xz site
du -h .carry/site.tar.xz
