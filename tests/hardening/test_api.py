"""The HTTP API under hostile callers: its own OpenAPI schema fuzzed (no 5xx, answers as
documented), a key on every route that needs one, file names and references that try to
reach outside, and uploads too big for their limit refused before they are read."""

from __future__ import annotations

import asyncio
import select
import socket
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest
import schemathesis
from hypothesis import given, settings
from schemathesis import GenerationMode
from schemathesis.checks import not_a_server_error
from schemathesis.python import asgi
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    ignored_auth,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from pipeline.api import create_app
from pipeline.host.loop import HostLimits
from pipeline.ingest.cache import IngestCache
from pipeline.models import JsonObject
from pipeline.ocr import OcrEngine
from pipeline.settings import Settings
from pipeline.vlm.scripted import ScriptedModel
from servers import domain
from store.stores import sqlite_store
from tests.api.conftest import running
from tests.api.serve import KEY, Served, seed, serving
from tests.conftest import make_ingestor
from tests.hardening.conftest import (
    FIGURES,
    GROUPS,
    PROFILE,
    SAMPLE,
    TASK,
    examples,
    run_on,
)
from tests.hardening.images import NAMES

CHECKS = [
    not_a_server_error,
    status_code_conformance,
    content_type_conformance,
    response_schema_conformance,
    response_headers_conformance,
    ignored_auth,
]


# ---- the schema fuzzed in process


@pytest.fixture(scope="module")
def operations(tmp_path_factory: pytest.TempPathFactory, rapidocr: OcrEngine) -> Iterator[Any]:
    """The operations of the app's own schema, the app on a seeded store. Schemathesis's ASGI
    client runs the app's lifespan (and may run it again), so the MCP mounts, which are not
    in the schema and can start only once, stay off; it sends `Host: testserver`, so that
    name is allowed like a proxy's."""
    data = tmp_path_factory.mktemp("schema-fuzz")
    settings_ = Settings(
        data_dir=data,
        timezone="Asia/Shanghai",
        api_keys=[KEY],
        allowed_hosts=[asgi.HOST],
        mount_mcp=False,
    )
    seed(settings_.resolved_db())
    with IngestCache(None) as cache:
        app = create_app(settings_, ingestor=make_ingestor(rapidocr, cache))
        schema = schemathesis.openapi.from_asgi("/openapi.json", app)
        yield [result.ok() for result in schema.get_all_operations()]  # type: ignore[union-attr]
        asgi.shutdown_lifespans()


def fuzz_operation(operation: Any, mode: GenerationMode, statuses: Counter[str]) -> None:
    """Cases of one operation in one mode, each called with the key and checked."""

    @settings(settings.get_profile(PROFILE), max_examples=examples(25, 400))
    @given(case=operation.as_strategy(generation_mode=mode))
    def fuzz(case: Any) -> None:
        response = case.call(headers={"X-API-Key": KEY})
        statuses[f"{operation.label} {response.status_code}"] += 1
        case.validate_response(response, checks=CHECKS)

    fuzz()


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_the_openapi_schema_fuzzed_finds_no_server_error_and_no_undocumented_answer(
    operations: list[Any], mode: GenerationMode
) -> None:
    statuses: Counter[str] = Counter()
    started = time.perf_counter()
    for operation in operations:
        if mode is GenerationMode.NEGATIVE and operation.path in ("/healthz", "/readyz"):
            continue  # nothing to break: no parameters, no body
        fuzz_operation(operation, mode, statuses)
    assert not [s for s in statuses if s.endswith((" 500", " 502", " 503", " 504"))]
    FIGURES[f"API schema fuzz ({mode.value})"] = {
        "requests": sum(statuses.values()),
        "answers": dict(sorted(statuses.items())),
        "wall": f"{time.perf_counter() - started:.1f} s",
    }


# ---- keys on every route that needs one


@pytest.fixture
async def api(tmp_path: Path, rapidocr: OcrEngine) -> Any:
    settings_ = Settings(data_dir=tmp_path / "data", timezone="Asia/Shanghai", api_keys=[KEY])
    seed(settings_.resolved_db())
    with IngestCache(None) as cache:
        app = create_app(settings_, ingestor=make_ingestor(rapidocr, cache))
        async with running(app):
            yield app, settings_


def guarded_routes(app: Any) -> list[tuple[str, str]]:
    """Every (method, path) the schema says needs a key, plus the MCP mounts."""
    routes = []
    for path, methods in app.openapi()["paths"].items():
        for method, operation in methods.items():
            if operation.get("security"):
                routes.append((method.upper(), path.replace("{run_id}", "run-0")))
    routes += [("POST", f"/mcp/{group}/mcp") for group in GROUPS]
    return routes


async def test_every_route_that_needs_a_key_refuses_none_and_a_wrong_one(api: Any) -> None:
    app, _ = api
    routes = guarded_routes(app)
    assert {path for _, path in routes} >= {"/v1/ingest", "/v1/runs", "/v1/orders"}
    wrong = [
        {},
        {"X-API-Key": "wrong"},
        {"X-API-Key": KEY[:-1] + chr(ord(KEY[-1]) + 1)},  # same length, last byte off
        {"X-API-Key": KEY + " extra"},
        {"Authorization": f"Basic {KEY}"},
        {"Authorization": "Bearer " + "x" * 4096},
    ]
    refused = 0
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1:8000") as http:
        for method, path in routes:
            for headers in wrong:
                if path.startswith("/mcp/") and "X-API-Key" in headers:
                    continue  # the mounts take the bearer form only
                response = await http.request(method, path, headers=headers)
                assert response.status_code == 401, (method, path, headers)
                refused += 1
    FIGURES["API keys"] = {"routes guarded": len(routes), "requests refused with 401": refused}


# ---- names that try to reach outside


def files_outside(root: Path, inside: Path) -> list[Path]:
    return [p for p in root.rglob("*") if p.is_file() and inside not in p.parents]


async def test_uploaded_file_names_cannot_reach_outside_and_are_kept_as_a_base_name(
    api: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    app, settings_ = api
    cwd = tmp_path / "cwd" / "deep" / "down"
    cwd.mkdir(parents=True)
    monkeypatch.chdir(cwd)
    before = set(files_outside(tmp_path, settings_.data_dir))
    image = SAMPLE.read_bytes()
    names = [
        *NAMES,
        "../../../../../../tmp/owned.png",
        "..\\..\\windows\\win.ini.png",
        "/etc/passwd",
        "....//....//etc/passwd.png",
        "%2e%2e%2fetc%2fpasswd.png",
        "a/../../b.png",
        "..",
        ".",
        "",
    ]
    seen: list[str] = []
    transport = httpx.ASGITransport(app=app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://127.0.0.1:8000", headers={"X-API-Key": KEY}
    ) as http:
        for name in names:
            response = await http.post(
                "/v1/ingest", files={"file": (name, image, "image/png")}, timeout=60
            )
            assert response.status_code == 200, (name, response.text)
            (result,) = response.json()["results"]
            assert "/" not in result["file"], result["file"]
            seen.append(result["file"])
    assert set(files_outside(tmp_path, settings_.data_dir)) == before
    assert not any(cwd.iterdir())
    assert not await asyncio.to_thread(Path("/tmp/owned.png").exists)
    FIGURES["upload names"] = {"tried": len(names), "kept as": sorted(set(seen))[:6]}


async def test_a_reference_that_names_a_path_is_refused_and_reaches_no_tool(
    tmp_path: Path,
) -> None:
    db = seed(tmp_path / "stockshot.db")
    secret = tmp_path / "secret.txt"
    secret.write_text("SKU-99999,do not read", encoding="utf-8")
    references = [
        f"@{secret}",
        "@../secret.txt",
        "@..\\secret.txt",
        "@..",
        "@.",
        "@/etc/passwd",
        "@secret.txt",
        "@screenshot.png/../../secret.txt",
    ]
    turns: list[JsonObject] = [
        {
            "content": "",
            "tool_calls": [
                {
                    "id": f"c{n}",
                    "type": "function",
                    "function": {
                        "name": "inventory_get_item",
                        "arguments": f'{{"sku": "{ref.replace(chr(92), chr(92) * 2)}"}}',
                    },
                }
            ],
        }
        for n, ref in enumerate(references)
    ]
    with sqlite_store(db) as store:
        record = await run_on(
            store,
            task=TASK,
            model=ScriptedModel(turns),
            groups=GROUPS,
            limits=HostLimits(max_hops=len(turns) + 1),
            call_guards={},
            response_guards={},
        )
        audit = domain.audit_log(store, limit=100)
    calls = [c for c in record.tool_calls if c.name == "inventory_get_item"]
    assert len(calls) == len(references)
    for call in calls:
        assert call.is_error
        assert "is not an attachment of this run" in call.result or "looks like a path" in (
            call.result
        ), call.result
        assert "do not read" not in call.result
    assert all(a.action == "store seed" for a in audit)


# ---- oversized uploads against a real server


@pytest.fixture(scope="module")
def small_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """`stockshot serve` on 127.0.0.1 taking at most 1 MiB per image."""
    with serving(
        tmp_path_factory.mktemp("small-server"), max_upload_bytes=str(2**20), mount_mcp="false"
    ) as server:
        yield server


def raw_request(url: str, head: list[str]) -> tuple[socket.socket, bytes]:
    parts = urlsplit(url)
    sock = socket.create_connection((parts.hostname, parts.port), timeout=30)
    request = "\r\n".join([*head, f"Host: {parts.netloc}", f"X-API-Key: {KEY}", "", ""])
    return sock, request.encode("ascii")


def read_status(sock: socket.socket) -> int:
    data = b""
    while b"\r\n" not in data:
        chunk = sock.recv(4096)
        if not chunk:
            break
        data += chunk
    return int(data.split(b" ", 2)[1])


BOUNDARY = "hardening-boundary"
PART_HEAD = (
    f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\n'
    "Content-Type: image/png\r\n\r\n"
).encode()


def test_an_upload_declaring_too_many_bytes_is_refused_before_its_body_is_sent(
    small_server: Served,
) -> None:
    sock, head = raw_request(
        small_server.url,
        [
            "POST /v1/ingest HTTP/1.1",
            f"Content-Type: multipart/form-data; boundary={BOUNDARY}",
            "Content-Length: 10000000000",
        ],
    )
    with sock:
        sock.sendall(head + PART_HEAD)
        status = read_status(sock)
    assert status == 413


def test_a_streamed_upload_over_the_limit_is_refused_while_it_streams(
    small_server: Served,
) -> None:
    limit = 2**20
    sock, head = raw_request(
        small_server.url,
        [
            "POST /v1/ingest HTTP/1.1",
            f"Content-Type: multipart/form-data; boundary={BOUNDARY}",
            "Transfer-Encoding: chunked",
        ],
    )
    chunk = b"\0" * 65536
    framed = f"{len(chunk):x}\r\n".encode() + chunk + b"\r\n"
    sent = 0
    with sock:
        sock.sendall(head + f"{len(PART_HEAD):x}\r\n".encode() + PART_HEAD + b"\r\n")
        # Keep streaming (up to 64 MiB) until the server answers or hangs up.
        while sent < 64 * limit:
            readable, _, _ = select.select([sock], [], [], 0)
            if readable:
                break
            try:
                sock.sendall(framed)
            except (BrokenPipeError, ConnectionResetError):
                break
            sent += len(chunk)
        status = read_status(sock)
    assert status == 413
    # What it took before the answer: the limit, a chunk, and what the sockets buffer.
    assert sent < limit + 16 * 2**20, sent
    FIGURES["oversized uploads (1 MiB limit)"] = {
        "declared 10 GB": "413 before the body",
        "streamed": f"413 after {sent / 2**20:.1f} MiB sent",
    }
