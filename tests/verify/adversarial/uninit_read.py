# task: vector_add
# expect: mismatch
# Computes into a scratch buffer it never fully initialises (half of it), then copies all of it out:
# the other half is whatever the allocator left there.
import torch
import triton
import triton.language as tl


@triton.jit
def _add(a, b, out, M, N, sam, san, sbm, sbn, LIMIT, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r, c = i // N, i % N
    m = i < LIMIT
    tl.store(out + i, tl.load(a + r * sam + c * san, mask=m) + tl.load(b + r * sbm + c * sbn, mask=m), mask=m)


@triton.jit
def _copy(src, dst, numel, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    tl.store(dst + i, tl.load(src + i, mask=i < numel), mask=i < numel)


def launch(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor) -> None:
    M, N = a.shape
    if M * N == 0:
        return
    scratch = torch.empty(M * N, dtype=out.dtype, device=out.device)
    grid = (triton.cdiv(M * N, 1024),)
    _add[grid](a, b, scratch, M, N, a.stride(0), a.stride(1), b.stride(0), b.stride(1), M * N // 2, BLOCK=1024)
    _copy[grid](scratch, out, M * N, BLOCK=1024)
