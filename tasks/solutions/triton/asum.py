import torch
import triton
import triton.language as tl


@triton.jit
def _partial_asum(x, partial, n, incx, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    i = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    v = tl.load(x + i * incx, mask=i < n, other=0.0)
    tl.store(partial + pid, tl.sum(tl.abs(v), axis=0))


@triton.jit
def _sum(partial, result, count, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, count, BLOCK):
        j = start + tl.arange(0, BLOCK)
        acc += tl.load(partial + j, mask=j < count, other=0.0)
    tl.store(result, tl.sum(acc, axis=0))


def launch(n: int, x: torch.Tensor, incx: int, result: torch.Tensor) -> None:
    BLOCK = 4096
    blocks = triton.cdiv(n, BLOCK) if n > 0 and incx > 0 else 0
    partial = torch.empty(max(blocks, 1), dtype=torch.float32, device=result.device)
    if blocks:
        _partial_asum[(blocks,)](x, partial, n, incx, BLOCK=BLOCK)
    _sum[(1,)](partial, result, blocks, BLOCK=1024)
