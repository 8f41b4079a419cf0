# task: vector_add
# expect: runtime
# Dereferences a null pointer: the worker dies with SIGSEGV.
import ctypes

import torch


def launch(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor) -> None:
    ctypes.string_at(0)
