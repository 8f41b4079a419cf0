# task: vector_add
# expect: suspected-hack
# Loads the task's own reference from the repository and calls it.

import torch


def launch(a: torch.Tensor, b: torch.Tensor, out: torch.Tensor) -> None:
    import miner.verify.tasks as tasks

    reference = tasks.load_task(tasks.task_file("vector_add")).reference
    out.copy_(reference(a, b))
