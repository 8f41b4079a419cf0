"""Decontamination: rows whose text equals an evaluation item, or shares a long n-gram of tokens with one, are
removed, each naming the item it overlaps."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from miner.errors import InputError
from miner.models.corpus import CorpusRow

_TOKEN = re.compile(r"\w+|[^\w\s]")


@dataclass(frozen=True)
class EvalItem:
    name: str  # "file", or "file:line" for a line of a JSONL file
    text: str


@dataclass(frozen=True)
class Overlap:
    item: str
    how: str  # "exact" or "<n>-gram"


def read_eval_sets(paths: list[Path]) -> list[EvalItem]:
    """Items of the named evaluation sets: a folder's files, a JSONL file's lines (their strings joined), any other
    file whole."""
    items: list[EvalItem] = []
    for path in paths:
        if not path.exists():
            raise InputError("no such evaluation set", path=str(path))
        files = sorted(p for p in path.rglob("*") if p.is_file()) if path.is_dir() else [path]
        for file in files:
            items.extend(_items(file))
    if not items:
        raise InputError(f"the evaluation sets hold no items: {', '.join(map(str, paths))}")
    return items


def _items(file: Path) -> Iterator[EvalItem]:
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"cannot read this evaluation item as UTF-8 text ({exc})", path=str(file)) from None
    if file.suffix != ".jsonl":
        if text.strip():
            yield EvalItem(str(file), text)
        return
    for n, line in enumerate(text.splitlines(), 1):
        if line.strip():
            try:
                yield EvalItem(f"{file}:{n}", "\n".join(_strings(json.loads(line))))
            except ValueError:
                raise InputError(f"{file}:{n}: not JSON") from None


def _strings(value) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for v in value.values():
            yield from _strings(v)
    elif isinstance(value, list):
        for v in value:
            yield from _strings(v)


def _normal(text: str) -> str:
    return " ".join(text.split())


class Decontaminator:
    def __init__(self, items: list[EvalItem], ngram: int) -> None:
        self.ngram = ngram
        self.exact: dict[str, str] = {}
        self.grams: dict[tuple[str, ...], str] = {}
        for item in items:
            self.exact.setdefault(_normal(item.text), item.name)
            tokens = _TOKEN.findall(item.text.lower())
            for i in range(len(tokens) - ngram + 1):
                self.grams.setdefault(tuple(tokens[i : i + ngram]), item.name)

    def overlap(self, row: CorpusRow) -> Overlap | None:
        fields = [row.question, row.answer, row.reference]
        for text in fields:
            if text and (name := self.exact.get(_normal(text))) is not None:
                return Overlap(name, "exact")
        if not self.grams:
            return None
        n = self.ngram
        for text in fields:
            tokens = _TOKEN.findall(text.lower())
            for i in range(len(tokens) - n + 1):
                if (name := self.grams.get(tuple(tokens[i : i + n]))) is not None:
                    return Overlap(name, f"{n}-gram")
        return None
