"""The worker: the only process that imports or calls a candidate. Started by sandbox.start_worker.

Everything it trusts (clocks, device sync, events, hashing, the thread list, the dispatch audit, the Tensor
methods it reads with) is bound to local names before the candidate is imported, so patching torch, time or
threading does not reach them; the patches themselves are detected and reported. The worker never sees expected
outputs: it generates the case's inputs from the seed it is given, runs the candidate, and sends back raw output
bytes (read through its own aliases of the buffers it allocated) and digests. An audit hook records the
candidate's attempts to reach the network or start a process.
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib.util
import json
import math
import os
import resource
import socket
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from miner.verify import wire
from miner.verify.attempts import AttemptRecorder
from miner.verify.integrity import Guarded, Reader
from miner.verify.repetitions import Reservoir, fresh_seed

POISON_INT = -1234567891
FLUSH_BYTES = 256 << 20
ALLOWED_TORCH_OPS = frozenset(
    [
        "empty",
        "empty_strided",
        "empty_like",
        "new_empty",
        "new_empty_strided",
        "zeros",
        "zeros_like",
        "zero_",
        "fill_",
        "view",
        "_unsafe_view",
        "as_strided",
        "alias",
        "detach",
        "t",
        "transpose",
        "permute",
        "expand",
        "unsqueeze",
        "squeeze",
        "select",
        "slice",
        "lift_fresh",
        "reshape",
        "_reshape_alias",
        "flatten",
        "unflatten",
    ]
)
"""Allocation and view ops a Triton launcher may call itself; any other torch op computes data, which the kernel must do."""


@dataclass
class Trusted:
    """References taken before the candidate exists, and the places whose patching is reported."""

    perf_counter_ns: Any
    sha256: Any
    enumerate_threads: Any
    urandom: Any
    watched: list[tuple[Any, str, Any]] = field(default_factory=list)

    @classmethod
    def capture(cls, torch: Any) -> Trusted:
        import builtins

        places = [
            (time, "perf_counter"), (time, "perf_counter_ns"), (time, "time"), (time, "monotonic"),
            (torch, "allclose"), (torch, "equal"), (torch, "isclose"), (torch.testing, "assert_close"),
            (torch.cuda, "synchronize"), (torch.cuda, "Event"), (torch.cuda.Event, "record"),
            (torch.cuda.Event, "elapsed_time"), (torch.cuda.Event, "synchronize"), (torch.Tensor, "cpu"),
            (torch.Tensor, "copy_"), (torch.Tensor, "numpy"), (torch.Tensor, "fill_"), (threading, "enumerate"),
            (threading, "Thread"), (hashlib, "sha256"), (builtins, "__import__"), (sys, "settrace"), (os, "urandom"),
        ]  # fmt: skip
        watched = [(owner, name, getattr(owner, name)) for owner, name in places]
        return cls(time.perf_counter_ns, hashlib.sha256, threading.enumerate, os.urandom, watched)

    def tampered(self) -> list[str]:
        out = []
        for owner, name, original in self.watched:
            if getattr(owner, name, None) is not original:
                out.append(f"{getattr(owner, '__name__', owner)}.{name}")
        return out


class Harness:
    """State of one worker: the task, the candidate, the current case's tensors."""

    def __init__(self, device: str) -> None:
        import torch

        self.torch = torch
        self.device = device
        self.trusted = Trusted.capture(torch)
        self.sync = torch.cuda.synchronize if device == "cuda" else (lambda: None)
        self.event = torch.cuda.Event if device == "cuda" else None
        self.record = torch.cuda.Event.record if device == "cuda" else None
        self.elapsed = torch.cuda.Event.elapsed_time if device == "cuda" else None
        self.flush = torch.empty(FLUSH_BYTES, dtype=torch.uint8, device=device) if device == "cuda" else None
        if device == "cuda":
            torch.ones(1, device=device).add_(1)
            self.sync()
        self.task = None
        self.launch = None
        self.candidate_path = ""
        self.call_args: list[Any] = []
        self.guards: dict[str, Guarded] = {}
        self.reader = Reader(torch)
        self.copy_, self.clone, self.fill_ = torch.Tensor.copy_, torch.Tensor.clone, torch.Tensor.fill_
        self.recorder = AttemptRecorder(_toolchain_dirs())
        self.reservoir: Reservoir | None = None
        self._objects: list[str] = []
        self.audit_mode = _audit_mode_class(torch)
        from miner.verify.checks import checksum

        self.checksum = checksum
        self.threads_before: set[int] = set()

    # -- commands --------------------------------------------------------------------------------------------

    def load(self, h: dict[str, Any]) -> dict[str, Any]:
        from miner.verify.tasks import load_task

        self.task = load_task(Path(h["task"]))
        self.candidate_path = h["candidate"]
        self.threads_before = {t.ident for t in self.trusted.enumerate_threads()}
        try:
            with self.recorder.active():
                if h["backend"] == "triton":
                    self.launch = self._load_python(h["candidate"])
                else:
                    self.launch = self._load_shared_object(h["candidate"], h["symbol"], h["params"])
        except SyntaxError as exc:
            return {"ok": False, "stage": "compile", "error": f"SyntaxError: {exc}", "lines": [exc.lineno or 0]}
        except Exception as exc:
            return {"ok": False, "stage": "load", **self._describe(exc)}
        return {"ok": True, "tampered": self._tampered(), "attempts": self.recorder.take()}

    def run(self, h: dict[str, Any]) -> tuple[dict[str, Any], list[bytes]]:
        """Draw the case's inputs from the seed, run the candidate once, return outputs and input digests."""
        self._limit_memory(h)
        inputs = self._inputs(h["params"], int(h["seed"]))
        if h.get("reuse") and self.call_args:
            self._refill(inputs)
        else:
            self._allocate(inputs, h["outs"])
        self._poison()
        self.sync()
        t0 = self.trusted.perf_counter_ns()
        failure = self._call()
        call_s = (self.trusted.perf_counter_ns() - t0) / 1e9
        if failure := failure or self._halt():
            return failure, []
        report = {**self._report(), "call_s": call_s}
        digests = {a.name: self._digest(self.guards[a.name].alias) for a in self.task.args if a.kind == "in"}
        outs = [self.reader.raw_bytes(self.guards[n].alias) for n in self.task.result_names]
        return {"ok": True, "digests": digests, **report}, outs

    def time(self, h: dict[str, Any]) -> dict[str, Any]:
        """Time the current case: event times with an L2 flush and fresh poison before each rep, then
        device-synchronised wall times. Every call gets inputs it has not seen (fresh values in the same buffers,
        new scalars); the outputs of the checked reps (event reps on a GPU, wall reps on a CPU) go into a
        reservoir, and the controller asks for some of them with ``fetch`` once it has the reply."""
        reps, wall_reps, warmup = int(h["reps"]), int(h["wall_reps"]), int(h["warmup"])
        params = h["params"]
        self._limit_memory(h)
        self.reservoir = Reservoir(int(h["keep"]), self.trusted.urandom)
        for _ in range(warmup):
            self._fresh(params)
            if failure := self._call() or self._halt():
                return failure
        times: list[float] = []
        if self.device == "cuda":
            pairs = []
            for i in range(reps):
                seed = self._fresh(params)
                self.flush.zero_()
                start, end = self.event(enable_timing=True), self.event(enable_timing=True)
                self.record(start)
                if failure := self._call(sync=False):
                    return failure
                self.record(end)
                pairs.append((start, end))
                if failure := self._halt():
                    return failure
                self.reservoir.offer(i, seed, self._keep_results)
            self.sync()
            times = [self.elapsed(s, e) * 1e3 for s, e in pairs]
        # synchronised wall times, each behind an L2 flush like the event reps (the GPU is busy while the host
        # launches), less the same flush alone: what remains is the call's device work on every stream
        syncs, walls = [], []
        for _ in range(wall_reps):
            self.sync()
            t0 = self.trusted.perf_counter_ns()
            self._flush()
            self.sync()
            syncs.append((self.trusted.perf_counter_ns() - t0) / 1e3)
        for i in range(wall_reps):
            seed = self._fresh(params)
            self.sync()
            t0 = self.trusted.perf_counter_ns()
            self._flush()
            if failure := self._call():
                return failure
            walls.append((self.trusted.perf_counter_ns() - t0) / 1e3)
            if failure := self._halt():
                return failure
            if self.device != "cuda":
                self.reservoir.offer(i, seed, self._keep_results)
        report = self._report()
        kept = self.reservoir.kept()
        return {"ok": True, "event_us": times, "wall_us": walls, "sync_us": syncs, "kept": kept, **report}

    def fetch(self, h: dict[str, Any]) -> tuple[dict[str, Any], list[bytes]]:
        """The kept outputs of the slots the controller picked after the timed reps; the reservoir is emptied."""
        slots = self.reservoir.slots if self.reservoir else []
        picked = [slots[int(k)] for k in h["slots"]]
        self.reservoir = None
        blobs = [self.reader.raw_bytes(t) for _, _, results in picked for t in results]
        return {"ok": True, "kept": [[rep, seed] for rep, seed, _ in picked]}, blobs

    def health(self, h: dict[str, Any]) -> dict[str, Any]:
        torch = self.torch
        x = torch.arange(1024, device=self.device, dtype=torch.float32)
        value = float((x * 2).sum().item())
        self.sync()
        return {"ok": value == 1024 * 1023.0, "value": value}

    # -- helpers ---------------------------------------------------------------------------------------------

    def _load_python(self, path: str) -> Any:
        spec = importlib.util.spec_from_file_location("candidate", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules["candidate"] = module
        spec.loader.exec_module(module)
        launch = getattr(module, "launch", None)
        if not callable(launch):
            raise AttributeError("the candidate defines no function launch(...)")
        return launch

    def _load_shared_object(self, path: str, symbol: str, params: list[list[str]]) -> Any:
        lib = ctypes.CDLL(path)
        fn = getattr(lib, symbol)
        codes = {"int": ctypes.c_int, "float": ctypes.c_float, "ptr": ctypes.c_void_p, "stream": ctypes.c_void_p}
        fn.argtypes = [codes[kind] for _, kind in params]
        fn.restype = None
        torch = self.torch
        names = [(name, kind) for name, kind in params]

        def launch(*args: Any) -> None:
            by_name = dict(zip([a.name for a in self.task.args], args, strict=True))
            stream = torch.cuda.current_stream().cuda_stream if self.device == "cuda" else 0
            values = []
            for name, kind in names:
                if kind == "stream":
                    values.append(stream)
                elif kind == "ptr":
                    values.append(by_name[name].data_ptr())
                else:
                    values.append(by_name[name])
            fn(*values)

        return launch

    def _inputs(self, params: dict[str, Any], seed: int) -> dict[str, Any]:
        gen = self.torch.Generator(device=self.device).manual_seed(seed)
        return self.task.make_inputs(params, gen, self.device)

    def _fresh(self, params: dict[str, Any]) -> int:
        """Inputs the candidate has not seen, from a seed drawn now, into the current buffers; outputs poisoned."""
        seed = fresh_seed(self.trusted.urandom)
        self._refill(self._inputs(params, seed))
        self._poison()
        return seed

    def _allocate(self, inputs: dict[str, Any], outs: list[dict[str, Any]]) -> None:
        torch = self.torch
        specs = {o["name"]: o for o in outs}
        args = []
        for a in self.task.args:
            if a.kind == "out":
                o = specs[a.name]
                args.append(torch.empty(o["shape"], dtype=getattr(torch, o["dtype"]), device=self.device))
            else:
                args.append(inputs[a.name])
        self.call_args = args
        self.guards = {
            a.name: Guarded.of(a.name, t, self.reader)
            for a, t in zip(self.task.args, args, strict=True)
            if a.kind in ("in", "inout", "out")
        }

    def _refill(self, inputs: dict[str, Any]) -> None:
        """New values into the same buffers, so a candidate that keys a cache on addresses returns stale data."""
        with self.reader.disabled():
            for i, a in enumerate(self.task.args):
                if a.kind in ("in", "inout"):
                    self.copy_(self.guards[a.name].alias, inputs[a.name])
                elif a.kind in ("int", "float"):
                    self.call_args[i] = inputs[a.name]

    def _keep_results(self) -> list[Any]:
        with self.reader.disabled():
            return [self.clone(self.guards[n].alias) for n in self.task.result_names]

    def _poison(self) -> None:
        with self.reader.disabled():
            for a in self.task.args:
                if a.kind == "out":
                    alias = self.guards[a.name].alias
                    self.fill_(alias, math.nan if alias.dtype.is_floating_point else POISON_INT)

    def _flush(self) -> None:
        if self.flush is not None:
            self.flush.zero_()

    def _limit_memory(self, h: dict[str, Any]) -> None:
        """The case's limits: device memory through the allocator on a GPU, address space on a CPU (the
        controller also watches resident memory from outside)."""
        if self.device == "cuda" and h.get("device_limit"):
            total = self.torch.cuda.get_device_properties(self.torch.cuda.current_device()).total_memory
            self.torch.cuda.set_per_process_memory_fraction(min(1.0, int(h["device_limit"]) / total))
            self.torch.cuda.reset_peak_memory_stats()
        elif self.device == "cpu" and h.get("host_limit"):
            _, hard = resource.getrlimit(resource.RLIMIT_AS)
            soft = _vm_size() + int(h["host_limit"])
            resource.setrlimit(resource.RLIMIT_AS, (soft if hard == resource.RLIM_INFINITY else min(soft, hard), hard))

    def _call(self, *, sync: bool = True) -> dict[str, Any] | None:
        mode = self.audit_mode(self.candidate_path)
        try:
            with self.recorder.active(), mode:
                self.launch(*self.call_args)
            if sync:
                self.sync()
        except Exception as exc:
            return {"ok": False, "stage": _stage(exc), **self._describe(exc)}
        if mode.violations:
            self._violations = getattr(self, "_violations", []) + mode.violations
        if mode.escaped:
            self._violations = getattr(self, "_violations", []) + ["the candidate left the torch dispatch audit"]
        return None

    def _halt(self) -> dict[str, Any] | None:
        """After a call: when the candidate patched torch or tampered with the objects it was given, stop before
        the harness runs code the candidate may have replaced, and report."""
        for guard in self.guards.values():
            self._objects += [p for p in guard.problems(self.reader) if p not in self._objects]
        if self._objects or self._tampered():
            return {"ok": True, "halted": True, **self._report()}
        return None

    def _report(self) -> dict[str, Any]:
        alive = [t for t in self.trusted.enumerate_threads() if t.ident not in self.threads_before and t.is_alive()]
        violations, self._violations = getattr(self, "_violations", []), []
        objects, self._objects = self._objects + self.reader.modes_left(), []
        device_peak = self.torch.cuda.max_memory_allocated() if self.device == "cuda" else None
        return {
            "tampered": self._tampered(),
            "threads": [t.name for t in alive],
            "torch_ops": sorted(set(violations))[:20],
            "objects": objects[:10],
            "attempts": self.recorder.take(),
            "device_peak": device_peak,
        }

    def _tampered(self) -> list[str]:
        return sorted(set(self.trusted.tampered() + self.reader.replaced()))

    def _describe(self, exc: BaseException) -> dict[str, Any]:
        frames = traceback.extract_tb(exc.__traceback__)
        lines = [f.lineno for f in frames if f.filename == self.candidate_path]
        text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return {"error": f"{type(exc).__name__}: {text[-1500:]}", "lines": lines[-5:]}

    def _digest(self, t: Any) -> str:
        with self.reader.disabled():
            return self.checksum(t)


def _stage(exc: BaseException) -> str:
    name = type(exc).__name__
    module = type(exc).__module__ or ""
    text = str(exc)
    if (
        isinstance(exc, MemoryError)
        or name == "OutOfMemoryError"
        or "can't allocate memory" in text
        or "out of memory" in text
    ):
        return "resource-limit"
    if module.startswith("triton") and ("Compil" in name or "Unsupported" in name):
        return "compile"
    return "runtime"


def _audit_mode_class(torch: Any) -> type:
    from torch.utils._python_dispatch import TorchDispatchMode, _get_current_dispatch_mode

    torch_dir = os.path.dirname(torch.__file__)

    class Audit(TorchDispatchMode):
        """Records torch ops the candidate's own code runs; Triton's interpreter machinery is exempt."""

        def __init__(self, candidate_path: str) -> None:
            super().__init__()
            self.candidate_path = candidate_path
            self.violations: list[str] = []
            self.escaped = False

        def __torch_dispatch__(self, func, types, args=(), kwargs=None):
            name = func.overloadpacket.__name__
            if name not in ALLOWED_TORCH_OPS and _from_candidate(sys._getframe(1), torch_dir):
                self.violations.append(f"aten.{name}")
            return func(*args, **(kwargs or {}))

        def __exit__(self, *exc: object) -> None:
            if _get_current_dispatch_mode() is not self:
                self.escaped = True
            return super().__exit__(*exc)

    return Audit


def _toolchain_dirs() -> list[str]:
    try:
        import triton
    except ImportError:
        return []
    return [os.path.dirname(triton.__file__)]


def _vm_size() -> int:
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmSize:"):
                return int(line.split()[1]) * 1024
    return 0


def _from_candidate(frame: Any, torch_dir: str) -> bool:
    """True when the first frame outside torch belongs to anything but Triton (whose interpreter uses torch)."""
    while frame is not None:
        filename = frame.f_code.co_filename
        if not filename.startswith(torch_dir) and "/torch/" not in filename:
            return f"{os.sep}triton{os.sep}" not in filename
        frame = frame.f_back
    return True


def main(argv: list[str]) -> int:
    from miner.verify.sandbox import Limits, confine

    sock = socket.socket(fileno=int(argv[1]))
    device = argv[2]
    t0 = time.perf_counter()
    confined = confine(Limits(**json.loads(argv[3])), device)
    import torch

    try:
        import triton
    except ImportError:
        triton = None
    harness = Harness(device)
    wire.send(
        sock,
        {
            "ready": True,
            "pid": os.getpid(),
            "startup_s": round(time.perf_counter() - t0, 3),
            "torch": torch.__version__,
            "triton": getattr(triton, "__version__", None),
            **confined,
        },
    )
    while True:
        try:
            header, _ = wire.recv(sock)
        except wire.WireClosed:
            return 0
        op = header.get("op")
        if op == "exit":
            return 0
        handler = {
            "load": harness.load, "run": harness.run, "time": harness.time, "fetch": harness.fetch,
            "health": harness.health,
        }.get(op)  # fmt: skip
        try:
            if handler is None:
                raise ValueError(f"unknown op {op!r}")
            reply = handler(header)
        except Exception as exc:  # a harness failure is reported, never hidden
            reply = {"ok": False, "stage": "harness", "error": f"{type(exc).__name__}: {exc}"}
        header_out, blobs = reply if isinstance(reply, tuple) else (reply, [])
        wire.send(sock, header_out, blobs)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
