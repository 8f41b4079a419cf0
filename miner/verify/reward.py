"""The paper's reward and the multi-turn discounted return.

r = 0.4 · compiled + 1.0 · correct + min(0.375 · (log2 s)², 1.5) for a correct kernel with speedup s ≥ 1;
a speedup held for review (implausible) earns no speed term until a person clears it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from miner.verify.models import Verdict

COMPILE_WEIGHT = 0.4
CORRECT_WEIGHT = 1.0
SPEED_WEIGHT = 0.375
SPEED_CAP = 1.5
DISCOUNT = 0.6


def reward(verdict: Verdict) -> float:
    r = COMPILE_WEIGHT * verdict.compiled + CORRECT_WEIGHT * verdict.correct
    s = verdict.speedup
    if verdict.correct and s is not None and s >= 1 and not verdict.implausible:
        r += min(SPEED_WEIGHT * math.log2(s) ** 2, SPEED_CAP)
    return r


def discounted_returns(rewards: Sequence[float], gamma: float = DISCOUNT) -> list[float]:
    """R_t = r_t + γ·R_{t+1}: each turn is credited with what its reflection led to."""
    out = [0.0] * len(rewards)
    running = 0.0
    for t in range(len(rewards) - 1, -1, -1):
        running = rewards[t] + gamma * running
        out[t] = running
    return out
