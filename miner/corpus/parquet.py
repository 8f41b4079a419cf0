"""Parquet shards of one config: rows in a fixed order and a fixed schema, so the same rows give the same bytes."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq

from miner.bundle.write import atomic_file
from miner.errors import OutputError
from miner.models.corpus import CorpusRow

_STRINGS = pa.list_(pa.string())
SCHEMA = pa.schema(
    [
        ("id", pa.string()),
        ("source", pa.string()),
        ("library", pa.string()),
        ("release", pa.string()),
        ("category", pa.string()),
        ("kernel", pa.string()),
        ("families", _STRINGS),
        ("split", pa.string()),
        ("question", pa.string()),
        ("answer", pa.string()),
        ("reference", pa.string()),
        ("backend", pa.string()),
        ("task_hash", pa.string()),
        ("attempt", pa.int64()),
        ("turn", pa.int64()),
        ("reward", pa.float64()),
        ("speedup", pa.float64()),
        ("verdict", pa.string()),
        ("messages", pa.list_(pa.struct([("role", pa.string()), ("content", pa.string())]))),
        (
            "provenance",
            pa.struct(
                [
                    ("library", pa.string()),
                    ("repo_url", pa.string()),
                    ("commit", pa.string()),
                    ("tag", pa.string()),
                    ("licence", pa.string()),
                    ("files", _STRINGS),
                    ("spans", _STRINGS),
                    ("file_sha256", _STRINGS),
                    ("content_sha256", pa.string()),
                    ("prompt_sha256", pa.string()),
                    ("generator", pa.string()),
                    ("verifier_version", pa.string()),
                    ("environment", pa.string()),
                    ("tool_version", pa.string()),
                ]
            ),
        ),
    ]
)


def shard_names(split: str, rows: int, per_shard: int) -> list[str]:
    n = max(1, -(-rows // per_shard))
    return [f"{split}-{i:05d}-of-{n:05d}.parquet" for i in range(n)]


def write_shards(folder: Path, split: str, rows: Sequence[CorpusRow], per_shard: int) -> list[Path]:
    """``rows`` as ``folder/<split>-NNNNN-of-MMMMM.parquet``, each replaced whole."""
    written = []
    for i, name in enumerate(shard_names(split, len(rows), per_shard)):
        chunk = rows[i * per_shard : (i + 1) * per_shard]
        table = pa.Table.from_pylist([r.model_dump(mode="json") for r in chunk], schema=SCHEMA)
        sink = pa.BufferOutputStream()
        pq.write_table(table, sink, compression="zstd")
        path = folder / name
        try:
            with atomic_file(path) as fh:
                fh.write(sink.getvalue().to_pybytes())
        except OSError as exc:
            raise OutputError(f"cannot write {path}: {exc.strerror}") from None
        written.append(path)
    return written
