"""The HIP parse recipe: clang arguments for a TU, and the stub headers CMake would generate.

Measured on the real trees (see FACTS.md): ``-x hip --cuda-host-only -nogpulib -nogpuinc`` with
clang-15's resource directory and HIP 5.2's headers, plus a ``cuda_wrappers`` stub directory
that stops clang 18's driver from shadowing libstdc++'s ``<complex>``.
"""

from __future__ import annotations

import functools
import glob
import hashlib
import inspect
import os
import re
from dataclasses import dataclass
from pathlib import Path

from miner import models
from miner.errors import ToolchainError
from miner.source.files import is_ilp64
from miner.source.profile import Profile
from miner.source.requirements import find_header

_CUDA_WRAPPERS = ("algorithm", "complex", "new")
HIP_RUNTIME_HEADER = "/usr/include/hip/hip_runtime.h"


def clang_resource_dir() -> str:
    """The newest clang resource directory that has the HIP runtime wrapper."""
    candidates = sorted(glob.glob("/usr/lib/llvm-*/lib/clang/*/include/__clang_hip_runtime_wrapper.h"))
    if not candidates:
        raise ToolchainError("no clang resource directory with HIP support: apt-get install hipcc")
    return str(Path(candidates[-1]).parents[1])


@dataclass(frozen=True)
class Recipe:
    """Everything needed to build the clang command line of any TU of one checkout."""

    root: Path
    profile: Profile
    stub_dir: Path
    resource_dir: str
    other_roots: tuple[tuple[str, Path], ...] = ()  # (library name, checkout root)
    checkout_defines: tuple[str, ...] = ()  # those the checkout's build options give (``option_defines``)

    def variant(self, rel: str) -> str:
        return "ilp64" if is_ilp64(rel, self.profile) else "lp64"

    def args(self, rel: str, pch: Path | None = None) -> list[str]:
        return self.variant_args(self.variant(rel), pch)

    def variant_args(self, variant: str, pch: Path | None = None) -> list[str]:
        prefix = ["-include-pch", str(pch)] if pch is not None else ["-include", "hip/hip_runtime.h"]
        args = [
            "-x", "hip", "--cuda-host-only", "-nogpulib", "-nogpuinc", "-std=c++17",
            "-resource-dir", self.resource_dir, "-D__HIP_PLATFORM_AMD__", *prefix,
            "-Wno-everything", "-ferror-limit=0",
        ]  # fmt: skip
        args += [f"-D{d}" for d in (*self.profile.defines, *self.checkout_defines)]
        if variant == "ilp64":
            args += [f"-D{d}" for d in self.profile.ilp64_defines]
        args += ["-I", str(self.stub_dir)]
        args += ["-I", str(self.stub_dir / "include")]
        args += [arg for d in self.profile.stub_include_dirs for arg in ("-I", str(self.stub_dir / d))]
        args += [arg for inc in self.profile.include_dirs for arg in ("-I", str(self.root / inc))]
        given = dict(self.other_roots)
        for other in self.profile.other_libraries:
            dirs = [self.stub_dir / d for d in other.stub_include_dirs]
            if other.name in given:
                dirs += [given[other.name] / d for d in other.include_dirs]
            args += [arg for d in dirs for arg in ("-I", str(d))]
        return args

    def include_dirs(self, variant: str = "lp64") -> list[Path]:
        """The ``-I`` directories, in search order."""
        args = self.variant_args(variant)
        return [Path(args[i + 1]) for i, arg in enumerate(args[:-1]) if arg == "-I"]

    def portable_args(self, variant: str) -> list[str]:
        """``variant_args`` with the checkouts and the stubs named by role, not by where they lie."""
        return [self._portable(arg) for arg in self.variant_args(variant)]

    @functools.cached_property
    def _places(self) -> tuple[re.Pattern[str], dict[str, str]]:
        """A pattern of the places a parse names (longest first: a checkout inside the cache is a checkout)
        where a path ends or goes on, and the role of each."""
        roles = {str(self.root): "<root>", str(self.stub_dir): "<stubs>"}
        roles |= {str(root): f"<root:{name}>" for name, root in self.other_roots}
        alternatives = "|".join(re.escape(p) for p in sorted(roles, key=len, reverse=True))
        return re.compile(f"({alternatives})(?=$|/|[\"'>\\s])"), roles

    def _portable(self, text: str) -> str:
        pattern, roles = self._places
        return pattern.sub(lambda m: roles[m.group(1)], text)

    @functools.cached_property
    def fingerprint(self) -> str:
        """Changes whenever anything that shapes a parse changes (flags, stubs, toolchain), and not when the
        checkouts or the cache are moved: the files a parse read are checked apart, by content."""
        h = hashlib.sha256()
        h.update(_extractor_fingerprint().encode())
        h.update(self.profile.parse_hash.encode())
        h.update(self.resource_dir.encode())
        for name, _ in self.other_roots:
            h.update(f"with {name}\n".encode())
        for path in sorted(self.stub_dir.rglob("*")):
            if path.is_file():
                h.update(path.relative_to(self.stub_dir).as_posix().encode())
                h.update(self._portable(path.read_bytes().decode("utf-8", "replace")).encode())
        for need in self.profile.system_headers:  # installed since (or removed): every TU that read it changes
            found = find_header(need.header)
            h.update(f"{need.header}\0{hashlib.sha256(found.read_bytes()).hexdigest() if found else '-'}\n".encode())
        return h.hexdigest()[:16]


_PARSED_TYPES = (
    models.parsed._Compact,
    models.Condition,
    models.LaunchConfig,
    models.CallSite,
    models.DeclInfo,
    models.FunctionFacts,
    models.Guard,
    models.InstanceCall,
    models.Instance,
    models.Diagnostic,
    models.ParsedTU,
)


@functools.cache
def _extractor_fingerprint() -> str:
    """The code that turns a parse into facts: a change to it invalidates every cached parse."""
    here = Path(__file__).resolve().parent
    shaping = [
        "clang_facts.py",
        "cursor_tree.py",
        "_flat.c",
        "inactive.py",
        "instances",
        "treesitter_facts.py",
        "launch_text.py",
        "worker.py",
    ]
    h = hashlib.sha256()
    for path in (here / name for name in shaping):
        for file in sorted(path.rglob("*.py")) if path.is_dir() else [path]:
            h.update(file.read_bytes())
    for kind in _PARSED_TYPES:  # only the types a parse is stored as, not the rest of miner.models
        h.update(inspect.getsource(kind).encode())
    return h.hexdigest()[:16]


def write_stubs(stub_dir: Path, root: Path, profile: Profile, other_roots: dict[str, Path]) -> None:
    """Write the generated-header stubs of the profile (``{root}`` is the checkout root)."""
    for name in _CUDA_WRAPPERS:
        _write_if_changed(stub_dir / "include" / "cuda_wrappers" / name, f"#pragma once\n#include <{name}>\n")
    values = {"root": str(root)} | {f"root_{k}": str(v) for k, v in other_roots.items()}
    for rel, text in profile.stubs.items():
        content = text.format_map(_Defaulting(values))
        if "{root_" in content:  # stands for a library whose checkout was not given
            content = "#pragma once\n// rocm-miner: the checkout this header comes from was not given (--with)\n"
        _write_if_changed(stub_dir / rel, content)
    generated = _generated_protos(profile, other_roots)
    for rel, text in generated.items():
        _write_if_changed(stub_dir / rel, text)


def _generated_protos(profile: Profile, other_roots: dict[str, Path]) -> dict[str, str]:
    """The exported-proto header of the library the profile names (rocSOLVER includes rocBLAS's, which rocBLAS's
    build generates with a script of its own), generated in Python rather than by running the checkout's script."""
    library = profile.exported_proto_of
    if not library:
        return {}
    from miner.parse import exported_proto

    rel = f"{library}/internal/{library}-exported-proto.hpp"
    if library in other_roots:
        return {rel: exported_proto.exported_proto_header(other_roots[library])}
    return {rel: exported_proto.fallback_exported_proto_header()}


class _Defaulting(dict):
    def __missing__(self, key: str) -> str:
        return "{" + key + "}"


def _write_if_changed(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        tmp = path.with_suffix(path.suffix + f".{os.getpid()}.tmp")
        tmp.write_text(text)
        tmp.replace(path)


def make_recipe(root: Path, profile: Profile, stub_dir: Path, other_roots: dict[str, Path]) -> Recipe:
    if not Path(HIP_RUNTIME_HEADER).is_file():
        raise ToolchainError(f"{HIP_RUNTIME_HEADER} not found: apt-get install hipcc")
    write_stubs(stub_dir, root, profile, other_roots)
    return Recipe(
        root=root,
        profile=profile,
        stub_dir=stub_dir,
        resource_dir=clang_resource_dir(),
        other_roots=tuple(sorted(other_roots.items())),
        checkout_defines=option_defines(root, profile),
    )


def option_defines(root: Path, profile: Profile) -> tuple[str, ...]:
    """The defines that a CMake option of this checkout turns on by default (``option(NAME "doc" ON)``). A default
    that is not written as ON (a variable, such as rocSOLVER develop's OFF-for-shared-builds one) counts as off."""
    out: list[str] = []
    for rule in profile.option_defines:
        try:
            text = (root / rule.file).read_text(errors="replace")
        except OSError:
            continue
        m = re.search(rf'option\(\s*{re.escape(rule.option)}\s+"(?:[^"\\]|\\.)*"\s+([^)\s]+)\s*\)', text)
        if m and m.group(1).strip('"').upper() in ("ON", "TRUE", "YES", "1"):
            out += rule.defines
    return tuple(out)
