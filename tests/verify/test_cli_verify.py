"""``rocm-miner verify``: one candidate by hand (exit 0 passed, 1 rejected, 2 bad input) and the loop end to end
against a scripted OpenAI-compatible server."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from tests.support.chat_server import Reply, ScriptedChatServer
from tests.verify.conftest import ADVERSARIAL, REPO, SOLUTIONS
from tests.verify.test_loop import scripted


def cli(*args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "miner.cli", "verify", *args], capture_output=True, text=True,
                          cwd=REPO, timeout=600, env={**os.environ, **(env or {})})  # fmt: skip


def test_candidate_by_hand_passes_and_writes_its_verdict(tmp_path):
    proc = cli("--candidate", str(SOLUTIONS / "triton" / "axpy.py"), "axpy", "--device", "cpu", "--out", str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().splitlines()[-1].startswith("passed")
    assert json.loads((tmp_path / "verdict.json").read_text())["outcome"] == "passed"


def test_rejected_candidate_exits_1_with_its_class(tmp_path):
    proc = cli("--candidate", str(ADVERSARIAL / "zeros.py"), "vector_add", "--device", "cpu", "--out", str(tmp_path))
    assert proc.returncode == 1
    assert proc.stdout.strip().splitlines()[-1].startswith("mismatch")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        pytest.param(["--candidate", "/no/such.py", "scal"], "no such file", id="missing-candidate"),
        pytest.param(["--candidate", __file__, "nosuchtask"], "no task named 'nosuchtask'", id="unknown-task"),
        pytest.param(["scal", "--turns", "0"], "argument --turns: must be at least 1, got 0", id="zero-turns"),
        pytest.param(["scal", "--attempts", "x"], "argument --attempts: expected a whole number", id="bad-attempts"),
        pytest.param(["scal", "--device", "cpu"], "no model", id="no-model"),
        pytest.param(["--candidate", __file__], "give TASKS", id="no-task"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args, message):
    proc = cli(*args, env={"OPENAI_MODEL": ""})
    assert proc.returncode == 2
    lines = proc.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("rocm-miner: error:") and message in lines[0], proc.stderr


def test_a_folder_without_tasks_is_one_line_and_exit_2(tmp_path):
    proc = cli(str(tmp_path), "--device", "cpu", "--model", "m")
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines() == [f"rocm-miner: error: no task files in {tmp_path}"]


def test_loop_end_to_end_against_a_scripted_server(tmp_path):
    with ScriptedChatServer(scripted) as server:
        env = {"OPENAI_BASE_URL": server.base_url, "OPENAI_MODEL": "scripted-model", "OPENAI_API_KEY": "k"}
        proc = cli("vector_add,scal", "--turns", "2", "--device", "cpu", "--out", str(tmp_path), env=env)
        assert proc.returncode == 0, proc.stderr
        again = cli("vector_add,scal", "--turns", "2", "--device", "cpu", "--out", str(tmp_path), env=env)
    assert again.returncode == 0 and "0 / 2" in again.stdout
    records = [json.loads(line) for line in (tmp_path / "attempts.jsonl").read_text().splitlines()]
    assert len(records) == 4 and sorted(r["reward"] for r in records) == pytest.approx([0.0, 0.0, 1.4, 1.4])
    run = json.loads((tmp_path / "run.json").read_text())
    assert run["model"] == "scripted-model" and run["environment"]["torch"]


def test_loop_with_the_server_failing_exits_1_and_a_rerun_retries(tmp_path):
    config = tmp_path / "agent.toml"
    config.write_text('[agent]\nmodel = "scripted-model"\napi_key = "k"\nmax_retries = 0\n')
    out = tmp_path / "out"
    down = True

    def flaky(body: dict) -> Reply:
        return Reply(status=503) if down else scripted(body)

    with ScriptedChatServer(flaky) as server:
        args = ("gelu", "--turns", "1", "--device", "cpu", "--agent-config", str(config), "--out", str(out))
        proc = cli(*args, env={"OPENAI_BASE_URL": server.base_url})
        assert proc.returncode == 1, proc.stderr
        last = proc.stderr.strip().splitlines()[-1]
        assert last == "rocm-miner: 1 attempts not done (http-503 1); a re-run retries them"
        assert not (out / "attempts.jsonl").exists()
        down = False
        again = cli(*args, env={"OPENAI_BASE_URL": server.base_url})
    assert again.returncode == 0 and "1 / 0" in again.stdout, again.stderr
    assert [json.loads(line)["agent_failure"] for line in (out / "attempts.jsonl").read_text().splitlines()] == [
        "no-code-block"
    ]


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["--candidate", str(SOLUTIONS / "triton" / "scal.py"), "scal"], id="candidate"),
        pytest.param(["scal", "--model", "m"], id="loop"),
    ],
)
def test_out_that_is_a_file_is_one_line_and_exit_2_before_verifying(tmp_path, args):
    out = tmp_path / "afile"
    out.write_text("keep me")
    proc = cli(*args, "--device", "cpu", "--out", str(out), env={"OPENAI_BASE_URL": "http://127.0.0.1:9/v1"})
    assert proc.returncode == 2 and proc.stdout == ""
    assert proc.stderr.strip().splitlines() == [
        f"rocm-miner: error: {out}: cannot create the output directory: File exists"
    ]
    assert out.read_text() == "keep me"
