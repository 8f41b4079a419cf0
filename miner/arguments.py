"""Argument types the command line shares: a bad value is argparse's usage error (exit 2), not a silent fallback."""

from __future__ import annotations

import argparse
from typing import NoReturn


def positive_int(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"must be at least 1, got {value}")
    return value


class OneLineParser(argparse.ArgumentParser):
    """A usage error is one line naming the command's --help, like every other error of the tool."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"rocm-miner: error: {message} (see {self.prog} --help)\n")
