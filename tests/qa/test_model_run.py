"""QA through a model: the real client path against a scripted OpenAI-compatible server on 127.0.0.1."""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import time

import pytest

from miner.agent.config import AgentConfig
from miner.qa.model_engine import ModelEngine
from miner.qa.prompts import load_prompts
from miner.qa.run import DryRun, QAOptions, run_qa
from tests.conftest import REPO, read_jsonl
from tests.support.chat_server import Reply, ScriptedChatServer
from tests.support.qa_responder import QAResponder

LIMIT = 3  # bundles


def _run(mined, out, server, limit=LIMIT, **agent):
    config = AgentConfig(base_url=server.base_url, model="scripted", api_key="k", **agent)
    return run_qa(QAOptions(bundles=mined, out=out, agent=config, limit=limit))


@pytest.fixture(scope="module")
def mined(tinyblas):
    return tinyblas[1]


def test_grounded_answers_are_kept_with_their_provenance(mined, tmp_path) -> None:
    with ScriptedChatServer(QAResponder("good")) as server:
        summary = _run(mined, tmp_path, server)
    records = read_jsonl(tmp_path / "qa.jsonl")
    assert records and summary.requests == summary.units == len(server.requests)
    assert summary.dropped == {} and summary.prompt_tokens == 100 * summary.requests
    qa_prompt = load_prompts("qa").sha256
    for record in records:
        assert record["generator"] == "model:scripted" and record["system_fingerprint"] == "fp_scripted"
        assert record["grounding"]["grounded"] and record["attempt"] == 1
        assert record["sampling"] == {"temperature": 0.2, "seed": 0, "max_tokens": 4096}
        if record["kind"] == "qa":
            assert record["prompt_sha256"] == qa_prompt
        else:
            assert record["answer"].startswith("```cpp") and record["kernel_name"] in record["answer"]


def test_ungrounded_items_are_regenerated_once_with_the_findings(mined, tmp_path) -> None:
    with ScriptedChatServer(QAResponder("ungrounded-once")) as server:
        summary = _run(mined, tmp_path, server)
    assert summary.requests == 2 * summary.units and summary.dropped == {}
    assert {r["attempt"] for r in read_jsonl(tmp_path / "qa.jsonl")} == {2}
    follow_up = next(body for body in server.requests if len(body["messages"]) > 2)
    assert "no_such_symbol_anywhere" in follow_up["messages"][-1]["content"]


def test_a_regeneration_the_server_fails_leaves_the_unit_for_the_rerun(mined, tmp_path) -> None:
    first_answers = QAResponder("ungrounded-once")

    def fail_regenerations(body: dict) -> Reply:
        return Reply(status=503) if len(body["messages"]) > 2 else first_answers(body)

    with ScriptedChatServer(fail_regenerations) as server:
        first = _run(mined, tmp_path, server, max_retries=0)
    assert first.units_failed == {"http-503": first.units} and first.dropped == {}
    with ScriptedChatServer(QAResponder("ungrounded-once")) as server:
        second = _run(mined, tmp_path, server)
    assert second.units_cached == 0 and second.dropped == {} and sum(second.kept.values()) > 0


def test_items_still_ungrounded_after_regeneration_are_dropped_and_counted(mined, tmp_path) -> None:
    with ScriptedChatServer(QAResponder("ungrounded")) as server:
        summary = _run(mined, tmp_path, server)
    assert read_jsonl(tmp_path / "qa.jsonl") == []
    assert summary.dropped["ungrounded"] >= summary.units


def test_items_a_regeneration_leaves_out_are_counted_as_dropped(mined, tmp_path) -> None:
    """The model answers the follow-up with one item where two failed: the other is dropped, and counted."""
    import json

    from tests.support.qa_responder import grounded_content

    def one_item_on_regeneration(body: dict) -> Reply:
        if len(body["messages"]) <= 2 or "instruction half" in body["messages"][0]["content"]:
            return Reply(grounded_content(body, bogus=len(body["messages"]) <= 2))
        answer = json.loads(grounded_content(body))
        return Reply(json.dumps({"items": answer["items"][:1]}))

    with ScriptedChatServer(one_item_on_regeneration) as server:
        summary = _run(mined, tmp_path, server)
    first_qa_requests = [
        body
        for body in server.requests
        if len(body["messages"]) <= 2 and "instruction half" not in body["messages"][0]["content"]
    ]
    # each QA unit is asked for two items, both fail, the follow-up brings back one: the other is left out
    assert first_qa_requests and summary.dropped == {"regenerate-left-out": len(first_qa_requests)}
    assert summary.kept["semantics"] + summary.kept["memory"] + sum(summary.kept.values()) > 0


@pytest.mark.parametrize(("mode", "reason"), [("malformed", "request-unparsable"), ("truncated", "request-length")])
def test_malformed_and_truncated_answers_are_dropped_and_counted(mined, tmp_path, mode, reason) -> None:
    with ScriptedChatServer(QAResponder(mode)) as server:
        summary = _run(mined, tmp_path, server)
    assert summary.dropped == {reason: summary.units} and sum(summary.kept.values()) == 0


def test_rate_limits_are_retried(mined, tmp_path) -> None:
    with ScriptedChatServer(QAResponder("rate-limited-once")) as server:
        summary = _run(mined, tmp_path, server)
    assert summary.retries == summary.units and summary.dropped == {} and sum(summary.kept.values()) > 0


def test_timed_out_units_are_left_for_the_rerun(mined, tmp_path) -> None:
    with ScriptedChatServer(QAResponder("good", delay_s=0.5)) as server:
        first = _run(mined, tmp_path, server, limit=1, timeout_s=0.1, max_retries=0)
    assert first.units_failed == {"timeout": first.units} and read_jsonl(tmp_path / "qa.jsonl") == []
    with ScriptedChatServer(QAResponder("good")) as server:
        second = _run(mined, tmp_path, server, limit=1)
    assert second.units_cached == 0 and second.requests == second.units and sum(second.kept.values()) > 0


@pytest.mark.parametrize(
    "reply",
    [Reply(raw_body=b"<html>a proxy's page</html>", content_type="text/html"), Reply(raw_body=b'{"choices": []}')],
    ids=["html", "no-choices"],
)
def test_replies_that_are_not_completions_leave_the_units_for_the_rerun(mined, tmp_path, reply) -> None:
    with ScriptedChatServer(lambda body: reply) as server:
        first = _run(mined, tmp_path, server)
    assert first.units_failed == {"bad-response": first.units} and first.dropped == {}
    assert (tmp_path / "qa_units.jsonl").read_text() == ""
    with ScriptedChatServer(QAResponder("good")) as server:
        second = _run(mined, tmp_path, server)
    assert second.units_cached == 0 and second.requests == second.units and sum(second.kept.values()) > 0


def test_empty_answers_are_the_models_and_are_dropped_and_counted(mined, tmp_path) -> None:
    with ScriptedChatServer(lambda body: Reply(None)) as server:
        summary = _run(mined, tmp_path, server)
    assert summary.dropped == {"request-empty": summary.units} and summary.units_failed == {}


def test_a_unit_that_raises_ends_the_run_with_no_task_exception_left_unretrieved(
    mined, tmp_path, monkeypatch, caplog
) -> None:
    def broken(*_: object, **__: object) -> None:
        raise RuntimeError("a bug in the engine")

    monkeypatch.setattr(ModelEngine, "_check", broken)
    with ScriptedChatServer(QAResponder("good")) as server, pytest.raises(RuntimeError, match="a bug") as raised:
        _run(mined, tmp_path, server)
    del raised  # its traceback holds the run's frames, and so its tasks
    gc.collect()  # a task whose exception nobody retrieved says so when it is collected
    assert "never retrieved" not in caplog.text


def test_dry_run_counts_requests_and_tokens_without_sending_any(mined, tmp_path) -> None:
    with ScriptedChatServer(QAResponder("good")) as server:
        config = AgentConfig(base_url=server.base_url, model="scripted", api_key="k")
        plan = run_qa(QAOptions(bundles=mined, out=tmp_path, agent=config, limit=LIMIT, dry_run=True))
        assert isinstance(plan, DryRun) and plan.requests == plan.units > 0 and plan.prompt_tokens > 1000
        assert server.requests == [] and not any(tmp_path.iterdir())  # nothing sent, nothing written
        _run(mined, tmp_path, server)
        again = run_qa(QAOptions(bundles=mined, out=tmp_path, agent=config, limit=LIMIT, dry_run=True))
    assert again.cached == again.units and again.requests == 0


def _cli(mined, out, server, concurrency=2) -> list[str]:
    return [
        sys.executable, "-m", "miner.cli", "qa", str(mined), "--out", str(out),
        "--model", "scripted", "--base-url", server.base_url, "--concurrency", str(concurrency),
    ]  # fmt: skip


def test_kill_9_and_rerun_ends_with_exactly_the_records_of_an_uninterrupted_run(mined, tmp_path) -> None:
    env = {**os.environ, "OPENAI_API_KEY": "k", "PYTHONPATH": str(REPO)}
    with ScriptedChatServer(QAResponder("good")) as server:
        subprocess.run(_cli(mined, tmp_path / "whole", server), env=env, check=True, capture_output=True)
    expected = (tmp_path / "whole" / "qa.jsonl").read_bytes()
    total = len((tmp_path / "whole" / "qa_units.jsonl").read_text().splitlines())

    killed = tmp_path / "killed"
    journal = killed / "qa_units.jsonl"
    with ScriptedChatServer(QAResponder("good", delay_s=0.05)) as server:
        process = subprocess.Popen(
            _cli(mined, killed, server), env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and (not journal.exists() or journal.read_text().count("\n") < 5):
            time.sleep(0.02)
        os.kill(process.pid, signal.SIGKILL)
        process.wait()
        done = journal.read_text().count("\n")
        assert 5 <= done < total
        assert not (killed / "qa.jsonl").exists()
        subprocess.run(_cli(mined, killed, server), env=env, check=True, capture_output=True)
    assert (killed / "qa.jsonl").read_bytes() == expected
    assert len(journal.read_text().splitlines()) == total  # nothing redone twice


def test_a_partial_last_journal_line_is_dropped_and_redone(mined, tmp_path) -> None:
    with ScriptedChatServer(QAResponder("good")) as server:
        _run(mined, tmp_path, server, limit=1)
        expected = (tmp_path / "qa.jsonl").read_bytes()
        journal = tmp_path / "qa_units.jsonl"
        lines = journal.read_bytes().splitlines(keepends=True)
        journal.write_bytes(b"".join(lines[:-1]) + lines[-1][:50])
        summary = _run(mined, tmp_path, server, limit=1)
    assert summary.units_cached == summary.units - 1
    assert (tmp_path / "qa.jsonl").read_bytes() == expected


def test_config_file_sets_the_agent_and_prices_the_tokens(mined, tmp_path, monkeypatch) -> None:
    monkeypatch.setenv("SCRIPTED_KEY", "secret")
    monkeypatch.delenv("OPENAI_MODEL", raising=False)
    with ScriptedChatServer(QAResponder("good")) as server:
        config_file = tmp_path / "agent.toml"
        config_file.write_text(
            f'[agent]\nmodel = "scripted"\nbase_url = "{server.base_url}"\napi_key_env = "SCRIPTED_KEY"\n'
            "seed = 7\n[agent.prices]\nprompt = 2.0\ncompletion = 8.0\n"
        )
        config = AgentConfig.from_env(config_file, concurrency=4)
        assert (config.model, config.api_key, config.seed, config.concurrency) == ("scripted", "secret", 7, 4)
        summary = run_qa(QAOptions(bundles=mined, out=tmp_path / "out", agent=config, limit=1))
    expected = (summary.prompt_tokens * 2.0 + summary.completion_tokens * 8.0) / 1e6
    assert summary.cost_usd == round(expected, 4) and summary.cost_usd > 0
    assert {body["seed"] for body in server.requests} == {7}
