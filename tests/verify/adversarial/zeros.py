# task: vector_add
# expect: mismatch
# Writes zeros instead of a + b.
import torch
import triton
import triton.language as tl


@triton.jit
def _zero(out, numel, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(out + i, tl.zeros((BLOCK,), tl.float32).to(out.dtype.element_ty), mask=i < numel)


def launch(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor) -> None:
    if out.numel():
        _zero[(triton.cdiv(out.numel(), 1024),)](out, out.numel(), BLOCK=1024)
