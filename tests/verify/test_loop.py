"""The generate → verify → reflect loop against a scripted OpenAI-compatible server: turns, feedback, the paper's
reward with discounting, records, and a resumed run that redoes nothing and duplicates nothing."""

from __future__ import annotations

import asyncio
import json
from collections import Counter

import pytest

from miner.agent.client import AgentClient
from miner.agent.config import AgentConfig
from miner.verify.loop import LoopOptions, LoopSummary, run_loop
from miner.verify.models import Attempt
from miner.verify.reward import discounted_returns, reward
from miner.verify.store import AttemptStore
from miner.verify.tasks import load_task, task_file
from tests.support.chat_server import Reply, ScriptedChatServer
from tests.verify.conftest import SOLUTIONS

BROKEN = "```python\nimport triton\n\ndef launch(*args):\n    return (\n```"


def scripted(body: dict) -> Reply:
    """First turn: a kernel that does not parse; after feedback: our solution. `gelu` never gets code."""
    msgs = body["messages"]
    task = next(name for name in ("vector_add", "scal", "gelu") if f"Task `{name}`" in msgs[1]["content"])
    if task == "gelu":
        return Reply(content="I would rather not.")
    if len(msgs) == 2:
        return Reply(content=BROKEN)
    solution = (SOLUTIONS / "triton" / f"{task}.py").read_text()
    return Reply(content=f"Fixed:\n```python\n{solution}```")


def run(server: ScriptedChatServer, store: AttemptStore, evaluate, names: list[str], turns: int = 2) -> LoopSummary:
    async def go():
        config = AgentConfig(
            base_url=server.base_url, model="scripted-model", api_key="k", concurrency=2, max_retries=0
        )
        async with AgentClient(config) as client:
            tasks = [load_task(task_file(n)) for n in names]
            return await run_loop(tasks, client, evaluate, store, LoopOptions(turns=turns), {"device": "cpu"})

    return asyncio.run(go())


@pytest.fixture
def evaluate(cpu_verifier):
    async def ev(task, candidate):
        return await asyncio.to_thread(cpu_verifier.verify, task, candidate)

    return ev


def test_loop_reflects_on_feedback_and_records_every_turn(tmp_path, evaluate):
    store = AttemptStore(tmp_path)
    with ScriptedChatServer(scripted) as server:
        summary = run(server, store, evaluate, ["vector_add", "scal", "gelu"])
        second_turn_prompts = [r["messages"][-1]["content"] for r in server.requests if len(r["messages"]) > 2]
    assert summary == LoopSummary(run=3, skipped=0)
    records = [Attempt.model_validate(r) for r in store.records()]
    assert len(records) == 6
    by_task = {t: [r for r in records if r.task == t] for t in ("vector_add", "scal", "gelu")}
    for name in ("vector_add", "scal"):
        first, second = sorted(by_task[name], key=lambda r: r.turn)
        assert first.verdict.outcome == "compile" and first.reward == 0.0
        assert second.verdict.outcome == "passed" and second.reward == pytest.approx(1.4)
        assert first.discounted_return == pytest.approx(0.6 * 1.4) and second.discounted_return == pytest.approx(1.4)
        assert second.candidate_hash and second.seeds and second.prompt_hash == first.prompt_hash
        assert second.model == "scripted-model" and second.verifier_version and second.environment == {"device": "cpu"}
        assert second.last_turn and not first.last_turn
    assert all(r.agent_failure == "no-code-block" and r.reward == 0 for r in by_task["gelu"])
    assert any("Verdict: compile" in p and "at line 4: `return (`" in p for p in second_turn_prompts)


def test_a_killed_run_resumes_without_redoing_or_duplicating(tmp_path, evaluate):
    store = AttemptStore(tmp_path)
    with ScriptedChatServer(scripted) as server:
        run(server, store, evaluate, ["scal"])
        with open(store.path, "a") as f:  # a run killed while writing its next attempt
            f.write('{"key": "vector_add:torn')
        store = AttemptStore(tmp_path)
        asked = len(server.requests)
        summary = run(server, store, evaluate, ["scal", "vector_add"])
        assert summary == LoopSummary(run=1, skipped=1)
        assert len(server.requests) == asked + 2  # only vector_add's two turns
    keys = [r["key"] for r in store.records()]
    assert len(keys) == len(set(keys)) == 4
    assert all(json.loads(line) for line in store.path.read_text().splitlines())


@pytest.mark.parametrize(
    ("failure", "reply"),
    [
        pytest.param("http-503", Reply(status=503), id="server-error"),
        pytest.param("http-429", Reply(status=429), id="rate-limited"),
        pytest.param("http-401", Reply(status=401), id="wrong-key"),
        pytest.param("bad-response", Reply(raw_body=b"<html>proxy error</html>"), id="not-json"),
    ],
)
def test_a_server_failure_leaves_the_attempt_undone_and_a_rerun_retries_it(tmp_path, evaluate, failure, reply):
    down = True

    def flaky(body: dict) -> Reply:  # the first turn is answered, the second fails while the server is down
        return reply if down and len(body["messages"]) > 2 else scripted(body)

    store = AttemptStore(tmp_path)
    with ScriptedChatServer(flaky) as server:
        summary = run(server, store, evaluate, ["scal"])
        assert summary == LoopSummary(run=0, skipped=0, undone=Counter({failure: 1}))
        assert store.records() == [] and len(server.requests) == 2
        down = False
        assert run(server, store, evaluate, ["scal"]) == LoopSummary(run=1, skipped=0)
    records = store.records()
    assert [r["turn"] for r in records] == [0, 1] and not any(r["agent_failure"] for r in records)


def test_a_torn_attempt_is_done_again_without_duplicating_its_turns(tmp_path, evaluate):
    store = AttemptStore(tmp_path)
    with ScriptedChatServer(scripted) as server:
        run(server, store, evaluate, ["gelu"], turns=3)
        data = store.path.read_bytes()  # a run killed while writing: turns 0 and 1 whole, turn 2 torn
        store.path.write_bytes(data[: data.rfind(b"\n", 0, len(data) - 1) + 40])
        store = AttemptStore(tmp_path)
        assert store.records() == [] and store.done() == set()
        assert run(server, store, evaluate, ["gelu"], turns=3) == LoopSummary(run=1, skipped=0)
    keys = [r["key"] for r in store.records()]
    assert len(keys) == len(set(keys)) == 3
    assert all(json.loads(line) for line in store.path.read_text().splitlines())


def test_reward_follows_the_paper():
    from miner.verify.models import Outcome, Verdict

    v = Verdict(task="t", task_hash="h", backend="triton", candidate_hash="c", verifier_version="v",
                outcome=Outcome.PASSED, reason="", compiled=True, correct=True, platform="p", speedup=4.0)  # fmt: skip
    assert reward(v) == pytest.approx(0.4 + 1.0 + 1.5)  # 0.375 * 2**2 = 1.5, the cap
    assert reward(v.model_copy(update={"speedup": 2.0})) == pytest.approx(1.4 + 0.375)
    assert reward(v.model_copy(update={"speedup": 0.5})) == pytest.approx(1.4)
    assert reward(v.model_copy(update={"implausible": True})) == pytest.approx(1.4)
    assert reward(v.model_copy(update={"correct": False, "speedup": None})) == pytest.approx(0.4)
    assert discounted_returns([0.0, 0.4, 1.4]) == pytest.approx([0.6 * 0.4 + 0.36 * 1.4, 0.4 + 0.6 * 1.4, 1.4])
