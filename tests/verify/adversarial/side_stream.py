# task: vector_add
# expect: suspected-hack
# device: cuda
# Launches the kernel on a side stream and returns: events on the current stream see almost nothing.
import torch
import triton
import triton.language as tl

_side = None


@triton.jit
def _add(a, b, out, M, N, sam, san, sbm, sbn, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r, c = i // N, i % N
    m = i < M * N
    tl.store(out + i, tl.load(a + r * sam + c * san, mask=m) + tl.load(b + r * sbm + c * sbn, mask=m), mask=m)


def launch(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor) -> None:
    global _side
    M, N = a.shape
    if M * N == 0:
        return
    _side = _side or torch.cuda.Stream()
    _side.wait_stream(torch.cuda.current_stream())
    with torch.cuda.stream(_side):
        grid = (triton.cdiv(M * N, 1024),)
        _add[grid](a, b, out, M, N, a.stride(0), a.stride(1), b.stride(0), b.stride(1), BLOCK=1024)
