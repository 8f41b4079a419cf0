# task: vector_add
# expect: mismatch
# Copies the first input into the output.
import torch
import triton
import triton.language as tl


@triton.jit
def _copy(a, out, M, N, sm, sn, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r, c = i // N, i % N
    tl.store(out + i, tl.load(a + r * sm + c * sn, mask=i < M * N), mask=i < M * N)


def launch(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor) -> None:
    M, N = a.shape
    if out.numel():
        _copy[(triton.cdiv(M * N, 1024),)](a, out, M, N, a.stride(0), a.stride(1), BLOCK=1024)
