"""Content-addressed cache of TU parses (clangd's shape): an entry is named by the recipe
fingerprint, the TU path and the TU's content, and holds the hash of every checkout file the
parse read; it is valid while all of them are unchanged. Writes are atomic."""

from __future__ import annotations

import hashlib
import os
import pickle
from pathlib import Path

from miner.models import ParsedTU
from miner.source.files import FileHashes

_FORMAT = 3


class ParseCache:
    def __init__(self, directory: Path, fingerprint: str, hashes: FileHashes) -> None:
        self.directory = directory
        self.fingerprint = fingerprint
        self.hashes = hashes

    def _path(self, rel: str, salt: str) -> Path:
        content = self.hashes.get(rel) if not rel.startswith("<") else ""
        key = hashlib.sha256(f"{_FORMAT}\0{self.fingerprint}\0{salt}\0{rel}\0{content}".encode()).hexdigest()
        return self.directory / key[:2] / f"{key}.pkl"

    def get(self, rel: str, salt: str = "") -> ParsedTU | None:
        """The cached parse of ``rel`` (``salt`` names what else it was parsed against)."""
        path = self._path(rel, salt)
        try:
            with open(path, "rb") as fh:
                deps, result = pickle.load(fh)
        except (OSError, EOFError, pickle.UnpicklingError, ValueError, AttributeError, TypeError):
            return None
        if any(self.hashes.get(dep) != digest for dep, digest in deps.items()):
            return None
        return result

    def put(self, result: ParsedTU, salt: str = "") -> None:
        path = self._path(result.path, salt)
        path.parent.mkdir(parents=True, exist_ok=True)
        deps = {dep: self.hashes.get(dep) for dep in result.deps}
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with open(tmp, "wb") as fh:
            pickle.dump((deps, result), fh, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(path)

    def digest(self, result: ParsedTU) -> str:
        """A name for everything ``result`` read: its dependencies' current hashes."""
        h = hashlib.sha256()
        for dep in result.deps:
            h.update(f"{dep}\0{self.hashes.get(dep)}\n".encode())
        return h.hexdigest()[:16]
