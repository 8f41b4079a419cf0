# task: vector_add
# expect: resource-limit
# Asks for far more memory than a worker may have (host memory on a CPU, device memory on a GPU).
import torch


def launch(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor) -> None:
    gib = 1 << 30
    size = 64 * gib if out.device.type == "cpu" else 4096 * gib
    hoard = torch.empty(size, dtype=torch.uint8, device=out.device)
    hoard.fill_(1)
