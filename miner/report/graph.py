"""One family's call tree as an SVG drawn by Graphviz's ``dot``: its regions (kernels, device helpers, host
functions), the call and launch edges between them with the conditions they are under, and the functions the
traversal excluded or stopped at, greyed, with their rule. Node ids (``n<index>``) let the page colour the
graph per entry (live, dead, not reached)."""

from __future__ import annotations

import re
import shutil
import subprocess

from miner.errors import ToolchainError

_SHAPES = {"kernel": "box3d", "device_helper": "ellipse", "api": "house", "launcher": "box", "template": "box"}
_LABEL_CHARS = 48
_COMMENT = re.compile(r"<!--.*?-->\n?", re.S)


def dot_source(family: dict) -> str:
    """``family``: regions (with ``index``), edges (region ids and conditions), exclusions and boundaries."""
    index = {r["id"]: r["index"] for r in family["regions"]}
    lines = [
        "digraph family {",
        '  graph [rankdir=LR, bgcolor="transparent", nodesep=0.18, ranksep=0.45, fontname="Helvetica"];',
        '  node [fontname="Helvetica", fontsize=10, style="filled", fillcolor="#ffffff", color="#555555"];',
        '  edge [fontname="Helvetica", fontsize=8, color="#777777", arrowsize=0.6];',
    ]
    for r in family["regions"]:
        shape = _SHAPES.get(r["role"], "box")
        label = f"{_esc(r['name'])}\\n{r['role'].replace('_', ' ')}"
        tooltip = _esc(f"{r['file']}:{r['start_line']}")
        lines.append(f'  n{r["index"]} [id="n{r["index"]}", shape={shape}, label="{label}", tooltip="{tooltip}"];')
    merged: dict[tuple[int, int, str], list[dict]] = {}  # one edge per caller, callee and kind: its call sites
    for e in family["edges"]:
        if e["caller"] in index and e["callee"] in index:
            merged.setdefault((index[e["caller"]], index[e["callee"]], e["kind"]), []).append(e)
    for (caller, callee, kind), sites in merged.items():
        text = " && ".join(sites[0]["conditions"]) + (f" (+{len(sites) - 1} sites)" if len(sites) > 1 else "")
        label = text if len(text) <= _LABEL_CHARS else text[: _LABEL_CHARS - 1] + "…"
        tooltip = "\n".join(
            f"{kind} at line {e['line']}" + (": " + " && ".join(e["conditions"]) if e["conditions"] else "")
            for e in sites
        )
        style = "bold" if kind == "launch" else "solid"
        lines.append(f'  n{caller} -> n{callee} [style={style}, label="{_esc(label)}", tooltip="{_esc(tooltip)}"];')
    notes: dict[tuple[str, str], int] = {}  # one note per function left out, however many regions call it
    calls: set[tuple[int, int]] = set()
    for x in family["stopped"]:
        if x["caller"] in index:
            k = notes.setdefault((x["name"], x["why"]), len(notes))
            calls.add((index[x["caller"]], k))
    for (name, why), k in notes.items():
        lines.append(
            f'  x{k} [id="x{k}", shape=note, style="filled,dashed", fillcolor="#eeeeee", fontcolor="#888888", '
            f'color="#aaaaaa", label="{_esc(name)}\\n{_esc(why)}"];'
        )
    for caller, k in sorted(calls):
        lines.append(f'  n{caller} -> x{k} [style=dashed, color="#bbbbbb", arrowhead=odot];')
    lines.append("}")
    return "\n".join(lines)


def render_svg(source: str, timeout_s: float = 120) -> str:
    dot = shutil.which("dot")
    if dot is None:
        raise ToolchainError("the report needs Graphviz's dot (run ./setup.sh, or apt-get install graphviz)")
    proc = subprocess.run([dot, "-Tsvg"], input=source, capture_output=True, text=True, timeout=timeout_s)
    if proc.returncode != 0:
        why = proc.stderr.strip().splitlines()[-1] if proc.stderr.strip() else f"exit {proc.returncode}"
        raise ToolchainError(f"dot failed: {why}")
    svg = proc.stdout
    svg = svg[svg.index("<svg") :]  # without the XML declaration and doctype: it is inlined in HTML
    return _COMMENT.sub("", svg)


def _esc(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
