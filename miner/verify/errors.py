"""Errors of the verify stage, below miner.errors.

    MinerError
    └── InputError
        ├── TaskError            a task file or task name is unusable
        └── CandidateError       a candidate file cannot be read
    MinerError
    └── VerifyEnvironmentError   a needed tool (torch, triton, hipcc, nvcc, ray) is missing

A candidate that fails to compile, crashes or cheats is never an exception: it is a Verdict.
"""

from __future__ import annotations

from miner.errors import InputError, MinerError


class TaskError(InputError):
    """A task file or a task name is unusable."""


class CandidateError(InputError):
    """A candidate file is missing or unreadable."""


class VerifyEnvironmentError(MinerError):
    """A tool the verifier needs (torch, triton, hipcc, nvcc, ray) is missing; the message says how to install it."""
