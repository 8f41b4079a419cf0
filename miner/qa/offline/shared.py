"""What several question kinds read of the facts: launch paths and their guards, barrier and configuration wording,
access patterns and loop headers."""

from __future__ import annotations

import re

from miner.models import (
    BarrierUse,
    EarlyExit,
    Evidence,
    KernelFacts,
    LaunchFact,
    Located,
    Region,
)
from miner.qa.facts import THREAD_INDEX
from miner.qa.grounding import squash
from miner.qa.offline.kinds import _THREAD_X
from miner.qa.wording import (
    WORD,
    at,
    cite,
    joined,
    plain,
    top_level_terms,
)


def _contradicted(guards, launch: LaunchFact) -> bool:
    """Whether a caller's statement under ``guards`` sits in a branch whose condition, written the same way, the
    launch's path takes the other way (``if(transA == rocblas_operation_none)`` in a 64-bit wrapper, against a
    launch on the path where it does not hold): the statement never leads to that launch."""
    if not launch.conditions:
        return False
    return any(
        squash(c.condition) in squash(g.text) and (c.branch == "then") != g.holds
        for g in guards
        for c in launch.conditions
        if c.branch in ("then", "else") and c.condition
    )


def _compatible(guards, launch: LaunchFact) -> bool:
    """Whether a statement under ``guards`` can run on the path to ``launch``: no guard is a branch condition of the
    launch's path taken the other way."""
    taken = {c.start_line: c.branch == "then" for c in launch.conditions if c.branch in ("then", "else")}
    return all(taken.get(g.start_line, g.holds) == g.holds for g in guards)


def _holds_launch(exit_: EarlyExit, launch: LaunchFact) -> bool:
    """Whether ``launch`` sits inside the block that returns: the return comes after it, not before."""
    statement = launch.statement
    return launch.launcher == exit_.region and exit_.start_line <= statement.start_line <= exit_.end_line


def _same_path(one: LaunchFact, other: LaunchFact) -> bool:
    """Whether one run of the launcher can make both launches: no branch both pass is taken two ways."""
    taken = {c.start_line: c.branch for c in other.conditions}
    return all(taken.get(c.start_line, c.branch) == c.branch for c in one.conditions)


def _calls_any(region: Region, callees: list[Region]) -> bool:
    names_called = set(re.findall(r"\b([A-Za-z_]\w*)\s*(?:<[^;{}()]*>)?\s*\(", region.code))
    return any(callee.name in names_called and callee.name != region.name for callee in callees)


def _holds_math(facts: KernelFacts, helper: Region) -> bool:
    """A helper the kernel's work happens in: it stores to global memory, loops (``*_calc`` helpers), reduces
    (``rocblas_dot_block_reduce``: barriers or cross-lane builtins) or branches (``laev2``, ``lartg``)."""
    return any(
        fact.region == helper.id
        for fact in (*facts.stores, *facts.loops, *facts.barriers, *facts.cross_lane, *facts.branches)
    )


def _steps_with_thread_x(expression: str) -> bool:
    """Whether the expression is ``threadIdx.x`` plus terms that do not depend on the thread: one more per thread."""
    terms = top_level_terms(expression)
    thread_terms = [t for t in terms if any(x in t for x in _THREAD_X)]
    return len(thread_terms) == 1 and thread_terms[0] in _THREAD_X


def _stride_of(index: str, variable: str) -> str | None:
    """How the index scales ``variable``: "" when it adds it as is, the other factor when it multiplies it by one
    name (``i * incx``), None when the index combines it otherwise."""
    terms = [term for term in top_level_terms(index) if re.search(rf"\b{variable}\b", term)]
    if len(terms) > 1:  # ``tx * lda_norm + tx * lda_trans``: scaled twice
        return None
    for term in terms:
        if term == variable:
            return ""
        factors = top_level_terms(term, "*")
        if len(factors) == 2 and variable in factors:
            other = factors[1] if factors[0] == variable else factors[0]
            inner = re.fullmatch(r"(?:\w+\()?([A-Za-z_]\w*)\)?", other)
            return inner.group(1) if inner else None
        return None
    return None


_NOTHING_ORDERED = ": no LDS access of this function lies between it and the neighbouring barriers"


def _fence(use: BarrierUse) -> str:
    writes = joined([f"`{a.text}` ({at(a)})" for a in (*use.written_before, *use.stored_before)])
    if writes:
        return f": a memory fence, not a barrier: this thread's writes before it, {writes}, become visible to other blocks before its later writes do"
    return ": a memory fence, not a barrier: it orders this thread's memory accesses as other blocks see them"


def _ordering(use: BarrierUse) -> str:
    if "threadfence" in use.barrier.name:
        return _fence(use)
    text = _publishing(use)
    if not use.overwritten_after:
        return text
    overwrites = joined([f"`{w.text}` ({at(w)})" for w in use.overwritten_after])
    if use.loop is not None and use.overwritten_after[0].start_line < use.barrier.start_line:
        overwrites = f"in the next round of the loop `{use.loop.header}` ({at(use.loop)}), {overwrites}"
    arrays = joined([f"`{name}`" for name in dict.fromkeys(_array(w) for w in use.overwritten_after)])
    ordered = f"the block's reads of {arrays} before it come ahead of the writes to {arrays} after it, {overwrites}"
    if text == _NOTHING_ORDERED:
        return f": {ordered}"
    return text + f"; and {ordered}"


def _array(access) -> str:
    words = access.text.partition("[")[0].split()
    return words[-1] if words else access.text


def _publishing(use: BarrierUse) -> str:
    written = [f"`{w.text}` ({at(w)})" for w in use.written_before]
    read = [f"`{r.text}` ({at(r)})" for r in use.read_after]
    if use.read_next_round and use.loop is not None:
        read.append(
            f"in the next round of the loop `{use.loop.header}` ({at(use.loop)}), "
            + joined([f"`{r.text}` ({at(r)})" for r in use.read_next_round])
        )
    stored = joined([f"`{a.text}` ({at(a)})" for a in use.stored_before])
    published = f"the global-memory stores before it, {stored}, are visible to the other threads of the block"
    if written and read:
        text = (
            f": the LDS writes before it, {joined(written)}, must be visible to every thread of the block before "
            f"the reads after it, {joined(read)}"
        )
        return text + (f"; and {published}" if stored else "")
    if written:
        return f": it completes the LDS writes {joined(written)} before the threads go on" + (
            f"; and {published}" if stored else ""
        )
    if stored:
        return f": {published} before they go on" + (f" to read LDS ({joined(read)})" if read else "")
    if read:
        return f": no thread reads LDS ({joined(read)}) before every thread has reached it"
    return _NOTHING_ORDERED


def _configuration(launch: LaunchFact) -> tuple[str, list[Evidence]]:
    if launch.via == "<<<>>>":
        via = "using the triple-chevron launch syntax"
    else:
        via = f"through `{launch.via}`" if launch.via else "through a macro"
    parts = [
        f"{what} `{text}`"
        for what, text in (
            ("grid", launch.grid),
            ("block", launch.block),
            ("dynamic shared memory", launch.shared_mem),
            ("stream", launch.stream),
        )
        if text.strip() and "`" not in text
    ]
    evidence: list[Evidence] = []
    if launch.macro is not None:
        name = re.match(r"\s*#\s*define\s+(\w+)", launch.macro.text)
        via += f", whose configuration comes from `{name.group(1) if name else launch.macro.text}` ({at(launch.macro)})"
        evidence = cite(launch.macro)
    if not parts:
        return via, evidence
    return f"{via} with " + (", ".join(parts[:-1]) + f" and {parts[-1]}" if len(parts) > 1 else parts[0]), evidence


def _written_configuration(launch: LaunchFact) -> str:
    text = "".join(f" `{d.text}` ({at(d)})." for d in launch.declarations)
    for write in launch.writes:
        if write.unconditional:
            when = "before the launch on every path"
        elif write.guard is not None:
            when = f"before the launch under `{write.guard.text}` ({at(write.guard)})"
        else:
            when = "on some paths before the launch"
        text += f" `{write.variable}` is reassigned {when}: `{write.text}` ({at(write)})."
    final = [w for w in launch.writes if w.unconditional]
    if final:
        last = {w.variable: w for w in final}
        text += " The launch uses " + joined([f"`{v}` from {at(w)}" for v, w in last.items()]) + "."
    return text


def _declared(launch: LaunchFact, located: Located) -> list[str]:
    return [v for v in plain(launch.grid, launch.block) if re.search(rf"\b{v}\b", located.text)]


def _stated_conditions(launch: LaunchFact):
    return list(launch.conditions)


def _written_out(condition) -> bool:
    return "".join(condition.condition.split()) in "".join(condition.text.split())


def _branch(condition) -> str:
    if not _written_out(condition):  # longer than the lines read: named by where it is, not quoted
        side = {"then": "holds", "else": "does not hold"}.get(condition.branch, f"takes {condition.branch}")
        return f"the condition at {at(condition)} {side}"
    if condition.branch == "then":
        return f"`{condition.condition}` holds ({at(condition)})"
    if condition.branch == "else":
        return f"`{condition.condition}` does not hold ({at(condition)})"
    if condition.label_line:
        return f"`{condition.condition}` takes `{condition.branch}` (lines {condition.start_line} and {condition.label_line})"
    return f"`{condition.condition}` takes the {condition.branch} branch ({at(condition)})"


def _kernel_name(expression: str) -> str:
    match = WORD.match(expression.strip("() "))
    return match.group(0) if match else expression


_COUNTS = ("no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten")


def _count(number: int, noun: str) -> str:
    """\"two barrier calls\": counts in words, which the grounding check does not read as stated numbers."""
    word = _COUNTS[number] if number < len(_COUNTS) else "several"
    return f"{word} {noun}{'' if number == 1 else 's'}"


_ELEMENTS_SHOWN = 16
_ONE_THREAD = re.compile(r"\b(?:tid|tx|ty|tz|lid|threadIdx\.[xyz]|hipThreadIdx_[xyz])\s*==\s*0\b")
_BLOCK = re.compile(r"blockIdx|hipBlockIdx")
_COUNTER = re.compile(r"\b(?:atomicAdd|atomicSub|atomicInc|atomicDec)\s*\([^,]+,\s*-?1u?\s*\)")
_ONE_FLAT_THREAD = re.compile(r"\b(?:tid|tx|lid|threadIdx\.x|hipThreadIdx_x)\s*==\s*0\b")  # one thread of the block


def _assignment(mapping) -> str:
    if re.match(r"(?:\+|-|\*|<<)= ", mapping.expression):
        return f"{mapping.variable} {mapping.expression}"
    return f"{mapping.variable} = {mapping.expression}"


def _one_thread(access) -> bool:
    """An access made under ``if(tid == 0)`` (its then-branch): by one thread, not each."""
    return any(_one_thread_guard(g) for g in getattr(access, "guards", []))


def _one_thread_guard(guard) -> bool:
    return bool(_ONE_THREAD.search(guard.text)) and guard.holds


def _key(access) -> tuple[str, str]:
    return (access.region, _subscript(access))


_ASSIGNMENT = re.compile(r"(?<![=!<>])(?:<<|>>|[-+*/%&|^])?=(?!=)")


def _subscript(access) -> str:
    """``y[row * incy]`` of a store ``y[row * incy] = ...`` or of an access."""
    target = _ASSIGNMENT.split(access.expression, 1)[0].strip()
    return target if "[" in target else access.expression


def _thread_strided(header: str, mapped: set[str]) -> bool:
    """A ``for`` whose variable starts at the thread's position (``for(int i = tid; i < n; i += NB)``)."""
    if not header.startswith("for"):
        return False
    init = header.partition("(")[2].partition(";")[0]
    return bool(init) and (
        any(x in init for x in (*_THREAD_X, "threadIdx", "hipThreadIdx"))
        or bool(mapped & set(WORD.findall(init.partition("=")[2])))
    )


_CALL = re.compile(
    r"\b(?!(?:u?int\d*_t|size_t|int|long|unsigned|min|max|std::min|std::max)\b)[A-Za-z_][\w:]*\s*(?:<[^;()]*>)?\s*\("
)


def _bounds_position(header: str, positions: set[str]) -> bool:
    """A loop whose condition holds the thread's position against a bound (``for(i = 0; tx + i < n; i += NB)``)."""
    condition = _loop_condition(header)
    return bool(re.search(r"<=?|>=?", condition)) and bool(
        THREAD_INDEX.search(condition) or positions & set(WORD.findall(condition))
    )


def _relative_bound(header: str, mapped: set[str]) -> bool:
    """A loop bounded relative to the thread's own position (``k < tx + DIM_X / 2``): it walks a window of the
    thread's, not the data's extent. Each term of an ``&&`` is read on its own (``j < WIN && i < n - 1`` bounds
    the position ``i`` by ``n``)."""
    relative = []
    for term in _CONJUNCTS.split(_loop_condition(header)):
        bound = re.split(r"<=?|>=?|!=", term, maxsplit=1)
        if len(bound) != 2:
            continue
        relative.append(
            bool(THREAD_INDEX.search(bound[1]) or mapped & set(WORD.findall(bound[1])) - set(WORD.findall(bound[0])))
        )
    return bool(relative) and all(relative)


_CONJUNCTS = re.compile(r"&&")


def _declared_in(header: str) -> set[str]:
    """The counters a ``for`` header declares with a type (``for(int i = 0; ...)``: ``i``)."""
    init = header.partition("(")[2].partition(";")[0]
    return set(re.findall(r"\b(?:[\w:]+[\s*&]+)(\w+)\s*=", init))


def _per_region(mappings) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for mapping in mappings:
        found.setdefault(mapping.region, set()).add(mapping.variable)
    return found


def _loop_condition(header: str) -> str:
    parts = header.partition("(")[2].split(";")
    return parts[1].strip() if len(parts) > 2 else header


def _loop_variables(header: str) -> set[str]:
    """The variables a ``for`` sets up or steps (``for(int i = 0; i < N_TX; i++, tx += DIM_X)``: i and tx)."""
    if not header.startswith("for"):
        return set()
    clauses = header.partition("(")[2].rpartition(")")[0].split(";")
    init = re.findall(r"(\w+)\s*=(?!=)", clauses[0]) if clauses else []
    step = re.findall(r"(\w+)\s*(?:\+\+|--|[-+*/]=)|(?:\+\+|--)\s*(\w+)", clauses[-1]) if len(clauses) == 3 else []
    return {*init, *(a or b for a, b in step)}


_PREPROCESSOR_BRANCH = re.compile(r"^[ \t]*#[ \t]*(?:if|ifdef|ifndef|elif)\b", re.MULTILINE)
_COMBINING_KERNEL = re.compile(r"reduc|part2|final|combine", re.IGNORECASE)  # a kernel that sums the blocks' values


def _unit_increment_only(launch: LaunchFact) -> bool:
    """Whether the launch's path requires an increment of 1 (``incx == 1 && incy == 1`` holds)."""
    return any(
        (c.branch == "then" and "||" not in c.condition and re.search(r"\binc\w*\s*==\s*1\b", c.condition))
        or (c.branch == "else" and "&&" not in c.condition and re.search(r"\binc\w*\s*!=\s*1\b", c.condition))
        for c in launch.conditions
    )


def _guard_clause(guards) -> str:
    """ ", when `if(x)` holds (line 3)"" for a statement under branches, "" otherwise."""
    return f", when {_guarded_by(guards)}" if guards else ""


def _only_when(guards) -> str:
    if not guards:
        return ""
    return ", reached only when " + _guarded_by(guards)


def _guarded_by(guards) -> str:
    """``if(x)` holds (line 3) and `if(y)` does not hold (line 5)``: the branches a statement sits in."""
    return " and ".join(f"`{g.text}` {'holds' if g.holds else 'does not hold'} ({at(g)})" for g in guards)


_HALVING = re.compile(
    r"\bfor\s*\((?:[^;]*?\b(\w+)\s*=)[^;]*;[^;]*;\s*(?:\1\s*(?:/=\s*2|>>=\s*1)|\1\s*=\s*\1\s*(?:/\s*2|>>\s*1))"
)


def _tree_variables(tree: list) -> set[str]:
    """The halving strides and wavefront indices of an LDS tree (``s`` of ``sdata[tid + s]``, ``wave``)."""
    return {
        match.group(1) if hasattr(t, "header") and (match := _HALVING.search(t.header)) else getattr(t, "variable", "")
        for t in tree
    } - {""}


_WAVE_INDEX = re.compile(  # ``threadIdx.x / warpSize``: the thread's wavefront (``tx / n``, a tile column, is not)
    r"(?:threadIdx\.x|hipThreadIdx_x|\btid\w*|\btx\b)\s*/\s*(?:warpSize|\w*(?:WARP|WAVE|WF)\w*|64|32)\b",
    re.IGNORECASE,
)


def _lds_tree(facts: KernelFacts) -> list:
    """What makes LDS a reduction across the block, as opposed to operand tiles: the loops that halve a stride LDS
    is read at (``for(s = NB / 2; s > 0; s /= 2)`` reading ``sdata[tid + s]``), or a wavefront index LDS is written
    at (``partial[wave]`` with ``wave = threadIdx.x / WF``)."""
    tree = []
    for mapping in facts.thread_mapping:  # ``wave = threadIdx.x / WF``: one LDS slot per wavefront
        if _WAVE_INDEX.search(mapping.expression) and any(
            a.region == mapping.region and re.search(rf"\b{mapping.variable}\b", a.expression.partition("[")[2])
            for a in facts.lds_accesses
        ):
            tree.append(mapping)
    for loop in facts.loops:
        match = _HALVING.search(loop.header)
        if match and any(
            re.search(rf"\b{match.group(1)}\b", a.expression.partition("[")[2]) for a in facts.lds_accesses
        ):
            tree.append(loop)
    return tree


def _alternatives(one: LaunchFact, other: LaunchFact) -> bool:
    """Whether two launches sit in different branches of one condition (no run makes both)."""
    branches = {(c.start_line, c.condition): c.branch for c in one.conditions}
    return any(branches.get((c.start_line, c.condition), c.branch) != c.branch for c in other.conditions)


def _first_per(items, key):
    seen, out = set(), []
    for item in items:
        k = key(item)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return out
