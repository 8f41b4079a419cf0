import torch
import triton
import triton.language as tl


@triton.jit
def _swap(x, y, n, incx, incy, BLOCK: tl.constexpr):
    i = tl.program_id(0).to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    mask = i < n
    ix = tl.where(incx > 0, i * incx, (n - 1 - i) * -incx)
    iy = tl.where(incy > 0, i * incy, (n - 1 - i) * -incy)
    a = tl.load(x + ix, mask=mask)
    b = tl.load(y + iy, mask=mask)
    tl.store(x + ix, b, mask=mask)
    tl.store(y + iy, a, mask=mask)


def launch(n: int, x: torch.Tensor, incx: int, y: torch.Tensor, incy: int) -> None:
    if n <= 0:
        return
    BLOCK = 1024
    _swap[(triton.cdiv(n, BLOCK),)](x, y, n, incx, incy, BLOCK=BLOCK)
