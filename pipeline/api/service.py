"""What the routes check and read before any work: the capture time, strategy, model and guard
switches a request names, and the store's warehouse names a task is read with."""

from __future__ import annotations

from datetime import datetime

from pipeline.api.deps import AppServices
from pipeline.errors import InputError, UnknownNameError
from pipeline.ingest import REQUESTABLE
from pipeline.settings import Settings
from pipeline.vlm import MODELS
from store.errors import StoreError

__all__ = [
    "check_guard_switches",
    "check_model",
    "parse_captured_at",
    "parse_strategy",
    "warehouse_names",
]

API_MODELS = ("rules", "openai")


def parse_captured_at(text: str | None) -> datetime | None:
    if text is None:
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        raise InputError(
            f"captured_at: {text!r} is not an ISO 8601 time (like 2026-11-27T09:14:52+08:00)"
        ) from None


def parse_strategy(text: str | None) -> str | None:
    if text is not None and text not in REQUESTABLE:
        raise UnknownNameError("strategy", text, REQUESTABLE)
    return text


def check_model(spec: str, settings: Settings) -> str:
    """A model the API may run, or an error that says which ones it may."""
    kind, _, argument = spec.partition(":")
    if kind not in MODELS:
        raise UnknownNameError("model", kind, API_MODELS)
    if kind not in API_MODELS:
        raise InputError(
            f"model {kind!r} replays local files and is not offered over the API; "
            "use rules or openai:NAME"
        )
    if kind == "openai" and not argument:
        raise InputError("model: name the model, like openai:qwen2.5-vl-7b")
    if kind == "openai" and not settings.base_url:
        raise InputError(
            "model: openai:NAME needs STOCKSHOT_BASE_URL set on the server; use rules instead "
            "or ask whoever runs the server to set it"
        )
    return spec


def check_guard_switches(switches: dict[str, bool], settings: Settings) -> None:
    """Per-request guard switches are the server's to allow; `scope` never goes off."""
    if not switches:
        return
    if switches.get("scope") is False:
        raise InputError(
            "guards: scope holds every write to the task contract and cannot be switched off "
            "per request"
        )
    if not settings.api_guard_switches:
        raise InputError(
            "guards: per-request guard switches are off on this server; leave 'guards' out, or "
            "ask whoever runs it to set STOCKSHOT_API_GUARD_SWITCHES=true"
        )


def warehouse_names(services: AppServices) -> dict[str, str]:
    """Every warehouse's name and aliases in the store, mapped to its id, for the reader
    (empty while the store is not open: names are then not read as scopes)."""
    try:
        with services.slot.reading() as tx:
            warehouses = tx.warehouses()
    except StoreError:
        return {}
    return {name: w.warehouse_id for w in warehouses for name in (w.name, *w.aliases) if name}
