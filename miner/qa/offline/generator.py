"""The generator: one object per kernel context, asking every question kind of its facts."""

from __future__ import annotations

from miner.models import (
    KernelFacts,
    Located,
    QAItem,
    Region,
)
from miner.qa.context import KernelContext
from miner.qa.offline.constraints import ConstraintsAndEdgeCases
from miner.qa.offline.implementation import ImplementationSample
from miner.qa.offline.kinds import CATEGORIES, KINDS
from miner.qa.offline.launch import Launch
from miner.qa.offline.memory import IndexingAndMemory
from miner.qa.offline.semantics import Semantics
from miner.qa.offline.synchronization import SynchronizationAndReduction


class OfflineGenerator(
    Semantics, IndexingAndMemory, SynchronizationAndReduction, Launch, ConstraintsAndEdgeCases, ImplementationSample
):
    def __init__(self, context: KernelContext, facts: KernelFacts) -> None:
        self.context = context
        self.facts = facts
        kernel = context.kernel
        self.kernel = f"`{facts.name}` in `{kernel.file}` (line {kernel.start_line})"
        self.short = f"`{facts.name}`"

    def _region(self, region_id: str) -> Region | None:
        return self.context.region(region_id)

    def _in(self, located: Located) -> str:
        """ "in `helper`" for a fact of a device helper, "" for one of the kernel itself."""
        if located.region == self.context.kernel.id:
            return ""
        region = self._region(located.region)
        return f" in `{region.name}`" if region is not None else ""

    def items(self, categories: tuple[str, ...] = CATEGORIES) -> list[QAItem]:
        out: list[QAItem] = []
        for kind, category in KINDS.items():
            if category in categories:
                out += getattr(self, f"_{kind}")()
        return out

    def _item(self, kind: str, question: str, answer: str, evidence: list) -> QAItem:
        flat = [e for cited in evidence for e in (cited if isinstance(cited, list) else [cited])]
        unique = list({e.model_dump_json(): e for e in flat}.values())
        return QAItem(category=KINDS[kind], kind=kind, question=question, answer=answer, evidence=unique)
