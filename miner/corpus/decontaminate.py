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
    """A row overlaps an evaluation item when one of its texts equals the item (whitespace collapsed), or when the
    n-grams of tokens they share make up at least ``overlap`` of the item's n-grams or of the row text's: a copied
    passage, not the import lines and boilerplate that code files share."""

    def __init__(self, items: list[EvalItem], ngram: int, overlap: float) -> None:
        self.ngram = ngram
        self.overlap = overlap
        self.names = [item.name for item in items]
        self.exact: dict[str, str] = {}
        self.grams: dict[tuple[str, ...], list[int]] = {}
        self.sizes: list[int] = []
        for index, item in enumerate(items):
            self.exact.setdefault(_normal(item.text), item.name)
            grams = self._grams(item.text)
            self.sizes.append(len(grams))
            for gram in grams:
                self.grams.setdefault(gram, []).append(index)

    def _grams(self, text: str) -> set[tuple[str, ...]]:
        tokens = _TOKEN.findall(text.lower())
        n = self.ngram
        return {tuple(tokens[i : i + n]) for i in range(len(tokens) - n + 1)}

    def overlap_of(self, row: CorpusRow) -> Overlap | None:
        fields = [row.question, row.answer, row.reference]
        for text in fields:
            if text and (name := self.exact.get(_normal(text))) is not None:
                return Overlap(name, "exact")
        if not self.grams:
            return None
        best: tuple[float, str] | None = None
        for text in fields:
            grams = self._grams(text)
            shared: dict[int, int] = {}
            for gram in grams:
                for index in self.grams.get(gram, ()):
                    shared[index] = shared.get(index, 0) + 1
            for index, count in shared.items():
                share = max(count / self.sizes[index], count / len(grams))
                if share >= self.overlap and (best is None or (-share, self.names[index]) < (-best[0], best[1])):
                    best = (share, self.names[index])
        return Overlap(best[1], f"{self.ngram}-gram {best[0]:.2f}") if best is not None else None
