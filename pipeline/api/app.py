"""The HTTP API and the dashboard: `create_app(settings)` builds the FastAPI application.

Real I/O (the OCR engine and its cache, the SQLite store, the worker pool) is built in the
lifespan unless passed in; whatever was passed in stays the caller's to close. Runs reach the
tools over MCP in memory: the three servers are built once on the shared store and each run
connects to them as `MemoryTarget`s. The same servers are mounted for other MCP clients at
`/mcp/<group>/mcp`, behind a bearer token.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
from collections.abc import AsyncIterator, Callable
from concurrent.futures import ThreadPoolExecutor
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, FastAPI, Query, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response, StreamingResponse
from fastapi.security import APIKeyHeader, HTTPAuthorizationCredentials, HTTPBearer
from fastapi.staticfiles import StaticFiles
from mcp.server.mcpserver import MCPServer
from pydantic import ValidationError
from starlette.exceptions import HTTPException
from starlette.middleware.cors import CORSMiddleware

from pipeline import __version__
from pipeline.api.auth import (
    LOOPBACK,
    BearerGuard,
    HostGuard,
    key_matches,
    mcp_transport_security,
)
from pipeline.api.errors import install_error_handlers
from pipeline.api.runs import RunBook, RunState
from pipeline.api.schemas import (
    RUN_EXAMPLE,
    ContractOut,
    ErrorBody,
    Health,
    IngestResponse,
    OrderOut,
    OrdersResponse,
    Readiness,
    RunRequest,
    RunStarted,
)
from pipeline.api.service import (
    IngestService,
    check_guard_switches,
    check_model,
    parse_captured_at,
    parse_strategy,
)
from pipeline.api.uploads import Upload, read_form, read_limited
from pipeline.bootstrap import build_ingestor, enabled_guards, run_agent, utc_now
from pipeline.contract import HELP, parse_task
from pipeline.errors import InputError
from pipeline.host.groups import choose_groups
from pipeline.host.record import RunRecord
from pipeline.host.toolbox import MemoryTarget
from pipeline.ingest import Ingestor
from pipeline.models import IngestResult
from pipeline.settings import Settings
from servers import domain
from servers.errors import StoreError
from servers.factory import GROUPS, build_server
from servers.models import OrderQuery
from servers.settings import DEFAULT_MAX_ORDER_QUANTITY
from servers.sqlite_store import SqliteStore
from servers.store import Store, StoreReader, StoreWriter

__all__ = ["create_app"]

log = logging.getLogger(__name__)

STATIC = Path(__file__).resolve().parent / "static"
MAX_JSON_BYTES = 256 * 1024
MISDIRECTED: dict[int | str, dict[str, Any]] = {
    421: {
        "model": ErrorBody,
        "description": "a Host this server does not answer to (DNS-rebinding protection); "
        "STOCKSHOT_ALLOWED_HOSTS adds a proxy's name",
    }
}
ERRORS: dict[int | str, dict[str, Any]] = {
    status: {"model": ErrorBody, "description": what}
    for status, what in (
        (401, "no API key, or not one of ours"),
        (413, "too many bytes or pixels"),
        (415, "not an image type stockshot reads, or not multipart/form-data"),
        (422, "a field that cannot be used; the message says which and why"),
    )
}


class _StoreSlot:
    """A `Store` whose real store is opened in the lifespan; the servers are built on it."""

    def __init__(self) -> None:
        self.store: Store | None = None

    def _open(self) -> Store:
        if self.store is None:
            raise StoreError("the store is not open (the server is starting or stopping)")
        return self.store

    def reading(self) -> AbstractContextManager[StoreReader]:
        return self._open().reading()

    def writing(self) -> AbstractContextManager[StoreWriter]:
        return self._open().writing()

    def close(self) -> None:
        """The lifespan closes the real store; the slot itself owns nothing."""


@dataclass
class _Services:
    settings: Settings
    slot: _StoreSlot
    servers: dict[str, MCPServer]
    runs: RunBook
    ingest: IngestService | None = None
    extra: dict[str, Any] = field(default_factory=dict)

    @property
    def targets(self) -> list[MemoryTarget]:
        return [MemoryTarget(group, server) for group, server in self.servers.items()]

    def ingest_service(self) -> IngestService:
        if self.ingest is None:
            raise HTTPException(503, "the OCR engine is still loading; try again shortly")
        return self.ingest


def _services(request: Request) -> _Services:
    services: _Services = request.app.state.services
    return services


Services = Annotated[_Services, Depends(_services)]

_key_header = APIKeyHeader(name="X-API-Key", auto_error=False, description="an API key")
_bearer = HTTPBearer(auto_error=False, description="an API key as a bearer token")


def _require_key(
    services: Services,
    key: Annotated[str | None, Depends(_key_header)],
    bearer: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    keys = services.settings.api_keys
    if not keys:
        return
    presented = key or (bearer.credentials if bearer is not None else None)
    if not key_matches(presented, keys):
        raise HTTPException(
            401,
            "send an API key as X-API-Key: KEY or Authorization: Bearer KEY",
            headers={"WWW-Authenticate": 'Bearer realm="stockshot"'},
        )


def _item(result: IngestResult) -> dict[str, Any]:
    data = result.model_dump(mode="json")
    if data.get("image") is None:
        data.pop("image", None)
    return {"id": result.sha256, **data}


async def _ingest_uploads(
    services: _Services,
    uploads: list[Upload],
    *,
    captured_at: str | None,
    strategy: str | None,
) -> list[IngestResult]:
    caller_time = parse_captured_at(captured_at)
    chosen = parse_strategy(strategy)
    service = services.ingest_service()
    jobs = [
        service.ingest(
            upload.data,
            name=Path(upload.filename).name or "upload",
            caller_time=caller_time,
            strategy=chosen,
            content_type=upload.content_type,
        )
        for upload in uploads
    ]
    return list(await asyncio.gather(*jobs))


def _truthy(text: str | None) -> bool:
    return (text or "").strip().lower() in ("1", "true", "on", "yes")


def _listed(values: list[str]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


@dataclass
class _RunAsk:
    """A run request as sent: the run, and the screenshots that came with it (not read yet)."""

    run: RunRequest
    files: list[Upload] = field(default_factory=list)
    captured_at: str | None = None
    strategy: str | None = None


async def _run_request(request: Request, settings: Settings) -> _RunAsk:
    """The run asked for, as JSON or as multipart with images."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    try:
        if kind == "application/json":
            body = await read_limited(request, MAX_JSON_BYTES, "the JSON body")
            try:
                payload = json.loads(body)
            except ValueError:
                raise InputError("the body is not valid JSON") from None
            return _RunAsk(RunRequest.model_validate(payload))
        if kind == "multipart/form-data":
            form = await read_form(
                request,
                max_file_bytes=settings.max_upload_bytes,
                max_files=settings.max_files_per_request,
            )
            guards = form.one("guards")
            try:
                switches = json.loads(guards) if guards else {}
            except ValueError:
                raise InputError('guards: not valid JSON; send it like {"stall": false}') from None
            run = RunRequest.model_validate(
                {
                    "task": form.one("task") or "",
                    "ingest_ids": _listed(form.fields.get("ingest_ids", [])),
                    "model": form.one("model"),
                    "dry_run": _truthy(form.one("dry_run")),
                    "guards": switches,
                }
            )
            return _RunAsk(run, form.files, form.one("captured_at"), form.one("strategy"))
    except ValidationError as exc:
        raise RequestValidationError(exc.errors()) from None
    raise HTTPException(415, "send application/json, or multipart/form-data with images in 'file'")


def _order(order: Any) -> OrderOut:
    return OrderOut.model_validate(order.model_dump(mode="json"))


def _readiness(services: _Services) -> tuple[bool, dict[str, Any]]:
    checks: dict[str, Any] = {}
    ready = True
    try:
        with services.slot.reading() as tx:
            warehouses = len(tx.warehouses())
        checks["store"] = {"ok": True, "warehouses": warehouses}
    except StoreError as exc:
        checks["store"] = {"ok": False, "message": str(exc)}
        ready = False
    if services.ingest is None:
        checks["ocr"] = {"ok": False, "message": "the OCR engine is not loaded"}
        ready = False
    else:
        checks["ocr"] = {"ok": True, "engine": services.ingest.ingestor.engine.name}
    checks["mcp"] = {"ok": True, "groups": list(services.servers)}
    return ready, checks


def _routes() -> APIRouter:
    router = APIRouter()
    v1 = APIRouter(prefix="/v1", dependencies=[Depends(_require_key)], responses=ERRORS)

    @router.get("/healthz", tags=["health"], response_model=Health)
    async def healthz() -> Health:
        """The process answers."""
        return Health(version=__version__)

    @router.get(
        "/readyz",
        tags=["health"],
        response_model=Readiness,
        responses={503: {"model": Readiness, "description": "not ready yet"}},
    )
    async def readyz(services: Services) -> JSONResponse:
        """The store answers and the OCR engine is loaded."""
        ready, checks = await asyncio.to_thread(_readiness, services)
        body = Readiness(ready=ready, checks=checks).model_dump()
        return JSONResponse(body, status_code=200 if ready else 503)

    @v1.post(
        "/ingest",
        tags=["ingest"],
        summary="Read inventory screenshots",
        responses={200: {"model": IngestResponse}},
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "multipart/form-data": {
                        "schema": {
                            "type": "object",
                            "required": ["file"],
                            "properties": {
                                "file": {
                                    "type": "array",
                                    "items": {"type": "string", "format": "binary"},
                                    "description": "one or more images (PNG, JPEG, WebP, "
                                    "BMP, TIFF, GIF)",
                                },
                                "captured_at": {
                                    "type": "string",
                                    "format": "date-time",
                                    "description": "when the screen was captured, if known",
                                    "example": "2026-11-30T08:12:00+08:00",
                                },
                                "strategy": {
                                    "type": "string",
                                    "enum": ["auto", "table_ocr", "full_page", "ui_crop"],
                                },
                            },
                        }
                    }
                },
            }
        },
    )
    async def ingest(request: Request, services: Services) -> JSONResponse:
        """Normalise, crop and OCR each image; return its table and rows with its `id`.

        The same bytes are analysed once: later uploads are cache hits (`cache` says which).
        """
        settings = services.settings
        form = await read_form(
            request,
            max_file_bytes=settings.max_upload_bytes,
            max_files=settings.max_files_per_request,
        )
        if not form.files:
            raise InputError("no image: send one or more images in the multipart field 'file'")
        results = await _ingest_uploads(
            services,
            form.files,
            captured_at=form.one("captured_at"),
            strategy=form.one("strategy"),
        )
        return JSONResponse({"results": [_item(r) for r in results]})

    @v1.get("/contract", tags=["runs"], summary="How a task is read", response_model=ContractOut)
    async def task_contract(
        task: Annotated[str, Query(min_length=1, max_length=4000, description="the task")],
    ) -> ContractOut:
        """The contract the host would hold a run of this task to, before anything runs: the
        action, whether writes are allowed, the scope, quantities, and what it did not
        understand."""
        contract = parse_task(task)
        return ContractOut(
            task=task,
            task_contract=contract,
            summary=contract.summary(),
            groups=list(choose_groups(contract)),
            help=HELP,
        )

    @v1.post(
        "/runs",
        tags=["runs"],
        summary="Start a run",
        status_code=202,
        response_model=RunStarted,
        openapi_extra={
            "requestBody": {
                "required": True,
                "content": {
                    "application/json": {
                        "schema": RunRequest.model_json_schema(),
                        "example": RUN_EXAMPLE,
                    },
                    "multipart/form-data": {
                        "schema": {
                            "type": "object",
                            "required": ["task"],
                            "properties": {
                                "task": {"type": "string"},
                                "file": {
                                    "type": "array",
                                    "items": {"type": "string", "format": "binary"},
                                },
                                "ingest_ids": {"type": "string", "description": "comma-separated"},
                                "model": {"type": "string", "example": "rules"},
                                "dry_run": {"type": "boolean"},
                                "captured_at": {"type": "string", "format": "date-time"},
                                "strategy": {"type": "string"},
                            },
                        }
                    },
                },
            }
        },
    )
    async def start_run(request: Request, services: Services) -> JSONResponse:
        """Start the agent on a task over screenshots; it goes on in the background.

        Follow it with `GET /v1/runs/{id}/events` (server-sent events) or poll `GET
        /v1/runs/{id}`.
        """
        settings = services.settings
        ask = await _run_request(request, settings)
        run = ask.run
        model = check_model(run.model or settings.model, settings)
        check_guard_switches(run.guards, settings)
        enabled_guards(settings, run.guards)
        contract = parse_task(run.task)
        earlier = services.ingest_service().recent(run.ingest_ids)
        uploaded = await _ingest_uploads(
            services, ask.files, captured_at=ask.captured_at, strategy=ask.strategy
        )
        results = [*earlier, *uploaded]
        starter = services.extra.get("run_agent", run_agent)
        targets = services.targets

        async def start(sink: Callable[[dict[str, Any]], None]) -> RunRecord:
            record: RunRecord = await starter(
                settings,
                task=run.task,
                results=results,
                model_spec=model,
                dry_run=run.dry_run,
                guard_overrides=run.guards,
                targets=targets,
                on_event=sink,
            )
            return record

        state = RunState(task=run.task, model=model, dry_run=run.dry_run, started_at=utc_now())
        await services.runs.start(state, start)
        status = state.record.status if state.record is not None else "running"
        return JSONResponse(
            RunStarted(id=state.id or "", status=status, task_contract=contract).model_dump(
                mode="json"
            ),
            status_code=202,
            headers={"Location": f"/v1/runs/{state.id}"},
        )

    @v1.get(
        "/runs/{run_id}",
        tags=["runs"],
        response_model=RunRecord,
        responses={404: {"model": ErrorBody}},
    )
    async def get_run(run_id: str, services: Services) -> RunRecord:
        """The run record: the finished one, or what happened so far while it runs."""
        state = services.runs.get(run_id)
        if state is not None:
            return state.view()
        record = await asyncio.to_thread(services.runs.logged, run_id)
        if record is None:
            raise HTTPException(404, f"no run with id {run_id!r}")
        return record

    @v1.get(
        "/runs/{run_id}/events",
        tags=["runs"],
        response_class=StreamingResponse,
        responses={
            200: {
                "content": {
                    "text/event-stream": {
                        "example": 'id: 0\nevent: run_started\ndata: {"run_id":"run-3f1a9c0b2d4e",'
                        '"type":"run_started","groups":["inventory","orders","warehouses"]}\n\n'
                    }
                },
                "description": "the events so far, then live ones until run_finished",
            },
            404: {"model": ErrorBody},
        },
    )
    async def run_events(run_id: str, request: Request, services: Services) -> Response:
        """Server-sent events: what already happened, then live events until `run_finished`.

        Each event's `id` is its number; send `Last-Event-ID` to resume after it.
        """
        try:
            after = int(request.headers.get("last-event-id", "-1"))
        except ValueError:
            after = -1
        state = services.runs.get(run_id)
        if state is None:
            record = await asyncio.to_thread(services.runs.logged, run_id)
            if record is None:
                raise HTTPException(404, f"no run with id {run_id!r}")
            state = RunState(
                task=record.task,
                model=record.model,
                dry_run=record.dry_run,
                started_at=record.started_at,
            )
            state.id = record.id
            state.record = record
            state.add(
                {
                    "run_id": record.id,
                    "type": "run_finished",
                    "status": record.status,
                    "final": record.final,
                }
            )
        return StreamingResponse(
            state.follow(after=after),
            media_type="text/event-stream",
            headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
        )

    @v1.get("/orders", tags=["orders"], response_model=OrdersResponse)
    async def orders(
        services: Services,
        status: Literal["open", "cancelled"] | None = None,
        sku: str | None = None,
        warehouse_id: str | None = None,
        run_id: str | None = None,
        limit: Annotated[int, Query(ge=1, le=1000)] = 100,
    ) -> OrdersResponse:
        """Replenishment orders, newest first."""
        query = OrderQuery(
            status=status, sku=sku, warehouse_id=warehouse_id, run_id=run_id, limit=limit
        )
        found = await asyncio.to_thread(domain.list_orders, services.slot, query)
        return OrdersResponse(orders=[_order(o) for o in found.orders])

    @router.get("/", include_in_schema=False)
    async def dashboard() -> FileResponse:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    router.include_router(v1)
    return router


def create_app(
    settings: Settings,
    *,
    ingestor: Ingestor | None = None,
    store: Store | None = None,
    max_order_quantity: int = DEFAULT_MAX_ORDER_QUANTITY,
    run: Callable[..., Any] | None = None,
) -> FastAPI:
    """The API. Whatever is passed in (ingestor, store) is used as is and not closed here;
    what is not is built from `settings` when the app starts and closed when it stops.
    `run` replaces `pipeline.bootstrap.run_agent` (same keyword arguments)."""
    slot = _StoreSlot()
    servers = {g: build_server(g, slot, max_order_quantity=max_order_quantity) for g in GROUPS}
    services = _Services(
        settings=settings,
        slot=slot,
        servers=servers,
        runs=RunBook(settings.resolved_run_log()),
    )
    if run is not None:
        services.extra["run_agent"] = run

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            if store is None:
                opened = await asyncio.to_thread(SqliteStore, settings.resolved_db())
                stack.callback(opened.close)
                slot.store = opened
            else:
                slot.store = store
            stack.callback(setattr, slot, "store", None)
            workers = settings.api_workers or os.cpu_count() or 1
            pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="stockshot-ocr")
            stack.callback(pool.shutdown, wait=True, cancel_futures=True)
            ready = ingestor
            if ready is None:
                ready = await asyncio.to_thread(build_ingestor, settings)
                if ready.cache is not None:
                    stack.callback(ready.cache.close)
            services.ingest = IngestService(ready, pool)
            stack.callback(setattr, services, "ingest", None)
            if settings.mount_mcp:
                for server in servers.values():
                    await stack.enter_async_context(server.session_manager.run())
            stack.push_async_callback(services.runs.close)
            yield

    app = FastAPI(
        title="stockshot",
        version=__version__,
        summary="Inventory screenshots in, verified and audited tool actions out.",
        description=(
            "Upload screenshots to read their tables, start agent runs that raise "
            "replenishment orders through the MCP tool servers, follow them live, and list "
            "the orders. When `STOCKSHOT_API_KEYS` is set, every `/v1` route needs a key "
            "(`X-API-Key` or `Authorization: Bearer`)."
        ),
        lifespan=lifespan,
        responses=MISDIRECTED,
    )
    app.state.services = services
    install_error_handlers(app)
    app.include_router(_routes())
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    guarded = settings.host in LOOPBACK or bool(settings.allowed_hosts)
    allowed = [*LOOPBACK, *settings.allowed_hosts]
    if settings.mount_mcp:
        # The mounts check Host and Origin against the same names as the HostGuard below.
        security = mcp_transport_security(allowed) if guarded else None
        tokens = [*settings.api_keys, *([settings.mcp_token] if settings.mcp_token else [])]
        for group, server in servers.items():
            mcp_app = server.streamable_http_app(host=settings.host, transport_security=security)
            app.mount(f"/mcp/{group}", BearerGuard(mcp_app, tokens) if tokens else mcp_app)
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "POST"],
            allow_headers=["X-API-Key", "Authorization", "Content-Type", "Last-Event-ID"],
            max_age=600,
        )
    if guarded:
        # Outermost: a page rebound to 127.0.0.1 still sends its own name as Host.
        app.add_middleware(HostGuard, allowed=allowed)
    return app
