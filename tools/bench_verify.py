"""Benchmark and acceptance run of the verify stage: our solutions over the whole starter suite, the adversarial
suite, and the harness's overhead per candidate against an unsandboxed in-process floor measured in the same run.

    python tools/bench_verify.py [--device cuda|cpu] [--out DIR] [--only suite,hip,adversarial,overhead]
                                 [--tasks NAMES] [--overhead-runs N]

Writes DIR/verdicts.jsonl (every verdict) and DIR/report.md (the tables pasted into BENCHMARKS.md).
The floor runs the same candidate on the same correctness cases inside this process, with no worker, no
poisoning, digests, canary, audit or second runs: what an in-process harness like KernelBench's costs.
"""

from __future__ import annotations

import argparse
import functools
import importlib.util
import json
import os
import statistics
import sys
import time
from pathlib import Path

import torch

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from miner.verify.evaluate import Candidate, Verifier, VerifyOptions  # noqa: E402
from miner.verify.fingerprint import environment  # noqa: E402
from miner.verify.tasks import find_tasks, load_task, task_file  # noqa: E402

SOLUTIONS = REPO / "tasks" / "solutions"
ADVERSARIAL = REPO / "tests" / "verify" / "adversarial"


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--device", default="cuda" if torch.cuda.is_available() else "cpu")
    ap.add_argument("--out", type=Path, default=Path("output/bench_verify"))
    ap.add_argument("--only", default="suite,hip,adversarial,overhead")
    ap.add_argument("--tasks", default="all")
    ap.add_argument("--overhead-runs", type=int, default=5)
    args = ap.parse_args()
    if args.device == "cpu":
        os.environ["TRITON_INTERPRET"] = "1"  # the floor runs candidates in this process
    args.out.mkdir(parents=True, exist_ok=True)
    opts = VerifyOptions.for_device(args.device, first_call_timeout_s=45.0)
    report = [f"# verify benchmark ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())})", "",
              "environment: `" + json.dumps(environment(args.device)) + "`", ""]  # fmt: skip
    with Verifier(opts) as verifier, open(args.out / "verdicts.jsonl", "a") as sink:

        def verify(task, candidate):
            v = verifier.verify(task, candidate)
            sink.write(v.model_dump_json() + "\n")
            sink.flush()
            return v

        tasks = [load_task(p) for p in find_tasks(args.tasks)]
        for part in args.only.split(","):  # in the order given, so that a cut-short run has the first parts
            if part == "suite":
                report += suite_table(tasks, "triton", verify)
            elif part == "hip":
                report += suite_table(
                    [t for t in tasks if (SOLUTIONS / "hip" / f"{t.name}.hip").exists()], "hip", verify
                )
            elif part == "adversarial":
                report += adversarial_table(verify)
            elif part == "overhead":
                report += overhead_table(verifier, args.overhead_runs, args.device)
    (args.out / "report.md").write_text("\n".join(report) + "\n")
    print("\n".join(report))
    return 0


def suite_table(tasks, backend: str, verify) -> list[str]:
    rows = [f"## {backend} solutions", "",
            "| task | outcome | cases passed | weak | skipped | speedup (geomean) | per performance case | platform | verify s |",
            "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    ext = "py" if backend == "triton" else "hip"
    for task in tasks:
        source = (SOLUTIONS / backend / f"{task.name}.{ext}").read_text()
        v = verify(task, Candidate(backend, source, f"candidate.{ext}"))
        passed = sum(c.outcome == "passed" for c in v.cases)
        perf = ", ".join(f"{c.timing.speedup:.2f}x" + ("!" if c.timing.flags else "") for c in v.cases if c.timing)
        speed = f"{v.speedup:.2f}x" if v.speedup else "-"
        reason = "" if v.outcome == "passed" else f" ({v.reason[:120]})"
        rows.append(f"| {task.name} | {v.outcome.value}{reason} | {passed}/{len(v.cases)} | {v.weak_cases} | "
                    f"{len(v.skipped)} | {speed} | {perf or '-'} | {v.platform} | {v.harness_s.get('total', 0):.1f} |")  # fmt: skip
        print(rows[-1], flush=True)
    return rows + [""]


def adversarial_table(verify) -> list[str]:
    rows = ["## adversarial candidates", "", "| candidate | task | expected | got | rejected right | reason |",
            "|---|---|---|---|---|---|"]  # fmt: skip
    files = sorted(ADVERSARIAL.glob("*.py")) + sorted((ADVERSARIAL / "hip").glob("*.hip"))
    for path in files:
        meta = _header(path)
        backend = "hip" if path.suffix == ".hip" else "triton"
        v = verify(load_task(task_file(meta["task"])), Candidate(backend, path.read_text(), f"candidate{path.suffix}"))
        ok = v.outcome.value == meta["expect"]
        rows.append(f"| {path.stem} | {meta['task']} | {meta['expect']} | {v.outcome.value} | {'yes' if ok else 'NO'} | "
                    f"{v.reason[:140].replace('|', '/')} |")  # fmt: skip
        print(rows[-1], flush=True)
    return rows + [""]


def overhead_table(verifier: Verifier, runs: int, device: str) -> list[str]:
    """Per-candidate harness seconds (excluding compile, the candidate's own calls and timing) vs the floor."""
    rows = ["## harness overhead per candidate", "",
            "| task | verify total s | candidate calls s | timing s | harness overhead s (median, min-max) | worker wait s | in-process floor s |",
            "|---|---|---|---|---|---|---|"]  # fmt: skip
    for name in ("vector_add", "softmax", "axpy"):
        task = load_task(task_file(name))
        source = (SOLUTIONS / "triton" / f"{name}.py").read_text()
        verdicts = [verifier.verify(task, Candidate("triton", source)) for _ in range(runs)]
        over = [v.harness_s["overhead"] for v in verdicts]
        labels = {c.label for c in verdicts[0].cases if c.purpose == "correctness"}
        floor = statistics.median(
            _floor(task, SOLUTIONS / "triton" / f"{name}.py", device, labels) for _ in range(runs)
        )
        med = functools.partial(_median_phase, verdicts)
        rows.append(f"| {name} | {med('total'):.2f} | {med('candidate_calls'):.2f} | {med('timing'):.2f} | "
                    f"{statistics.median(over):.3f} ({min(over):.3f}-{max(over):.3f}) | {med('worker_wait'):.3f} | {floor:.3f} |")  # fmt: skip
        print(rows[-1], flush=True)
    return rows + [""]


def _median_phase(verdicts, key: str) -> float:
    return statistics.median(v.harness_s.get(key, 0.0) for v in verdicts)


def _floor(task, path: Path, device: str, labels: set[str]) -> float:
    """The same correctness cases run in this process: inputs, reference, one call, allclose. No isolation."""
    spec = importlib.util.spec_from_file_location(f"floor_{task.name}", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    t0 = time.perf_counter()
    for case in task.cases:
        if case.label not in labels:
            continue
        gen = torch.Generator(device=device).manual_seed(0)
        inputs = task.make_inputs(dict(case.params), gen, device)
        expected = task.results(
            task.reference(**{k: v.clone() if isinstance(v, torch.Tensor) else v for k, v in inputs.items()})
        )
        outs = {
            a.name: torch.empty_like(e)
            for a, e in zip([a for a in task.args if a.kind == "out"], expected[-1:], strict=False)
        }
        module.launch(*[outs.get(a.name, inputs.get(a.name)) for a in task.args])
        if device == "cuda":
            torch.cuda.synchronize()
        for name, e in zip(task.result_names, expected, strict=True):
            torch.allclose(outs.get(name, inputs.get(name)).float(), e.float(), rtol=1e-4, atol=1e-3, equal_nan=True)
    return time.perf_counter() - t0


def _header(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text().splitlines()[:4]:
        body = line.removeprefix("# ").removeprefix("// ")
        if ": " in body:
            key, value = body.split(": ", 1)
            out[key] = value.strip()
    return out


if __name__ == "__main__":
    sys.exit(main())
