# task: vector_add
# expect: mismatch
# Computes a + b but writes only the first half of the output.
import torch
import triton
import triton.language as tl


@triton.jit
def _add(a, b, out, M, N, sam, san, sbm, sbn, LIMIT, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r, c = i // N, i % N
    m = i < LIMIT
    tl.store(out + i, tl.load(a + r * sam + c * san, mask=m) + tl.load(b + r * sbm + c * sbn, mask=m), mask=m)


def launch(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor) -> None:
    M, N = a.shape
    if M * N:
        grid = (triton.cdiv(M * N, 1024),)
        _add[grid](a, b, out, M, N, a.stride(0), a.stride(1), b.stride(0), b.stride(1), (M * N + 1) // 2, BLOCK=1024)
