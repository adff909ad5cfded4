"""Keys with roles: a viewer reads, an operator uploads and starts runs, an approver decides
proposals, an admin (or a key given no roles) does everything; a missing role is 403 naming it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest

from pipeline.api import create_app
from pipeline.api.auth import parse_key
from pipeline.errors import ConfigError
from pipeline.ingest import Ingestor
from pipeline.settings import Settings
from tests.api.conftest import SAMPLE, started
from tests.mcp_http import ACCEPT, INITIALIZE

KEYS = {
    "viewer": "vera:view-secret:viewer",
    "operator": "otto:op-secret:operator",
    "approver": "anna:ap-secret:approver",
    "admin": "root:admin-secret:admin",
    "bare": "plain-secret",
}
SECRETS = {role: entry.split(":")[1] if ":" in entry else entry for role, entry in KEYS.items()}

# Every /v1 route and the role it needs; a route missing here fails the OpenAPI test below.
ROUTE_ROLES = {
    ("GET", "/v1/webhooks/deliveries"): "admin",
    ("GET", "/v1/approvals"): "viewer",
    ("GET", "/v1/approvals/{proposal_id}"): "viewer",
    ("POST", "/v1/approvals/{proposal_id}/approve"): "approver",
    ("POST", "/v1/approvals/{proposal_id}/deny"): "approver",
    ("POST", "/v1/ingest"): "operator",
    ("GET", "/v1/ingest/{ingest_id}/image"): "viewer",
    ("GET", "/v1/orders"): "viewer",
    ("POST", "/v1/orders/{order_id}/cancel"): "approver",
    ("GET", "/v1/profiles"): "viewer",
    ("PUT", "/v1/profiles"): "operator",
    ("GET", "/v1/profiles/{signature}"): "viewer",
    ("DELETE", "/v1/profiles/{signature}"): "operator",
    ("GET", "/v1/contract"): "viewer",
    ("POST", "/v1/runs"): "operator",
    ("GET", "/v1/runs"): "viewer",
    ("GET", "/v1/runs/{run_id}"): "viewer",
    ("GET", "/v1/runs/{run_id}/events"): "viewer",
    ("POST", "/v1/runs/{run_id}/confirm"): "operator",
}
MAY = {
    "viewer": {"viewer"},
    "operator": {"viewer", "operator"},
    "approver": {"viewer", "approver"},
    "admin": {"viewer", "operator", "approver", "admin"},
    "bare": {"viewer", "operator", "approver", "admin"},
}


@pytest.fixture
async def client(settings: Settings, ingestor: Ingestor) -> AsyncIterator[httpx.AsyncClient]:
    keyed = settings.model_copy(update={"api_keys": list(KEYS.values())})
    async with started(create_app(keyed, ingestor=ingestor)) as http:
        http.headers.pop("X-API-Key")
        yield http


def test_a_key_entry_names_its_roles_and_a_key_without_roles_has_them_all() -> None:
    assert parse_key("anna:s3cret:approver", 0).roles == {"viewer", "approver"}
    assert parse_key("otto:s3cret:operator+approver", 0).roles == {
        "viewer",
        "operator",
        "approver",
    }
    assert parse_key("otto:s3cret", 0).roles == {"viewer", "operator", "approver", "admin"}
    bare = parse_key("s3cret", 2)
    assert (bare.name, bare.secret, bare.roles) == ("key-3", "s3cret", parse_key("x", 0).roles)


def test_an_unknown_role_stops_the_api_from_starting_and_names_the_roles(
    settings: Settings,
) -> None:
    wrong = settings.model_copy(update={"api_keys": ["anna:s3cret:aprover"]})
    with pytest.raises(ConfigError, match=r"unknown role 'aprover'.*viewer, operator, approver"):
        create_app(wrong)


def test_every_v1_route_declares_its_role_in_the_openapi_document() -> None:
    paths = create_app(Settings()).openapi()["paths"]
    declared = {
        (method.upper(), path): operation.get("x-stockshot-role")
        for path, item in paths.items()
        if path.startswith("/v1/")
        for method, operation in item.items()
    }
    assert declared == ROUTE_ROLES


def concrete(path: str) -> str:
    return (
        path.replace("{proposal_id}", "AP-000001")
        .replace("{signature}", "0" * 64)
        .replace("{run_id}", "run-1")
        .replace("{order_id}", "PO-000001")
        .replace("{ingest_id}", "0" * 64)
    )


@pytest.mark.parametrize("who", list(KEYS))
@pytest.mark.parametrize(("method", "path"), list(ROUTE_ROLES), ids=lambda v: str(v))
async def test_each_route_answers_only_keys_with_its_role(
    client: httpx.AsyncClient, who: str, method: str, path: str
) -> None:
    response = await client.request(
        method,
        concrete(path),
        headers={"X-API-Key": SECRETS[who]},
        params={"task": "report the low SKUs"} if path == "/v1/contract" else None,
    )
    needed = ROUTE_ROLES[(method, path)]
    if needed in MAY[who]:
        assert response.status_code != 403, response.text
    else:
        assert response.status_code == 403, response.text
        assert response.json()["error"] == "role_required"
        assert response.json()["details"]["role"] == needed
        assert f"lacks the {needed!r} role" in response.json()["message"]


async def test_an_operator_uploads_and_a_viewer_is_refused_before_the_upload_is_read(
    client: httpx.AsyncClient,
) -> None:
    files = {"file": (SAMPLE.name, SAMPLE.read_bytes(), "image/png")}
    viewer = await client.post("/v1/ingest", files=files, headers={"X-API-Key": SECRETS["viewer"]})
    operator = await client.post(
        "/v1/ingest", files=files, headers={"X-API-Key": SECRETS["operator"]}
    )
    assert viewer.status_code == 403
    assert "name:secret:operator" in viewer.json()["message"]
    assert operator.status_code == 200, operator.text
    assert len(operator.json()["results"][0]["rows"]) == 17


async def test_a_viewer_key_cannot_reach_the_mcp_mounts_and_an_operator_key_can(
    client: httpx.AsyncClient,
) -> None:
    headers = dict(ACCEPT)
    viewer = await client.post(
        "/mcp/orders/mcp",
        json=INITIALIZE,
        headers={**headers, "Authorization": f"Bearer {SECRETS['viewer']}"},
    )
    operator = await client.post(
        "/mcp/orders/mcp",
        json=INITIALIZE,
        headers={**headers, "Authorization": f"Bearer {SECRETS['operator']}"},
    )
    assert viewer.status_code == 403
    assert viewer.json()["error"] == "role_required"
    assert "lacks the 'operator' role" in viewer.json()["message"]
    assert operator.status_code == 200, operator.text
