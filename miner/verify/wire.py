"""Frames between the controller and a worker: a JSON header and raw byte blobs, never pickle.

The worker runs untrusted code, so the controller parses only JSON and bytes from it, within size limits.
"""

from __future__ import annotations

import json
import select
import socket
import struct
import time
from collections.abc import Callable
from typing import Any

MAX_HEADER = 1 << 20
MAX_BLOBS = 1 << 32


class WireClosed(Exception):
    """The other side closed the connection (or died)."""


class WireTimeout(Exception):
    """No complete frame arrived within the deadline."""


class WireProtocolError(Exception):
    """A frame broke the protocol (oversized, not JSON)."""


def send(sock: socket.socket, header: dict[str, Any], blobs: list[bytes | memoryview] = ()) -> None:
    header = {**header, "blobs": [len(b) for b in blobs]}
    raw = json.dumps(header).encode()
    sock.sendall(struct.pack("<I", len(raw)) + raw)
    for b in blobs:
        sock.sendall(b)


def recv(
    sock: socket.socket, deadline: float | None = None, on_wait: Callable[[], None] | None = None
) -> tuple[dict[str, Any], list[bytearray]]:
    """One frame; ``deadline`` is a time.monotonic() value (None waits forever); ``on_wait`` runs while idle."""
    (n,) = struct.unpack("<I", _read(sock, 4, deadline, on_wait))
    if n > MAX_HEADER:
        raise WireProtocolError(f"header of {n} bytes")
    try:
        header = json.loads(_read(sock, n, deadline, on_wait))
    except ValueError as exc:
        raise WireProtocolError(f"header is not JSON: {exc}") from exc
    sizes = header.get("blobs", [])
    if not isinstance(header, dict) or not all(isinstance(s, int) and s >= 0 for s in sizes):
        raise WireProtocolError("bad blob sizes")
    if sum(sizes) > MAX_BLOBS:
        raise WireProtocolError(f"{sum(sizes)} bytes of blobs")
    return header, [_read(sock, s, deadline, on_wait) for s in sizes]


def _read(sock: socket.socket, n: int, deadline: float | None, on_wait: Callable[[], None] | None) -> bytearray:
    buf = bytearray(n)
    view = memoryview(buf)
    got = 0
    while got < n:
        left = None if deadline is None else deadline - time.monotonic()
        if left is not None and left <= 0:
            raise WireTimeout(f"timed out with {got} of {n} bytes")
        ready, _, _ = select.select([sock], [], [], 0.25 if left is None else min(left, 0.25))
        if not ready:
            if on_wait is not None:
                on_wait()
            continue
        k = sock.recv_into(view[got:], n - got)
        if k == 0:
            raise WireClosed("connection closed")
        got += k
    return buf
