"""A local OpenAI-compatible chat server that answers `rocm-miner verify` with the bundled solutions, and on some
tasks with a wrong answer first, to produce real verify records of every common verdict class without a model.

    python tools/solutions_server.py --port 8765 &
    OPENAI_BASE_URL=http://127.0.0.1:8765/v1 OPENAI_MODEL=solutions-server OPENAI_API_KEY=unused \\
        rocm-miner verify all --device cpu --turns 2 --out runs/verify-starter

Which answer a task gets on the first turn is fixed by its place among the task names in sorted order (``i % 4``):
0 the solution; 1 a kernel that does not parse; 2 prose without a code block; 3 another task's solution. After
feedback (any later turn) it gets the solution. Listens on 127.0.0.1 only.
"""

from __future__ import annotations

import argparse
import json
import re
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TASKS = sorted(p.stem for p in (REPO / "tasks").glob("*.py") if not p.name.startswith("_"))
SOLUTIONS = REPO / "tasks" / "solutions"
NOT_PARSING = "import triton\n\ndef launch(*args):\n    return (\n"
_TASK = re.compile(r"Task `(\w+)`")


def answer(body: dict) -> str:
    messages = body["messages"]
    found = next((m for m in (_TASK.search(x.get("content") or "") for x in messages) if m), None)
    task = found.group(1) if found else ""
    backend = "hip" if any("Write a HIP C++ file" in (m.get("content") or "") for m in messages) else "triton"
    suffix = ".hip" if backend == "hip" else ".py"
    fence = "cpp" if backend == "hip" else "python"
    solution = SOLUTIONS / backend / f"{task}{suffix}"
    if not solution.is_file():
        return "I cannot solve this task."
    first_turn = sum(1 for m in messages if m["role"] == "assistant") == 0
    kind = TASKS.index(task) % 4 if task in TASKS and first_turn else 0
    if kind == 1:
        return f"```{fence}\n{NOT_PARSING}```"
    if kind == 2:
        return "The kernel should tile the input and reduce in shared memory."
    if kind == 3:
        other = TASKS[(TASKS.index(task) + 1) % len(TASKS)]
        return f"```{fence}\n{(SOLUTIONS / backend / f'{other}{suffix}').read_text()}```"
    return f"```{fence}\n{solution.read_text()}```"


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def log_message(self, *_: object) -> None:
        pass

    def do_POST(self) -> None:  # noqa: N802 (the http.server API)
        body = json.loads(self.rfile.read(int(self.headers.get("Content-Length", "0"))) or b"{}")
        content = answer(body)
        payload = json.dumps(
            {
                "id": f"chatcmpl-{time.monotonic_ns()}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": body.get("model", ""),
                "system_fingerprint": "solutions-server",
                "choices": [
                    {"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}
                ],
                "usage": {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0},
            }
        ).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8765)
    args = parser.parse_args()
    ThreadingHTTPServer(("127.0.0.1", args.port), Handler).serve_forever()


if __name__ == "__main__":
    main()
