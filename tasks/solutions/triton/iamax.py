import torch
import triton
import triton.language as tl


@triton.jit
def _partial_amax(x, pval, pidx, n, incx, BLOCK: tl.constexpr):
    pid = tl.program_id(0)
    i = pid.to(tl.int64) * BLOCK + tl.arange(0, BLOCK)
    v = tl.abs(tl.load(x + i * incx, mask=i < n, other=0.0))
    v = tl.where(i < n, v, -1.0)
    best = tl.max(v, axis=0)
    first = tl.min(tl.where(v == best, i, n), axis=0)
    tl.store(pval + pid, best)
    tl.store(pidx + pid, first)


@triton.jit
def _final(pval, pidx, result, count, BLOCK: tl.constexpr):
    best_v = tl.full((BLOCK,), -1.0, tl.float32)
    best_i = tl.full((BLOCK,), 2**62, tl.int64)
    for start in range(0, count, BLOCK):
        j = start + tl.arange(0, BLOCK)
        v = tl.load(pval + j, mask=j < count, other=-1.0)
        i = tl.load(pidx + j, mask=j < count, other=2**62)
        take = v > best_v
        best_i = tl.where(take, i, best_i)
        best_v = tl.where(take, v, best_v)
    top = tl.max(best_v, axis=0)
    idx = tl.min(tl.where(best_v == top, best_i, 2**62), axis=0)
    tl.store(result, tl.where(count > 0, idx + 1, 0).to(tl.int32))


def launch(n: int, x: torch.Tensor, incx: int, result: torch.Tensor) -> None:
    BLOCK = 4096
    blocks = triton.cdiv(n, BLOCK) if n > 0 and incx > 0 else 0
    pval = torch.empty(max(blocks, 1), dtype=torch.float32, device=result.device)
    pidx = torch.empty(max(blocks, 1), dtype=torch.int64, device=result.device)
    if blocks:
        _partial_amax[(blocks,)](x, pval, pidx, n, incx, BLOCK=BLOCK)
    _final[(1,)](pval, pidx, result, blocks, BLOCK=1024)
