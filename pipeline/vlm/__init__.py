"""Models behind one interface, chosen by a spec string: `rules`, `openai:NAME`, `scripted:PATH`."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

import httpx

from pipeline.errors import ConfigError, registered
from pipeline.settings import Settings
from pipeline.vlm.base import Model, SchemaAnswerer
from pipeline.vlm.steps import Narrowing

__all__ = ["MODELS", "Model", "ModelOptions", "SchemaAnswerer", "make_model", "sees_images"]

_LOOPBACK = {"127.0.0.1", "localhost", "::1"}


@dataclass(frozen=True)
class ModelOptions:
    base_url: str | None = None
    api_key: str | None = None
    timeout_s: float = 120.0
    retries: int = 2
    http_client: httpx.AsyncClient | None = None
    allow_remote: bool = True
    steps: str = "auto"
    schema_wire: str = "json_schema"
    step_max_tokens: int = 256
    narrowing: Narrowing = field(default_factory=Narrowing)
    max_quantity: int = 10_000
    images: bool = True
    """An `openai` endpoint's model reads image parts (false: a text-only model)."""

    @classmethod
    def from_settings(
        cls, settings: Settings, http_client: httpx.AsyncClient, *, base_url: str | None = None
    ) -> ModelOptions:
        """The options every entry point builds its model with."""
        return cls(
            base_url=base_url or settings.base_url,
            api_key=settings.api_key,
            timeout_s=settings.vlm_timeout_s,
            retries=settings.vlm_retries,
            http_client=http_client,
            allow_remote=settings.allow_remote_models,
            steps=settings.vlm_steps,
            schema_wire=settings.vlm_schema_wire,
            step_max_tokens=settings.vlm_step_max_tokens,
            narrowing=Narrowing(**settings.vlm_narrow.model_dump()),
            max_quantity=settings.max_order_quantity,
            images=settings.vlm_images,
        )


def _rules(argument: str, options: ModelOptions) -> Model:
    from pipeline.vlm.rules import RulesModel

    return RulesModel()


def _scripted(argument: str, options: ModelOptions) -> Model:
    from pipeline.vlm.scripted import ScriptedModel

    if not argument:
        raise ConfigError("scripted needs a file: --model scripted:PATH")
    return ScriptedModel.from_file(Path(argument))


def _openai(argument: str, options: ModelOptions) -> Model:
    from pipeline.vlm.endpoint import ChatEndpoint
    from pipeline.vlm.openai import OpenAIModel

    if not argument:
        raise ConfigError("openai needs a model name: --model openai:NAME")
    if not options.base_url:
        raise ConfigError(
            "openai needs an endpoint: --base-url http://127.0.0.1:11434/v1 (or STOCKSHOT_BASE_URL)"
        )
    parsed = urlparse(options.base_url)
    if parsed.scheme not in ("http", "https") or not parsed.hostname:
        raise ConfigError(f"base URL {options.base_url!r} is not an http(s) URL")
    if not options.allow_remote and parsed.hostname not in _LOOPBACK:
        raise ConfigError(
            f"requests to {parsed.hostname} are not allowed here; only a local endpoint is"
        )
    if options.http_client is None:
        raise ConfigError("openai needs an HTTP client from the entry point")
    endpoint = ChatEndpoint(
        client=options.http_client,
        base_url=options.base_url,
        api_key=options.api_key,
        timeout_s=options.timeout_s,
        retries=options.retries,
    )
    return OpenAIModel(
        argument,
        endpoint,
        steps=options.steps,
        schema_wire=options.schema_wire,
        step_max_tokens=options.step_max_tokens,
        narrowing=options.narrowing,
        max_quantity=options.max_quantity,
    )


MODELS: dict[str, Callable[[str, ModelOptions], Model]] = {
    "rules": _rules,
    "openai": _openai,
    "scripted": _scripted,
}


def sees_images(spec: str, options: ModelOptions) -> bool:
    """Whether the model `spec` names reads image parts: an `openai` endpoint unless the
    options say its model is text-only; `rules` and `scripted` read the text."""
    return spec.partition(":")[0] == "openai" and options.images


def make_model(spec: str, options: ModelOptions) -> Model:
    kind, _, argument = spec.partition(":")
    return registered(MODELS, "model", kind)(argument, options)
