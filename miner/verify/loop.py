"""The generate → verify → reflect loop: T turns per attempt with the same agent, the paper's reward, discounted
returns, and one record per turn. It knows neither how verification is executed nor where.

An attempt whose request fails in the transport or the server (``is_server_fault``) is not recorded: a re-run does
it again whole."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from miner.agent.client import is_server_fault
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


@dataclass
class LoopSummary:
    run: int = 0  # attempts recorded by this run
    skipped: int = 0  # attempts already recorded
    undone: Counter = field(default_factory=Counter)  # per failure: attempts a re-run does again


class AgentUnavailable(Exception):
    """The model's server could not be reached or failed; the attempt is left undone."""

    def __init__(self, failure: str) -> None:
        self.failure = failure
        super().__init__(failure)


async def run_attempt(
    task: Task, attempt: int, client: Any, evaluate: Evaluate, options: LoopOptions, environment: dict[str, Any]
) -> list[Attempt]:
    """One attempt: up to ``turns`` turns of chat → candidate → verdict → feedback.

    Raises ``AgentUnavailable`` when a request fails in the transport or the server."""
    msgs = messages(task, options.backend)
    p_hash = prompt_hash(msgs)
    model = getattr(client.config, "model", "")
    key = f"{task.name}:{task.hash}:{options.backend}:attempt{attempt}"
    turns: list[Attempt] = []
    for turn in range(options.turns):
        answer = await client.chat(msgs)
        if is_server_fault(answer.failure):
            raise AgentUnavailable(answer.failure)
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
) -> LoopSummary:
    """Every task × attempt not yet in the store, concurrently up to the client's limit; records streamed as they finish."""
    done = store.done()
    jobs = []
    summary = LoopSummary()
    for task in tasks:
        for attempt in range(options.attempts):
            key = f"{task.name}:{task.hash}:{options.backend}:attempt{attempt}"
            if key in done:
                summary.skipped += 1
                continue
            jobs.append((task, attempt))

    async def one(task: Task, attempt: int) -> None:
        try:
            turns = await run_attempt(task, attempt, client, evaluate, options, environment)
        except AgentUnavailable as exc:
            summary.undone[exc.failure] += 1
            message = f"{task.name} attempt {attempt}: not done ({exc.failure}); a re-run retries it"
        else:
            store.append(turns)
            summary.run += 1
            message = f"{task.name} attempt {attempt}: rewards {[round(t.reward, 2) for t in turns]}"
        if progress:
            progress(message)

    await asyncio.gather(*(one(t, a) for t, a in jobs))
    return summary
