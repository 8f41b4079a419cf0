"""`rocm-miner qa` on bad input: one line on stderr, a non-zero exit, no traceback."""

from __future__ import annotations

import pytest

from miner.cli import main
from tests.support.chat_server import Reply, ScriptedChatServer


def _fails(capsys, *argv: str) -> str:
    assert main(list(argv)) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


def test_missing_bundles(capsys, tmp_path) -> None:
    assert "no bundles at" in _fails(capsys, "qa", str(tmp_path / "nothing"), "--offline")


def test_a_line_that_is_not_a_bundle(capsys, tmp_path) -> None:
    bundles = tmp_path / "bundles.jsonl"
    bundles.write_text('{"id": "x"}\n')
    assert f"{bundles}:1: not a bundle" in _fails(capsys, "qa", str(bundles), "--offline")


def test_a_line_that_is_not_utf8(capsys, tinyblas, tmp_path) -> None:
    _, mined = tinyblas
    bundles = tmp_path / "bundles.jsonl"
    first = (mined / "bundles.jsonl").read_bytes().split(b"\n")[0]
    bundles.write_bytes(first + b'\n{"id": "caf\xe9"}\n')
    assert f"{bundles}:2: not UTF-8 text" in _fails(capsys, "qa", str(bundles), "--offline")


def test_unknown_category(capsys, tinyblas) -> None:
    _, mined = tinyblas
    assert "unknown QA categories: vibes" in _fails(
        capsys, "qa", str(mined), "--offline", "--categories", "launch,vibes"
    )


def test_no_category_is_one_line(capsys, tinyblas) -> None:
    _, mined = tinyblas
    assert "--categories names none" in _fails(capsys, "qa", str(mined), "--offline", "--categories", ",")


@pytest.mark.parametrize("option", ["--limit", "--concurrency", "--max-tokens"])
def test_a_count_below_one_is_a_one_line_usage_error(capsys, tinyblas, option) -> None:
    _, mined = tinyblas
    with pytest.raises(SystemExit) as stop:
        main(["qa", str(mined), "--offline", option, "0"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.count("\n") == 1
    assert err.startswith(f"rocm-miner: error: argument {option}: must be at least 1, got 0")


def test_unreadable_agent_config(capsys, tinyblas, tmp_path) -> None:
    _, mined = tinyblas
    config = tmp_path / "agent.toml"
    config.write_text("[agent\nmodel = ")
    assert "cannot read agent config" in _fails(capsys, "qa", str(mined), "--config", str(config))


@pytest.mark.parametrize(
    ("toml", "message"),
    [
        (b'[agent]\ntimeout_s = "abc"\n', "timeout_s: Input should be a valid number"),
        (b'[agent]\nconcurrency = "x"\n', "concurrency: Input should be a valid integer"),
        (b"[agent]\nconcurrency = 0\n", "concurrency: Input should be greater than or equal to 1"),
        (b"[agent.prices]\nfoo = 1\n", "prices.foo: unknown setting"),
        (b"[agent]\nprices = 3\n", "prices: Input should be a dictionary"),
        (b"[agent]\napi_key_env = 3\n", "api_key_env: expected a variable name"),
        (b"agent = 5\n", "agent: expected a table ([agent])"),
        (b'[agent]\nmodel = "\xff"\n', "not UTF-8"),
    ],
    ids=["float", "int", "range", "unknown-price", "prices-not-a-table", "key-env", "agent-not-a-table", "not-utf8"],
)
def test_agent_config_with_a_bad_value_names_the_file_and_key(capsys, tinyblas, tmp_path, toml, message) -> None:
    _, mined = tinyblas
    config = tmp_path / "agent.toml"
    config.write_bytes(toml)
    err = _fails(capsys, "qa", str(mined), "--out", str(tmp_path), "--config", str(config))
    assert str(config) in err and message in err


@pytest.mark.parametrize("flag", ["--offline", "--no-implementation"])
def test_offline_run_prints_a_summary(capsys, tinyblas, tmp_path, flag) -> None:
    _, mined = tinyblas
    assert main(["qa", str(mined), "--out", str(tmp_path), "--offline", flag]) == 0
    assert (tmp_path / "qa.jsonl").stat().st_size > 0 and (tmp_path / "qa_summary.json").exists()


def test_unreachable_server_leaves_units_for_a_rerun_and_exits_1(capsys, tinyblas, tmp_path):
    _, mined = tinyblas
    config = tmp_path / "agent.toml"
    config.write_text('[agent]\nmodel = "m"\nbase_url = "http://127.0.0.1:9/v1"\nmax_retries = 0\ntimeout_s = 2\n')
    code = main(["qa", str(mined), "--out", str(tmp_path / "out"), "--config", str(config), "--limit", "1"])
    err = capsys.readouterr().err
    assert code == 1 and "units not done (connection" in err and "a re-run retries them" in err
    assert (tmp_path / "out" / "qa_units.jsonl").read_text() == ""


def test_an_endpoint_answering_html_leaves_units_for_a_rerun_and_exits_1(capsys, tinyblas, tmp_path, monkeypatch):
    _, mined = tinyblas
    monkeypatch.setenv("OPENAI_API_KEY", "k")
    page = Reply(raw_body=b"<html>a proxy's login page</html>", content_type="text/html")
    with ScriptedChatServer(lambda body: page) as server:
        code = main(["qa", str(mined), "--out", str(tmp_path), "--model", "m", "--base-url", server.base_url])
    (line,) = capsys.readouterr().err.strip().splitlines()  # one line, no traceback
    assert code == 1 and "units not done (bad-response" in line


def test_a_run_that_leaves_units_undone_keeps_the_outputs_of_the_last_complete_run(capsys, tinyblas, tmp_path):
    _, mined = tinyblas
    out = tmp_path / "out"
    assert main(["qa", str(mined), "--out", str(out), "--offline", "--limit", "1"]) == 0
    before = [(out / name).read_bytes() for name in ("qa.jsonl", "qa_summary.json")]
    config = tmp_path / "agent.toml"
    config.write_text('[agent]\nmodel = "m"\nbase_url = "http://127.0.0.1:9/v1"\nmax_retries = 0\ntimeout_s = 2\n')
    capsys.readouterr()
    assert main(["qa", str(mined), "--out", str(out), "--config", str(config), "--limit", "1"]) == 1
    assert [(out / name).read_bytes() for name in ("qa.jsonl", "qa_summary.json")] == before
    assert "still those of the last complete run" in capsys.readouterr().err


def test_a_killed_runs_temporaries_are_removed_and_a_live_writers_kept(tinyblas, tmp_path) -> None:
    """``atomic_file`` names its temporary by the writer's pid: one whose process is gone is a leftover of a kill."""
    import os

    _, mined = tinyblas
    tmp_path.mkdir(exist_ok=True)
    stale = tmp_path / ".qa.jsonl.999999999.tmp"  # above any pid Linux hands out
    writing = tmp_path / f".qa.jsonl.{os.getppid()}.tmp"  # a live process: another run writing
    stale.write_text("half a line")
    writing.write_text("being written")
    assert main(["qa", str(mined), "--out", str(tmp_path), "--offline", "--limit", "1"]) == 0
    assert not stale.exists() and writing.exists()
    assert (tmp_path / "qa.jsonl").exists()
