# task: vector_add
# expect: timeout
# Never returns.
import time

import torch


def launch(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor) -> None:
    while True:
        time.sleep(3600)
