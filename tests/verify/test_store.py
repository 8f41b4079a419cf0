"""attempts.jsonl read back after damage: lines that are not records are skipped, counted and kept; turns of an
attempt whose final turn is missing are dropped, so the attempt is done again whole."""

from __future__ import annotations

import pytest

from miner.verify.models import Attempt
from miner.verify.store import AttemptStore


def turn(attempt: int, t: int) -> Attempt:
    return Attempt(key=f"scal:h:triton:attempt{attempt}:turn{t}", task="scal", task_hash="h", backend="triton",
                   attempt=attempt, turn=t, model="m", prompt_hash="p", candidate_hash=None, verifier_version="v",
                   seeds=[], environment={}, reward=0.0, agent_failure="no-code-block")  # fmt: skip


def turns(attempt: int, n: int) -> list[Attempt]:
    return [turn(attempt, t) for t in range(n)]


@pytest.mark.parametrize(
    "damage",
    [
        pytest.param(b"\xff\xfe not utf-8\n", id="not-utf8"),
        pytest.param(b"[1, 2]\n", id="not-an-object"),
        pytest.param(b'{"last_turn": true}\n', id="no-key"),
        pytest.param(b'{"key": "scal:h:triton:attempt1:turn0", "last_turn": true}\n', id="not-a-record"),
    ],
)
def test_damaged_lines_are_skipped_counted_and_kept(tmp_path, damage):
    store = AttemptStore(tmp_path)
    store.append(turns(0, 2))
    with open(store.path, "ab") as f:
        f.write(damage)
    store = AttemptStore(tmp_path)
    store.append(turns(2, 1))
    assert [r["key"] for r in store.records()] == [t.key for t in turns(0, 2) + turns(2, 1)]
    assert store.done() == {"scal:h:triton:attempt0", "scal:h:triton:attempt2"}
    assert store.damaged == 1 and damage in store.path.read_bytes()


def test_turns_of_an_unfinished_attempt_are_dropped_and_the_rest_kept(tmp_path):
    store = AttemptStore(tmp_path)
    store.append(turns(0, 3))
    with open(store.path, "ab") as f:
        f.write(b"damaged\n")
    kept = store.path.read_bytes()
    store.append(turns(1, 3))
    data = store.path.read_bytes()
    store.path.write_bytes(data[: data.rfind(b"\n", 0, len(data) - 1) + 10])  # attempt 1: turns 0, 1 whole, 2 torn
    store = AttemptStore(tmp_path)
    assert store.done() == {"scal:h:triton:attempt0"}
    assert store.path.read_bytes() == kept
    assert not list(tmp_path.glob(".*.tmp"))


def test_a_turn_of_another_schema_still_counts_for_its_attempt(tmp_path):
    store = AttemptStore(tmp_path)
    store.append(turns(0, 2))
    data = store.path.read_bytes().replace(b'"turn":1,', b'"turn":1,"field_of_a_later_version":1,')
    store.path.write_bytes(data)
    store = AttemptStore(tmp_path)
    assert store.path.read_bytes() == data
    assert store.done() == {"scal:h:triton:attempt0"} and store.damaged == 0
    assert [r["turn"] for r in store.records()] == [0, 1]


def test_an_earlier_run_of_a_finished_attempt_left_by_an_older_version_is_dropped(tmp_path):
    """Older versions cut only a torn line: the complete turns of an attempt killed before its last turn stayed,
    and the attempt was done again whole after them."""
    store = AttemptStore(tmp_path)
    killed = [t.model_copy(update={"last_turn": False}).model_dump_json() for t in turns(1, 2)]
    store.path.write_text("\n".join(killed) + "\n")
    store.append(turns(0, 1))
    store.append(turns(1, 3))
    store = AttemptStore(tmp_path)
    kept = [(r["attempt"], r["turn"]) for r in store.records()]
    assert kept == [(0, 0), (1, 0), (1, 1), (1, 2)]
    assert len(store.path.read_bytes().splitlines()) == 4
    assert store.done() == {"scal:h:triton:attempt0", "scal:h:triton:attempt1"}
