"""A batch of mines: the jobs file's entries, and what the batch did."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from miner.models.outputs import RunSummary

_STRICT = ConfigDict(extra="forbid", frozen=True)


class BatchJob(BaseModel):
    """One ``[[mine]]`` table of a jobs file: a checkout, mined at its working tree or at each of ``revisions``."""

    model_config = ConfigDict(extra="forbid", frozen=True, populate_by_name=True)
    checkout: str
    library: str | None = None
    revisions: list[str] = Field(default_factory=list)
    out: str | None = None  # the folder under the batch's --out (default: the library, then the revision)
    with_: dict[str, str] = Field(default_factory=dict, alias="with")  # library -> checkout, as --with
    entry: str = "*"


class BatchRevision(BaseModel):
    """One (library, revision) of a batch: where its outputs went, and its summary (or why it failed)."""

    model_config = _STRICT
    library: str | None
    checkout: str
    revision: str | None  # None: the working tree
    out: str
    summary: RunSummary | None = None
    error: str | None = None


class BatchSummary(BaseModel):
    model_config = _STRICT
    revisions: list[BatchRevision]
    tus: int  # of every revision, the --with libraries' included
    tu_parses: int  # by the workers (each TU shared by several revisions once)
    from_cache: int  # TUs the cache served: parsed by an earlier run, or by this batch for another revision
    parsed_again: list[str] = Field(default_factory=list)  # "REVISION:PATH" of TUs given to another worker
    analysed_again: int = 0  # liveness runs (of up to 16 entries) given to another worker after theirs died
    executor: str = "local"
    workers: int = 1
    wall_seconds: float = 0.0
