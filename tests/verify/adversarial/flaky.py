# task: vector_add
# expect: nondeterministic
# Right the first time it sees a buffer, zeros the second: a stand-in for a race that only sometimes loses.
import torch
import triton
import triton.language as tl

_seen: dict[tuple, int] = {}


@triton.jit
def _add(a, b, out, M, N, sam, san, sbm, sbn, SCALE: tl.constexpr, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r, c = i // N, i % N
    m = i < M * N
    v = tl.load(a + r * sam + c * san, mask=m) + tl.load(b + r * sbm + c * sbn, mask=m)
    tl.store(out + i, v * SCALE, mask=m)


def launch(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor) -> None:
    M, N = a.shape
    if M * N:
        key = (a.data_ptr(), M, N)
        _seen[key] = _seen.get(key, 0) + 1
        grid = (triton.cdiv(M * N, 1024),)
        scale = 0.0 if _seen[key] == 2 else 1.0
        _add[grid](a, b, out, M, N, a.stride(0), a.stride(1), b.stride(0), b.stride(1), SCALE=scale, BLOCK=1024)
