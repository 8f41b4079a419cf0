import torch
import triton
import triton.language as tl


@triton.jit
def _gemv(a, x, y, M, N, sam, san, sx, BM: tl.constexpr, BN: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    acc = tl.zeros((BM, BN), tl.float32)
    for start in range(0, N, BN):
        rn = start + tl.arange(0, BN)
        mask = (rm[:, None] < M) & (rn[None, :] < N)
        tile = tl.load(a + rm[:, None] * sam + rn[None, :] * san, mask=mask, other=0.0)
        v = tl.load(x + rn * sx, mask=rn < N, other=0.0)
        acc += tile * v[None, :]
    tl.store(y + rm, tl.sum(acc, axis=1), mask=rm < M)


def launch(a: torch.Tensor, x: torch.Tensor, y: torch.Tensor) -> None:
    M, N = a.shape
    if M == 0:
        return
    BM, BN = 16, 256
    _gemv[(triton.cdiv(M, BM),)](a, x, y, M, N, a.stride(0), a.stride(1), x.stride(0), BM=BM, BN=BN)
