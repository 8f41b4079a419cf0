import torch
import triton
import triton.language as tl


@triton.jit
def _linear_relu(x, w, b, out, M, N, K, BM: tl.constexpr, BN: tl.constexpr, BK: tl.constexpr):
    rm = tl.arange(0, BM)
    rn = tl.arange(0, BN)
    rk = tl.arange(0, BK)
    a = tl.load(x + rm[:, None] * K + rk[None, :], mask=(rm[:, None] < M) & (rk[None, :] < K), other=0.0)
    wt = tl.load(w + rn[None, :] * K + rk[:, None], mask=(rn[None, :] < N) & (rk[:, None] < K), other=0.0)
    acc = tl.dot(a, wt, input_precision="ieee") + tl.load(b + rn, mask=rn < N, other=0.0)[None, :]
    tl.store(out + rm[:, None] * N + rn[None, :], tl.maximum(acc, 0.0), mask=(rm[:, None] < M) & (rn[None, :] < N))


def launch(x0: torch.Tensor, linear_weight: torch.Tensor, linear_bias: torch.Tensor, out0: torch.Tensor) -> None:
    M, K = x0.shape
    N = linear_weight.shape[0]
    _linear_relu[(1,)](x0, linear_weight, linear_bias, out0, M, N, K, BM=16, BN=16, BK=32)
