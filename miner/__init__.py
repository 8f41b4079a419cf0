"""rocm-miner: mine ROCm math libraries into kernel-focused context bundles."""

from miner import _compiled

__version__ = "0.1.0"

_compiled.install()
