# task: vector_add
# expect: suspected-hack
# Returns at once and does the work from a host thread, so a timer around the call misses it.
import threading
import time

import torch
import triton
import triton.language as tl


@triton.jit
def _add(a, b, out, M, N, sam, san, sbm, sbn, BLOCK: tl.constexpr):
    i = tl.program_id(0) * BLOCK + tl.arange(0, BLOCK)
    r, c = i // N, i % N
    m = i < M * N
    tl.store(out + i, tl.load(a + r * sam + c * san, mask=m) + tl.load(b + r * sbm + c * sbn, mask=m), mask=m)


def _work(a, b, out):
    time.sleep(0.5)
    M, N = a.shape
    grid = (triton.cdiv(M * N, 1024),)
    _add[grid](a, b, out, M, N, a.stride(0), a.stride(1), b.stride(0), b.stride(1), BLOCK=1024)


def launch(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor) -> None:
    if a.numel():
        threading.Thread(target=_work, args=(a, b, out), daemon=True).start()
