import torch
import triton
import triton.language as tl


@triton.jit
def _partial_dot(x, y, partial, n, incx, incy, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    i = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    ix = tl.where(incx > 0, i * incx, (n - 1 - i) * -incx)
    iy = tl.where(incy > 0, i * incy, (n - 1 - i) * -incy)
    a = tl.load(x + ix, mask=mask, other=0.0)
    b = tl.load(y + iy, mask=mask, other=0.0)
    tl.store(partial + pid, tl.sum(a * b, axis=0))


@triton.jit
def _sum(partial, result, count, BLOCK: tl.constexpr):
    acc = tl.zeros((BLOCK,), tl.float32)
    for start in range(0, count, BLOCK):
        j = start + tl.arange(0, BLOCK)
        acc += tl.load(partial + j, mask=j < count, other=0.0)
    tl.store(result, tl.sum(acc, axis=0))


def launch(n: int, x: torch.Tensor, incx: int, y: torch.Tensor, incy: int, result: torch.Tensor) -> None:
    BLOCK = 4096
    blocks = triton.cdiv(max(n, 0), BLOCK)
    partial = torch.empty(max(blocks, 1), dtype=torch.float32, device=result.device)
    if blocks:
        _partial_dot[(blocks,)](x, y, partial, n, incx, incy, BLOCK=BLOCK)
    _sum[(1,)](partial, result, blocks, BLOCK=1024)
