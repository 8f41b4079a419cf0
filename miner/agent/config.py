"""Where the agent client's settings come from: flags, a TOML config file, then the ``OPENAI_*`` variables."""

from __future__ import annotations

import os
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path

from miner.errors import InputError


@dataclass(frozen=True)
class Prices:
    """US dollars per million tokens; zero when not configured."""

    prompt: float = 0.0
    completion: float = 0.0

    @property
    def configured(self) -> bool:
        return bool(self.prompt or self.completion)


@dataclass(frozen=True)
class AgentConfig:
    base_url: str = "https://api.openai.com/v1"
    model: str = ""
    api_key: str = field(default="", repr=False)
    concurrency: int = 8
    timeout_s: float = 120.0
    max_retries: int = 4
    temperature: float = 0.2
    seed: int | None = 0
    max_tokens: int = 4096
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
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(values) - known)
        if unknown:
            raise InputError(f"unknown agent setting(s): {', '.join(unknown)}")
        config = replace(cls(), **values)
        if config.concurrency < 1:
            raise InputError("agent concurrency must be at least 1")
        return config

    @property
    def sampling(self) -> dict[str, object]:
        """What, besides the prompt and model, decides an answer: part of every cache key."""
        return {"temperature": self.temperature, "seed": self.seed, "max_tokens": self.max_tokens}


def _read_config_file(path: Path) -> dict[str, object]:
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise InputError(f"cannot read agent config {path}: {exc}") from None
    section = data.get("agent", data)
    values = {k: v for k, v in section.items() if k not in ("prices", "api_key_env")}
    if "api_key_env" in section:
        values["api_key"] = os.environ.get(str(section["api_key_env"]), "")
    if "prices" in section:
        values["prices"] = Prices(**section["prices"])
    return values
