"""The mechanical grounding check: an answer may only state what the lines it cites say.

For every cited span: the region is in the kernel's context and the lines are inside it; each cited
identifier occurs in those lines as a whole token; each cited number occurs there. For the answer:
every number it states (block sizes, thread counts, LDS bytes, unroll factors; line references
aside) occurs in the cited lines or in the kernel's launch configuration, and every piece of code it
quotes in backticks occurs in the cited lines or names something of the context.
"""

from __future__ import annotations

import re

from miner.models import Evidence, Grounding, KernelFacts, QAItem
from miner.qa.context import KernelContext, cited_text
from miner.qa.syntax import LINE_COMMENT

_NUMBER = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)(?![\w])")
_LINE_REFERENCE = re.compile(r"\blines?\s+\d+(?:\s*(?:-|–|to|and)\s*\d+)?(?:\s*,\s*\d+)*", re.IGNORECASE)
_QUOTE = re.compile(r"`([^`\n]+)`")
_TRIVIAL_NUMBERS = frozenset({"0", "1"})
_SYNC_CLAIMS = {
    "barriers": re.compile(r"\b(__syncthreads|__syncwarp|__threadfence\w*|__builtin_amdgcn_s_barrier)\b"),
    "atomics": re.compile(r"\b(atomic\w+|__hip_atomic\w*|unsafeAtomic\w*)\b"),
    "cross_lane": re.compile(
        r"\b(__shfl\w*|__ballot\w*|__builtin_amdgcn_(?:ds_swizzle|mov_dpp|update_dpp|ds_bpermute))\b"
    ),
}


def squash(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _has_token(text: str, token: str) -> bool:
    if re.fullmatch(r"\w+", token):
        return re.search(rf"(?<!\w){re.escape(token)}(?!\w)", text) is not None
    return squash(token) in squash(text)


def _has_number(text: str, number: str) -> bool:
    return re.search(rf"(?<![\w.]){re.escape(number)}(?![\d])", text) is not None


def check_evidence(evidence: Evidence, context: KernelContext) -> tuple[list[str], str]:
    """Findings for one cited span, and the text it cites ("" when the span is not in the context)."""
    region = context.region(evidence.region)
    if region is None:
        return [f"cited region {evidence.region} is not in this kernel's context"], ""
    text = cited_text(region, evidence.start_line, evidence.end_line)
    if text is None:
        span = f"{region.start_line}-{region.end_line}"
        return [f"lines {evidence.start_line}-{evidence.end_line} are outside {evidence.region} ({span})"], ""
    findings = [
        f"identifier {name!r} does not occur in {evidence.region} lines {evidence.start_line}-{evidence.end_line}"
        for name in evidence.identifiers
        if not _has_token(text, name)
    ]
    findings += [
        f"number {number} does not occur in {evidence.region} lines {evidence.start_line}-{evidence.end_line}"
        for number in evidence.numbers
        if not _has_number(text, number)
    ]
    return findings, text


def launch_configuration_text(context: KernelContext) -> str:
    return "\n".join(f"{s.grid} {s.block} {s.shared_mem} {s.kernel_expr}" for s in context.launch_sites)


def _context_names(context: KernelContext) -> set[str]:
    names = set(context.bundle_entries) | set(context.entries)
    for region in context.regions:
        names.update(region.names)
        names.add(region.name)
        names.add(region.file)
    return names


def check_item(item: QAItem, context: KernelContext, *, answer_is_code: bool = False) -> Grounding:
    if not item.evidence:
        return Grounding(grounded=False, findings=["no evidence cited"])
    findings: list[str] = []
    cited: list[str] = []
    for evidence in item.evidence:
        found, text = check_evidence(evidence, context)
        findings += found
        cited.append(text)
    if findings:
        return Grounding(grounded=False, findings=findings)
    corpus = "\n".join(cited)
    checked = "" if answer_is_code else item.answer
    statements = _LINE_REFERENCE.sub(" ", f"{item.question}\n{checked}")
    names = _context_names(context)
    squashed = squash(corpus)
    uncommented = squash(LINE_COMMENT.sub("", corpus))  # a quote may leave out a trailing ``// comment``
    for quote in _QUOTE.findall(statements):
        if not (squash(quote) in squashed or squash(quote) in uncommented or quote.strip() in names):
            findings.append(f"quoted code `{quote}` does not occur in the cited lines")
    without_quotes = _QUOTE.sub(" ", statements)
    launch = launch_configuration_text(context)
    for number in sorted(set(_NUMBER.findall(without_quotes)) - _TRIVIAL_NUMBERS):
        if not (_has_number(corpus, number) or _has_number(launch, number)):
            findings.append(
                f"number {number} is stated but occurs neither in the cited lines nor in the launch configuration"
            )
    return Grounding(grounded=not findings, findings=findings)


def contradictions(item: QAItem, facts: KernelFacts, *, answer_is_code: bool = False) -> list[str]:
    """Where an answer (or, for an implementation sample, its instruction) names a synchronisation primitive
    that the kernel and its helpers never use."""
    text = item.question if answer_is_code else item.answer
    flags = []
    for kind, pattern in _SYNC_CLAIMS.items():
        present = {f.name for f in getattr(facts, kind)}
        for name in sorted(set(pattern.findall(text))):
            if name not in present:
                flags.append(f"the answer names {name}, but {facts.name} and its device helpers have no such call")
    return flags
