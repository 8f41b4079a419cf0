"""The files of a checkout: translation units to parse and content hashes for the cache."""

from __future__ import annotations

import fnmatch
import hashlib
from pathlib import Path

from miner.source.library_paths import other_location
from miner.source.profile import Profile

SOURCE_SUFFIXES = {".cpp", ".cc", ".cxx", ".hip", ".cu"}
HEADER_SUFFIXES = {".h", ".hpp", ".hh", ".hxx", ".cuh", ".inl"}


def translation_units(root: Path, profile: Profile) -> list[str]:
    """Checkout-relative paths of every TU under the profile's source dirs, sorted."""
    return library_files(root, profile, SOURCE_SUFFIXES)


def library_files(root: Path, profile: Profile, suffixes: set[str]) -> list[str]:
    """Checkout-relative paths of the files with these suffixes under the profile's source dirs, sorted."""
    found: set[str] = set()
    for src in profile.sources:
        base = root / src
        if not base.is_dir():
            continue
        for path in base.rglob("*"):
            if path.suffix in suffixes and path.is_file():
                rel = path.relative_to(root).as_posix()
                if not any(fnmatch.fnmatch(rel, g) for g in profile.exclude_sources):
                    found.add(rel)
    return sorted(found)


def is_ilp64(rel: str, profile: Profile) -> bool:
    return any(rel.startswith(d.rstrip("/") + "/") for d in profile.ilp64_dirs)


def hash_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


class FileHashes:
    """Content hashes of checkout files, computed once per run and on demand; ``@library/path`` names a
    file of another library's checkout (``others``)."""

    def __init__(self, root: Path, others: dict[str, Path] | None = None) -> None:
        self.root = root
        self.others = others or {}
        self._hashes: dict[str, str] = {}

    def get(self, rel: str) -> str:
        digest = self._hashes.get(rel)
        if digest is None:
            try:
                digest = hash_bytes(self._locate(rel).read_bytes())
            except OSError:
                digest = "missing"
            self._hashes[rel] = digest
        return digest

    def _locate(self, rel: str) -> Path:
        return other_location(rel, self.others) or self.root / rel
