"""Outputs of timed repetitions kept for a check chosen after the fact: a reservoir sample in which the draw that
decides whether a repetition is kept happens after its call has returned, so no call can know it will be checked."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Reservoir:
    """At most ``size`` of the repetitions offered, each kept with the same probability (Algorithm R)."""

    def __init__(self, size: int, urandom: Callable[[int], bytes]) -> None:
        self.size = max(1, size)
        self.slots: list[tuple[int, int, Any]] = []
        self.seen = 0
        self._urandom = urandom

    def offer(self, rep: int, seed: int, take: Callable[[], Any]) -> None:
        """``take`` copies the repetition's outputs; it runs only when they are kept."""
        self.seen += 1
        if len(self.slots) < self.size:
            self.slots.append((rep, seed, take()))
            return
        j = int.from_bytes(self._urandom(8), "little") % self.seen
        if j < self.size:
            self.slots[j] = (rep, seed, take())

    def kept(self) -> list[list[int]]:
        return [[rep, seed] for rep, seed, _ in self.slots]


def fresh_seed(urandom: Callable[[int], bytes]) -> int:
    return int.from_bytes(urandom(8), "little") >> 2
