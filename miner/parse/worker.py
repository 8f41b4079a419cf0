"""What parses a TU inside a worker: one libclang Index, one Extractor, many TUs (``miner.parse.queue`` runs it)."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace

from miner.models import Diagnostic, ParsedTU, ParseFailed, ParseResult, WalkScope
from miner.parse import treesitter_facts
from miner.parse.clang_facts import Extractor, _exec_space, _primary_template, diagnostics
from miner.parse.inactive import inactive_blocks
from miner.parse.instances import InstanceWalker, instance_starts
from miner.parse.walk_scope import references, scoped_starts
from miner.source.profile import LaunchMacro, Rules
from miner.traverse.rules import boundary, exclusion

# the detailed preprocessing record holds the ranges ``#if`` left out (see miner/parse/inactive.py)
_LIVENESS_OPTIONS = 0x01  # CXTranslationUnit_DetailedPreprocessingRecord


@dataclass(frozen=True, slots=True)
class WorkerConfig:
    root: str
    launch_macros: tuple[LaunchMacro, ...]
    kernel_macros: tuple[str, ...]
    device_macros: tuple[str, ...]
    libclang: str = ""  # a libclang shared object to use instead of the pip one
    memory_mb: int = 0  # address-space limit per worker (0: none); a parse past it dies, not the run
    liveness: bool = True  # also record instantiated bodies and skipped #if blocks
    rules: Rules = Rules()  # the traversal's rules: bodies it excludes are not walked
    walk_only: frozenset[str] | None = None  # USRs the walk starts from (None: every start)
    others: tuple[tuple[str, str], ...] = ()  # (library, checkout root) of the libraries given with ``--with``


@dataclass(frozen=True, slots=True)
class ParseJob:
    rel: str
    args: tuple[str, ...]
    variant: str  # distinguishes memo entries of the same header under other defines
    uses_pch: bool = False
    plain_args: tuple[str, ...] = ()  # the same parse without the PCH, if the PCH cannot be used
    walk_also: frozenset[str] = frozenset()  # USRs to start from besides ``WorkerConfig.walk_only``


@dataclass(frozen=True, slots=True)
class PchJob:
    """Build a precompiled header of the common prefix, and return the prefix's own facts
    (TUs parsed against the PCH do not enumerate its declarations)."""

    rel: str  # "<pch:VARIANT>", a pseudo path for reports
    prefix: str  # absolute path of the prefix header
    args: tuple[str, ...]
    variant: str
    output: str  # where the .pch goes


class TUParser:
    def __init__(self, config: WorkerConfig) -> None:
        import clang.cindex as ci

        if config.libclang and not ci.Config.loaded:
            ci.Config.set_library_file(config.libclang)
        self.ci = ci
        self.config = config
        self.index = ci.Index.create()  # for the precompiled prefix
        # TUs: excluding PCH declarations also makes libclang list explicit instantiations
        self.tu_index = ci.Index.create(excludeDecls=True)
        others = tuple((name, root.rstrip(os.sep)) for name, root in config.others)
        self.extractor = Extractor(config.root.rstrip(os.sep), config.launch_macros, others)
        self.instances = InstanceWalker(self.extractor, skips=self._excluded)
        self.tu_options = _LIVENESS_OPTIONS if config.liveness else 0

    def _excluded(self, fn) -> bool:
        """Whether the traversal's rules exclude a function defined in the checkout, judged in its own execution
        space: a ``__host__ __device__`` helper in a file only host code is denied from is walked."""
        name, qualified = fn.spelling, self.extractor.qualified(fn)
        file = fn.location.file
        path = (self.extractor.rel(file.name) if file is not None else None) or ""
        rules = self.config.rules
        template = _primary_template(fn)
        space = _exec_space(template if template is not None else fn)
        return boundary(rules, name, qualified, path) is None and bool(exclusion(rules, name, qualified, path, space))

    def build_pch(self, job: PchJob) -> ParseResult:
        start = time.perf_counter()
        opts = self.ci.TranslationUnit.PARSE_INCOMPLETE
        try:
            tu = self.index.parse(job.prefix, args=list(job.args), options=opts)
        except self.ci.TranslationUnitLoadError as exc:
            return ParseFailed(job.rel, "clang-error", str(exc))
        diags = tuple(diagnostics(tu, self.extractor))
        if any(d.severity == "fatal" for d in diags):
            return ParseFailed(job.rel, "clang-error", diags[0].message, diags)
        functions, decls = self.extractor.extract(tu, job.variant)
        deps, elsewhere = self._files_read(tu, set())
        tmp = job.output + f".{os.getpid()}.tmp"
        tu.save(tmp)
        os.replace(tmp, job.output)
        result = ParsedTU(job.rel, "clang", tuple(functions), tuple(decls), diags, deps, variant=job.variant)
        return _timed(replace(result, read_elsewhere=elsewhere), start)

    def _files_read(self, tu, deps: set[str]) -> tuple[tuple[str, ...], tuple[str, ...]]:
        """The checkout's files a TU read (with ``deps``), and those of ``--with`` libraries."""
        elsewhere = set()
        for inc in tu.get_includes():
            name = inc.include.name
            rel = self.extractor.rel(name)
            if rel is not None:
                deps.add(rel)
            elif self.extractor.others and (other := self.extractor.elsewhere(name)) is not None:
                elsewhere.add(other)
        return tuple(sorted(deps)), tuple(sorted(elsewhere))

    def __call__(self, job: ParseJob | PchJob) -> ParseResult:
        if isinstance(job, PchJob):
            return self.build_pch(job)
        start = time.perf_counter()
        path = os.path.join(self.config.root, job.rel)
        try:
            with open(path, "rb") as fh:
                raw = fh.read()
        except OSError as exc:
            return ParseFailed(job.rel, "unreadable", str(exc))
        result = self._parse(job, path, raw, start)
        odd = not_utf8(job.rel, raw)
        if odd is not None and isinstance(result, ParsedTU):
            result = replace(result, diagnostics=(odd, *result.diagnostics))
        return result

    def _parse(self, job: ParseJob, path: str, raw: bytes, start: float) -> ParseResult:
        try:
            tu = self.tu_index.parse(path, args=list(job.args), options=self.tu_options)
        except self.ci.TranslationUnitLoadError as exc:
            if not (job.uses_pch and job.plain_args):
                return self.fallback(job.rel, raw, "clang-error", str(exc), start)
            # a PCH clang will not load (built elsewhere, other flags): parse without it
            job = replace(job, args=job.plain_args, uses_pch=False, plain_args=())
            try:
                tu = self.tu_index.parse(path, args=list(job.args), options=self.tu_options)
            except self.ci.TranslationUnitLoadError as exc2:
                return self.fallback(job.rel, raw, "clang-error", str(exc2), start)
        diags = tuple(diagnostics(tu, self.extractor))
        functions, decls = self.extractor.extract(tu, job.variant)
        walk_start = time.perf_counter()
        instances, inactive, scope, trouble = self._liveness_facts(tu, job)
        walk_seconds = time.perf_counter() - walk_start
        if trouble:
            diags += (Diagnostic("liveness", job.rel, 0, trouble),)
        deps, elsewhere = self._files_read(tu, {job.rel})
        fatal_in_tu = any(d.severity == "fatal" for d in diags)
        result = ParsedTU(
            path=job.rel,
            engine="clang",
            functions=tuple(functions),
            decls=tuple(decls),
            diagnostics=diags,
            deps=deps,
            variant=job.variant,
            instances=tuple(instances),
            inactive=tuple(inactive),
            liveness_seconds=round(walk_seconds, 3),
            scope=scope,
            refs=references(instances),
            read_elsewhere=elsewhere,
        )
        if fatal_in_tu:
            result = self.merge_fallback(result, raw)
        return _timed(result, start)

    def _liveness_facts(self, tu, job: ParseJob) -> tuple[list, list, WalkScope | None, str]:
        """Instantiated bodies, where their walk started, and skipped blocks. A failure here costs the TU its
        liveness facts (its regions are then reported live) and is reported, never its call graph."""
        if not self.config.liveness:
            return [], [], None, ""
        scope = None
        try:
            starts = instance_starts(tu, self.extractor)
            if self.config.walk_only is not None:
                starts, scope = scoped_starts(starts, self.config.walk_only | job.walk_also)
            instances = self.instances.walk(starts, job.variant)
            if scope is not None:
                scope = replace(scope, held=tuple(sorted(i.usr for i in instances)))
            return instances, inactive_blocks(tu, self.extractor), scope, ""
        except Exception as exc:  # noqa: BLE001 - a libclang surprise must not cost the TU its call graph
            return [], [], scope, f"liveness facts skipped: {type(exc).__name__}: {exc}"

    def merge_fallback(self, result: ParsedTU, raw: bytes) -> ParsedTU:
        """Add what tree-sitter finds in the main file that clang lost after a fatal error."""
        known = {(f.file, f.name) for f in result.functions}
        extra = [
            f for f in tree_sitter_tu(self.config, result.path, raw, "").functions if (f.file, f.name) not in known
        ]
        return replace(
            result,
            engine="clang+tree-sitter" if extra else "clang",
            functions=result.functions + tuple(extra),
            fallback_reason="fatal-diagnostic",
        )

    def fallback(self, rel: str, raw: bytes, reason: str, detail: str, start: float) -> ParseResult:
        return _timed(tree_sitter_tu(self.config, rel, raw, reason), start)


def tree_sitter_tu(config: WorkerConfig, rel: str, raw: bytes, reason: str) -> ParsedTU:
    """A TU read by tree-sitter alone (every edge ``name-match``), and why clang did not read it."""
    functions = treesitter_facts.extract(rel, raw, config.launch_macros, config.kernel_macros, config.device_macros)
    return ParsedTU(rel, "tree-sitter", tuple(functions), (), (), (rel,), fallback_reason=reason)


def not_utf8(rel: str, raw: bytes) -> Diagnostic | None:
    """Clang and tree-sitter read any bytes; bundle text shows the bytes that are not UTF-8 as U+FFFD."""
    try:
        raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        return Diagnostic("encoding", rel, line, f"not UTF-8 ({exc.reason}): shown as U+FFFD in bundle text")
    return None


def _timed(result: ParsedTU, start: float) -> ParsedTU:
    return replace(result, seconds=round(time.perf_counter() - start, 3))
