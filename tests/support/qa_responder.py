"""Scripted model answers for QA requests, built from the prompt the pipeline sent (so they can be grounded)."""

from __future__ import annotations

import json
import re
import threading
from collections import Counter

from tests.support.chat_server import Reply

_KERNEL_HEADER = re.compile(r"^### region (\S+) \(kernel: (\w+)\)$", re.MULTILINE)


def kernel_line(prompt: str) -> tuple[str, str, int]:
    """The kernel's region id, name, and the first line of it that names it."""
    header = _KERNEL_HEADER.search(prompt)
    if header is None:
        raise AssertionError("no kernel in the prompt")
    region, name = header.groups()
    line = re.compile(rf"^\s*(\d+)\| .*\b{re.escape(name)}\b", re.MULTILINE).search(prompt, header.end())
    if line is None:
        raise AssertionError(f"{name} is not named in its region")
    return region, name, int(line.group(1))


def _categories(prompt: str) -> list[str]:
    match = re.search(r"^Categories[^:]*: (.*)$", prompt, re.MULTILINE)
    return match.group(1).split(", ") if match else []


def grounded_content(body: dict, bogus: bool = False) -> str:
    prompt = body["messages"][1]["content"]
    region, name, line = kernel_line(prompt)
    identifier = "no_such_symbol_anywhere" if bogus else name
    evidence = [{"region": region, "start_line": line, "end_line": line, "identifiers": [identifier], "numbers": []}]
    if "instruction half" in body["messages"][0]["content"]:
        return json.dumps({"instruction": f"Implement the kernel `{name}`.", "evidence": evidence})
    items = [
        {
            "category": category,
            "question": f"Where is `{name}` declared?",
            "answer": f"`{name}` is declared at line {line}.",
            "evidence": evidence,
        }
        for category in _categories(prompt)[:2]
    ]
    return json.dumps({"items": items})


class QAResponder:
    """``mode``: good, ungrounded-once (fixed on regeneration), ungrounded, malformed, truncated, rate-limited-once."""

    def __init__(self, mode: str = "good", delay_s: float = 0.0) -> None:
        self.mode = mode
        self.delay_s = delay_s
        self.seen: Counter = Counter()
        self._lock = threading.Lock()

    def __call__(self, body: dict) -> Reply:
        regenerating = len(body["messages"]) > 2
        key = body["messages"][1]["content"]
        with self._lock:
            self.seen[key] += 1
            first = self.seen[key] == 1
        if self.mode == "rate-limited-once" and first:
            return Reply(status=429, headers={"retry-after-ms": "5"})
        if self.mode == "malformed":
            return Reply('{"items": [ {"category": ', delay_s=self.delay_s)
        if self.mode == "truncated":
            return Reply(grounded_content(body)[:40], finish_reason="length", delay_s=self.delay_s)
        bogus = self.mode == "ungrounded" or (self.mode == "ungrounded-once" and not regenerating)
        return Reply(grounded_content(body, bogus=bogus), delay_s=self.delay_s)
