"""Near-duplicate removal: MinHash-LSH over word shingles of text and over identifier-normalised token shingles of
code, each with its own threshold, within a scope (``scope``); one representative kept per cluster, the first in input
order (ties by id)."""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from datasketch import MinHash, MinHashLSH

from miner.models.corpus import CorpusRow

# words without numbers: the line numbers a QA item cites move when its file changes between releases
_WORD = re.compile(r"[^\W\d]\w*")
_CODE_TOKEN = re.compile(r"[A-Za-z_]\w*|\d+(?:\.\d*)?|\S")
# kept as written by the code normaliser: keywords and builtins carry structure, other names are renamed
_KEYWORDS = frozenset(
    {
        "if",
        "else",
        "for",
        "while",
        "do",
        "return",
        "break",
        "continue",
        "switch",
        "case",
        "default",
        "const",
        "constexpr",
        "static",
        "inline",
        "template",
        "typename",
        "class",
        "struct",
        "void",
        "int",
        "float",
        "double",
        "bool",
        "char",
        "unsigned",
        "signed",
        "long",
        "short",
        "auto",
        "size_t",
        "true",
        "false",
        "__global__",
        "__device__",
        "__host__",
        "__shared__",
        "__syncthreads",
        "threadIdx",
        "blockIdx",
        "blockDim",
        "gridDim",
        "hipLaunchKernelGGL",
        "def",
        "import",
        "from",
        "as",
        "in",
        "not",
        "and",
        "or",
        "is",
        "None",
        "True",
        "False",
        "lambda",
        "with",
        "yield",
        "pass",
        "tl",
        "triton",
        "jit",
        "program_id",
        "arange",
        "load",
        "store",
        "where",
        "sum",
        "max",
        "min",
        "zeros",
        "float32",
        "float16",
        "int32",
        "int64",
        "torch",
    }
)


@dataclass(frozen=True)
class DedupOptions:
    text_threshold: float = 0.8
    code_threshold: float = 0.85
    text_shingle: int = 3  # words per shingle of text
    code_shingle: int = 5  # tokens per shingle of code
    num_perm: int = 128


@dataclass
class DedupResult:
    duplicate_of: dict[str, str] = field(default_factory=dict)  # dropped row id -> the kept row of its cluster
    cluster_sizes: dict[str, Counter] = field(default_factory=dict)  # source -> {size: clusters}, sizes >= 2


def field_kind(row: CorpusRow) -> str:
    """Which text a row is compared on: code for kernels and implementation samples, text for QA."""
    return "text" if row.source == "qa" else "code"


def shingles(text: str, kind: str, k: int) -> list[bytes]:
    if kind == "text":
        tokens = _WORD.findall(text.lower())
    else:
        names: dict[str, str] = {}
        tokens = [
            t if t in _KEYWORDS or not (t[0].isalpha() or t[0] == "_") else names.setdefault(t, f"v{len(names)}")
            for t in _CODE_TOKEN.findall(text)
        ]
    if len(tokens) < k:
        return [" ".join(tokens).encode()]
    return list({" ".join(tokens[i : i + k]).encode(): None for i in range(len(tokens) - k + 1)})


def minhash(text: str, kind: str, options: DedupOptions) -> MinHash:
    m = MinHash(num_perm=options.num_perm, seed=1)
    m.update_batch(shingles(text, kind, options.text_shingle if kind == "text" else options.code_shingle))
    return m


def scope(row: CorpusRow) -> str:
    """The rows a row is compared with, besides those of its source: a QA item with the items about its kernel family
    (in any library and release), a verified kernel with the kernels of its task; implementation samples with all.

    Text items about different kernels are filled from one template, so at a threshold that catches a re-worded item
    they also match items about a sibling kernel (an upper and a lower variant, another launch of one launcher);
    code is compared with identifiers renamed, so code that matches across kernels is the same code."""
    if row.source == "qa":
        return row.families[0]
    return row.kernel if row.source == "verified_kernels" else ""


def deduplicate(rows: Sequence[CorpusRow], order: dict[str, int], options: DedupOptions) -> DedupResult:
    """Clusters of near-duplicates among ``rows`` of one source and ``scope``; ``order`` gives each row's input
    position, the smallest of a cluster is kept."""
    result = DedupResult()
    groups: dict[tuple[str, str], list[CorpusRow]] = {}
    for row in rows:
        groups.setdefault((row.source, scope(row)), []).append(row)
    for (source, _), members in sorted(groups.items()):
        sizes = result.cluster_sizes.setdefault(source, Counter())
        for cluster in _clusters(members, options):
            if len(cluster) < 2:
                continue
            keep = min(cluster, key=lambda r: (order[r.id], r.id))
            sizes[len(cluster)] += 1
            for row in cluster:
                if row is not keep:
                    result.duplicate_of[row.id] = keep.id
    return result


def _clusters(rows: list[CorpusRow], options: DedupOptions) -> list[list[CorpusRow]]:
    kind = field_kind(rows[0])
    threshold = options.text_threshold if kind == "text" else options.code_threshold
    hashes = [minhash(_compared_text(r), kind, options) for r in rows]
    lsh = MinHashLSH(num_perm=options.num_perm, params=_bands(threshold, options.num_perm))
    for i, m in enumerate(hashes):
        lsh.insert(i, m)
    parent = list(range(len(rows)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for i, m in enumerate(hashes):
        for j in lsh.query(m):
            if j != i and m.jaccard(hashes[j]) >= threshold:
                a, b = root(i), root(j)
                if a != b:
                    parent[max(a, b)] = min(a, b)
    clusters: dict[int, list[CorpusRow]] = {}
    for i, row in enumerate(rows):
        clusters.setdefault(root(i), []).append(row)
    return list(clusters.values())


@functools.cache
def _bands(threshold: float, num_perm: int) -> tuple[int, int]:
    """The LSH bands and rows for a threshold: datasketch integrates for them on every index it builds, and the
    corpus builds one per kernel family."""
    lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
    return lsh.b, lsh.r


def _compared_text(row: CorpusRow) -> str:
    return row.answer if field_kind(row) == "code" else f"{row.question}\n{row.answer}"
