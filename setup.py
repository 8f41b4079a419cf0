"""rocm-miner's compiled parts: the instance walk's body reader (miner/parse/_flat.c), and the hot pure-Python modules
of the instance walk and the liveness analysis compiled by Cython as they are (``NATIVE``).

A compiled module is used only while its source is the one it was built from: the build records each source's digest
(with its ``.pxd``) in ``miner/_compiled.json`` and ``miner._compiled`` loads the ``.py`` instead wherever they differ."""

import json
import os
import runpy
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

NATIVE = [*(f"miner/parse/instances/{m}.py" for m in ("cursors", "expressions", "values", "guards", "walk")),
          "miner/parse/cursor_tree.py", "miner/liveness/domain/evaluate.py",
          "miner/liveness/domain/intervals.py", "miner/liveness/domain/expressions.py", "miner/liveness/analyse.py",
          "miner/liveness/verdicts.py"]  # fmt: skip
MANIFEST = "miner/_compiled.json"


def _native_extensions() -> list[Extension]:
    try:
        from Cython.Build import cythonize
    except ImportError:  # without Cython the package runs as pure Python
        return []
    directives = {"language_level": 3, "annotation_typing": False}  # annotations are documentation, not C types
    return cythonize(NATIVE, build_dir="build/cython", compiler_directives=directives, quiet=True)


class BuildWithManifest(build_ext):
    def finalize_options(self) -> None:
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1

    def run(self) -> None:
        super().run()
        source_digest = runpy.run_path("miner/_compiled.py")["source_digest"]
        compiled = {ext.name for ext in self.extensions}
        built = {_module(p): source_digest(Path(p)) for p in NATIVE if _module(p) in compiled}
        target = Path(MANIFEST) if self.inplace else Path(self.build_lib, MANIFEST)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(json.dumps(built, indent=1, sort_keys=True) + "\n")


def _module(path: str) -> str:
    return path.removesuffix(".py").replace("/", ".")


setup(
    ext_modules=[Extension("miner.parse._flat", ["miner/parse/_flat.c"], extra_compile_args=["-O2"])]
    + _native_extensions(),
    cmdclass={"build_ext": BuildWithManifest},
)
