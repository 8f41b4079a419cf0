"""Runs units through a model: one request per unit, the grounding check on every item, one regeneration
with the verifier's findings for what fails, and the static facts as a cross-check on what is kept."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pydantic import BaseModel

from miner.agent.client import AgentClient, ChatResult, is_server_fault
from miner.models import Evidence, Grounding, InstructionAnswer, QAAnswer, QAItem, QAUnit
from miner.qa.grounding import check_item, contradictions
from miner.qa.prompts import PromptSet
from miner.qa.units import Unit, finished, make_record


@dataclass
class Usage:
    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    retries: int = 0
    fingerprint: str = ""

    def add(self, result: ChatResult) -> None:
        self.requests += 1
        self.prompt_tokens += result.prompt_tokens
        self.completion_tokens += result.completion_tokens
        self.retries += result.retries
        self.fingerprint = result.system_fingerprint or self.fingerprint


@dataclass
class Attempt:
    kept: list[tuple[QAItem, Grounding, int]] = field(default_factory=list)
    failing: list[tuple[QAItem, Grounding]] = field(default_factory=list)


class ModelEngine:
    def __init__(self, client: AgentClient, prompts: dict[str, PromptSet]) -> None:
        self.client = client
        self.prompts = prompts
        self.generator = f"model:{client.config.model}"
        self.sampling = client.config.sampling

    def key(self, unit: Unit) -> str:
        return unit.key(self.generator, self.prompts[unit.task].sha256, self.sampling)

    def messages(self, unit: Unit) -> list[dict] | None:
        context = unit.context
        values = {
            "library": context.library,
            "entries": ", ".join(context.entries),
            "kernel": f"{context.kernel.name} (region {context.kernel.id})",
            "context": unit.work.rendered,
        }
        if unit.task == "implementation":
            if not unit.facts.launches:
                return None
            launch = unit.facts.launches[0]
            values["launcher"] = f"{launch.launcher_name} (region {launch.launcher})"
        else:
            values["categories"] = ", ".join(unit.categories)
            values["facts"] = unit.work.prompt_facts
        return self.prompts[unit.task].messages(**values)

    async def run(self, unit: Unit, key: str) -> tuple[QAUnit | None, str | None]:
        """The unit's journal entry, or None and the failure when the request should be retried by a re-run."""
        messages = self.messages(unit)
        usage, dropped = Usage(), Counter()
        attempt = Attempt()
        if messages is not None:
            schema: type[BaseModel] = InstructionAnswer if unit.task == "implementation" else QAAnswer
            result = await self.client.chat(messages, schema)
            usage.add(result)
            if is_server_fault(result.failure):
                return None, result.failure
            if result.failure:
                dropped[f"request-{result.failure}"] += 1
            else:
                self._check(unit, result.parsed, attempt, dropped, number=1)
            if attempt.failing and (fault := await self._regenerate(unit, messages, result, attempt, usage, dropped)):
                return None, fault
        records = [
            make_record(
                unit,
                key,
                index,
                item,
                grounding,
                generator=self.generator,
                prompt_sha256=self.prompts[unit.task].sha256,
                sampling=self.sampling,
                system_fingerprint=usage.fingerprint,
                attempt=number,
                flags=contradictions(item, unit.facts, answer_is_code=unit.task == "implementation"),
            )
            for index, (item, grounding, number) in enumerate(attempt.kept)
        ]
        costs = {
            "requests": usage.requests,
            "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens,
            "retries": usage.retries,
        }
        return finished(unit, key, records, dict(dropped), **costs), None

    async def _regenerate(
        self, unit, messages, first: ChatResult, attempt: Attempt, usage: Usage, dropped
    ) -> str | None:
        """Asks once more for the failing items; returns the fault when the request failed, not the model."""
        findings = "\n".join(
            f"- item {n} ({item.question!r}): " + "; ".join(grounding.findings)
            for n, (item, grounding) in enumerate(attempt.failing, 1)
        )
        failing, attempt.failing = attempt.failing, []
        follow_up = [
            *messages,
            {"role": "assistant", "content": first.text},
            {"role": "user", "content": self.prompts[unit.task].regenerate.substitute(findings=findings)},
        ]
        schema: type[BaseModel] = InstructionAnswer if unit.task == "implementation" else QAAnswer
        result = await self.client.chat(follow_up, schema)
        usage.add(result)
        if is_server_fault(result.failure):
            return result.failure
        if result.failure:
            dropped[f"regenerate-{result.failure}"] += 1
            dropped["ungrounded"] += len(failing)
            return None
        kept_before, unknown_before = len(attempt.kept), dropped["unknown-category"]
        self._check(unit, result.parsed, attempt, dropped, number=2)
        answered = len(attempt.kept) - kept_before + len(attempt.failing) + dropped["unknown-category"] - unknown_before
        if answered < len(failing):  # the reply left some of the failing items out: they are dropped too
            dropped["regenerate-left-out"] += len(failing) - answered
        if attempt.failing:
            dropped["ungrounded"] += len(attempt.failing)
        attempt.failing = []
        return None

    def _check(self, unit: Unit, parsed: BaseModel | None, attempt: Attempt, dropped: Counter, number: int) -> None:
        for item in self._items(unit, parsed, dropped):
            grounding = check_item(item, unit.context, answer_is_code=unit.task == "implementation")
            if grounding.grounded:
                attempt.kept.append((item, grounding, number))
            else:
                attempt.failing.append((item, grounding))

    def _items(self, unit: Unit, parsed: BaseModel | None, dropped: Counter) -> list[QAItem]:
        if isinstance(parsed, InstructionAnswer):
            launch = unit.facts.launches[0]
            launcher = unit.context.region(launch.launcher)
            kernel = unit.context.kernel
            spans = [
                Evidence(region=r.id, start_line=r.start_line, end_line=r.end_line) for r in (kernel, launcher) if r
            ]
            code = "\n\n".join(f"```cpp\n{r.code}\n```" for r in (kernel, launcher) if r)
            return [
                QAItem(
                    category="implementation",
                    question=parsed.instruction,
                    answer=code,
                    evidence=parsed.evidence + spans,
                )
            ]
        items = []
        for item in parsed.items if isinstance(parsed, QAAnswer) else []:
            if item.category not in unit.categories:
                dropped["unknown-category"] += 1
                continue
            items.append(item)
        return items
