"""How a kernel is launched, as the values reaching the launch: the statement, its configuration (through a
configuration macro such as ``gemvt_sn_KARGS`` when the launch uses one), every write of the grid and block
variables before it, and the branch conditions on the way. Read off the launcher's region text."""

from __future__ import annotations

import bisect
import re
from functools import cache, lru_cache

from miner.errors import MinerError
from miner.models import BranchFact, GuardFact, LaunchFact, LaunchSite, Located, Region, Write
from miner.parse.launch_text import expand_macro, find_launch
from miner.qa.context import KernelContext, cited_text
from miner.qa.syntax import LINE_COMMENT, parse_code
from miner.source.profile import LaunchMacro, load_profile

_CHEVRONS = re.compile(r"<<<(.*?)>>>")
_UPPER_CALL = re.compile(r"\b([A-Z_][A-Z0-9_]{2,})\s*[(;]")
_DEFINE = re.compile(r"^\s*#\s*define\s+(\w+)(\(([^)]*)\))?")
_BASE_TYPES = ("dim3", "int", "auto", "size_t", "int64_t", "int32_t", "uint32_t", "unsigned")
_MAX_STATEMENT_LINES = 80
_CONDITION_LINES = 24  # a branch condition is read over at most this many lines (rocBLAS's gemvn arch test: 15)


def collapse(text: str) -> str:
    return " ".join(text.split())


_MEMO: dict[tuple, LaunchFact] = {}
_MEMO_SIZE = 8192


def launch_fact(context: KernelContext, site: LaunchSite, configuration: bool = True) -> LaunchFact:
    """The fact of one launch site; the same for every kernel whose context holds its launcher (memoised). Without
    ``configuration``, the declarations and writes the grid and block come from are left out (what a dispatch
    between kernels reads, at a fraction of the cost)."""
    launcher = context.region(site.launcher)
    assert launcher is not None
    key = (context.library, launcher.id, launcher.sha256, tuple(launcher.live_for), site.model_dump_json())
    found = _MEMO.get((*key, configuration))
    if found is None:
        if len(_MEMO) >= _MEMO_SIZE:
            _MEMO.clear()
        found = _MEMO[(*key, configuration)] = _launch_fact(context, site, launcher, configuration)
    return found


def _launch_fact(context: KernelContext, site: LaunchSite, launcher: Region, configuration: bool) -> LaunchFact:
    lines = launcher.code.split("\n")
    end = site.line
    while (
        end < launcher.end_line
        and ";" not in lines[end - launcher.start_line]
        and end - site.line < _MAX_STATEMENT_LINES
    ):
        end += 1
    statement = Located.model_construct(
        region=launcher.id,
        start_line=site.line,
        end_line=end,
        text=collapse(cited_text(launcher, site.line, end) or ""),
    )
    via, config = _written_launch(statement.text, site)
    macro, expansion = None, ""
    written = "".join(statement.text.split())
    if not (config[0] and config[1]) or not all("".join(c.split()) in written for c in config[:2]):
        found = _configuration_macro(launcher, site.line, statement.text, _launch_macros(context.library))
        if found is not None:
            macro, expansion, expanded = found
            via = expanded[0] or via
            config = expanded[1]
    conditions = [
        branch_fact(launcher, c, site.line)
        for c in site.conditions
        if launcher.start_line <= c.line <= launcher.end_line
    ]
    common = dict(
        launcher=launcher.id,
        launcher_name=launcher.name,
        statement=statement,
        via=via,
        grid=config[0],
        block=config[1],
        shared_mem=config[2],
        stream=config[3],
        conditions=conditions,
        macro=macro,
        expansion=expansion,
        macro_guards=_macro_guards(launcher, macro, site.kernel_expr) if macro is not None else [],
        live_for=list(launcher.live_for),
        loops=_enclosing_loops(launcher, site.line),
    )
    if not configuration:
        return LaunchFact.model_construct(**common)
    integer_types = _integer_types(context.library)
    written_out = tuple(  # ``dim3(numgrps2, NB, batch_count)``: the variables an expression grid or block reads
        name
        for value in config[:2]
        if not re.fullmatch(r"[A-Za-z_]\w*", value)
        for name in re.findall(r"\b[a-z_]\w*\b", value)
        if name != "dim3"
    )
    declarations, writes = _configuration_writes(launcher, site.line, (*config[:2], *written_out), integer_types)
    known = {*config, *written_out}
    level = [*declarations, *writes]  # ``grid = dim3(blocks, 1, 1)`` reads ``blocks`` as a declaration would
    for _ in range(2):  # the variables the grid and block are computed from (``blocksX``, then ``nitems``)
        inputs = tuple(
            name for d in level for name in re.findall(r"\b[a-z_]\w*\b", _value_text(d.text)) if name not in known
        )
        known |= set(inputs)
        deeper, deeper_writes = _configuration_writes(launcher, site.line, inputs, integer_types)
        declarations = by_line([*declarations, *deeper])
        writes = by_line([*writes, *deeper_writes])
        level = [*deeper, *deeper_writes]
    declarations = _with_constants(launcher, site.line, config[:2], declarations)
    return LaunchFact.model_construct(**common, declarations=declarations, writes=writes)


_LOOP_TYPES = ("for_statement", "while_statement", "do_statement", "for_range_loop")


def _enclosing_loops(launcher: Region, line: int) -> list[Located]:
    """The headers of the loops whose bodies hold the launch on ``line``, outermost first."""
    row = line - launcher.start_line
    node = parse_code(launcher.code).root_node.named_descendant_for_point_range((row, 0), (row, 0))
    loops = []
    while node is not None:
        body = node.child_by_field_name("body") if node.type in _LOOP_TYPES else None
        if body is not None and body.start_point[0] <= row <= body.end_point[0] and node.start_point[0] < row:
            first = launcher.start_line + node.start_point[0]
            last = launcher.start_line + max(
                body.start_point[0] - (1 if body.start_point[1] == 0 else 0), node.start_point[0]
            )
            header = node.text[: body.start_byte - node.start_byte].decode(errors="replace")
            loops.insert(
                0,
                Located.model_construct(
                    region=launcher.id, start_line=first, end_line=last, text=collapse(LINE_COMMENT.sub("", header))
                ),
            )
        node = node.parent
    return loops


def _value_text(statement: str) -> str:
    """What a declaration or assignment computes: after ``=`` (``grid = dim3(blocks)``), else inside the
    constructor's parentheses (``dim3 grid(blocks)``)."""
    before, equals, after = statement.partition("=")
    if equals and "(" not in before:
        return after
    return statement.partition("(")[2] or after


@cache
def _integer_types(library: str) -> tuple[str, ...]:
    """The integer typedefs of the library the bundle was mined from (its profile's ``integer_types``)."""
    try:
        return tuple(map(re.escape, load_profile(library).integer_types))
    except MinerError:  # a bundle of a library this installation has no profile for
        return ()


@cache
def _launch_macros(library: str) -> tuple[LaunchMacro, ...]:
    try:
        return load_profile(library).launch_macros
    except MinerError:
        return ()


def _written_launch(text: str, site: LaunchSite) -> tuple[str, tuple[str, str, str, str]]:
    """How the launch is written in the cited statement, and its configuration as far as the text shows it.

    Clang reports a launch macro that expands to ``<<<...>>>`` as a triple-chevron launch; the
    statement says which macro it was, and a configuration hidden in a macro argument stays unknown ("")."""
    config = (site.grid, site.block, site.shared_mem, site.stream)
    chevrons = _CHEVRONS.search(text)
    if chevrons:
        parts = [p.strip() for p in split_top_level(chevrons.group(1))] + ["", "", "", ""]
        return "<<<>>>", (parts[0], parts[1], parts[2], parts[3]) if not any(config) else config
    if site.via != "<<<>>>" and site.via in text:
        return site.via, config
    macro = _UPPER_CALL.search(text)
    return (macro.group(1) if macro else ""), config


def split_top_level(text: str) -> list[str]:
    parts, depth, current = [], 0, ""
    for char in text:
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        if char == "," and depth == 0:
            parts.append(current)
            current = ""
        else:
            current += char
    return [*parts, current]


def _configuration_macro(
    launcher: Region, before: int, statement: str, macros: tuple[LaunchMacro, ...]
) -> tuple[Located, str, tuple[str, tuple[str, str, str, str]]] | None:
    """The ``#define`` in the launcher, above the launch, of a macro the launch statement uses, the statement with
    it expanded, and the configuration the expansion gives (``gemvt_sn_KARGS(alpha)`` holds the grid and block)."""
    lines = launcher.code.split("\n")
    for index in range(before - launcher.start_line - 1, -1, -1):
        match = _DEFINE.match(lines[index])
        if match is None:
            continue
        name, params = match.group(1), match.group(3)
        used = re.search(rf"\b{name}\b" + (r"\s*\(" if params is not None else ""), statement)
        if used is None:
            continue
        last = index
        while lines[last].rstrip().endswith("\\") and last + 1 < len(lines):
            last += 1
        body = " ".join(line.rstrip().rstrip("\\") for line in lines[index : last + 1])[match.end() :].strip()
        expanded = expand_macro(statement, name, params, body)
        parsed = find_launch(expanded, macros)
        if parsed is None:
            return None
        config = parsed[0]
        first, final = launcher.start_line + index, launcher.start_line + last
        define = Located.model_construct(
            region=launcher.id,
            start_line=first,
            end_line=final,
            text=collapse(cited_text(launcher, first, final) or ""),
        )
        return define, collapse(expanded), (config.via, (config.grid, config.block, config.shared_mem, config.stream))
    return None


def _macro_guards(launcher: Region, macro: Located, kernel_expr: str) -> list[GuardFact]:
    """The ``if`` branches of a launch macro's body that hold the launch of the kernel ``kernel_expr`` names
    (``RUN_LUFACT_SMALL``: ``if(pivot)`` launches the pivoting kernel, its ``else`` the other)."""
    name = re.sub(r"[()\s]", "", kernel_expr).partition("<")[0]
    return [
        GuardFact.model_construct(
            region=launcher.id,
            start_line=macro.start_line + row,
            end_line=macro.start_line + row,
            text=text,
            holds=holds,
        )
        for row, text, holds in _branches_around(cited_text(launcher, macro.start_line, macro.end_line) or "", name)
    ]


@lru_cache(maxsize=1024)
def _branches_around(define: str, name: str) -> tuple[tuple[int, str, bool], ...]:
    lines = [line.rstrip().rstrip("\\") for line in define.split("\n")]
    head = _DEFINE.match(lines[0]) if lines else None
    if head is None or not name:
        return ()
    lines[0] = " " * head.end() + lines[0][head.end() :]
    tree = parse_code("void m() {\n" + "\n".join(lines) + "\n}")
    stack, target = [tree.root_node], None
    while stack and target is None:
        node = stack.pop()
        if node.type == "identifier" and node.text.decode(errors="replace") == name:
            target = node
        stack.extend(reversed(node.children))
    found = []
    child, ancestor = target, target.parent if target is not None else None
    while ancestor is not None:
        if ancestor.type == "if_statement":
            condition = ancestor.child_by_field_name("condition")
            consequence = ancestor.child_by_field_name("consequence")
            if condition is not None and child in (consequence, ancestor.child_by_field_name("alternative")):
                text = "if" + collapse(condition.text.decode(errors="replace"))
                found.insert(0, (condition.start_point[0] - 1, text, child == consequence))
        child, ancestor = ancestor, ancestor.parent
    return tuple(found)


def _configuration_writes(
    launcher: Region, before: int, config: tuple[str, ...], integer_types: tuple[str, ...]
) -> tuple[list[Located], list[Write]]:
    """The declaration of each plain grid / block variable above the launch, and every later write of it."""
    lines = launcher.code.split("\n")
    types = "|".join((*_BASE_TYPES, *integer_types))
    declarations: list[Located] = []
    writes: list[Write] = []
    for variable in dict.fromkeys(v for v in config if re.fullmatch(r"[A-Za-z_]\w*", v)):
        declared = _compiled(rf"\b(?:{types})\b(?:\s+const\b)?[\s*&]+{variable}\s*[({{=;\[]")
        written = _compiled(rf"(?<![\w.]){variable}\s*(?:\.\s*[xyz]\s*)?(?:[-+*/]?=)(?!=)")
        found: list[Write] = []
        for index in reversed(_identifier_lines(launcher.code, variable)):
            line = launcher.start_line + index
            if line >= before:
                continue
            text = lines[index]
            if declared.search(text):
                last = line
                while ";" not in lines[last - launcher.start_line] and last - line < 4 and last < before - 1:
                    last += 1
                statement = " ".join(
                    LINE_COMMENT.sub("", t) for t in lines[line - launcher.start_line : last - launcher.start_line + 1]
                )
                declarations.append(
                    Located.model_construct(
                        region=launcher.id, start_line=line, end_line=last, text=collapse(statement)
                    )
                )
                break
            if written.search(text) and not text.lstrip().startswith(("//", "#")):
                unconditional = _encloses(lines, line - launcher.start_line, before - launcher.start_line)
                guard = None if unconditional else _guard(lines, line - launcher.start_line)
                found.append(
                    Write.model_construct(
                        region=launcher.id,
                        start_line=line,
                        end_line=line,
                        text=collapse(LINE_COMMENT.sub("", text)),
                        variable=variable,
                        unconditional=unconditional,
                        guard=None
                        if guard is None
                        else Located.model_construct(
                            region=launcher.id,
                            start_line=launcher.start_line + guard,
                            end_line=launcher.start_line + guard,
                            text=collapse(lines[guard]),
                        ),
                    )
                )
        writes += reversed(found)
    return sorted(declarations, key=lambda d: d.start_line), sorted(writes, key=lambda w: w.start_line)


@lru_cache(maxsize=16384)
def _compiled(pattern: str) -> re.Pattern[str]:
    """``re.compile`` with a cache that holds every pattern of a run (``re``'s own holds 512)."""
    return re.compile(pattern)


@lru_cache(maxsize=16384)
def _identifier_lines(code: str, name: str) -> tuple[int, ...]:
    """The indexes of the lines of ``code`` where ``name`` occurs as an identifier, in order."""
    starts = [m.start() for m in re.finditer(rf"(?<![\w.]){re.escape(name)}\b", code)]
    if not starts:
        return ()
    breaks = [m.start() for m in re.finditer("\n", code)]
    return tuple(dict.fromkeys(bisect.bisect_left(breaks, start) for start in starts))


_CONSTANT = r"^\s*(?:#\s*define\s+{name}\b\s*\S|(?:static\s+)?(?:constexpr|const)\b[^;=()]*\b{name}\s*=)"


def _with_constants(launcher: Region, before: int, config: tuple[str, ...], declared: list[Located]) -> list[Located]:
    """The declarations, and the definitions of the named constants the grid and block are computed from
    (``constexpr rocblas_int SYR_DIM_X = 1024;``), as far as the launcher defines them above the launch."""
    lines = launcher.code.split("\n")
    text = " ".join([*config, *(d.text.partition("=")[2] or d.text.partition("(")[2] for d in declared)])
    names = [n for n in dict.fromkeys(re.findall(r"\b[A-Za-z_]\w*\b", text)) if n not in _BASE_TYPES and n != "dim3"]
    found = {d.start_line: d for d in declared}
    for name in names:
        pattern = _compiled(_CONSTANT.format(name=re.escape(name)))
        for index in reversed(_identifier_lines(launcher.code, name)):
            line = launcher.start_line + index
            if line >= before:
                continue
            last = index
            text = LINE_COMMENT.sub("", lines[index])
            while ";" not in text and last + 1 < len(lines) and last - index < 2:  # ``NB_X\n = 32; // ...``
                last += 1
                text += " " + LINE_COMMENT.sub("", lines[last])
            if pattern.match(text):
                if line not in found:
                    found[line] = Located.model_construct(
                        region=launcher.id, start_line=line, end_line=launcher.start_line + last, text=collapse(text)
                    )
                break
    return sorted(found.values(), key=lambda d: d.start_line)


def by_line(located: list) -> list:
    """Facts in line order, one per cited span."""
    return list({(x.start_line, x.end_line): x for x in sorted(located, key=lambda x: x.start_line)}.values())


def _encloses(lines: list[str], write: int, launch: int) -> bool:
    """Whether the innermost braces around line ``write`` also hold line ``launch`` and the write is not the body
    of an unbraced ``if`` / ``else`` / loop: then every path from the write reaches the launch."""
    text = lines[write].lstrip()
    previous = next((lines[i].strip() for i in range(write - 1, -1, -1) if lines[i].strip()), "")
    if text.startswith(("if", "else", "for", "while")) or (previous and previous[-1] not in ";{}"):
        return False
    depth = 0
    for line in lines[write + 1 : launch]:
        for char in line:
            depth += {"{": 1, "}": -1}.get(char, 0)
            if depth < 0:
                return False
    return True


_HEADER = re.compile(r"^(?:\}\s*)?(?:if\b|else\b|for\b|while\b|switch\b|case\b|default\b)")


def _guard(lines: list[str], write: int) -> int | None:
    """The index of the header line a write is under: the unbraced ``if`` just above it, or the header of the
    innermost brace block holding it."""
    if _HEADER.match(lines[write].lstrip()):
        return write
    previous = next((i for i in range(write - 1, -1, -1) if lines[i].strip()), None)
    if previous is not None and lines[previous].rstrip()[-1:] not in (";", "{", "}"):
        return previous if _HEADER.match(lines[previous].lstrip()) else None
    depth = 0
    for index in range(write - 1, -1, -1):
        for char in reversed(lines[index]):
            depth += {"}": 1, "{": -1}.get(char, 0)
            if depth < 0:
                header = index if lines[index].strip() != "{" else index - 1
                while header > 0 and not lines[header].strip():
                    header -= 1
                return header if _HEADER.match(lines[header].lstrip()) else None
    return None


def branch_fact(launcher: Region, condition, before: int) -> BranchFact:
    """The lines of a branch condition: from its line until its whole text has been seen (at most 6 lines)."""
    wanted = "".join(condition.text.split())
    last = condition.line
    while last < min(launcher.end_line, condition.line + _CONDITION_LINES):
        if wanted in "".join((cited_text(launcher, condition.line, last) or "").split()):
            break
        last += 1
    text = collapse(cited_text(launcher, condition.line, last) or "")
    label_line = 0
    if condition.branch.startswith(("case ", "default")):
        label = "".join(condition.branch.split())
        lines = launcher.code.split("\n")
        for line in range(before, condition.line, -1):
            if "".join(lines[line - launcher.start_line].split()).startswith(label):
                label_line = line
                break
    return BranchFact.model_construct(
        label_line=label_line,
        region=launcher.id,
        start_line=condition.line,
        end_line=last,
        text=text,
        condition=condition.text,
        branch=condition.branch,
    )
