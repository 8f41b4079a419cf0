"""Units of QA work — one task (QA pairs, or an implementation sample) for one live kernel of a bundle — and
how their records are keyed and made."""

from __future__ import annotations

import hashlib
import json
from concurrent.futures import Executor, Future, ProcessPoolExecutor, ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property
from multiprocessing import get_context

from miner.models import Grounding, KernelFacts, QAItem, QARecord, QAUnit
from miner.qa.context import KernelContext
from miner.qa.facts import kernel_facts
from miner.qa.offline import GENERATOR as FACTS_VERSION
from miner.qa.prompts import render_context, render_facts
from miner.signals import children_ignore_ctrl_c

TASKS = ("qa", "implementation")


class KernelWork:
    """One live kernel's context and, computed once for all its units, its static facts."""

    def __init__(self, context: KernelContext) -> None:
        self.context = context

    def slim(self) -> KernelContext:
        """The part of the context the facts are read from: cheap to send to a worker process."""
        c = self.context
        return KernelContext(
            c.library,
            c.kernel,
            c.helpers,
            c.path,
            c.launch_sites,
            launcher_sites=c.launcher_sites,
            path_calls=c.path_calls,
            call_paths=c.call_paths,
        )

    @cached_property
    def facts(self) -> KernelFacts:
        return kernel_facts(self.context)

    @cached_property
    def rendered(self) -> str:
        """The context as the prompts show it (shared by the kernel's QA and implementation requests)."""
        return render_context(self.context)

    @cached_property
    def prompt_facts(self) -> str:
        """The static facts a model is shown for the kernel (the offline generator's answers)."""
        return render_facts(self.context, self.facts)

    def prepare(self) -> KernelWork:
        """Everything a request about the kernel needs, computed now: facts, rendered context, prompt facts."""
        _ = self.facts, self.rendered, self.prompt_facts
        return self


@dataclass(frozen=True)
class Unit:
    work: KernelWork
    task: str  # "qa" or "implementation"
    categories: tuple[str, ...]

    @property
    def context(self) -> KernelContext:
        return self.work.context

    @property
    def facts(self) -> KernelFacts:
        return self.work.facts

    def key(self, generator: str, prompt_sha256: str, sampling: dict) -> str:
        """Context digest, kernel, task, categories, generator (model), prompt hash and sampling: what decides the
        output."""
        material = {
            "context": self.context.digest,
            "kernel": self.context.kernel.id,
            "task": self.task,
            "categories": list(self.categories) if self.task == "qa" else [],
            "generator": generator,
            "prompt": prompt_sha256,
            "sampling": sampling,
            "facts": FACTS_VERSION,  # a model is shown the static facts: a new version of them is a new input
        }
        return hashlib.sha256(json.dumps(material, sort_keys=True).encode()).hexdigest()


def finished(unit: Unit, key: str, records: list[QARecord], dropped: dict[str, int], **costs: int) -> QAUnit:
    """The journal entry of a finished unit (``costs``: requests, prompt_tokens, completion_tokens, retries)."""
    context = unit.context
    return QAUnit(
        key=key,
        kernel=context.kernel.id,
        task=unit.task,
        records=records,
        dropped=dropped,
        **costs,
    )


def make_record(
    unit: Unit,
    key: str,
    index: int,
    item: QAItem,
    grounding: Grounding,
    *,
    generator: str,
    prompt_sha256: str,
    sampling: dict,
    system_fingerprint: str = "",
    attempt: int = 1,
    flags: list[str] | None = None,
) -> QARecord:
    context = unit.context
    return QARecord(
        id=f"{key[:16]}-{index}",
        kind="implementation" if unit.task == "implementation" else "qa",
        category=item.category,
        question_kind=item.kind,
        library=context.library,
        bundles=list(context.bundles),
        context_sha256=context.digest,
        kernel=context.kernel.id,
        kernel_name=context.kernel.name,
        kernel_file=context.kernel.file,
        entries=context.entries,
        question=item.question,
        answer=item.answer,
        evidence=item.evidence,
        generator=generator,
        prompt_sha256=prompt_sha256,
        sampling=sampling,
        system_fingerprint=system_fingerprint,
        attempt=attempt,
        grounding=grounding,
        flags=flags or [],
    )


def _prepared(context: KernelContext) -> tuple[KernelFacts, str]:
    facts = kernel_facts(context)
    return request_facts(facts), render_facts(context, facts)


def request_facts(facts: KernelFacts) -> KernelFacts:
    """The part of a kernel's facts its requests read once the prompt facts are rendered: the launches (an
    implementation request names the first) and the synchronisation calls an answer is checked against. A tenth of
    the whole to send back from a worker."""
    return KernelFacts.model_construct(
        kernel=facts.kernel,
        name=facts.name,
        signature=facts.signature,
        launches=facts.launches,
        barriers=facts.barriers,
        atomics=facts.atomics,
        cross_lane=facts.cross_lane,
    )


def _started() -> bool:
    return True


class Preparer:
    """Prepares kernels for their requests (prompt facts, and the facts the requests read) in worker processes, in
    the order asked, while the event loop sends the requests of the kernels already prepared: the first request
    waits for one kernel, not for all. With ``jobs`` 1, a thread of this process does it."""

    def __init__(self, jobs: int) -> None:
        self.pool: Executor
        if jobs > 1:
            self.pool = ProcessPoolExecutor(jobs - 1, mp_context=get_context("spawn"))
            with children_ignore_ctrl_c():  # the processes start now, while the bundles load
                self.pool.submit(_started)
        else:
            self.pool = ThreadPoolExecutor(1, thread_name_prefix="qa-prepare")

    def prepare(self, work: KernelWork) -> Future[KernelWork]:
        done: Future[KernelWork] = Future()

        def store(result: Future[tuple[KernelFacts, str]]) -> None:
            if result.cancelled():
                done.cancel()
            elif result.exception() is not None:
                done.set_exception(result.exception())
            else:
                work.__dict__["facts"], work.__dict__["prompt_facts"] = result.result()
                done.set_result(work)

        context = work.context if isinstance(self.pool, ThreadPoolExecutor) else work.slim()
        self.pool.submit(_prepared, context).add_done_callback(store)
        return done

    def __enter__(self) -> Preparer:
        return self

    def __exit__(self, *exc: object) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)


_PARALLEL_FROM = 64  # kernels: below this, starting worker processes costs more than it saves


def compute_facts(works: list[KernelWork], jobs: int) -> None:
    """Every kernel's facts, read in ``jobs`` worker processes (lazily, in this one, when few or ``jobs`` is 1)."""
    todo = [w for w in works if "facts" not in w.__dict__]
    if jobs <= 1 or len(todo) < _PARALLEL_FROM:
        return
    with ProcessPoolExecutor(jobs, mp_context=get_context("spawn")) as pool:
        with children_ignore_ctrl_c():  # map starts the processes as it submits every chunk
            results = pool.map(kernel_facts, [w.slim() for w in todo], chunksize=16)
        for work, facts in zip(todo, results, strict=True):
            work.__dict__["facts"] = facts
