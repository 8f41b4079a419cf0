"""Versioned prompt templates from ``prompts/<task>/<version>/`` and the context they are filled with."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path
from string import Template

from miner.errors import InputError
from miner.models import KernelFacts
from miner.qa.context import KernelContext, numbered

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


def render_facts(facts: KernelFacts) -> str:
    lines = []
    for launch in facts.launches[:4]:
        lines.append(
            f"- launch from {launch.launcher_name} (line {launch.statement.start_line}): via {launch.via}, "
            f"grid {launch.grid or '?'}, block {launch.block or '?'}, shared memory {launch.shared_mem or '?'}"
        )
    for kind in ("barriers", "atomics", "cross_lane", "reductions"):
        names = sorted({f.name for f in getattr(facts, kind)})
        lines.append(f"- {kind.replace('_', '-')}: {', '.join(names) if names else 'none'}")
    shared = [f"{s.declaration} ({s.element_type} x {' x '.join(s.extents) or '1'})" for s in facts.shared]
    lines.append(f"- __shared__ declarations: {'; '.join(shared) if shared else 'none'}")
    mapping = [f"{m.variable} = {m.expression}" for m in facts.thread_mapping]
    lines.append(f"- thread-index variables: {'; '.join(mapping) if mapping else 'none'}")
    return "\n".join(lines)
