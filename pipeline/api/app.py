"""The HTTP API and the dashboard: `create_app(settings)` builds the FastAPI application.

Real I/O (the OCR engine and its cache, the SQLite store, the worker pool) is built in the
lifespan unless passed in, and kept open across requests: the engine's models are loaded
before the app is ready; whatever was passed in stays the caller's to close. Runs reach the
tools over MCP in memory: the three servers are built once on the shared store and each run
connects to them as `MemoryTarget`s. The same servers are mounted for other MCP clients at
`/mcp/<group>/mcp`, behind a bearer token.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
from collections.abc import AsyncIterator, Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from datetime import timedelta

from fastapi import FastAPI
from fastapi.staticfiles import StaticFiles
from starlette.middleware.cors import CORSMiddleware

from pipeline import __version__
from pipeline.api.auth import (
    LOOPBACK,
    BearerGuard,
    HostGuard,
    mcp_transport_security,
    parse_keys,
)
from pipeline.api.deps import AppServices, StoreSlot
from pipeline.api.errors import install_error_handlers
from pipeline.api.openapi import MISDIRECTED
from pipeline.api.routes import api_router
from pipeline.api.routes.dashboard import STATIC
from pipeline.bootstrap import approval_policy, build_ingestor, open_store, run_agent, utc_now
from pipeline.errors import ConfigError
from pipeline.host import RunRecord
from pipeline.ingest import Ingestor
from pipeline.jobs.execute import runner
from pipeline.jobs.ingesting import IngestService
from pipeline.jobs.local import LocalJobs
from pipeline.jobs.runbook import RunBook
from pipeline.retention import RunScreens, either, logged_screens, tidying
from pipeline.settings import Settings
from pipeline.webhooks import delivering
from servers.factory import GROUPS, build_server
from servers.settings import DEFAULT_MAX_ORDER_QUANTITY
from servers.toolkit import Caller
from store.protocol import Store
from store.stores import store_scheme

__all__ = ["create_app"]

log = logging.getLogger(__name__)


def create_app(
    settings: Settings,
    *,
    ingestor: Ingestor | None = None,
    store: Store | None = None,
    max_order_quantity: int = DEFAULT_MAX_ORDER_QUANTITY,
    run: Callable[..., Awaitable[RunRecord]] | None = None,
) -> FastAPI:
    """The API. Whatever is passed in (ingestor, store) is used as is and not closed here;
    what is not is built from `settings` when the app starts and closed when it stops.
    `run` replaces `pipeline.bootstrap.run_agent` (same keyword arguments)."""
    try:
        parse_keys(settings.api_keys)
    except ValueError as exc:
        raise ConfigError(f"STOCKSHOT_API_KEYS: {exc}") from None
    slot = StoreSlot()
    servers = {
        g: build_server(
            g,
            slot,
            max_order_quantity=max_order_quantity,
            approval=approval_policy("serve", settings),
            approval_ttl=timedelta(seconds=settings.approval_ttl_s),
        )
        for g in GROUPS
    }
    services = AppServices(
        settings=settings,
        slot=slot,
        servers=servers,
        runs=RunBook(settings.resolved_run_log()),
    )

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        async with contextlib.AsyncExitStack() as stack:
            if store is None:
                opened = await asyncio.to_thread(open_store, settings)
                stack.callback(opened.close)
                slot.store = opened
            else:
                slot.store = store
            stack.callback(setattr, slot, "store", None)
            if store_scheme(settings.store_url()) == "postgresql":
                await _queued_jobs(stack, services, ingestor)
            else:
                workers = settings.api_workers or os.cpu_count() or 1
                pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="stockshot-ocr")
                stack.callback(pool.shutdown, wait=True, cancel_futures=True)
                ready = ingestor
                if ready is None:
                    ready = await asyncio.to_thread(build_ingestor, settings)
                    if ready.cache is not None:
                        stack.callback(ready.cache.close)
                if ready.profiles is None:
                    ready.profiles = services.profiles
                if ready.shelf is None:
                    ready.shelf = services.shelf
                # The engine's models are loaded before the app says it is ready, so the first
                # upload costs what every later one does.
                await asyncio.to_thread(ready.warm)
                execute = runner(
                    settings,
                    store=slot,
                    # The servers follow the surface's policy, and so does every run here.
                    targets=lambda manual: services.targets,
                    run=run if run is not None else run_agent,
                )
                services.jobs = LocalJobs(IngestService(ready, pool), services.runs, execute)
            stack.callback(setattr, services, "jobs", None)
            if settings.mount_mcp:
                for server in servers.values():
                    await stack.enter_async_context(server.session_manager.run())
            stack.push_async_callback(services.runs.close)
            await stack.enter_async_context(
                tidying(settings, slot, _run_screens(services), clock=utc_now)
            )
            if settings.webhook_urls:
                await stack.enter_async_context(delivering(settings, slot))
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
    app.include_router(api_router())
    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    guarded = settings.host in LOOPBACK or bool(settings.allowed_hosts)
    allowed = [*LOOPBACK, *settings.allowed_hosts]
    if settings.mount_mcp:
        # The mounts check Host and Origin against the same names as the HostGuard below.
        security = mcp_transport_security(allowed) if guarded else None
        # An agent on a mount may read and propose writes (they wait for approval under
        # manual approval): an operator's key, or the MCP token. Where approvers may write
        # directly (STOCKSHOT_APPROVER_DIRECT_WRITES), an approver's key writes at once,
        # audited under its name.
        direct = settings.approver_direct_writes
        keys = parse_keys(settings.api_keys)
        tokens = [
            *(
                k.secret
                for k in keys
                if "operator" in k.roles or (direct and "approver" in k.roles)
            ),
            *([settings.mcp_token] if settings.mcp_token else []),
        ]
        lacking = [k.secret for k in keys if k.secret not in tokens]
        callers = [
            (k.secret, Caller(f"api:{k.name}", writes_directly=direct and "approver" in k.roles))
            for k in keys
            if k.secret in tokens
        ]
        for group, server in servers.items():
            mcp_app = server.streamable_http_app(host=settings.host, transport_security=security)
            guarded_app = BearerGuard(
                mcp_app,
                tokens,
                lacking=lacking,
                role="operator",
                callers=callers,
            )
            app.mount(f"/mcp/{group}", guarded_app if tokens or settings.api_keys else mcp_app)
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


def _run_screens(services: AppServices) -> RunScreens:
    """Where the screenshots of a pending proposal's run are read: this process's runs, the
    run log, and with PostgreSQL the runs the workers executed."""
    settings = services.settings
    lookups = [services.runs.screens, logged_screens(settings.resolved_run_log())]
    url = settings.store_url()
    if store_scheme(url) == "postgresql":
        from pipeline.jobs.shared import stored_screens

        lookups.append(stored_screens(url))
    return either(*lookups)


async def _queued_jobs(
    stack: contextlib.AsyncExitStack, services: AppServices, ingestor: Ingestor | None
) -> None:
    """With a PostgreSQL store: jobs go to the queue the workers take them from."""
    from pipeline.jobs.queue import QueueJobs
    from pipeline.jobs.shared import Listener, PostgresLevel, Shared, sharing_cache
    from pipeline.jobs.tasks import queue_app

    settings = services.settings
    url = settings.store_url()
    shared = await asyncio.to_thread(Shared, url)
    stack.callback(shared.close)
    if ingestor is None:
        ready = await asyncio.to_thread(build_ingestor, settings, cache_level=PostgresLevel(shared))
    else:  # its loaded engine, caching where every process of the deployment looks
        ready = sharing_cache(ingestor, shared, memory_items=settings.memory_cache_items)
    if ready.shelf is None:
        ready.shelf = services.shelf
    queue = queue_app(url)
    await stack.enter_async_context(queue.open_async())
    listener = Listener(url)
    await listener.start()
    stack.push_async_callback(listener.close)
    services.jobs = QueueJobs(ready, shared, queue, listener, wait_s=settings.job_wait_s)
