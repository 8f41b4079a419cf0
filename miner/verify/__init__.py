"""The verify stage: generate → compile → verify → time → reflect for HIP and Triton kernels.

The trust boundary is the process: a candidate runs in a worker process of its own; expected
outputs, comparisons, the reference's timing and every verdict live in the controller.
"""

VERIFIER_VERSION = "0.2.0"
