"""Shared fixtures: the bundled example libraries, mined once per test session."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from miner.pipeline import Analysis, MineOptions, analyse, open_checkout, write_outputs

REPO = Path(__file__).resolve().parents[1]
EXAMPLES = REPO / "examples"
TINYBLAS = EXAMPLES / "tinyblas"
TINYSOLVER = EXAMPLES / "tinysolver"


@pytest.fixture(scope="session")
def expected() -> dict:
    return json.loads((EXAMPLES / "expected.json").read_text())


@pytest.fixture(scope="session", autouse=True)
def shared_cache_home(tmp_path_factory) -> Iterator[Path]:
    """The tests' runs (and the command lines they start) never use the user's own shared cache."""
    home = tmp_path_factory.mktemp("xdg-cache")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("XDG_CACHE_HOME", str(home))
        yield home


@pytest.fixture(scope="session")
def cache_dir(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("cache")


def _mine(path: Path, out: Path, cache: Path, **kw) -> tuple[Analysis, Path]:
    opts = MineOptions(path=path, out=out, jobs=2, cache_dir=cache, **kw)
    with open_checkout(path, None) as checkout:
        a = analyse(opts, checkout)
        write_outputs(a, opts, 0.0)
    return a, out


@pytest.fixture(scope="session")
def tinyblas(tmp_path_factory, cache_dir) -> tuple[Analysis, Path]:
    return _mine(TINYBLAS, tmp_path_factory.mktemp("tinyblas-out"), cache_dir)


@pytest.fixture(scope="session")
def tinysolver(tmp_path_factory, cache_dir) -> tuple[Analysis, Path]:
    return _mine(
        TINYSOLVER, tmp_path_factory.mktemp("tinysolver-out"), cache_dir, with_libraries={"tinyblas": TINYBLAS}
    )


def read_jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines() if line.strip()]


EXPECTED_COUNT = Path(__file__).with_name("expected_count.txt")  # raise it when tests are added


def pytest_collection_finish(session) -> None:
    """A whole-suite run (no paths, -k, -m or deselection) that collects fewer than 95 % of the recorded number of
    tests fails: a suite that loses a folder to a failed install must not pass by testing less."""
    config = session.config
    whole = config.args_source != pytest.Config.ArgsSource.ARGS and not (
        config.option.keyword or config.option.markexpr or config.option.deselect or getattr(config.option, "lf", False)
    )
    expected = int(EXPECTED_COUNT.read_text())
    if whole and len(session.items) < 0.95 * expected:
        pytest.exit(
            f"collected {len(session.items)} tests, fewer than 95 % of the {expected} in {EXPECTED_COUNT.name}", 1
        )
