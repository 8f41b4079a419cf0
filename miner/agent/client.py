"""The chat client: the official ``openai`` package against any OpenAI-compatible server.

Retries with backoff on 429, 5xx, connection errors and timeouts are the package's own (it honours
``Retry-After``); what is still failing after them comes back as a ``ChatResult`` with ``failure``
set, never as an exception, so one bad request never ends a run.
"""

from __future__ import annotations

import asyncio
import re
import time
from dataclasses import dataclass, replace

import openai
from pydantic import BaseModel, Field, ValidationError

from miner.agent.config import AgentConfig

_FENCE = re.compile(r"^\s*```(?:json)?\s*\n(.*?)\n\s*```\s*$", re.DOTALL)
# The request failed, not the model: no answer came back, what came back is not a chat completion at all (a
# proxy's HTML page, ``{}``), or the request was refused as sent (a wrong key, model or endpoint: 401, 403, 404).
# What asked for it is left for a re-run, which the corrected settings then answer, instead of being recorded.
SERVER_FAULTS = ("timeout", "connection", "bad-response", "http-401", "http-403", "http-404", "http-408", "http-409",
                 "http-429")  # fmt: skip


def is_server_fault(failure: str | None) -> bool:
    return failure is not None and (failure in SERVER_FAULTS or failure.startswith("http-5"))


@dataclass(frozen=True)
class ChatResult:
    text: str
    parsed: BaseModel | None
    finish_reason: str
    prompt_tokens: int = 0
    completion_tokens: int = 0
    system_fingerprint: str = ""
    retries: int = 0
    seconds: float = 0.0
    failure: str | None = None  # "length", "empty", "unparsable", "bad-response", "timeout", "http-429", ...

    @property
    def ok(self) -> bool:
        return self.failure is None


class _Message(BaseModel):
    content: str | None = None


class _Choice(BaseModel):
    message: _Message
    finish_reason: str | None = None


class _Usage(BaseModel):
    prompt_tokens: int | None = None
    completion_tokens: int | None = None


class _Completion(BaseModel):
    """What the client reads of a chat completion; the ``openai`` package parses replies without validating them."""

    choices: list[_Choice] = Field(min_length=1)
    usage: _Usage | None = None
    system_fingerprint: str | None = None


class AgentClient:
    """Bounded-concurrency chat completions; use as ``async with AgentClient(config) as client``."""

    def __init__(self, config: AgentConfig) -> None:
        self.config = config
        self._openai = openai.AsyncOpenAI(
            base_url=config.base_url,
            api_key=config.api_key or "unused",
            timeout=config.timeout_s,
            max_retries=config.max_retries,
        )
        self._slots = asyncio.Semaphore(config.concurrency)

    async def __aenter__(self) -> AgentClient:
        return self

    async def __aexit__(self, *_: object) -> None:
        await self._openai.close()

    async def chat(self, messages: list[dict], schema: type[BaseModel] | None = None) -> ChatResult:
        """One completion; with ``schema``, the answer must be a JSON object that validates against it."""
        request = self._request(messages, schema)
        started = time.perf_counter()
        async with self._slots:
            try:
                raw = await self._openai.chat.completions.with_raw_response.create(**request)
            except openai.APITimeoutError:
                return _failed("timeout", started)
            except openai.APIStatusError as exc:
                return _failed(f"http-{exc.status_code}", started)
            except openai.APIConnectionError:
                return _failed("connection", started)
        completion = _read_completion(raw.http_response.content)
        if completion is None:
            return _failed("bad-response", started, raw.retries_taken)
        choice = completion.choices[0]
        usage = completion.usage or _Usage()
        result = ChatResult(
            text=choice.message.content or "",
            parsed=None,
            finish_reason=choice.finish_reason or "",
            prompt_tokens=usage.prompt_tokens or 0,
            completion_tokens=usage.completion_tokens or 0,
            system_fingerprint=completion.system_fingerprint or "",
            retries=raw.retries_taken,
            seconds=time.perf_counter() - started,
        )
        if result.finish_reason == "length":
            return replace(result, failure="length")
        if schema is None:
            return result
        if not result.text.strip():
            return replace(result, failure="empty")
        parsed = parse_json_answer(result.text, schema)
        return replace(result, parsed=parsed, failure=None if parsed is not None else "unparsable")

    def _request(self, messages: list[dict], schema: type[BaseModel] | None) -> dict[str, object]:
        config = self.config
        request: dict[str, object] = {
            "model": config.model,
            # The messages travel in extra_body: they are plain dicts already, and the typed-dict transform
            # the client applies to the ``messages`` argument costs about 2 ms a request (a third of its time).
            "messages": [],
            "extra_body": {"messages": messages},
            "temperature": config.temperature,
            "max_tokens": config.max_tokens,
        }
        if config.seed is not None:
            request["seed"] = config.seed
        if schema is not None:
            request["response_format"] = {"type": "json_object"}
        return request


def _failed(failure: str, started: float, retries: int = 0) -> ChatResult:
    return ChatResult("", None, "", retries=retries, seconds=time.perf_counter() - started, failure=failure)


def _read_completion(body: bytes) -> _Completion | None:
    """The reply as a chat completion with at least one choice; None for anything else (HTML, ``{}``, ...)."""
    try:
        return _Completion.model_validate_json(body)
    except ValidationError:
        return None


def parse_json_answer(text: str, schema: type[BaseModel]) -> BaseModel | None:
    """The answer as ``schema``, accepting a JSON object wrapped in a Markdown code fence; None when invalid."""
    fenced = _FENCE.match(text)
    body = fenced.group(1) if fenced else text
    try:
        return schema.model_validate_json(body)
    except ValidationError:
        return None
