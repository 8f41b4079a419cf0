# task: vector_add
# expect: runtime
# Ends the worker process from inside the call.
import os

import torch


def launch(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor) -> None:
    os._exit(0)
