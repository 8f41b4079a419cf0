"""Versioned prompt templates from ``prompts/<task>/<version>/`` and the context they are filled with."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from string import Template

from miner.errors import InputError
from miner.models import KernelFacts
from miner.qa.context import KernelContext, numbered
from miner.qa.offline import OfflineGenerator

PROMPTS_DIR = Path(__file__).resolve().parents[2] / "prompts"
_PARTS = ("system", "user", "regenerate")


@dataclass(frozen=True)
class PromptSet:
    task: str
    version: str
    system: Template
    user: Template
    regenerate: Template
    sha256: str

    def messages(self, **values: str) -> list[dict]:
        return [
            {"role": "system", "content": self.system.substitute(values)},
            {"role": "user", "content": self.user.substitute(values)},
        ]


def load_prompts(task: str, version: str = "v1", root: Path = PROMPTS_DIR) -> PromptSet:
    folder = root / task / version
    texts = {}
    for part in _PARTS:
        path = folder / f"{part}.md"
        try:
            texts[part] = path.read_text(encoding="utf-8")
        except OSError:
            raise InputError(f"prompt template missing: {path}") from None
    digest = hashlib.sha256("\0".join(texts[p] for p in _PARTS).encode()).hexdigest()
    return PromptSet(task, version, *(Template(texts[p]) for p in _PARTS), sha256=digest)


def render_context(context: KernelContext) -> str:
    """Every region of the kernel's context, headed by its id, role and name, with file line numbers."""
    blocks = []
    for region in context.regions:
        blocks.append(f"### region {region.id} ({region.role}: {region.name})\n{numbered(region)}")
    return "\n\n".join(blocks)


def render_facts(context: KernelContext, facts: KernelFacts) -> str:
    """The static generator's answers for the kernel, one per question kind: the same exact facts (overloads per
    entry type, launch values after reassignments and macro expansion, barriers per occurrence), with their lines."""
    items = OfflineGenerator(context, facts).items()
    return "\n".join(f"- {item.kind.replace('_', ' ')}: {item.answer}" for item in items) or "- none found"
