import torch
import triton
import triton.language as tl


@triton.jit
def _gemm(a, b, c, M, N, K, sam, sak, sbk, sbn, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.program_id(0) * BM + tl.arange(0, BM)
    rn = tl.program_id(1) * BN + tl.arange(0, BN)
    acc = tl.zeros((BM, BN), tl.float32)
    for start in range(0, K, BK):
        rk = start + tl.arange(0, BK)
        ta = tl.load(a + rm[:, None] * sam + rk[None, :] * sak, mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
        tb = tl.load(b + rk[:, None] * sbk + rn[None, :] * sbn, mask=(rk[:, None] < K) & (rn[None, :] < N), other=0.0)
        acc = tl.dot(ta, tb, acc, input_precision="ieee")
    tl.store(c + rm[:, None] * N + rn[None, :], acc.to(c.dtype.element_ty), mask=(rm[:, None] < M) & (rn[None, :] < N))


def launch(a: torch.Tensor, b: torch.Tensor, c: torch.Tensor) -> None:
    M, K = a.shape
    N = b.shape[1]
    if M == 0 or N == 0:
        return
    BM, BN, BK = (128, 128, 32) if a.dtype == torch.float16 else (64, 64, 32)
    grid = (triton.cdiv(M, BM), triton.cdiv(N, BN))
    _gemm[grid](a, b, c, M, N, K, a.stride(0), a.stride(1), b.stride(0), b.stride(1), BM=BM, BN=BN, BK=BK)
