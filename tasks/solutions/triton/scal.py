import torch
import triton
import triton.language as tl


@triton.jit
def _scal(x, n, alpha, incx, BLOCK: tl.constexpr):
    i = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    p = x + i * incx
    tl.store(p, tl.load(p, mask=mask) * alpha, mask=mask)


def launch(n: int, alpha: float, x: torch.Tensor, incx: int) -> None:
    if n <= 0 or incx <= 0:
        return
    BLOCK = 1024
    _scal[(triton.cdiv(n, BLOCK),)](x, n, alpha, incx, BLOCK=BLOCK)
