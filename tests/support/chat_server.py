"""A real OpenAI-compatible chat-completions server on 127.0.0.1, scripted by the test that starts it.

The responder sees each request's JSON body and returns a ``Reply``: a normal completion (any text,
any finish reason), an HTTP error such as 429 with ``Retry-After``, a delay longer than the client's
timeout, or a body that is not JSON at all.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Reply:
    content: str | None = ""  # None: the message's content is null
    finish_reason: str = "stop"
    status: int = 200
    delay_s: float = 0.0
    headers: dict[str, str] = field(default_factory=dict)
    raw_body: bytes | None = None  # sent as is instead of a completion
    content_type: str = "application/json"
    prompt_tokens: int = 100
    completion_tokens: int = 50


Responder = Callable[[dict], Reply]


class _Server(ThreadingHTTPServer):
    request_queue_size = 256  # the default backlog of 5 refuses connections when a client opens dozens at once


class ScriptedChatServer:
    """``with ScriptedChatServer(responder) as server: ... server.base_url ...``"""

    def __init__(self, responder: Responder, fingerprint: str = "fp_scripted") -> None:
        self.responder = responder
        self.fingerprint = fingerprint
        self.requests: list[dict] = []
        self.arrivals: list[float] = []  # time.monotonic() of each request
        self._lock = threading.Lock()
        self._httpd = _Server(("127.0.0.1", 0), self._handler_class())
        self._httpd.daemon_threads = True
        self._thread = threading.Thread(target=self._httpd.serve_forever, daemon=True)

    @property
    def base_url(self) -> str:
        host, port = self._httpd.server_address[:2]
        return f"http://{host}:{port}/v1"

    def __enter__(self) -> ScriptedChatServer:
        self._thread.start()
        return self

    def __exit__(self, *_: object) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()

    def _record(self, body: dict) -> int:
        with self._lock:
            self.requests.append(body)
            self.arrivals.append(time.monotonic())
            return len(self.requests)

    def _completion(self, reply: Reply, model: str, number: int) -> bytes:
        return json.dumps(
            {
                "id": f"chatcmpl-{number}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": model,
                "system_fingerprint": self.fingerprint,
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": reply.content},
                        "finish_reason": reply.finish_reason,
                    }
                ],
                "usage": {
                    "prompt_tokens": reply.prompt_tokens,
                    "completion_tokens": reply.completion_tokens,
                    "total_tokens": reply.prompt_tokens + reply.completion_tokens,
                },
            }
        ).encode()

    def _handler_class(self) -> type[BaseHTTPRequestHandler]:
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *_: object) -> None:
                pass

            def do_POST(self) -> None:  # noqa: N802 (the http.server API)
                length = int(self.headers.get("Content-Length", "0"))
                body = json.loads(self.rfile.read(length) or b"{}")
                number = server._record(body)
                reply = server.responder(body)
                if reply.delay_s:
                    time.sleep(reply.delay_s)
                if reply.raw_body is not None:
                    payload = reply.raw_body
                elif reply.status == 200:
                    payload = server._completion(reply, body.get("model", ""), number)
                else:
                    payload = json.dumps({"error": {"message": "scripted error", "type": "scripted"}}).encode()
                try:
                    self.send_response(reply.status)
                    self.send_header("Content-Type", reply.content_type)
                    self.send_header("Content-Length", str(len(payload)))
                    for name, value in reply.headers.items():
                        self.send_header(name, value)
                    self.end_headers()
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass

        return Handler
