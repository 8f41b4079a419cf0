"""The parse stage: every TU of a checkout through the cache, the worker pool and, for what
clang cannot parse, tree-sitter. Never raises for a single file.

With ``pch_headers`` in the profile, the common prefix (HIP runtime, STL, the library's handle,
logging and utility headers) is parsed once per variant into a precompiled header, and its
facts are kept as a pseudo-TU ``<pch:VARIANT>``; TUs are then parsed against it (2-3x faster)."""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path

from miner.models import Instance, ParsedTU, ParseFailed, WalkScope
from miner.parse.cache import Head, ParseCache, files_read
from miner.parse.queue import ParseQueue
from miner.parse.recipe import Recipe
from miner.parse.walk_scope import unheld
from miner.parse.worker import ParseJob, PchJob, WorkerConfig, tree_sitter_tu


@dataclass
class ParseOutcome:
    failures: list[ParseFailed] = field(default_factory=list)
    cache_hits: int = 0
    worker_seconds: float = 0.0  # of the TUs parsed in this run (summed over workers, not wall time)
    liveness_seconds: float = 0.0  # of which the liveness facts took
    digest: str = ""  # names everything parsed: the recipe, and each result by the files it read and where it walked
    refs: set[str] = field(default_factory=set)  # what the TUs' instances reach outside them (``ParsedTU.refs``)
    walked_again: int = 0  # TUs walked again from more starts (``ParseStage.run`` with ``wanted``)
    cache_units: set[str] = field(default_factory=set)  # of the shared cache, read or written (``miner.cache``)
    instances_aside: dict[str, Callable[[], tuple[Instance, ...]]] = field(default_factory=dict)
    """TU path -> reads the instances its cached parse left in the cache (``ParsedTU.instances`` is empty)."""
    _parsed: list[ParsedTU] = field(default_factory=list)
    _unread: Callable[[], list[ParsedTU]] | None = None  # reads the cache hits, the first time they are asked for

    @property
    def parsed(self) -> list[ParsedTU]:
        """Every TU's result, sorted by path (the cache hits are read here, once: a run that keeps its
        earlier outputs needs only ``digest`` and never reads them)."""
        if self._unread is not None:
            read, self._unread = self._unread, None
            self._parsed = sorted(self._parsed + read(), key=lambda r: r.path)
        return self._parsed


class ParseStage:
    """``order`` places this checkout's jobs among those of the other revisions sharing ``queue`` (a batch)."""

    def __init__(
        self, recipe: Recipe, cache: ParseCache, work_dir: Path, queue: ParseQueue, *, liveness: bool = True,
        order: int = 0,
    ) -> None:  # fmt: skip
        self.recipe = recipe
        self.cache = cache
        self.work_dir = work_dir
        self.queue = queue
        self.order = order
        profile = recipe.profile
        queue.allow(profile.parse_timeout_s)
        self.config = WorkerConfig(
            root=str(recipe.root),
            launch_macros=profile.launch_macros,
            kernel_macros=profile.kernel_macros,
            device_macros=profile.device_macros,
            liveness=liveness,
            rules=profile.rules,
            others=tuple((name, str(root)) for name, root in recipe.other_roots),
        )

    # ------------------------------------------------------------------ PCH

    def _prefix(self) -> Path | None:
        """The precompiled prefix: the profile's headers that this checkout has (a release may lack some:
        one missing header would cost every TU its PCH)."""
        dirs = self.recipe.include_dirs()
        headers = [h for h in self.recipe.profile.pch_headers if any((d / h).is_file() for d in dirs)]
        if not headers:
            return None
        text = "#pragma once\n" + "".join(f'#include "{h}"\n' for h in headers)
        path = self.work_dir / f"prefix-{self.recipe.profile.name}.hpp"
        path.parent.mkdir(parents=True, exist_ok=True)
        if not path.exists() or path.read_text() != text:
            path.write_text(text)
        return path

    def _pch_path(self, variant: str) -> Path:
        """Named by everything it was built from, so a PCH built with other flags is never used."""
        flags = hashlib.sha256("\0".join(self.recipe.variant_args(variant)).encode()).hexdigest()[:12]
        return self.work_dir / f"{self.recipe.profile.name}-{variant}-{self.recipe.fingerprint}-{flags}.pch"

    def _pch_facts(self, variants: set[str], outcome: ParseOutcome, force: set[str]) -> dict[str, ParsedTU]:
        """Cached prefix facts per variant; builds the PCH where missing or where ``force``d."""
        prefix = self._prefix()
        if prefix is None:
            return {}
        salt = prefix.read_text()
        facts: dict[str, ParsedTU] = {}
        todo = []
        for v in sorted(variants):
            hit = self.cache.get(f"<pch:{v}>", salt)
            if hit is not None and (v not in force or self._pch_path(v).exists()):
                facts[v] = self._found(hit, f"<pch:{v}>", salt, outcome)
            else:
                args = tuple(self.recipe.variant_args(v))
                todo.append(PchJob(f"<pch:{v}>", str(prefix), args, v, str(self._pch_path(v))))
        for result in self.queue.run(self.config, todo, order=self.order):
            if isinstance(result, ParsedTU):
                self.cache.put(result, salt)
                facts[result.path[5:-1]] = result
                outcome.worker_seconds += result.seconds
            else:
                outcome.failures.append(result)
        return facts

    def _salt(self, variant: str, pch: ParsedTU | None) -> str:
        """What a TU's parse depends on besides the files it read: its flags, wherever the checkouts and the
        cache lie, and the PCH's inputs."""
        flags = hashlib.sha256("\0".join(self.recipe.portable_args(variant)).encode()).hexdigest()[:16]
        liveness = "live" if self.config.liveness else "no-live"
        return f"{flags}:{liveness}:{self.cache.digest(pch) if pch is not None else ''}"

    # ------------------------------------------------------------------ TUs

    def run(
        self,
        tus: list[str],
        on_result: Callable[[str], None] = lambda rel: None,
        wanted: frozenset[str] | None = None,
    ) -> ParseOutcome:
        """Every TU's parse, from the cache where it holds. With ``wanted``, each TU's walk of instantiated
        bodies starts only from the functions in it and from those the walks before it reach; then a wanted
        start that no walk holds is walked by the first TU that offers it, until there is none. Without, a
        cached walk that did not start from every start is walked again."""
        outcome = ParseOutcome()
        variants = {self.recipe.variant(rel) for rel in tus}
        pch = self._pch_facts(variants, outcome, force=set())
        salts = {v: self._salt(v, pch.get(v)) for v in variants}
        heads: dict[str, Head] = {}
        misses: list[str] = []
        for rel in tus:
            head = self.cache.peek(rel, self._salt_of(rel, salts))
            if head is not None and (head.scope is None or wanted is not None):
                heads[rel] = head
                on_result(rel)
            else:
                misses.append(rel)
        reach = _Reach(wanted, [h.refs for h in heads.values()]) if wanted is not None else None
        fresh = {r.path: r for r in self._parse(misses, pch, salts, outcome, on_result, reach, heads)}
        if reach is not None:
            self._close(reach, heads, fresh, pch, salts, outcome)
        named: list[tuple[str, str, tuple[str, ...], WalkScope | None]] = []  # (path, engine, files read, scope)
        for rel, head in heads.items():
            named.append((rel, head.engine, head.deps, head.scope))
            if head.aside:
                outcome.instances_aside[rel] = functools.partial(self.cache.instances, rel, self._salt_of(rel, salts))
            outcome.refs.update(head.refs)
        outcome.cache_hits = len(heads)
        parsed_now = list(fresh.values()) + list(pch.values())
        named += [(r.path, r.engine, files_read(r), r.scope) for r in parsed_now]
        for r in fresh.values():
            outcome.refs.update(r.refs)
        outcome._parsed = sorted(parsed_now, key=lambda r: r.path)
        if heads:
            hits = [(rel, self._salt_of(rel, salts)) for rel in heads]
            outcome._unread = functools.partial(self._read_hits, hits, pch, salts, outcome, reach)
        outcome.failures.sort(key=lambda f: f.path)
        outcome.digest = self._digest(named, outcome.failures)
        return outcome

    def _salt_of(self, rel: str, salts: dict[str, str]) -> str:
        return salts[self.recipe.variant(rel)]

    def _close(
        self,
        reach: _Reach,
        heads: dict[str, Head],
        fresh: dict[str, ParsedTU],
        pch: dict[str, ParsedTU],
        salts: dict,
        outcome: ParseOutcome,
    ) -> None:
        """Walk again the first TU that offers a wanted start no walk holds, until there is none."""
        while True:
            scopes = {rel: h.scope for rel, h in heads.items()} | {rel: r.scope for rel, r in fresh.items()}
            again = unheld(frozenset(reach.wanted), scopes)
            if not again:
                return
            for rel, usrs in again.items():
                reach.add(usrs.union(scopes[rel].walked))  # what it walked before stays walked
                heads.pop(rel, None)
                fresh.pop(rel, None)
            outcome.walked_again += len(again)
            reach.rebase()
            for result in self._parse(list(again), pch, salts, outcome, lambda rel: None, reach):
                fresh[result.path] = result

    def _read_hits(
        self, hits: list[tuple[str, str]], pch: dict, salts: dict, outcome: ParseOutcome, reach: _Reach | None
    ) -> list[ParsedTU]:
        """The cached parses ``peek`` vouched for; one gone since (another run pruned the cache) is parsed again."""
        found, lost = [], []
        for rel, salt in hits:
            hit = self.cache.get(rel, salt)
            if hit is None:
                lost.append(rel)
            else:
                found.append(hit[0])
        return found + self._parse(lost, pch, salts, outcome, lambda rel: None, reach)

    def _parse(
        self,
        misses: list[str],
        pch: dict[str, ParsedTU],
        salts: dict,
        outcome: ParseOutcome,
        on_result,
        reach: _Reach | None = None,
        heads: dict[str, Head] | None = None,
    ) -> list[ParsedTU]:
        """The parses of ``misses``; with ``heads``, a miss that another revision of a batch parsed meanwhile with
        the same files and flags is answered by the cache instead, and its head joins ``heads``."""
        if not misses:
            return []
        self.config = replace(self.config, walk_only=reach.base if reach is not None else None)
        needed = {self.recipe.variant(rel) for rel in misses} & set(pch)
        missing_pch = {v for v in needed if not self._pch_path(v).exists()}
        if missing_pch:
            pch |= self._pch_facts(missing_pch, outcome, force=missing_pch)
        jobs = []
        for rel in misses:
            v = self.recipe.variant(rel)
            use = v in pch and self._pch_path(v).exists()
            args = self.recipe.args(rel, self._pch_path(v) if use else None)
            plain = tuple(self.recipe.args(rel)) if use else ()
            jobs.append(ParseJob(rel=rel, args=tuple(args), variant=v, uses_pch=use, plain_args=plain))
        results = []
        prepare = reach.prepare if reach is not None else None

        def recheck(rel: str) -> Head | None:
            head = self.cache.peek(rel, self._salt_of(rel, salts))
            return head if head is not None and head.scope is None else None

        def keep(result: ParsedTU) -> None:
            if result.engine != "tree-sitter":
                self.cache.put(result, self._salt_of(result.path, salts))
            if reach is not None:
                reach.add(result.refs)

        rechecked = recheck if heads is not None and reach is None else None
        run = self.queue.run(self.config, jobs, prepare, order=self.order, recheck=rechecked, keep=keep)
        for rel, head in self._with_fallback(run, outcome):
            if isinstance(head, Head):
                heads[rel] = head  # type: ignore[index]
                on_result(rel)
                continue
            result = head
            outcome.worker_seconds += result.seconds
            outcome.liveness_seconds += result.liveness_seconds
            results.append(result)
            on_result(result.path)
        return results

    def _found(self, hit: tuple[ParsedTU, bool], rel: str, salt: str, outcome: ParseOutcome) -> ParsedTU:
        result, aside = hit
        if aside:
            outcome.instances_aside[result.path] = functools.partial(self.cache.instances, rel, salt)
        return result

    def _digest(
        self, named: list[tuple[str, str, tuple[str, ...], WalkScope | None]], failures: list[ParseFailed]
    ) -> str:
        h = hashlib.sha256(self.recipe.fingerprint.encode())
        for path, engine, deps, scope in sorted(named, key=lambda n: n[0]):
            walked = "\0".join(scope.walked) if scope is not None else "*"
            h.update(f"{path}\0{engine}\0{self.cache.deps_digest(deps)}\0{walked}\n".encode())
        for failure in failures:
            h.update(f"{failure.path}\0{failure.reason}\n".encode())
        return h.hexdigest()[:16]

    def _with_fallback(self, results: Iterable, outcome: ParseOutcome) -> Iterator[tuple[str, ParsedTU | Head]]:
        """Each result with its path; a TU that failed outright is recorded, then read by tree-sitter alone."""
        for result in results:
            if isinstance(result, tuple):  # a Head: (path, head) from ``recheck``
                yield result
                continue
            if isinstance(result, ParsedTU):
                yield result.path, result
                continue
            outcome.failures.append(result)
            if result.reason == "unreadable":
                continue
            try:
                raw = Path(self.recipe.root, result.path).read_bytes()
            except OSError:
                continue
            yield result.path, tree_sitter_tu(self.config, result.path, raw, result.reason)


class _Reach:
    """What the walks of a scoped parse start from: ``base`` is sent to the workers once, what the walks
    since reached goes with each job."""

    def __init__(self, wanted: frozenset[str], refs: Iterable[Iterable[str]]) -> None:
        self.base = wanted
        self.wanted = set(wanted)
        for more in refs:
            self.add(more)
        self.rebase()

    def add(self, usrs: Iterable[str]) -> None:
        self.wanted.update(usrs)

    def rebase(self) -> None:
        self.base = frozenset(self.wanted)

    def prepare(self, job: ParseJob) -> ParseJob:
        return replace(job, walk_also=frozenset(self.wanted.difference(self.base)))
