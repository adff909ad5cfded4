"""The model factory: which endpoints it refuses and why, every registered kind, who sees
images."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from pipeline.errors import ConfigError, UnknownNameError
from pipeline.settings import Settings
from pipeline.vlm import MODELS, ModelOptions, make_model, sees_images
from tests.vlm.chat_endpoint import URL


def no_requests(request: httpx.Request) -> httpx.Response:
    raise AssertionError(f"building a model must not make a request ({request.url})")


def options(**overrides: Any) -> ModelOptions:
    client = httpx.AsyncClient(transport=httpx.MockTransport(no_requests))
    return ModelOptions(**{"http_client": client, **overrides})


@pytest.mark.parametrize(
    "base_url", ["https://api.example.com/v1", "http://10.0.0.5:8000/v1", "http://0.0.0.0:11434/v1"]
)
def test_a_remote_endpoint_is_refused_when_remote_models_are_not_allowed(base_url: str) -> None:
    with pytest.raises(ConfigError, match="not allowed") as caught:
        make_model("openai:x", options(base_url=base_url, allow_remote=False))

    assert "local endpoint" in str(caught.value)


@pytest.mark.parametrize(
    "base_url",
    ["http://127.0.0.1:11434/v1", "http://localhost:8000/v1", "http://[::1]:8000/v1"],
)
def test_a_loopback_endpoint_is_allowed_when_remote_models_are_not(base_url: str) -> None:
    model = make_model("openai:x", options(base_url=base_url, allow_remote=False))

    assert model.name == "openai:x"


def test_a_remote_endpoint_is_accepted_when_remote_models_are_allowed() -> None:
    model = make_model(
        "openai:gpt-x", options(base_url="https://api.example.com/v1", allow_remote=True)
    )

    assert model.name == "openai:gpt-x"


def test_a_missing_base_url_says_how_to_give_one() -> None:
    with pytest.raises(ConfigError) as caught:
        make_model("openai:x", options(base_url=None))

    assert "--base-url" in str(caught.value)
    assert "STOCKSHOT_BASE_URL" in str(caught.value)


@pytest.mark.parametrize("spec", ["openai", "openai:"])
def test_a_missing_model_name_says_how_to_give_one(spec: str) -> None:
    with pytest.raises(ConfigError, match=r"--model openai:NAME"):
        make_model(spec, options(base_url=URL))


@pytest.mark.parametrize("base_url", ["ftp://127.0.0.1/v1", "127.0.0.1:8000/v1", "http:///v1"])
def test_a_base_url_that_is_not_http_is_refused(base_url: str) -> None:
    with pytest.raises(ConfigError, match="not an http"):
        make_model("openai:x", options(base_url=base_url))


def test_a_missing_http_client_is_a_config_error() -> None:
    with pytest.raises(ConfigError, match="HTTP client"):
        make_model("openai:x", ModelOptions(base_url=URL))


@pytest.mark.parametrize("spec", ["gpt4", "", "anthropic:claude", "OPENAI:x"])
def test_an_unknown_kind_lists_the_known_ones(spec: str) -> None:
    with pytest.raises(UnknownNameError) as caught:
        make_model(spec, options(base_url=URL))

    assert caught.value.known == ["openai", "rules", "scripted"]
    assert "openai, rules, scripted" in str(caught.value)
    assert caught.value.known == sorted(MODELS)


def test_every_registered_kind_builds_a_model(tmp_path: Path) -> None:
    script = tmp_path / "turns.json"
    script.write_text("[]", encoding="utf-8")
    arguments = {"rules": "", "openai": "m", "scripted": str(script)}

    names = [make_model(f"{kind}:{arguments[kind]}", options(base_url=URL)).name for kind in MODELS]

    assert names == ["rules", "openai:m", "scripted:turns.json"]


def test_only_an_openai_endpoint_sees_images_unless_settings_say_its_model_reads_text_only(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert sees_images("openai:qwen2-vl", options())
    assert not sees_images("openai:qwen2.5", options(images=False))
    assert not sees_images("rules", options()) and not sees_images("scripted:x.json", options())
    monkeypatch.setenv("STOCKSHOT_VLM_IMAGES", "false")
    client = httpx.AsyncClient(transport=httpx.MockTransport(no_requests))
    assert not ModelOptions.from_settings(Settings(), client).images
