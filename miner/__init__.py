"""rocm-miner: mine ROCm math libraries into kernel-focused context bundles."""

__version__ = "0.1.0"
