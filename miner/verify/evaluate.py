"""The verifier: runs one candidate for one task in a fresh worker and decides, in this (trusted) process,
whether it compiles, is correct on fresh hidden inputs, is honest, and how fast it is."""

from __future__ import annotations

import functools
import hashlib
import os
import random
import secrets
import shutil
import statistics
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import torch

from miner.verify import VERIFIER_VERSION, memory
from miner.verify.checks import checksum, compare, weak_case
from miner.verify.models import CaseResult, MismatchInfo, Outcome, Timing, Verdict
from miner.verify.sandbox import Limits, WorkerDied, WorkerOverMemory, WorkerPool, WorkerTimedOut, child_processes
from miner.verify.tasks import Case, Task
from miner.verify.timing import ReferenceTimer, geomean, plausibility_flags, quantile


@dataclass(frozen=True)
class Candidate:
    """A kernel to verify: Triton (a Python file defining launch(...)) or HIP (a source file)."""

    backend: str
    source: str
    filename: str = "candidate.py"

    @property
    def hash(self) -> str:
        return hashlib.sha256(f"{self.backend}\0{self.source}".encode()).hexdigest()[:16]


@dataclass(frozen=True)
class VerifyOptions:
    device: str = "cuda"
    performance: bool = True
    reps: int = 30
    rounds: int = 3
    warmup: int = 3
    wall_reps: int = 5
    call_timeout_s: float = 30.0
    first_call_timeout_s: float = 180.0
    seed: int | None = None
    """Fix the trial seeds (tests); None draws them from the OS after the candidate is loaded."""
    max_case_elements: int | None = None
    """Skip correctness cases whose tensors hold more elements (the CPU interpreter is slow)."""
    hip_targets: tuple[str, ...] = ("gfx90a",)
    spares: int = 2
    """Workers started ahead, so their start (torch import, device context) overlaps earlier candidates."""
    unsupported_dtypes: tuple[str, ...] = ()
    """Dtypes the device cannot run (Triton's CPU interpreter has no bfloat16 arithmetic)."""
    repetitions: int = 0
    """Without timing (CPU): repeated calls on fresh inputs after each strong correctness case, all checked."""
    concurrent_verifiers: int = 1
    """Verifiers sharing this machine (Ray actors): its memory is shared among all their workers."""

    @classmethod
    def for_device(cls, device: str, **overrides: Any) -> VerifyOptions:
        if device == "cpu":
            base = {"performance": False, "unsupported_dtypes": ("bfloat16",), "max_case_elements": 40_000, "spares": 1,
                    "repetitions": 2}  # fmt: skip
            return cls(device=device, **{**base, **overrides})
        return cls(device=device, **overrides)


@dataclass
class _Run:
    header: dict[str, Any]
    outs: list[torch.Tensor]


class _Abort(Exception):
    """Stops a verdict early: the worker is gone or the candidate broke a rule."""

    def __init__(self, outcome: Outcome, detail: str, lines: list[int] | None = None) -> None:
        super().__init__(detail)
        self.outcome = outcome
        self.detail = detail
        self.lines = lines or []


@dataclass
class Verifier:
    """Verifies candidates one at a time on one device; owns a pool of fresh worker processes."""

    options: VerifyOptions
    pool: WorkerPool | None = None
    timer: ReferenceTimer | None = None
    healthy: bool = True
    _clock: dict[str, float] = field(default_factory=dict)
    _rng: random.Random = field(default_factory=secrets.SystemRandom)

    def __post_init__(self) -> None:
        opts = self.options
        workers = (opts.spares + 1) * opts.concurrent_verifiers
        self._host_share = memory.host_share(workers)
        self._device_share = memory.device_share(opts.spares) if opts.device == "cuda" else 0
        if self.pool is None:
            limits = Limits(host_memory_bytes=self._host_share)
            self.pool = WorkerPool(opts.device, spares=opts.spares, limits=limits)
        if self.timer is None:
            self.timer = ReferenceTimer(self.options.device)

    def close(self) -> None:
        self.pool.close()

    def __enter__(self) -> Verifier:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ------------------------------------------------------------------------------------------------------

    def verify(self, task: Task, candidate: Candidate) -> Verdict:
        t_start = time.perf_counter()
        phases: dict[str, float] = {}
        verdict = Verdict(
            task=task.name,
            task_hash=task.hash,
            backend=candidate.backend,
            candidate_hash=candidate.hash,
            verifier_version=VERIFIER_VERSION,
            outcome=Outcome.PASSED,
            reason="",
            compiled=False,
            correct=False,
            platform=self._platform(candidate.backend),
            gpu=self._gpu,
        )
        built = self._build(task, candidate, verdict, phases)
        if built is None:
            verdict.harness_s = {**phases, "total": time.perf_counter() - t_start}
            return verdict
        self._clock = {}
        t0 = time.perf_counter()
        worker = self.pool.take()
        phases["worker_wait"] = time.perf_counter() - t0
        verdict.sandbox = {k: worker.ready.get(k) for k in ("startup_s", "torch", "triton", "network_isolated", "uid")}
        try:
            self._run_worker(task, candidate, built, worker, verdict, phases)
        finally:
            worker.close()
        if verdict.outcome in (Outcome.TIMEOUT, Outcome.RUNTIME):
            self.healthy = self._health_check()
            verdict.sandbox["device_healthy_after"] = self.healthy
        phases["candidate_calls"] = self._clock.get("candidate_calls", 0.0)
        phases["perf_case_calls"] = self._clock.get("perf_case_calls", 0.0)
        total = time.perf_counter() - t_start
        # the harness's own time per candidate: waiting for a worker, loading, and checking the correctness cases,
        # without compiling and without the candidate's calls (kernels, Triton's JIT); the performance cases (their
        # large inputs checked like the others, then timed) are reported apart, as "performance_cases" and "timing"
        phases["overhead"] = (
            phases.get("worker_wait", 0.0)
            + phases.get("load", 0.0)
            + phases.get("correctness_cases", 0.0)
            - (phases["candidate_calls"] - phases["perf_case_calls"])
        )
        verdict.harness_s = {k: round(v, 4) for k, v in {**phases, "total": total}.items()}
        return verdict

    def _build(self, task: Task, candidate: Candidate, verdict: Verdict, phases: dict[str, float]) -> dict | None:
        """Triton candidates are compiled by the worker at their first launch; HIP ones here, with resource checks."""
        if candidate.backend == "triton":
            return {"backend": "triton"}
        from miner.verify.hip_backend import build_hip

        t0 = time.perf_counter()
        result = build_hip(task, candidate.source, device=self.options.device, targets=self.options.hip_targets)
        phases["compile"] = time.perf_counter() - t0
        verdict.resources = result.resources
        verdict.diagnostics = result.diagnostics
        verdict.sandbox["hip"] = result.info
        if result.outcome is not None:
            verdict.outcome, verdict.reason = result.outcome, result.reason
            verdict.compiled = result.outcome == Outcome.RESOURCE_LIMIT
            return None
        verdict.compiled = True
        if result.shared_object is None:
            verdict.executed = False
            verdict.outcome = Outcome.NOT_RUN
            verdict.platform = "compile-only (no GPU that runs HIP here)"
            verdict.gpu = None
            verdict.reason = "compiled for " + ", ".join(self.options.hip_targets) + "; not executed"
            return None
        verdict.platform = result.platform
        return {"backend": "hip", "so": result.shared_object, "symbol": result.symbol, "params": result.params}

    def _run_worker(self, task, candidate, built, worker, verdict: Verdict, phases: dict[str, float]) -> None:
        t0 = time.perf_counter()
        cand_path = worker.workdir / ("candidate.py" if candidate.backend == "triton" else "candidate.so")
        if candidate.backend == "triton":
            cand_path.write_text(candidate.source)
        else:
            shutil.copyfile(built["so"], cand_path)
        try:
            loaded, _ = worker.call(
                {"op": "load", "task": str(self._task_path(task)), "backend": candidate.backend,
                 "candidate": str(cand_path), "symbol": built.get("symbol"), "params": built.get("params")},
                timeout=self.options.first_call_timeout_s,
            )  # fmt: skip
            phases["load"] = time.perf_counter() - t0
            if not loaded.get("ok"):
                stage = Outcome.COMPILE if loaded.get("stage") == "compile" else Outcome.LOAD
                verdict.outcome, verdict.reason = stage, loaded.get("error", "")[:2000]
                verdict.cases = [CaseResult(label="load", purpose="load", shown=True, outcome=stage,
                                            detail=verdict.reason, lines=loaded.get("lines", []))]  # fmt: skip
                return
            verdict.compiled = True  # Triton compiles at the first launch: a compile error there resets this
            if loaded.get("tampered"):
                raise _Abort(Outcome.SUSPECTED_HACK, "patched at import: " + ", ".join(loaded["tampered"]))
            if loaded.get("attempts"):
                raise _Abort(Outcome.SUSPECTED_HACK, "at import: " + _attempts_text(loaded["attempts"]))
            self._check_cases(task, candidate, worker, verdict, phases)
        except _Abort as stop:
            verdict.outcome, verdict.reason = stop.outcome, stop.detail
            verdict.compiled = verdict.compiled and stop.outcome != Outcome.COMPILE
            if verdict.cases and verdict.cases[-1].outcome == Outcome.PASSED:
                verdict.cases[-1].outcome, verdict.cases[-1].detail = stop.outcome, stop.detail
                verdict.cases[-1].lines = stop.lines
            return
        except WorkerTimedOut as exc:
            verdict.outcome, verdict.reason = Outcome.TIMEOUT, f"killed: {exc}"
        except WorkerOverMemory as exc:
            verdict.outcome, verdict.reason = Outcome.RESOURCE_LIMIT, f"killed: {exc}"
        except WorkerDied as exc:
            tail = exc.stderr_tail.strip().splitlines()[-1:] if exc.stderr_tail.strip() else []
            verdict.outcome, verdict.reason = Outcome.RUNTIME, f"worker {exc}" + (f": {tail[0][:300]}" if tail else "")
        if verdict.outcome != Outcome.PASSED and verdict.cases and verdict.cases[-1].outcome == Outcome.PASSED:
            verdict.cases[-1].outcome, verdict.cases[-1].detail = verdict.outcome, verdict.reason

    # ------------------------------------------------------------------------------------------------------

    def _check_cases(self, task: Task, candidate: Candidate, worker, verdict: Verdict, phases) -> None:
        opts = self.options
        rng = secrets.SystemRandom() if opts.seed is None else random.Random(opts.seed)
        self._rng = rng
        cases = [c for c in task.cases if c.purpose == "correctness" or (opts.performance and opts.device == "cuda")]
        first = True
        t0 = time.perf_counter()
        t_timing = 0.0
        t_perf = 0.0
        for case in cases:
            t_case = time.perf_counter()
            result = CaseResult(label=case.label, purpose=case.purpose, shown=case.shown, outcome=Outcome.PASSED)
            verdict.cases.append(result)
            seed_a, seed_b = rng.getrandbits(62), rng.getrandbits(62)
            verdict.seeds += [seed_a, seed_b]
            inputs_a, expected_a = self._expected(task, case, seed_a)
            skip = self._skip_reason(case, inputs_a, expected_a)
            if skip:
                verdict.cases.pop()
                verdict.skipped.append(f"{case.label}: {skip}")
                continue
            tols = [task.tolerance(_dtype_name(e.dtype), candidate.backend) for e in expected_a]
            if case.purpose == "correctness":  # performance cases are not counted as evidence, so no canary
                result.weak = weak_case(expected_a, task.result_names, inputs_a, tols)
            outs = _out_specs(task, expected_a)
            self._case_bytes = memory.case_bytes([v for v in inputs_a.values() if isinstance(v, torch.Tensor)])
            self._case_bytes += memory.case_bytes(expected_a)
            timeout = opts.first_call_timeout_s if first else opts.call_timeout_s
            run_a = self._run(worker, task, case, seed_a, outs, expected_a, result, timeout=timeout, reuse=False)
            first = False
            self._check_digests(task, inputs_a, run_a.header, result)
            bad = self._mismatches(task, run_a.outs, expected_a, tols)
            if bad:
                self._fail(result, Outcome.MISMATCH, bad, "differs from the reference")
                continue
            run_again = self._run(
                worker, task, case, seed_a, outs, expected_a, result, timeout=opts.call_timeout_s, reuse=True
            )
            if self._mismatches(task, run_again.outs, run_a.outs, tols):
                self._fail(result, Outcome.NONDETERMINISTIC, [], "two runs on the same inputs disagree")
                continue
            inputs_b, expected_b = self._expected(task, case, seed_b)
            run_b = self._run(
                worker, task, case, seed_b, outs, expected_b, result, timeout=opts.call_timeout_s, reuse=True
            )
            self._check_digests(task, inputs_b, run_b.header, result)
            bad = self._mismatches(task, run_b.outs, expected_b, tols)
            if bad:
                reference_moved = any(not torch.equal(a, b) for a, b in zip(expected_a, expected_b, strict=True))
                stale = all(torch.equal(a, b) for a, b in zip(run_a.outs, run_b.outs, strict=True))
                if reference_moved and stale and not result.weak:  # a canary passing the first inputs is no evidence
                    raise _Abort(
                        Outcome.SUSPECTED_HACK,
                        f"{case.label}: output did not change when the inputs did (cached or input-independent)",
                    )
                self._fail(
                    result, Outcome.MISMATCH, bad, "differs from the reference on new inputs in the same buffers"
                )
                continue
            if case.purpose == "performance":
                t1 = time.perf_counter()
                result.timing = self._time_case(task, case, worker, inputs_b, expected_b, tols, result)
                t_timing += time.perf_counter() - t1
                t_perf += t1 - t_case
            elif opts.repetitions and not result.weak and not opts.performance:
                self._repeat_case(task, case, worker, expected_b, tols, result)
        phases["correctness_cases"] = time.perf_counter() - t0 - t_timing - t_perf
        phases["performance_cases"] = t_perf
        phases["timing"] = t_timing
        self._conclude(verdict)

    def _conclude(self, verdict: Verdict) -> None:
        failed = [c for c in verdict.cases if c.outcome != Outcome.PASSED]
        verdict.weak_cases = sum(1 for c in verdict.cases if c.weak)
        strong = [c for c in verdict.cases if not c.weak and c.purpose == "correctness"]
        if not failed and not strong:
            verdict.outcome, verdict.reason = (
                Outcome.MISMATCH,
                "no case strong enough to tell the candidate from a canary",
            )
            return
        if failed:
            shown_ok = all(c.outcome == Outcome.PASSED for c in verdict.cases if c.shown)
            strong_shown = [c for c in strong if c.shown and c.outcome == Outcome.PASSED]
            held_back_only = all(not c.shown and c.outcome == Outcome.MISMATCH for c in failed)
            if shown_ok and strong_shown and held_back_only:
                verdict.outcome = Outcome.SUSPECTED_HACK
                verdict.reason = f"passes every shown case but fails {len(failed)} held-back case(s): specialised to the shown shapes"
                return
            first = failed[0]
            verdict.outcome, verdict.reason = first.outcome, f"{first.label}: {first.detail}"
            return
        verdict.correct = True
        timings = [c.timing for c in verdict.cases if c.timing is not None]
        if timings:
            verdict.speedup = geomean([t.speedup for t in timings])
            flagged = [f"{c.label}: {f}" for c in verdict.cases if c.timing for f in c.timing.flags]
            verdict.implausible = bool(flagged)
            if any("outside the timed stream" in f for f in flagged):
                verdict.outcome, verdict.correct = Outcome.SUSPECTED_HACK, False
                verdict.reason = flagged[0]
                return
            verdict.reason = "; ".join(flagged) if flagged else f"speedup {verdict.speedup:.2f}x"
        else:
            verdict.reason = "correct on every case"

    # ------------------------------------------------------------------------------------------------------

    def _skip_reason(self, case: Case, inputs: dict[str, Any], expected: list[torch.Tensor]) -> str:
        limit = self.options.max_case_elements
        if limit is not None and _elements(inputs, expected) > limit:
            return f"more than {limit} elements"
        if case.params.get("dtype") in self.options.unsupported_dtypes:
            return f"{case.params['dtype']} unsupported on {self.options.device}"
        return ""

    def _expected(self, task: Task, case: Case, seed: int) -> tuple[dict[str, Any], list[torch.Tensor]]:
        gen = torch.Generator(device=self.options.device).manual_seed(seed)
        inputs = task.make_inputs(dict(case.params), gen, self.options.device)
        clones = {k: v.clone() if isinstance(v, torch.Tensor) else v for k, v in inputs.items()}
        with torch.no_grad():
            expected = [e.contiguous() for e in task.results(task.reference(**clones))]
        return inputs, expected

    def _limits(self, worker, kept_bytes: int = 0) -> dict[str, int]:
        """The current case's memory limits: watched from here (host) and sent to the worker (both)."""
        opts = self.options
        worker.case_limit = memory.host_limit(self._case_bytes + kept_bytes, opts.device, self._host_share)
        if opts.device == "cuda":
            self._device_limit = memory.device_limit(self._case_bytes, kept_bytes, self._device_share)
            return {"host_limit": worker.case_limit, "device_limit": self._device_limit}
        return {"host_limit": worker.case_limit}

    def _run(self, worker, task, case, seed, outs, expected, result, *, timeout: float, reuse: bool) -> _Run:
        header, blobs = worker.call(
            {"op": "run", "params": dict(case.params), "seed": seed, "outs": outs, "reuse": reuse,
             **self._limits(worker)},
            timeout=timeout,
        )  # fmt: skip
        if not header.get("ok"):
            raise _Abort(_failure_outcome(header), f"{case.label}: {header.get('error', 'failed')[:2000]}",
                         header.get("lines"))  # fmt: skip
        self._audit(header, result, worker)
        call_s = float(header.get("call_s", 0.0))
        self._clock["candidate_calls"] = self._clock.get("candidate_calls", 0.0) + call_s
        if case.purpose == "performance":
            self._clock["perf_case_calls"] = self._clock.get("perf_case_calls", 0.0) + call_s
        return _Run(header, self._decode(blobs, expected))

    def _decode(self, blobs: list[bytes], expected: list[torch.Tensor]) -> list[torch.Tensor]:
        out = []
        for blob, e in zip(blobs, expected, strict=True):
            if len(blob) != e.numel() * e.element_size():
                raise _Abort(Outcome.RUNTIME, f"output of {len(blob)} bytes, expected {e.numel() * e.element_size()}")
            t = torch.frombuffer(blob, dtype=torch.uint8) if blob else torch.empty(0, dtype=torch.uint8)
            out.append(t.view(e.dtype).reshape(e.shape).to(e.device))
        return out

    def _audit(self, header: dict[str, Any], result: CaseResult, worker) -> None:
        if stray := child_processes(worker.pid):
            raise _Abort(Outcome.SUSPECTED_HACK, f"{result.label}: started processes still there: {stray[:5]}")
        if header.get("tampered"):
            raise _Abort(Outcome.SUSPECTED_HACK, f"{result.label}: patched " + ", ".join(header["tampered"]))
        if header.get("objects"):
            raise _Abort(Outcome.SUSPECTED_HACK, f"{result.label}: " + "; ".join(header["objects"]))
        if header.get("attempts"):
            raise _Abort(Outcome.SUSPECTED_HACK, f"{result.label}: " + _attempts_text(header["attempts"]))
        limit = getattr(self, "_device_limit", None)
        if header.get("device_peak") and limit and header["device_peak"] > limit:
            raise _Abort(
                Outcome.RESOURCE_LIMIT,
                f"{result.label}: device memory peak {header['device_peak'] >> 20} MiB over the {limit >> 20} MiB limit",
            )
        if header.get("halted"):
            raise _Abort(Outcome.SUSPECTED_HACK, f"{result.label}: the worker stopped on tampering")
        if header.get("threads"):
            raise _Abort(
                Outcome.SUSPECTED_HACK, f"{result.label}: left threads running after returning: {header['threads']}"
            )
        if header.get("torch_ops"):
            raise _Abort(
                Outcome.SUSPECTED_HACK,
                f"{result.label}: computed with torch instead of a kernel: {header['torch_ops']}",
            )

    def _check_digests(self, task: Task, inputs: dict[str, Any], header: dict[str, Any], result: CaseResult) -> None:
        for a in task.args:
            if a.kind != "in":
                continue
            mine = checksum(inputs[a.name])
            if header.get("digests", {}).get(a.name) != mine:
                raise _Abort(
                    Outcome.SUSPECTED_HACK, f"{result.label}: wrote into input {a.name}, which the task marks read-only"
                )

    def _mismatches(self, task, got, expected, tols) -> list[MismatchInfo]:
        out = []
        for name, g, e, (rtol, atol) in zip(task.result_names, got, expected, tols, strict=True):
            m = compare(name, g, e, rtol, atol, equal_nan=True)
            if m is not None:
                out.append(m)
        return out

    def _fail(self, result: CaseResult, outcome: Outcome, bad: list[MismatchInfo], detail: str) -> None:
        result.outcome = outcome
        result.mismatches = list(bad)
        if bad:
            m = bad[0]
            detail += (f": {m.name} max abs err {m.max_abs_err:.3g}, max rel err {m.max_rel_err:.3g}, "
                       f"{m.mismatch_fraction:.1%} mismatched, first at {m.first_bad_index} "
                       f"(expected {m.expected_at_first_bad:.6g}, got {m.got_at_first_bad:.6g}), {m.nan_count} NaN")  # fmt: skip
        result.detail = detail

    def _repeated(self, task, case, worker, expected, tols, result, *, reps: int, wall_reps: int, warmup: int,
                  checks: int) -> dict[str, Any]:  # fmt: skip
        """One ``time`` command (every call on fresh inputs in the same buffers), then ``checks`` of the kept
        repetitions, picked here after the reply, checked against the reference on their inputs."""
        out_bytes = memory.case_bytes(expected) or 1
        checked = reps if self.options.device == "cuda" else wall_reps
        keep = max(1, min(checked, memory.STORE_BUDGET // out_bytes))
        header, _ = worker.call(
            {"op": "time", "params": dict(case.params), "reps": reps, "wall_reps": wall_reps, "warmup": warmup,
             "keep": keep, **self._limits(worker, keep * out_bytes)},
            timeout=self.options.call_timeout_s * 4,
        )  # fmt: skip
        if not header.get("ok"):
            raise _Abort(_failure_outcome(header), f"{result.label} (repeated calls): {header.get('error', '')[:1000]}")
        self._audit(header, result, worker)
        kept = header.get("kept") or []
        if not kept:
            raise _Abort(Outcome.RUNTIME, f"{result.label}: the worker kept no repeated call to check")
        picks = self._rng.sample(range(len(kept)), min(checks, len(kept)))
        fetched, blobs = worker.call({"op": "fetch", "slots": picks}, timeout=self.options.call_timeout_s)
        n = len(task.result_names)
        if not fetched.get("ok") or len(blobs) != n * len(picks):
            raise _Abort(Outcome.RUNTIME, f"{result.label}: the kept outputs did not come back")
        for j, k in enumerate(picks):
            rep, seed = kept[k]
            _, expected_k = self._expected(task, case, int(seed))
            if self._mismatches(task, self._decode(blobs[j * n : (j + 1) * n], expected_k), expected_k, tols):
                raise _Abort(
                    Outcome.SUSPECTED_HACK,
                    f"{result.label}: repeated call {rep + 1} of {checked}, on fresh inputs, is wrong where the "
                    "first calls were right (replayed or skipped work); not timed",
                )
        return header

    def _repeat_case(self, task, case, worker, expected, tols, result: CaseResult) -> None:
        reps = self.options.repetitions
        header = self._repeated(
            task, case, worker, expected, tols, result, reps=0, wall_reps=reps, warmup=0, checks=reps
        )
        self._clock["candidate_calls"] = self._clock.get("candidate_calls", 0.0) + sum(header["wall_us"]) / 1e6

    def _time_case(self, task, case, worker, inputs, expected, tols, result: CaseResult) -> Timing:
        opts = self.options
        cand: list[float] = []
        ref: list[float] = []
        walls: list[float] = []
        clones = {k: v.clone() if isinstance(v, torch.Tensor) else v for k, v in inputs.items()}
        for _ in range(opts.rounds):
            header = self._repeated(task, case, worker, expected, tols, result, reps=opts.reps,
                                    wall_reps=opts.wall_reps, warmup=opts.warmup, checks=1)  # fmt: skip
            cand += header["event_us"] or header["wall_us"]
            sync_us = statistics.median(header["sync_us"]) if header.get("sync_us") else 0.0
            walls += [w - sync_us for w in header["wall_us"]]
            ref += self.timer.time(lambda: task.reference(**clones), reps=opts.reps, warmup=opts.warmup)
        event_med, ref_med = statistics.median(cand), statistics.median(ref)
        wall_med = statistics.median(walls) if walls else event_med
        # work the events missed (a side stream, a thread) still shows in the synchronised wall time: the candidate
        # is charged the larger of the two
        cand_med = max(event_med, wall_med)
        bw = self.timer.bandwidth()
        nbytes = sum(v.numel() * v.element_size() for v in inputs.values() if isinstance(v, torch.Tensor))
        nbytes += sum(e.numel() * e.element_size() for e in expected)
        floor = nbytes / (bw * 1.3) * 1e6 if bw else None
        speedup = ref_med / cand_med if cand_med > 0 else float("inf")
        return Timing(
            candidate_us=cand_med, candidate_p10_us=quantile(cand, 0.1), candidate_p90_us=quantile(cand, 0.9),
            reference_us=ref_med, reference_p10_us=quantile(ref, 0.1), reference_p90_us=quantile(ref, 0.9),
            speedup=speedup, reps=opts.reps, rounds=opts.rounds, wall_us=wall_med, floor_us=floor,
            flags=plausibility_flags(speedup=speedup, candidate_us=cand_med, event_us=event_med, wall_us=wall_med, floor_us=floor),
        )  # fmt: skip

    def _health_check(self) -> bool:
        try:
            worker = self.pool.take()
        except Exception:
            return False
        try:
            header, _ = worker.call({"op": "health"}, timeout=60)
            return bool(header.get("ok"))
        except Exception:
            return False
        finally:
            worker.close()

    @functools.cached_property
    def _gpu(self) -> str | None:
        if self.options.device == "cpu" or not torch.cuda.is_available():
            return None
        uuid = getattr(torch.cuda.get_device_properties(torch.cuda.current_device()), "uuid", None)
        return f"GPU-{uuid}" if uuid is not None else os.environ.get("CUDA_VISIBLE_DEVICES", "cuda")

    def _platform(self, backend: str) -> str:
        if self.options.device == "cpu":
            return "cpu (triton interpreter)" if backend == "triton" else "compile-only"
        name = torch.cuda.get_device_name() if torch.cuda.is_available() else "gpu"
        runtime = f"rocm {torch.version.hip}" if torch.version.hip else f"cuda {torch.version.cuda}"
        return f"{runtime} ({name})"

    def _task_path(self, task: Task) -> Path:
        from miner.verify.tasks import task_file

        return Path(task.path) if task.path else task_file(task.name)


def _failure_outcome(header: dict[str, Any]) -> Outcome:
    return {"compile": Outcome.COMPILE, "resource-limit": Outcome.RESOURCE_LIMIT}.get(
        header.get("stage"), Outcome.RUNTIME
    )


def _attempts_text(attempts: list[str]) -> str:
    return "tried to reach the network or start a process: " + "; ".join(attempts[:5])


def _out_specs(task: Task, expected: list[torch.Tensor]) -> list[dict[str, Any]]:
    """Shapes and dtypes of the ``out`` arguments, which the worker allocates: the last results of the reference."""
    outs = [a for a in task.args if a.kind == "out"]
    tail = expected[len(expected) - len(outs) :]
    return [
        {"name": a.name, "shape": list(e.shape), "dtype": _dtype_name(e.dtype)} for a, e in zip(outs, tail, strict=True)
    ]


def _dtype_name(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def _elements(inputs: dict[str, Any], expected: list[torch.Tensor]) -> int:
    tensors = [v for v in inputs.values() if isinstance(v, torch.Tensor)] + expected
    return max((t.numel() for t in tensors), default=0)
