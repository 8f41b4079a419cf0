"""A candidate's attempts to reach the network or start a process, recorded through a Python audit hook.

The hook is installed in the worker before the candidate is imported and records only while candidate code runs
(its import and its calls). An event whose nearest caller outside the standard library is Triton is the
toolchain's own work (on a GPU Triton runs ldconfig, a C compiler and ptxas through subprocess) and is allowed.
"""

from __future__ import annotations

import os
import socket
import sys
import sysconfig
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

EVENTS = frozenset(
    [
        "socket.__new__", "socket.connect", "socket.bind", "socket.sendto", "socket.sendmsg",
        "socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyaddr", "socket.getnameinfo",
        "subprocess.Popen", "os.system", "os.exec", "os.spawn", "os.posix_spawn", "os.fork", "os.forkpty",
        "resource.setrlimit", "resource.prlimit", "ctypes.dlsym",
    ]
)  # fmt: skip
NATIVE_SYMBOLS = frozenset(
    [
        "socket", "connect", "bind", "sendto", "getaddrinfo", "gethostbyname", "system", "popen", "fork", "vfork",
        "clone", "execve", "execv", "execvp", "execl", "execlp", "posix_spawn", "posix_spawnp", "syscall",
        "setrlimit", "prlimit", "prlimit64",
    ]
)  # fmt: skip
"""libc functions that reach the network or start a process when called through ctypes, past the hook."""
MAX_RECORDED = 20


class AttemptRecorder:
    """Installs one audit hook (hooks cannot be removed) and records watched events while ``active``."""

    def __init__(self, toolchain_dirs: list[str]) -> None:
        self.attempts: list[str] = []
        self._active = False
        self._toolchain = tuple(d.rstrip(os.sep) + os.sep for d in toolchain_dirs)
        stdlib = sysconfig.get_paths()["stdlib"].rstrip(os.sep) + os.sep
        self._stdlib = stdlib
        sys.addaudithook(self._hook)

    @contextmanager
    def active(self) -> Iterator[None]:
        self._active = True
        try:
            yield
        finally:
            self._active = False

    def take(self) -> list[str]:
        out, self.attempts = self.attempts, []
        return out

    def _hook(self, event: str, args: tuple[Any, ...]) -> None:
        if not self._active or event not in EVENTS:
            return
        if event == "ctypes.dlsym" and (len(args) < 2 or args[1] not in NATIVE_SYMBOLS):
            return
        if self._from_toolchain(sys._getframe(1)) or len(self.attempts) >= MAX_RECORDED:
            return
        text = f"{event}({', '.join(_short(a) for a in args if not isinstance(a, socket.socket))})"
        if text not in self.attempts:
            self.attempts.append(text)

    def _from_toolchain(self, frame: Any) -> bool:
        while frame is not None:
            name = frame.f_code.co_filename
            stdlib = name.startswith(self._stdlib) and "-packages" not in name
            if not stdlib and not name.startswith("<frozen"):
                return name.startswith(self._toolchain)
            frame = frame.f_back
        return False


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
