"""Where the agent client's settings come from: flags, a TOML config file, then the ``OPENAI_*`` variables."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Annotated

from pydantic import ConfigDict, Field, TypeAdapter, ValidationError

from miner.errors import InputError


@dataclass(frozen=True)
class Prices:
    """US dollars per million tokens; zero when not configured."""

    __pydantic_config__ = ConfigDict(extra="forbid")

    prompt: float = 0.0
    completion: float = 0.0

    @property
    def configured(self) -> bool:
        return bool(self.prompt or self.completion)


@dataclass(frozen=True)
class AgentConfig:
    __pydantic_config__ = ConfigDict(extra="forbid")

    base_url: str = "https://api.openai.com/v1"
    model: str = ""
    api_key: str = field(default="", repr=False)
    concurrency: Annotated[int, Field(ge=1)] = 8
    timeout_s: Annotated[float, Field(gt=0)] = 120.0
    max_retries: Annotated[int, Field(ge=0)] = 4
    temperature: float = 0.2
    seed: int | None = 0
    max_tokens: Annotated[int, Field(ge=1)] = 4096
    prices: Prices = Prices()

    @classmethod
    def from_env(cls, config_file: Path | None = None, **overrides: object) -> AgentConfig:
        """Flags (``overrides``, ``None`` meaning unset) beat the config file, which beats the environment."""
        values: dict[str, object] = {}
        env = os.environ
        if env.get("OPENAI_BASE_URL"):
            values["base_url"] = env["OPENAI_BASE_URL"]
        if env.get("OPENAI_MODEL"):
            values["model"] = env["OPENAI_MODEL"]
        if env.get("OPENAI_API_KEY"):
            values["api_key"] = env["OPENAI_API_KEY"]
        if config_file is not None:
            values.update(_read_config_file(config_file))
        values.update({k: v for k, v in overrides.items() if v is not None})
        return _validated(values, "agent settings")

    @property
    def sampling(self) -> dict[str, object]:
        """What, besides the prompt and model, decides an answer: part of every cache key."""
        return {"temperature": self.temperature, "seed": self.seed, "max_tokens": self.max_tokens}


_SETTINGS = TypeAdapter(AgentConfig)


def _validated(values: dict[str, object], source: str) -> AgentConfig:
    try:
        config = _SETTINGS.validate_python(values)
    except ValidationError as exc:
        raise InputError(f"{source}: {_problem(exc)}") from None
    # a whole number given for a float setting stays as given: ``sampling`` is part of every cache key
    given = {k: v for k, v in values.items() if type(v) is int and isinstance(getattr(config, k, None), float)}
    return replace(config, **given)


def _problem(exc: ValidationError) -> str:
    error = exc.errors()[0]
    key = ".".join(str(part) for part in error["loc"])
    if error["type"] == "unexpected_keyword_argument":
        return f"{key}: unknown setting"
    shown = "" if key == "api_key" else f" (got {error['input']!r})"  # a key never goes to a log
    return f"{key}: {error['msg']}{shown}"


def _read_config_file(path: Path) -> dict[str, object]:
    """The settings the file sets, checked against ``AgentConfig`` so that an error names the file."""
    data = _load_toml(path)
    table = data.get("agent", data)
    if not isinstance(table, dict):
        raise InputError(f"agent config {path}: agent: expected a table ([agent]), got {table!r}")
    values = dict(table)
    if "api_key_env" in values:
        variable = values.pop("api_key_env")
        if not isinstance(variable, str):
            raise InputError(f"agent config {path}: api_key_env: expected a variable name, got {variable!r}")
        values["api_key"] = os.environ.get(variable, "")
    config = _validated(values, f"agent config {path}")
    return {name: getattr(config, name) for name in values}


def _load_toml(path: Path) -> dict[str, object]:
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"cannot read agent config {path}: {exc}") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"cannot read agent config {path}: not UTF-8 ({exc.reason} at byte {exc.start})") from None
