"""The modules Cython compiles at install: used only while current, and mining the same as their pure-Python source."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from miner._compiled import _MANIFEST, CurrentCompiledOnly, source_digest
from tests.conftest import TINYBLAS, TINYSOLVER


def _package(tmp_path: Path) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "hot.py").write_text("VALUE = 2\n")
    return tmp_path / "pkg" / "hot.py"


def test_a_source_edited_since_the_build_is_loaded_instead_of_the_build(tmp_path):
    source = _package(tmp_path)
    built = {"pkg.hot": source_digest(source)}
    finder = CurrentCompiledOnly(built, tmp_path)
    assert finder.find_spec("pkg.hot") is None  # current: the usual finders load the compiled module
    assert finder.find_spec("pkg.other") is None  # not compiled: not this finder's business
    source.write_text("VALUE = 3\n")
    spec = finder.find_spec("pkg.hot")
    assert spec is not None and spec.origin == str(source)


def test_a_declarations_file_edited_since_the_build_counts_as_an_edit(tmp_path):
    source = _package(tmp_path)
    source.with_suffix(".pxd").write_text("cdef int VALUE\n")
    finder = CurrentCompiledOnly({"pkg.hot": source_digest(source)}, tmp_path)
    assert finder.find_spec("pkg.hot") is None
    source.with_suffix(".pxd").write_text("cdef long VALUE\n")
    spec = finder.find_spec("pkg.hot")
    assert spec is not None and spec.origin == str(source)


def test_pure_loads_every_source(tmp_path):
    source = _package(tmp_path)
    built = {"pkg.hot": source_digest(source)}
    spec = CurrentCompiledOnly(built, tmp_path, pure=True).find_spec("pkg.hot")
    assert spec is not None and spec.origin == str(source)


def _compiled_modules() -> dict[str, str]:
    try:
        return json.loads(_MANIFEST.read_text())
    except OSError:
        return {}


def test_the_installed_build_is_current_and_used():
    """The build ``setup.sh`` made compiled the sources as they are, so the compiled modules are the ones imported."""
    built = _compiled_modules()
    if not built:
        pytest.skip("built without Cython: pure Python only")
    code = "import importlib, sys; print(*(importlib.import_module(m).__file__ for m in sys.argv[1:]))"
    files = subprocess.run([sys.executable, "-c", code, *built], capture_output=True, text=True, check=True)
    stale = [f for f in files.stdout.split() if f.endswith(".py")]
    assert not stale, f"edited since the build, run `python setup.py build_ext --inplace`: {stale}"


def _mine(env: dict, out: Path) -> dict[str, bytes]:
    cache = ["--cache", str(out / "cache")]
    commands = [
        ["mine", str(TINYBLAS), "--out", str(out / "blas"), *cache],
        ["mine", str(TINYSOLVER), "--with", f"tinyblas={TINYBLAS}", "--out", str(out / "solver"), *cache],
    ]
    for args in commands:
        proc = subprocess.run([sys.executable, "-m", "miner.cli", *args], env=env, capture_output=True, text=True)
        assert proc.returncode == 0, proc.stderr
    return {
        f"{lib}/{name}": (out / lib / name).read_bytes()
        for lib in ("blas", "solver")
        for name in ("bundles.jsonl", "entries.jsonl", "not_reached.jsonl")
    }


def test_compiled_and_pure_python_mine_the_same(tmp_path):
    if not _compiled_modules():
        pytest.skip("built without Cython: pure Python only")
    env = {k: v for k, v in os.environ.items() if k != "ROCM_MINER_PURE"}
    compiled = _mine(env, tmp_path / "compiled")
    pure = _mine({**env, "ROCM_MINER_PURE": "1"}, tmp_path / "pure")
    assert compiled.keys() == pure.keys()
    for name in compiled:
        assert compiled[name] == pure[name], name
