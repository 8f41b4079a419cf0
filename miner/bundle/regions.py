"""Regions: the verbatim source of a function, or for a macro-defined entry point the macro
definitions its expansion comes from (``IMPL``/``INST_*`` in rocBLAS)."""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from miner.models import FunctionFacts
from miner.source.library_paths import other_location, other_name

_MAX_MACRO_GAP = 40


@dataclass(frozen=True, slots=True)
class Span:
    file: str
    start_line: int
    end_line: int
    code: str
    expanded_at: str = ""
    expansion: str = ""  # the invocation text at ``expanded_at``

    @property
    def sha256(self) -> str:
        return hashlib.sha256(self.code.encode()).hexdigest()


class SourceReader:
    """Reads checkout files once; finds macro definitions near a use."""

    def __init__(
        self, root: Path, include_dirs: tuple[str, ...] = (), other_roots: dict[str, Path] | None = None
    ) -> None:
        self.root = root
        self.include_dirs = include_dirs
        self.other_roots = other_roots or {}  # library -> its checkout
        self._bytes = lru_cache(maxsize=4096)(self._read)

    def __getstate__(self) -> dict:
        """Sent to another process without what it has read (workers read what they need again)."""
        return {k: v for k, v in self.__dict__.items() if k != "_bytes"}

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._bytes = lru_cache(maxsize=4096)(self._read)

    def path(self, rel: str) -> Path:
        return other_location(rel, self.other_roots) or self.root / rel

    def name(self, path: str) -> str:
        """How outputs name a file: a file of another library's checkout as ``@lib/path``, the same on every
        machine; any other path as it is."""
        return other_name(path, self.other_roots.items()) or path

    def _read(self, rel: str) -> bytes:
        try:
            return self.path(rel).read_bytes()
        except OSError:
            return b""

    def file_hash(self, rel: str) -> str:
        return hashlib.sha256(self.data(rel)).hexdigest()

    def data(self, rel: str) -> bytes:
        return self._bytes(rel)

    def span(self, f: FunctionFacts) -> Span:
        data = self.data(f.file)
        if f.macro:
            found = self._macro_span(f)
            if found is not None:
                return found
        start = data.rfind(b"\n", 0, f.start_offset) + 1  # from the start of the line, for indentation
        end = data.find(b"\n", f.end_offset)
        end = len(data) if end < 0 else end
        code = data[start:end].decode("utf-8", "replace")
        return Span(f.file, f.start_line, f.start_line + code.count("\n"), code)

    def _macro_span(self, f: FunctionFacts) -> Span | None:
        """The definition of the macro expanded at the entry, with the macros it uses that are
        defined beside it (``INST_SCAL_C_API`` + ``IMPL``), and where it was expanded."""
        site_data = self.data(f.file)
        site_line_start = site_data.rfind(b"\n", 0, f.start_offset) + 1
        site_line_end = site_data.find(b"\n", f.start_offset)
        expanded_at = f"{f.file}:{f.start_line}"
        for rel in self._candidate_files(f.file):
            defs = macro_definitions(self.data(rel))
            if f.macro not in defs:
                continue
            start, end = defs[f.macro]
            body = self.data(rel)[start:end].decode("utf-8", "replace")
            used = set(re.findall(r"\b([A-Za-z_]\w*)\s*\(", body)) - {f.macro}
            for name in sorted(used):
                if name in defs:
                    s2, e2 = defs[name]
                    if abs(s2 - start) < _MAX_MACRO_GAP * 120:
                        start, end = min(start, s2), max(end, e2)
            data = self.data(rel)
            start = data.rfind(b"\n", 0, start) + 1
            code = data[start:end].decode("utf-8", "replace")
            first = data.count(b"\n", 0, start) + 1
            site = site_data[site_line_start:site_line_end].decode("utf-8", "replace").strip()
            return Span(rel, first, first + code.count("\n"), code, expanded_at, site)
        return None

    def _candidate_files(self, site: str) -> list[str]:
        """The expansion site's file, then the headers it includes directly (quoted includes)."""
        out = [site]
        data = self.data(site).decode("utf-8", "replace")
        base = Path(site).parent
        for inc in re.findall(r'^\s*#\s*include\s*"([^"]+)"', data, re.M):
            for cand in (base / inc, *(Path(d) / inc for d in self.include_dirs)):
                rel = cand.as_posix()
                if self.path(rel).is_file() and rel not in out:
                    out.append(rel)
                    break
        return out


_DEFINE = re.compile(rb"^[ \t]*#[ \t]*define[ \t]+([A-Za-z_]\w*)\(", re.M)


def macro_definitions(data: bytes) -> dict[str, tuple[int, int]]:
    """Function-like macro name -> byte span of its (last) definition, continuation lines included."""
    out: dict[str, tuple[int, int]] = {}
    for m in _DEFINE.finditer(data):
        end = m.end()
        while True:
            nl = data.find(b"\n", end)
            if nl < 0:
                end = len(data)
                break
            if data[nl - 1 : nl] == b"\\" or data[nl - 2 : nl] == b"\\\r":
                end = nl + 1
                continue
            end = nl
            break
        out[m.group(1).decode()] = (m.start(), end)
    return out
