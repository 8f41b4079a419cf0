"""Runs units with the static-fact generator: no model, deterministic, every item checked anyway."""

from __future__ import annotations

import hashlib
from collections import Counter
from pathlib import Path

from miner.models import QAUnit
from miner.qa.grounding import check_item
from miner.qa.offline import GENERATOR, OfflineGenerator
from miner.qa.units import Unit, finished, make_record

_HERE = Path(__file__).parent
_SOURCES = (
    *sorted((_HERE / "offline").glob("*.py")),
    *sorted((_HERE / "facts").glob("*.py")),
    *(_HERE / name for name in ("context.py", "grounding.py")),
)


class OfflineEngine:
    generator = GENERATOR
    sampling: dict = {}

    def __init__(self) -> None:
        # the generator's own code plays the prompt's part in the cache key
        self.prompt_sha256 = hashlib.sha256(b"".join(p.read_bytes() for p in _SOURCES)).hexdigest()

    def key(self, unit: Unit) -> str:
        return unit.key(self.generator, self.prompt_sha256, self.sampling)

    def run(self, unit: Unit) -> QAUnit:
        key = self.key(unit)
        generator = OfflineGenerator(unit.context, unit.facts)
        if unit.task == "implementation":
            sample = generator.implementation()
            items = [sample] if sample is not None else []
        else:
            items = generator.items(unit.categories)
        records, dropped = [], Counter()
        for item in items:
            grounding = check_item(item, unit.context, answer_is_code=unit.task == "implementation")
            if not grounding.grounded:
                dropped["ungrounded"] += 1
                continue
            records.append(
                make_record(
                    unit,
                    key,
                    len(records),
                    item,
                    grounding,
                    generator=self.generator,
                    prompt_sha256=self.prompt_sha256,
                    sampling=self.sampling,
                )
            )
        return finished(unit, key, records, dict(dropped))
