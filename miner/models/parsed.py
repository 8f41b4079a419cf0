"""Parse facts: what a TU's parse yields (functions and their call sites, the instances clang instantiated with their
guards, diagnostics), pickled compactly into the parse cache."""

from __future__ import annotations

from dataclasses import dataclass


class _Compact:
    """Pickles as (class, field values): a warm run unpickles hundreds of thousands of facts,
    and the generated ``__setstate__`` of slotted dataclasses is the slow path (measured 22 %)."""

    __slots__ = ()

    def __reduce__(self):
        return (self.__class__, tuple(getattr(self, name) for name in self.__slots__))


@dataclass(frozen=True, slots=True)
class Condition(_Compact):
    """One branch decision on the way from a function's entry to a call site."""

    kind: str  # "if", "if constexpr", "switch", "ternary"
    text: str  # the condition as written ("incx == 1", "n <= NB")
    branch: str  # "then", "else", "case <value>", "default"
    line: int


@dataclass(frozen=True, slots=True)
class LaunchConfig(_Compact):
    """The launch configuration at a kernel launch site, as source text."""

    via: str  # the launch macro name, "hipLaunchKernelGGL" or "<<<>>>"
    kernel: str
    grid: str
    block: str
    shared_mem: str
    stream: str


@dataclass(frozen=True, slots=True)
class CallSite(_Compact):
    """A call, launch or function reference inside a function body."""

    kind: str  # "call", "launch", "ref"
    name: str  # the callee's spelling
    targets: tuple[str, ...]  # USRs of the exact callee declarations (one unless overload set)
    templates: tuple[str, ...]  # USRs of the primary templates of those, "" where none
    resolution: str
    line: int
    conditions: tuple[Condition, ...] = ()
    template_args: tuple[str, ...] = ()
    args: tuple[str, ...] = ()
    launch: LaunchConfig | None = None


@dataclass(frozen=True, slots=True)
class DeclInfo(_Compact):
    """What is known about a callee that may have no definition in the checkout."""

    usr: str
    name: str
    qualified_name: str
    file: str  # path relative to the checkout, or absolute outside it
    line: int
    exec_space: str


@dataclass(frozen=True, slots=True)
class FunctionFacts(_Compact):
    """A function definition found in the checkout, with every call site in its body."""

    usr: str
    name: str
    qualified_name: str
    kind: str  # "function", "template", "method"
    file: str  # relative to the checkout root
    start_line: int
    end_line: int
    start_offset: int
    end_offset: int
    exec_space: str
    macro: str = ""  # name of the macro whose expansion defines it, "" when written out
    template_params: tuple[str, ...] = ()
    params: tuple[str, ...] = ()
    calls: tuple[CallSite, ...] = ()


Expr = tuple
"""A branch condition as clang saw it in an instantiated body, reduced to what liveness can
evaluate: ``("const", v)``, ``("param", name)``, ``("local", name)`` (a local variable, by its
initializer), ``("unary", op, e)``, ``("binary", op, a, b)``, ``("select", c, a, b)`` (``c ? a : b``),
``("min"|"max", a, b)``, ``("call", usr, (args...))`` (an integer function's result, by its returns),
``("range", lo, hi)``, ``("table", elements)`` (a constant array, rows as nested tuples), ``("index", array, i)``,
``("first", v, a, b, c)`` (where ``for (v = a; v < b; ++v) if (c) break;`` leaves ``v``), ``("hull", e...)``,
``("between", first, last)``
(a counted loop's variable), ``("at", line, e)`` (a local's value as assigned at that line),
``("grow", e, (op, amount)...)`` (a local that starts at ``e`` and is only ever increased in place)
or ``("unknown",)``."""


@dataclass(frozen=True, slots=True)
class Guard(_Compact):
    """An undecided branch on the way to a call in an instantiated body."""

    expr: Expr
    want: bool  # the branch is taken when ``expr`` is non-zero (True) or zero (False)
    text: str
    line: int
    regions: tuple[tuple[int, int], ...] = ()
    """The line ranges of the code it guards (its branch; the rest of the block after an exit or a loop; after
    an if/else whose branches both end in the same loop, the code after each loop and after the if)."""


@dataclass(frozen=True, slots=True)
class InstanceCall(_Compact):
    """A call, launch or function reference in an instantiated body, to a concrete function."""

    target: str  # USR of the callee: a specialisation (``f<float>``) or a plain function
    pattern: str  # USR of the definition it was instantiated from ("" for a plain function)
    line: int
    guards: tuple[Guard, ...] = ()
    args: tuple[Expr, ...] = ()  # each argument as an expression over the caller's parameters and locals
    ranges: tuple[tuple[int, int] | None, ...] = ()  # each argument's integer type range, when 32-bit or less


@dataclass(frozen=True, slots=True)
class Instance(_Compact):
    """A concrete function body as the compiler instantiated it: the calls it can make.
    Branches clang folds to a constant (``if constexpr``, ``if (is_float && ...)``, tuning
    macros) are decided here; their untaken side contributes no calls."""

    usr: str
    pattern: str  # "" for a function that is not a template specialisation
    params: tuple[str, ...]
    calls: tuple[InstanceCall, ...]
    decided: tuple[tuple[int, bool, bool], ...] = ()  # (line, value, constexpr) of folded branches
    written: tuple[str, ...] = ()  # parameters and locals the body assigns or takes the address of
    locals: tuple[tuple[str, Expr], ...] = ()  # integer, bool and floating-point locals and their initializers
    ranges: tuple[tuple[str, int, int], ...] = ()  # parameters and locals of integer types of 32 bits or less
    returns: tuple[tuple[Expr, tuple[Guard, ...]], ...] = ()
    """What an integer or bool function returns, one per reachable ``return``, with the guards on its way."""
    writes: tuple[tuple[str, int], ...] = ()  # (variable, line) of every write the body makes
    pointees: tuple[str, ...] = ()  # pointer-to-const parameters whose floating-point value ``*p`` the body reads


@dataclass(frozen=True, slots=True)
class Diagnostic(_Compact):
    severity: str
    file: str
    line: int
    message: str


@dataclass(frozen=True, slots=True)
class WalkScope(_Compact):
    """Where a TU's walk of instantiated bodies started when it was asked to start only from some functions
    (a library given with ``--with`` is walked from what the mined library reaches of it)."""

    starts: tuple[str, ...]  # USRs of every function the walk could start from
    walked: tuple[str, ...]  # of them, those it started from
    held: tuple[str, ...] = ()  # USRs of the instances the walk found


@dataclass(frozen=True, slots=True)
class ParsedTU(_Compact):
    """The facts of one translation unit."""

    path: str
    engine: str  # "clang" or "tree-sitter"
    functions: tuple[FunctionFacts, ...]
    decls: tuple[DeclInfo, ...]
    diagnostics: tuple[Diagnostic, ...]
    deps: tuple[str, ...]  # checkout-relative files the TU read
    seconds: float = 0.0
    fallback_reason: str = ""  # why tree-sitter facts were added: "fatal-diagnostic", "timeout", ...
    variant: str = "lp64"  # "ilp64" for TUs built with the library's ILP64 defines
    instances: tuple[Instance, ...] = ()  # concrete bodies reachable from this TU's definitions
    inactive: tuple[tuple[str, int, int], ...] = ()  # (file, first, last line) skipped by the preprocessor
    liveness_seconds: float = 0.0  # of ``seconds``: walking the instances and reading the skipped blocks
    scope: WalkScope | None = None  # None: the walk started from every start
    refs: tuple[str, ...] = ()  # USRs the instances call or read the result of that are not among them
    read_elsewhere: tuple[str, ...] = ()  # files of ``--with`` libraries the TU read, as "@library/path"

    @property
    def incomplete(self) -> str:
        """Why this TU's parse cannot decide that code never runs, "" when clang read it whole: its first fatal
        diagnostic or error (clang drops what it cannot instantiate, so a call it lost looks like one never
        made), or that clang did not read it at all (tree-sitter did)."""
        return f"{self.path}: {self.failure}" if self.failure else ""

    @property
    def failure(self) -> str:
        """``incomplete`` less the TU's path: its first fatal diagnostic, else its first error, else why clang
        did not read it; "" when clang read it whole."""
        for severity in ("fatal", "error"):
            for d in self.diagnostics:
                if d.severity == severity:
                    return d.message
        return f"no clang parse ({self.fallback_reason or 'failed'})" if self.engine == "tree-sitter" else ""


@dataclass(frozen=True, slots=True)
class ParseFailed:
    """A TU that could not be parsed at all: the reason is counted and the run goes on."""

    path: str
    reason: str  # "timeout", "crash", "unreadable", "clang-error"
    detail: str
    diagnostics: tuple[Diagnostic, ...] = ()


ParseResult = ParsedTU | ParseFailed
