"""`rocm-miner report`: one static HTML file for a mined library. Nothing is loaded from the network. The page
opens on an index of entry families; each family's graph (drawn by Graphviz when the report is built), verdicts
and regions, and each region's code, sit in inert JSON blocks that the page parses only when an entry is opened,
so the full rocBLAS opens in seconds."""

from __future__ import annotations

import html
import json
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from pydantic import ValidationError

from miner.bundle.write import atomic_file
from miner.errors import InputError
from miner.explain.reasons import condition_text
from miner.models import ReleaseDiff
from miner.outputs import read_run, records
from miner.report.graph import dot_source, render_svg

ASSETS = Path(__file__).with_name("assets")


@dataclass(frozen=True)
class ReportResult:
    path: Path
    families: int
    entries: int
    bytes: int


def build_report(out: Path, destination: Path | None = None, diff: Path | None = None, jobs: int = 1) -> ReportResult:
    run = read_run(out)
    release = _read_diff(diff) if diff else None
    verdicts = _verdicts(out)
    code: dict[str, int] = {}  # region id -> index of its code block
    code_blocks: list[str] = []
    families = []
    for bundle in records(out / "bundles.jsonl"):
        families.append(_family(bundle, verdicts, code, code_blocks, release))
    with ThreadPoolExecutor(max(1, jobs)) as pool:
        svgs = list(pool.map(lambda f: render_svg(dot_source(f)), families))
    not_reached = list(records(out / "not_reached.jsonl")) if (out / "not_reached.jsonl").is_file() else []
    index = {
        "library": run["library"],
        "checkout": {k: run["checkout"].get(k, "") for k in ("commit", "tag", "repo_url")},
        "families": [{"name": f["family"], "entries": f["entries"]} for f in families],
        "not_reached": not_reached,
        "diff": _diff_index(release),
    }
    blocks = [
        _block(f"f{k}", {**_public(f), "svg": svg}) for k, (f, svg) in enumerate(zip(families, svgs, strict=True))
    ]
    blocks += [_block(f"c{k}", text) for k, text in enumerate(code_blocks)]
    page = (ASSETS / "report.html").read_text()
    page = (
        page.replace("{{TITLE}}", html.escape(f"rocm-miner: {run['library']} {run['checkout'].get('tag', '')}"))
        .replace("{{CSS}}", (ASSETS / "report.css").read_text())
        .replace("{{INDEX}}", _json_for_script(index))
        .replace("{{BLOCKS}}", "\n".join(blocks))
        .replace("{{JS}}", (ASSETS / "report.js").read_text())
    )
    path = destination or out / "report.html"
    data = page.encode()
    with atomic_file(path) as fh:
        fh.write(data)
    return ReportResult(path, len(families), sum(len(f["entries"]) for f in families), len(data))


def _family(bundle: dict, verdicts: dict, code: dict[str, int], code_blocks: list[str], release) -> dict:
    regions = []
    for k, r in enumerate(bundle["regions"]):
        if r["id"] not in code:
            code[r["id"]] = len(code_blocks)
            code_blocks.append(r["code"])
        regions.append({
            "index": k, "id": r["id"], "name": r["name"], "qualified_name": r["qualified_name"], "role": r["role"],
            "file": r["file"], "start_line": r["start_line"], "end_line": r["end_line"], "code": code[r["id"]],
            "entries": r["entries"], "live_for": r["live_for"],
        })  # fmt: skip
    edges = [
        {"caller": e["caller"], "callee": e["callee"], "kind": e["kind"], "line": e["line"],
         "conditions": [condition_text(c) for c in e["conditions"]]}
        for e in bundle["edges"]
    ]  # fmt: skip
    stopped, seen = [], set()
    for x in bundle["exclusions"]:
        if (x["name"], x["caller"]) not in seen:
            seen.add((x["name"], x["caller"]))
            stopped.append({"name": x["name"], "caller": x["caller"], "why": x["rule"]})
    for b in bundle["boundaries"]:
        if (b["name"], b["caller"]) not in seen:
            seen.add((b["name"], b["caller"]))
            stopped.append({"name": b["name"], "caller": b["caller"], "why": f"boundary: {b['kind']}"})
    by_id = {r["id"]: r["index"] for r in regions}
    entry_verdicts = {
        e: {by_id[v["region"]]: [v["live"], v["reason"], v["decided_at"], v["detail"], v["conditions"]]
            for v in verdicts.get(e, []) if v["region"] in by_id}
        for e in bundle["entries"]
    }  # fmt: skip
    diffs = {}
    if release is not None:
        diffs = {d.entry: d.model_dump(mode="json") for d in release.entries if d.entry in bundle["entries"]}
    return {
        "family": bundle["family"], "entries": bundle["entries"], "regions": regions, "edges": edges,
        "stopped": stopped, "verdicts": entry_verdicts, "diff": diffs,
        "call_paths": [[by_id[rid] for rid in path if rid in by_id] for path in bundle["call_paths"]],
    }  # fmt: skip


def _public(family: dict) -> dict:
    """What the page needs of a family (the edges are in the graph already)."""
    return {k: v for k, v in family.items() if k != "edges"}


def _verdicts(out: Path) -> dict[str, list[dict]]:
    """Per entry, the verdicts the page colours: kernels and helpers, and the host code that cannot run (an
    overload the calls never select); live host code stays drawn as host code on the entry's path."""
    return {
        r["name"]: r["kernels"] + r["device_helpers"] + [h for h in r.get("host_functions", []) if not h["live"]]
        for r in records(out / "entries.jsonl")
    }


def _read_diff(path: Path) -> ReleaseDiff:
    file = path / "diff.json" if path.is_dir() else path
    try:
        return ReleaseDiff.model_validate_json(file.read_bytes())
    except OSError:
        raise InputError(f"--diff {path}: no diff.json there (run `rocm-miner diff` first)") from None
    except ValidationError:
        raise InputError(f"--diff {path}: not a diff.json written by `rocm-miner diff`") from None


def _diff_index(release: ReleaseDiff | None) -> dict:
    if release is None:
        return {}
    return {
        "old": release.old.revision, "new": release.new.revision, "counts": release.counts,
        "verdicts": {d.entry: d.verdict for d in release.entries},
    }  # fmt: skip


def _block(block_id: str, value) -> str:
    return f'<script type="application/json" id="{block_id}">{_json_for_script(value)}</script>'


def _json_for_script(value) -> str:
    """JSON that cannot end its ``<script>`` element early."""
    return json.dumps(value, separators=(",", ":")).replace("</", "<\\/").replace("<!--", "\\u003c!--")
