"""API keys: every /v1 route needs one when keys are set; health and the page never do."""

from __future__ import annotations

import httpx
import pytest

from pipeline.api import create_app
from pipeline.api.auth import host_allowed, key_matches, presented_key
from pipeline.ingest import Ingestor
from pipeline.settings import Settings
from tests.api.conftest import OTHER_KEY, SAMPLE, started
from tests.api.serve import KEY
from tests.mcp_http import INITIALIZE

ROUTES = [
    ("POST", "/v1/ingest"),
    ("POST", "/v1/runs"),
    ("GET", "/v1/runs/run-123"),
    ("GET", "/v1/runs/run-123/events"),
    ("GET", "/v1/orders"),
]


@pytest.mark.parametrize(("method", "path"), ROUTES)
@pytest.mark.parametrize(
    ("headers", "error"),
    [
        ({}, "missing_key"),
        ({"X-API-Key": "wrong"}, "unknown_key"),
        ({"Authorization": "Bearer wrong"}, "unknown_key"),
        ({"Authorization": f"Basic {KEY}"}, "missing_key"),
        ({"X-API-Key": KEY + "x"}, "unknown_key"),
    ],
    ids=["none", "wrong-header", "wrong-bearer", "basic-scheme", "longer-key"],
)
async def test_every_v1_route_refuses_a_request_without_one_of_the_keys_saying_which(
    client: httpx.AsyncClient, method: str, path: str, headers: dict[str, str], error: str
) -> None:
    client.headers.pop("X-API-Key")
    response = await client.request(method, path, headers=headers)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == 'Bearer realm="stockshot"'
    assert response.json()["error"] == error
    said = response.json()["message"]
    if error == "missing_key":
        assert said.startswith("no API key was sent: send one as X-API-Key: KEY")
    else:
        assert said.startswith("the API key sent is not one of this server's keys")


@pytest.mark.parametrize(
    "headers",
    [{"X-API-Key": KEY}, {"X-API-Key": OTHER_KEY}, {"Authorization": f"Bearer {OTHER_KEY}"}],
    ids=["first-key", "second-key", "bearer"],
)
async def test_any_configured_key_is_accepted_as_a_header_or_a_bearer_token(
    client: httpx.AsyncClient, headers: dict[str, str]
) -> None:
    client.headers.pop("X-API-Key")
    response = await client.get("/v1/orders", headers=headers)
    assert response.status_code == 200


async def test_a_refused_upload_is_refused_before_anything_is_read(
    client: httpx.AsyncClient,
) -> None:
    client.headers.pop("X-API-Key")
    response = await client.post("/v1/ingest", files={"file": ("a.png", SAMPLE.read_bytes())})
    assert response.status_code == 401


@pytest.mark.parametrize("path", ["/healthz", "/readyz", "/", "/static/app.js", "/openapi.json"])
async def test_health_the_page_and_the_docs_need_no_key(
    client: httpx.AsyncClient, path: str
) -> None:
    client.headers.pop("X-API-Key")
    response = await client.get(path)
    assert response.status_code == 200


async def test_without_configured_keys_the_api_is_open(
    settings: Settings, ingestor: Ingestor
) -> None:
    open_settings = settings.model_copy(update={"api_keys": []})
    async with started(create_app(open_settings, ingestor=ingestor)) as http:
        http.headers.pop("X-API-Key")
        assert (await http.get("/v1/orders")).status_code == 200


async def test_the_mcp_mounts_need_the_bearer_token(client: httpx.AsyncClient) -> None:
    for group in ("inventory", "orders", "warehouses"):
        response = await client.post(f"/mcp/{group}/mcp", json={})
        assert response.status_code == 401, group
        assert response.headers["www-authenticate"] == 'Bearer realm="stockshot"'


@pytest.mark.parametrize(
    ("headers", "expected"),
    [
        ([(b"x-api-key", b" k1 ")], "k1"),
        ([(b"authorization", b"Bearer k2")], "k2"),
        ([(b"authorization", b"bearer   k3 ")], "k3"),
        ([(b"x-api-key", b"k1"), (b"authorization", b"Bearer k2")], "k1"),
        ([(b"authorization", b"Basic k2")], None),
        ([(b"authorization", b"Bearer ")], None),
        ([], None),
    ],
)
def test_the_presented_key_comes_from_x_api_key_or_a_bearer_header(
    headers: list[tuple[bytes, bytes]], expected: str | None
) -> None:
    assert presented_key(headers) == expected


def test_a_key_matches_only_exactly_and_only_when_keys_are_set() -> None:
    assert key_matches("k2", ["k1", "k2"])
    assert not key_matches("k", ["k1", "k2"])
    assert not key_matches("k1 ", ["k1"])
    assert not key_matches(None, ["k1"])
    assert not key_matches("k1", [])
    assert key_matches("ключ", ["ключ"])


@pytest.mark.parametrize("host", ["evil.example:8000", "evil.example", "127.0.0.1.evil.example"])
async def test_a_request_naming_another_host_is_refused_on_a_loopback_server(
    client: httpx.AsyncClient, host: str
) -> None:
    response = await client.get("/healthz", headers={"Host": host})
    assert response.status_code == 421
    assert "STOCKSHOT_ALLOWED_HOSTS" in response.json()["message"]
    assert (await client.get("/healthz", headers={"Host": "localhost:8000"})).status_code == 200


async def test_every_operation_documents_the_421_a_foreign_host_gets(
    client: httpx.AsyncClient,
) -> None:
    schema = (await client.get("/openapi.json")).json()
    operations = [op for path in schema["paths"].values() for op in path.values()]
    assert operations and all("421" in op["responses"] for op in operations)
    refused = await client.get("/v1/runs/nope", headers={"Host": "N"})
    assert refused.status_code == 421 and refused.json()["error"] == "misdirected"


async def test_a_proxy_name_can_be_allowed_and_other_addresses_take_any_host(
    settings: Settings, ingestor: Ingestor
) -> None:
    proxied = settings.model_copy(update={"allowed_hosts": ["stockshot.corp.example"]})
    async with started(create_app(proxied, ingestor=ingestor)) as http:
        ok = await http.get("/healthz", headers={"Host": "stockshot.corp.example"})
        assert ok.status_code == 200
        assert (await http.get("/healthz", headers={"Host": "other.example"})).status_code == 421
    anywhere = settings.model_copy(update={"host": "0.0.0.0"})
    async with started(create_app(anywhere, ingestor=ingestor)) as http:
        assert (await http.get("/healthz", headers={"Host": "other.example"})).status_code == 200


@pytest.mark.parametrize(
    ("host", "origin", "status"),
    [
        ("127.0.0.1:8000", None, 200),
        ("localhost", None, 200),
        ("[::1]:8000", "http://[::1]:8000", 200),
        ("stockshot.corp.example", "https://stockshot.corp.example", 200),
        ("evil.example", None, 421),
        ("127.0.0.1:8000", "http://evil.example", 403),
    ],
)
async def test_the_mcp_mounts_answer_the_host_names_the_api_answers_and_no_others(
    settings: Settings, ingestor: Ingestor, host: str, origin: str | None, status: int
) -> None:
    proxied = settings.model_copy(update={"allowed_hosts": ["stockshot.corp.example"]})
    headers = {
        "Host": host,
        "Authorization": f"Bearer {KEY}",
        "Accept": "application/json, text/event-stream",
        **({"Origin": origin} if origin else {}),
    }
    async with started(create_app(proxied, ingestor=ingestor)) as http:
        response = await http.post("/mcp/inventory/mcp", json=INITIALIZE, headers=headers)
    assert response.status_code == status, response.text


@pytest.mark.parametrize(
    ("header", "allowed"),
    [
        ("127.0.0.1:8000", True),
        ("LOCALHOST", True),
        ("[::1]:8000", True),
        ("::1", True),
        ("localhost.evil:80", False),
        ("", False),
    ],
)
def test_only_the_listed_host_names_are_allowed(header: str, allowed: bool) -> None:
    assert host_allowed(header, ["127.0.0.1", "localhost", "::1"]) is allowed
