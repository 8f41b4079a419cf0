"""Library profiles: where a library keeps its headers and sources, how to parse it, and the
allow/deny rules of its traversal. One TOML file per library in ``allowlists/``."""

from __future__ import annotations

import hashlib
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from miner.errors import ProfileError, UnknownLibraryError

ALLOWLIST_DIR = Path(__file__).resolve().parents[2] / "allowlists"


@dataclass(frozen=True, slots=True)
class LaunchMacro:
    """A library macro that launches a kernel; the fields are argument positions."""

    name: str
    kernel: int
    grid: int
    block: int
    shared_mem: int
    stream: int


@dataclass(frozen=True, slots=True)
class SystemHeader:
    """A header the parse recipe needs from the system, and the Debian package that provides it."""

    header: str  # as included: "fmt/core.h"
    package: str  # "libfmt-dev"


@dataclass(frozen=True, slots=True)
class BoundaryRule:
    kind: str
    names: tuple[str, ...] = ()
    paths: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Rules:
    """Traversal rules; a name matching ``allow_names`` is never excluded by a deny rule."""

    max_depth: int = 16
    deny_names: tuple[str, ...] = ()
    deny_paths: tuple[str, ...] = ()
    deny_host_paths: tuple[str, ...] = ()
    deny_namespaces: tuple[str, ...] = ()
    allow_names: tuple[str, ...] = ()
    boundaries: tuple[BoundaryRule, ...] = ()


@dataclass(frozen=True, slots=True)
class OtherLibrary:
    """A library this one calls (rocSOLVER -> rocBLAS): its headers, and how to spot it."""

    name: str
    name_prefixes: tuple[str, ...]
    include_dirs: tuple[str, ...]  # relative to that library's checkout
    stub_include_dirs: tuple[str, ...] = ()  # stub dirs (relative to our stub root) without it


@dataclass(frozen=True, slots=True)
class OptionDefine:
    """Defines the build gives when a CMake option of the checkout is on by default."""

    option: str
    file: str  # the CMakeLists.txt that declares the option, relative to the checkout
    defines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Profile:
    name: str
    markers: tuple[str, ...]
    sources: tuple[str, ...]
    exclude_sources: tuple[str, ...]
    public_headers: tuple[str, ...]
    export_macros: tuple[str, ...]
    ilp64_dirs: tuple[str, ...]
    include_dirs: tuple[str, ...]
    defines: tuple[str, ...]
    ilp64_defines: tuple[str, ...]
    stubs: dict[str, str]
    stub_include_dirs: tuple[str, ...]
    pch_headers: tuple[str, ...]
    launch_macros: tuple[LaunchMacro, ...]
    kernel_macros: tuple[str, ...]
    device_macros: tuple[str, ...]
    rules: Rules
    other_libraries: tuple[OtherLibrary, ...] = ()
    system_headers: tuple[SystemHeader, ...] = ()
    exported_proto_of: str = ""  # the --with library whose generated exported-proto header this one includes
    integer_types: tuple[str, ...] = ()  # the library's own integer typedefs (``rocblas_int``), read as such in code
    parse_timeout_s: float = 120.0
    option_defines: tuple[OptionDefine, ...] = ()
    text: str = field(default="", repr=False)

    @property
    def config_hash(self) -> str:
        """The whole profile: recorded in every bundle's provenance."""
        return hashlib.sha256(self.text.encode()).hexdigest()[:16]

    @property
    def parse_hash(self) -> str:
        """Only what shapes a parse: part of every parse-cache key. Of the traversal rules, those that
        exclude functions (their bodies are not walked for liveness); not ``max_depth``."""
        r = self.rules
        excluding = (r.deny_names, r.deny_paths, r.deny_host_paths, r.deny_namespaces, r.allow_names, r.boundaries)
        shaping = (self.sources, self.exclude_sources, self.ilp64_dirs, self.include_dirs, self.defines,
                   self.option_defines, self.ilp64_defines, sorted(self.stubs.items()), self.stub_include_dirs, self.pch_headers,
                   self.launch_macros, self.kernel_macros, self.device_macros, excluding)  # fmt: skip
        return hashlib.sha256(repr(shaping).encode()).hexdigest()[:16]


def available_profiles(directory: Path = ALLOWLIST_DIR) -> list[str]:
    return sorted(p.stem for p in directory.glob("*.toml"))


def load_profile(name: str, directory: Path = ALLOWLIST_DIR) -> Profile:
    path = directory / f"{name}.toml"
    if not path.is_file():
        known = ", ".join(available_profiles(directory)) or "none"
        raise UnknownLibraryError(f"unknown library {name!r} (profiles: {known})")
    text = path.read_text()
    try:
        data = tomllib.loads(text)
        return _profile_from(data, text)
    except (tomllib.TOMLDecodeError, KeyError, TypeError, ValueError) as exc:
        raise ProfileError(f"malformed profile: {exc}", path=str(path)) from exc


def _profile_from(data: dict, text: str) -> Profile:
    lib, parse, rules = data["library"], data.get("parse", {}), data.get("rules", {})
    boundaries = tuple(
        BoundaryRule(kind=b["kind"], names=tuple(b.get("names", ())), paths=tuple(b.get("paths", ())))
        for b in data.get("boundaries", [])
    )
    others = tuple(
        OtherLibrary(
            name=key,
            name_prefixes=tuple(o["name_prefixes"]),
            include_dirs=tuple(o.get("include_dirs", ())),
            stub_include_dirs=tuple(o.get("stub_include_dirs", ())),
        )
        for key, o in data.get("other_libraries", {}).items()
    )
    return Profile(
        name=lib["name"],
        markers=tuple(lib["markers"]),
        sources=tuple(lib["sources"]),
        exclude_sources=tuple(lib.get("exclude_sources", ())),
        public_headers=tuple(lib["public_headers"]),
        export_macros=tuple(lib["export_macros"]),
        ilp64_dirs=tuple(lib.get("ilp64_dirs", ())),
        include_dirs=tuple(parse.get("include_dirs", ())),
        defines=tuple(parse.get("defines", ())),
        ilp64_defines=tuple(parse.get("ilp64_defines", ())),
        stubs=dict(parse.get("stubs", {})),
        stub_include_dirs=tuple(parse.get("stub_include_dirs", ())),
        pch_headers=tuple(parse.get("pch_headers", ())),
        parse_timeout_s=float(parse.get("timeout_s", 120.0)),
        option_defines=tuple(
            OptionDefine(option=o["option"], file=o.get("file", "CMakeLists.txt"), defines=tuple(o["defines"]))
            for o in parse.get("option_defines", [])
        ),
        launch_macros=tuple(LaunchMacro(**m) for m in data.get("launch_macros", [])),
        kernel_macros=tuple(parse.get("kernel_macros", ())),
        device_macros=tuple(parse.get("device_macros", ())),
        rules=Rules(
            max_depth=int(rules.get("max_depth", 16)),
            deny_names=tuple(rules.get("deny_names", ())),
            deny_paths=tuple(rules.get("deny_paths", ())),
            deny_host_paths=tuple(rules.get("deny_host_paths", ())),
            deny_namespaces=tuple(rules.get("deny_namespaces", ())),
            allow_names=tuple(rules.get("allow_names", ())),
            boundaries=boundaries,
        ),
        other_libraries=others,
        system_headers=tuple(SystemHeader(h["header"], h["package"]) for h in data.get("system_headers", [])),
        exported_proto_of=str(parse.get("exported_proto_of", "")),
        integer_types=tuple(lib.get("integer_types", ())),
        text=text,
    )


def detect_library(root: Path, directory: Path = ALLOWLIST_DIR) -> str | None:
    """The profile whose marker files all exist under ``root``, if exactly one matches."""
    matches = [
        name
        for name in available_profiles(directory)
        if all((root / m).exists() for m in load_profile(name, directory).markers)
    ]
    return matches[0] if len(matches) == 1 else None
