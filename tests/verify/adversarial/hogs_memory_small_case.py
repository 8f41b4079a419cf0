# task: vector_add
# expect: resource-limit
# A correct kernel that holds 2 GiB (host memory on a CPU, device memory on a GPU) for cases of a few MiB:
# far under a fixed 16 GiB limit, far over what any case of this task needs.
import torch
import triton
import triton.language as tl

_hoard: list[torch.Tensor] = []


@triton.jit
def _add(a, b, out, M, N, sam, san, sbm, sbn, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r, c = i // N, i % N
    m = i < M * N
    tl.store(out + i, tl.load(a + r * sam + c * san, mask=m) + tl.load(b + r * sbm + c * sbn, mask=m), mask=m)


def launch(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor) -> None:
    if not _hoard:
        _hoard.append(torch.empty(2 << 30, dtype=torch.uint8, device=out.device).fill_(1))
    M, N = a.shape
    if M * N:
        grid = (triton.cdiv(M * N, 1024),)
        _add[grid](a, b, out, M, N, a.stride(0), a.stride(1), b.stride(0), b.stride(1), BLOCK=1024)
