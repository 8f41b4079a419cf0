"""Content-addressed cache of TU parses (clangd's shape): an entry is named by the recipe
fingerprint, the TU path and the TU's content, and holds the hash of every checkout file the
parse read; it is valid while all of them are unchanged. Writes are atomic.

A TU's instantiated bodies (half the bytes of a parse, read only when liveness is analysed and its
verdicts are not cached) are kept beside the entry and read on demand (``instances``). An entry opens
with a small header (the files the parse read, its engine, where its walk started and what it leads to),
so that whether it holds and what it was made from are known without reading the parse itself (``peek``):
a re-run that keeps its outputs reads no parse at all."""

from __future__ import annotations

import hashlib
import os
import pickle
from dataclasses import replace
from pathlib import Path
from typing import NamedTuple

from miner.cache.units import parse_unit_key, touch
from miner.errors import CacheError
from miner.models import Instance, ParsedTU, WalkScope
from miner.source.files import FileHashes

_FORMAT = 11  # 11: an entry per set of files read, beside the others of its TU (was: one, overwritten)


class Head(NamedTuple):
    """What a cache entry says of its parse before the parse is read."""

    engine: str
    deps: tuple[str, ...]
    aside: int  # the size of the file beside the entry that holds its instances; 0: none
    scope: WalkScope | None
    refs: tuple[str, ...]


class ParseCache:
    def __init__(self, directory: Path, fingerprint: str, hashes: FileHashes) -> None:
        self.directory = directory
        self.fingerprint = fingerprint
        self.hashes = hashes
        self.used: set[str] = set()  # the cache units this run read or wrote (``miner.cache.units``)

    def _slot(self, rel: str, salt: str) -> Path:
        """Where the parses of ``rel``'s content under ``salt`` lie, one beside another for each set of files they
        read (``<slot>-<variant>.pkl``): a TU whose own file is the same in two releases while a header it includes
        is not has an entry for each, and mining one release never overwrites the other's."""
        content = self.hashes.get(rel) if not rel.startswith("<") else ""
        key = hashlib.sha256(f"{_FORMAT}\0{self.fingerprint}\0{salt}\0{rel}\0{content}".encode()).hexdigest()
        return self.directory / key[:2] / key

    def _variants(self, rel: str, salt: str) -> list[Path]:
        slot = self._slot(rel, salt)
        try:
            names = [
                e.name for e in os.scandir(slot.parent) if e.name.startswith(slot.name) and e.name.endswith(".pkl")
            ]
        except OSError:
            return []
        return [slot.parent / name for name in sorted(names)]

    def peek(self, rel: str, salt: str = "") -> Head | None:
        """The header of the cached parse of ``rel``, if it holds; the parse is not read."""
        found = self._read(rel, salt, with_result=False)
        return None if found is None else found[0]

    def get(self, rel: str, salt: str = "") -> tuple[ParsedTU, bool] | None:
        """The cached parse of ``rel`` (``salt`` names what else it was parsed against), and whether its
        instances were left in the cache (then read them with ``instances``)."""
        found = self._read(rel, salt, with_result=True)
        return None if found is None else (found[1], bool(found[0].aside))

    def _read(self, rel: str, salt: str, *, with_result: bool) -> tuple | None:
        """(head, result or None) of the entry whose files read are as they are now: the header, then the parse if
        asked for."""
        for path in self._variants(rel, salt):
            try:
                with open(path, "rb") as fh:
                    deps, engine, aside, scope, refs = pickle.load(fh)
                    if any(self.hashes.get(dep) != digest for dep, digest in deps.items()):
                        continue
                    if aside and path.with_suffix(".instances").stat().st_size != aside:
                        continue  # lost or cut short since: parsed again
                    self._used(path, aside)
                    return Head(engine, tuple(deps), aside, scope, refs), pickle.load(fh) if with_result else None
            except (OSError, EOFError, pickle.UnpicklingError, ValueError, AttributeError, TypeError):
                continue
        return None

    def _entry(self, rel: str, salt: str) -> Path | None:
        """The entry ``peek`` and ``get`` answer from."""
        for path in self._variants(rel, salt):
            try:
                with open(path, "rb") as fh:
                    deps = pickle.load(fh)[0]
            except (OSError, EOFError, pickle.UnpicklingError, ValueError, AttributeError, TypeError, IndexError):
                continue
            if all(self.hashes.get(dep) == digest for dep, digest in deps.items()):
                return path
        return None

    def instances(self, rel: str, salt: str = "") -> tuple[Instance, ...]:
        """The instances of a cached parse that ``get`` left in the cache. Ones damaged in place since
        ``peek`` vouched for them are removed with their entry, so that the next run parses the TU again."""
        entry = self._entry(rel, salt)
        path = entry.with_suffix(".instances") if entry is not None else self._slot(rel, salt).with_suffix(".gone")
        try:
            with open(path, "rb") as fh:
                return pickle.load(fh)
        except (OSError, EOFError, pickle.UnpicklingError, ValueError, AttributeError, TypeError) as exc:
            for damaged in (path, entry):
                if damaged is not None:
                    damaged.unlink(missing_ok=True)
            raise CacheError(f"the cached parse of {rel} was damaged ({type(exc).__name__}); it is removed, "
                             "a re-run parses it again", path=str(path)) from exc  # fmt: skip

    def put(self, result: ParsedTU, salt: str = "") -> None:
        deps = {dep: self.hashes.get(dep) for dep in files_read(result)}
        variant = hashlib.sha256(repr(sorted(deps.items())).encode()).hexdigest()[:16]
        slot = self._slot(result.path, salt)
        path = slot.with_name(f"{slot.name}-{variant}.pkl")
        path.parent.mkdir(parents=True, exist_ok=True)
        aside = 0
        if result.instances:  # written first: an entry that says its instances are aside always has them
            aside = _write_atomic(path.with_suffix(".instances"), result.instances)
        head = (deps, result.engine, aside, result.scope, result.refs)
        _write_atomic(path, head, replace(result, instances=()))
        self.used.add(parse_unit_key(path, self.directory.parent))

    def _used(self, path: Path, aside: int) -> None:
        key = parse_unit_key(path, self.directory.parent)
        if key not in self.used:
            self.used.add(key)
            touch(path, *([path.with_suffix(".instances")] if aside else []))

    def digest(self, result: ParsedTU) -> str:
        """A name for everything ``result`` read: its dependencies' current hashes."""
        return self.deps_digest(files_read(result))

    def deps_digest(self, deps: tuple[str, ...]) -> str:
        h = hashlib.sha256()
        for dep in deps:
            h.update(f"{dep}\0{self.hashes.get(dep)}\n".encode())
        return h.hexdigest()[:16]


def files_read(result: ParsedTU) -> tuple[str, ...]:
    """Every file a parse read, of the checkout and of ``--with`` libraries: a change to any is a miss."""
    return result.deps + result.read_elsewhere


def _write_atomic(path: Path, *values: object) -> int:
    """The bytes written."""
    tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
    try:
        with open(tmp, "wb") as fh:
            for value in values:
                pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
            size = fh.tell()
        tmp.replace(path)
    finally:
        tmp.unlink(missing_ok=True)  # left only when the write failed
    return size
