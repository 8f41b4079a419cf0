"""Timing in the controller: the reference timed like the candidate (events, L2 flush, many reps), statistics,
and the plausibility rules that keep a fast-looking cheat from being rewarded."""

from __future__ import annotations

import math
import statistics
import time
from collections.abc import Callable, Sequence

import torch

FLUSH_BYTES = 256 << 20
MAX_PLAUSIBLE_SPEEDUP = 20.0
WALL_SLACK_US = 20.0


def quantile(values: Sequence[float], q: float) -> float:
    s = sorted(values)
    if not s:
        return math.nan
    pos = q * (len(s) - 1)
    lo, hi = math.floor(pos), math.ceil(pos)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


class ReferenceTimer:
    """Times trusted callables on the controller's device the way the worker times candidates."""

    def __init__(self, device: str) -> None:
        self.device = device
        self.flush = torch.empty(FLUSH_BYTES, dtype=torch.uint8, device=device) if device == "cuda" else None
        self._bandwidth: float | None = None

    def time(self, fn: Callable[[], object], reps: int, warmup: int) -> list[float]:
        for _ in range(warmup):
            fn()
        if self.device != "cuda":
            out = []
            for _ in range(reps):
                t0 = time.perf_counter_ns()
                fn()
                out.append((time.perf_counter_ns() - t0) / 1e3)
            return out
        pairs = []
        for _ in range(reps):
            self.flush.zero_()
            start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
            start.record()
            fn()
            end.record()
            pairs.append((start, end))
        torch.cuda.synchronize()
        return [s.elapsed_time(e) * 1e3 for s, e in pairs]

    def bandwidth(self) -> float | None:
        """Device copy bandwidth in bytes/s (read + write), measured once; None off the GPU."""
        if self.device != "cuda":
            return None
        if self._bandwidth is None:
            src = torch.empty(1 << 30, dtype=torch.uint8, device="cuda")
            dst = torch.empty_like(src)
            us = statistics.median(self.time(lambda: dst.copy_(src), reps=10, warmup=3))
            self._bandwidth = 2 * src.numel() / (us * 1e-6)
            del src, dst
        return self._bandwidth


def plausibility_flags(
    *, speedup: float, candidate_us: float, event_us: float, wall_us: float, floor_us: float | None
) -> list[str]:
    """Reasons to hold a timing for review instead of rewarding it."""
    flags = []
    if speedup > MAX_PLAUSIBLE_SPEEDUP:
        flags.append(f"speedup {speedup:.1f}x over {MAX_PLAUSIBLE_SPEEDUP:.0f}x")
    if floor_us is not None and candidate_us < floor_us:
        flags.append(f"{candidate_us:.1f} us is below the {floor_us:.1f} us needed to move the data")
    if wall_us > 1.5 * event_us + WALL_SLACK_US:
        flags.append(
            f"synchronised wall time {wall_us:.1f} us far above event time {event_us:.1f} us: work outside the timed stream"
        )
    return flags


def geomean(values: Sequence[float]) -> float | None:
    vals = [v for v in values if v > 0 and math.isfinite(v)]
    if not vals:
        return None
    return math.exp(sum(math.log(v) for v in vals) / len(vals))
