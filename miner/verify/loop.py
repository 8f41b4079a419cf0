"""The generate → verify → reflect loop: T turns per attempt with the same agent, the paper's reward, discounted
returns, and one record per turn. It knows neither how verification is executed nor where."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any

from miner.verify import VERIFIER_VERSION
from miner.verify.evaluate import Candidate
from miner.verify.feedback import render
from miner.verify.models import Attempt, Verdict
from miner.verify.prompt import extract_code, messages, prompt_hash
from miner.verify.reward import DISCOUNT, discounted_returns, reward
from miner.verify.store import AttemptStore
from miner.verify.tasks import Task

Evaluate = Callable[[Task, Candidate], Awaitable[Verdict]]


@dataclass(frozen=True)
class LoopOptions:
    backend: str = "triton"
    attempts: int = 1
    turns: int = 3
    discount: float = DISCOUNT


async def run_attempt(
    task: Task, attempt: int, client: Any, evaluate: Evaluate, options: LoopOptions, environment: dict[str, Any]
) -> list[Attempt]:
    """One attempt: up to ``turns`` turns of chat → candidate → verdict → feedback."""
    msgs = messages(task, options.backend)
    p_hash = prompt_hash(msgs)
    model = getattr(client.config, "model", "")
    key = f"{task.name}:{task.hash}:{options.backend}:attempt{attempt}"
    turns: list[Attempt] = []
    for turn in range(options.turns):
        answer = await client.chat(msgs)
        code = extract_code(answer.text, options.backend) if answer.ok else None
        base = dict(
            key=f"{key}:turn{turn}", task=task.name, task_hash=task.hash, backend=options.backend, attempt=attempt,
            turn=turn, model=model, prompt_hash=p_hash, verifier_version=VERIFIER_VERSION, environment=environment,
            prompt_tokens=answer.prompt_tokens, completion_tokens=answer.completion_tokens,
        )  # fmt: skip
        if code is None:
            failure = answer.failure or "no-code-block"
            feedback = (
                f"Your answer had no usable code block ({failure}). Answer with the complete file in one code block."
            )
            turns.append(
                Attempt(**base, candidate_hash=None, seeds=[], reward=0.0, agent_failure=failure, feedback=feedback)
            )
        else:
            ext = "py" if options.backend == "triton" else "hip"
            candidate = Candidate(options.backend, code, f"candidate.{ext}")
            verdict = await evaluate(task, candidate)
            feedback = render(verdict, code)
            turns.append(Attempt(**base, candidate_hash=candidate.hash, seeds=verdict.seeds, reward=reward(verdict),
                                 candidate=code, feedback=feedback, verdict=verdict))  # fmt: skip
        msgs = [*msgs, {"role": "assistant", "content": answer.text}, {"role": "user", "content": turns[-1].feedback}]
    returns = discounted_returns([t.reward for t in turns], options.discount)
    return [t.model_copy(update={"discounted_return": g}) for t, g in zip(turns, returns, strict=True)]


async def run_loop(
    tasks: Iterable[Task],
    client: Any,
    evaluate: Evaluate,
    store: AttemptStore,
    options: LoopOptions,
    environment: dict[str, Any],
    progress: Callable[[str], None] | None = None,
) -> dict[str, int]:
    """Every task × attempt not yet in the store, concurrently up to the client's limit; records streamed as they finish."""
    done = store.done()
    jobs = []
    skipped = 0
    for task in tasks:
        for attempt in range(options.attempts):
            key = f"{task.name}:{task.hash}:{options.backend}:attempt{attempt}"
            if key in done:
                skipped += 1
                continue
            jobs.append((task, attempt))

    async def one(task: Task, attempt: int) -> None:
        turns = await run_attempt(task, attempt, client, evaluate, options, environment)
        store.append(turns)
        if progress:
            progress(f"{task.name} attempt {attempt}: rewards {[round(t.reward, 2) for t in turns]}")

    await asyncio.gather(*(one(t, a) for t, a in jobs))
    return {"run": len(jobs), "skipped": skipped}
