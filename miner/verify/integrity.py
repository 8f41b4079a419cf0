"""How the worker reads what a candidate wrote, without trusting the objects the candidate was given.

Before a call the harness keeps its own plain alias of every tensor it passes (a second Python object over the
same memory) and reads outputs, digests and poison only through those aliases, with torch functions disabled and
with Tensor methods bound before the candidate was imported. After a call it checks that the objects the candidate
received are still exactly ``torch.Tensor`` over the same memory with no method replaced, that no torch function
or dispatch mode was left active, and that no attribute of torch.Tensor (or its base) was added or replaced.
"""

from __future__ import annotations

import ctypes
from dataclasses import dataclass
from typing import Any

METHODS = ("contiguous", "detach", "cpu", "data_ptr", "numel", "element_size", "size", "stride", "storage_offset")


class Reader:
    """Tensor methods bound at start-up, used under ``torch._C.DisableTorchFunction``."""

    def __init__(self, torch: Any) -> None:
        self.torch = torch
        self.plain = torch.Tensor
        self.disabled = torch._C.DisableTorchFunction
        self.m = {name: getattr(torch.Tensor, name) for name in METHODS}
        self.device_of = torch._C.TensorBase.device.__get__
        self.names = frozenset(dir(torch.Tensor))
        self.function_modes = torch._C._len_torch_function_stack
        self.dispatch_modes = torch._C._len_torch_dispatch_stack
        self.snapshot = [(owner, dict(vars(owner))) for owner in (torch.Tensor, torch._C.TensorBase)]

    def alias(self, t: Any) -> Any:
        with self.disabled():
            return self.m["detach"](t)

    def raw_bytes(self, t: Any) -> bytes:
        """The bytes of a plain tensor in logical order, copied to the host through a tensor the harness holds."""
        m = self.m
        with self.disabled():
            flat = m["contiguous"](t)
            n = m["numel"](flat) * m["element_size"](flat)
            if n == 0:
                return b""
            if self.device_of(flat).type != "cpu":
                flat = m["cpu"](flat)
            return ctypes.string_at(m["data_ptr"](flat), n)

    def replaced(self) -> list[str]:
        """Attributes of torch.Tensor and its base added, removed or replaced since start-up."""
        out = []
        for owner, before in self.snapshot:
            now = vars(owner)
            if len(now) != len(before) or any(now.get(k, _MISSING) is not v for k, v in before.items()):
                out += [f"torch.Tensor.{k}" for k in set(now) ^ set(before)]
                out += [f"torch.Tensor.{k}" for k, v in before.items() if k in now and now[k] is not v]
        return sorted(set(out))

    def modes_left(self) -> list[str]:
        out = []
        if self.function_modes():
            out.append("left a torch function mode active")
        if self.dispatch_modes():
            out.append("left a torch dispatch mode active")
        return out


_MISSING = object()


@dataclass(frozen=True)
class Guarded:
    """One tensor argument: the object the candidate gets, the harness's alias, and where the memory was."""

    name: str
    given: Any
    alias: Any
    layout: tuple[int, tuple[int, ...], tuple[int, ...], int]

    @classmethod
    def of(cls, name: str, t: Any, reader: Reader) -> Guarded:
        return cls(name, t, reader.alias(t), _layout(t, reader))

    def problems(self, reader: Reader) -> list[str]:
        if type(self.given) is not reader.plain:
            return [f"{self.name} became a {type(self.given).__qualname__}, not the torch.Tensor the harness passed"]
        shadowed = sorted(set(vars(self.given)) & reader.names)
        if shadowed:
            return [f"{self.name} had its {', '.join(shadowed)} replaced on the object"]
        if _layout(self.given, reader) != self.layout:
            return [f"{self.name} no longer views the memory the harness passed (re-pointed at another buffer)"]
        return []


def _layout(t: Any, reader: Reader) -> tuple[int, tuple[int, ...], tuple[int, ...], int]:
    m = reader.m
    with reader.disabled():
        return m["data_ptr"](t), tuple(m["size"](t)), tuple(m["stride"](t)), m["storage_offset"](t)
