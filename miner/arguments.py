"""Argument types the command line shares: a bad value is argparse's usage error (exit 2), not a silent fallback."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import NoReturn

from miner.errors import InputError


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


_UNITS = {"": 1, "K": 1024, "M": 1024**2, "G": 1024**3, "T": 1024**4}


def byte_size(text: str) -> int:
    """``500M``, ``1.5G``, ``2GiB``, ``10GB`` or a number of bytes (K, M, G, T are powers of 1024)."""
    number = text.strip().upper().removesuffix("IB").removesuffix("B")
    unit = number[-1:] if number[-1:] in _UNITS else ""
    try:
        value = float(number[: len(number) - len(unit)])
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a size such as 500M or 2G, got {text!r}") from None
    if value < 0 or value != value:
        raise argparse.ArgumentTypeError(f"must not be negative, got {text!r}")
    return int(value * _UNITS[unit])


class OneLineParser(argparse.ArgumentParser):
    """A usage error is one line naming the command's --help, like every other error of the tool."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"rocm-miner: error: {message} (see {self.prog} --help)\n")


def add_with_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--with", dest="with_", action="append", default=[], metavar="LIB=PATH",
        help="checkout of a library this one calls (e.g. rocblas=PATH when mining rocsolver)",
    )  # fmt: skip


def with_pairs(values: list[str]) -> dict[str, Path]:
    """``--with`` values as library name -> checkout."""
    out = {}
    for v in values:
        name, sep, path = v.partition("=")
        if not sep or not name or not path:
            raise InputError(f"--with expects LIBRARY=PATH, got {v!r}")
        out[name] = Path(path)
    return out
