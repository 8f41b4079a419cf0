"""The agent client against a scripted server on 127.0.0.1: every failure comes back as a value."""

from __future__ import annotations

import asyncio
import itertools
import json

import pytest
from pydantic import BaseModel

from miner.agent.client import AgentClient
from miner.agent.config import AgentConfig
from tests.support.chat_server import Reply, ScriptedChatServer


class Answer(BaseModel):
    value: int


def _chat(server: ScriptedChatServer, schema: type[BaseModel] | None = Answer, **settings: object):
    config = AgentConfig(base_url=server.base_url, model="scripted", api_key="k", **settings)

    async def go():
        async with AgentClient(config) as client:
            return await client.chat([{"role": "user", "content": "q"}], schema)

    return asyncio.run(go())


def test_good_answer_is_parsed_and_metered() -> None:
    with ScriptedChatServer(lambda body: Reply('{"value": 3}', prompt_tokens=11, completion_tokens=4)) as server:
        result = _chat(server)
    assert result.ok and result.parsed == Answer(value=3)
    assert (result.prompt_tokens, result.completion_tokens, result.system_fingerprint) == (11, 4, "fp_scripted")
    sent = server.requests[0]
    assert sent["messages"] == [{"role": "user", "content": "q"}]
    assert sent["model"] == "scripted" and sent["seed"] == 0 and sent["response_format"] == {"type": "json_object"}


def test_fenced_json_is_accepted() -> None:
    with ScriptedChatServer(lambda body: Reply('```json\n{"value": 5}\n```')) as server:
        assert _chat(server).parsed == Answer(value=5)


def test_malformed_and_truncated_answers_fail_without_raising() -> None:
    with ScriptedChatServer(lambda body: Reply('{"value": ')) as server:
        assert _chat(server).failure == "unparsable"
    with ScriptedChatServer(lambda body: Reply('{"value": 1', finish_reason="length")) as server:
        assert _chat(server).failure == "length"
    with ScriptedChatServer(lambda body: Reply(raw_body=b"<html>not json")) as server:
        assert _chat(server).failure is not None


def test_rate_limit_is_retried_with_the_servers_delay() -> None:
    calls = itertools.count()

    def responder(body: dict) -> Reply:
        if next(calls) < 2:
            return Reply(status=429, headers={"retry-after-ms": "10"})
        return Reply('{"value": 7}')

    with ScriptedChatServer(responder) as server:
        result = _chat(server)
    assert result.parsed == Answer(value=7) and result.retries == 2 and len(server.requests) == 3


def test_exhausted_retries_and_timeouts_are_reported() -> None:
    with ScriptedChatServer(lambda body: Reply(status=429, headers={"retry-after-ms": "5"})) as server:
        result = _chat(server, max_retries=1)
    assert result.failure == "http-429" and len(server.requests) == 2
    with ScriptedChatServer(lambda body: Reply('{"value": 1}', delay_s=1.0)) as server:
        result = _chat(server, max_retries=0, timeout_s=0.2)
    assert result.failure == "timeout"


@pytest.mark.parametrize(
    "reply",
    [
        Reply(raw_body=b"<html>a proxy's login page</html>", content_type="text/html"),
        Reply(raw_body=b'{"foo": 1}'),
        Reply(raw_body=b'{"object": "chat.completion", "choices": []}'),
        Reply(raw_body=b'{"choices": [{"index": 0, "message": null, "finish_reason": "stop"}]}'),
        Reply(raw_body=b"[1, 2]"),
    ],
    ids=["html", "foo", "no-choices", "null-message", "list"],
)
def test_a_reply_that_is_not_a_chat_completion_is_a_bad_response(reply: Reply) -> None:
    with ScriptedChatServer(lambda body: reply) as server:
        result = _chat(server)
    assert result.failure == "bad-response" and result.text == "" and len(server.requests) == 1


@pytest.mark.parametrize("content", [None, "", " \n"])
def test_a_completion_without_content_is_an_empty_answer(content: str | None) -> None:
    with ScriptedChatServer(lambda body: Reply(content)) as server:
        result = _chat(server)
    assert result.failure == "empty" and result.prompt_tokens == 100


def test_a_whole_number_for_a_float_setting_keeps_the_cache_keys_it_had(tmp_path):
    """Journals made before the settings were validated keyed ``temperature = 0`` as 0, not 0.0."""
    config = tmp_path / "agent.toml"
    config.write_text('[agent]\nmodel = "m"\ntemperature = 0\ntimeout_s = 30\n')
    settings = AgentConfig.from_env(config)
    assert json.dumps(settings.sampling, sort_keys=True) == '{"max_tokens": 4096, "seed": 0, "temperature": 0}'
    assert settings.timeout_s == 30
