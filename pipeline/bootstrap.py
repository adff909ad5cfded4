"""Build the real I/O objects from settings; shared by the CLI, the API and the watch folder."""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from contextlib import ExitStack
from datetime import UTC, datetime, timedelta, tzinfo
from typing import TYPE_CHECKING, Literal
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pipeline.errors import (
    ConfigError,
    EngineNotInstalledError,
    ToolServerError,
    UnknownNameError,
)
from pipeline.ingest import CacheLevel, IngestCache, IngestConfig, Ingestor, ProfileLookup
from pipeline.ocr import EngineOptions, make_engine
from pipeline.settings import Settings
from pipeline.shelf import ScreenShelf

if TYPE_CHECKING:
    # Imports follow the work: a command that only ingests (a cache hit above all) loads no
    # host, no MCP SDK, no model client and no store; the functions that build those import
    # them when called.
    from pipeline.approval_desk import ApprovalDesk, StoreProposals
    from pipeline.contract import Question
    from pipeline.host import (
        CallGuard,
        HostLimits,
        MergeMode,
        ProposalQueue,
        ResponseGuard,
        RunRecord,
        Target,
    )
    from pipeline.models import EventSink, IngestResult
    from pipeline.ocr.structure import TableStructureModel
    from store.protocol import OpenStore, Store

__all__ = [
    "SURFACE_APPROVAL",
    "approval_desk",
    "approval_policy",
    "build_ingestor",
    "enabled_guards",
    "host_limits",
    "local_zone",
    "open_store",
    "proposal_queue",
    "run_agent",
    "screen_shelf",
    "server_targets",
    "utc_now",
]

log = logging.getLogger(__name__)


def utc_now() -> datetime:
    return datetime.now(UTC)


def local_zone(settings: Settings) -> tzinfo:
    if settings.timezone:
        try:
            return ZoneInfo(settings.timezone)
        except (ZoneInfoNotFoundError, ValueError) as exc:
            raise ConfigError(
                f"STOCKSHOT_TIMEZONE={settings.timezone!r} is not a known time zone "
                "(use an IANA name such as Asia/Shanghai or UTC)"
            ) from exc
    zone = datetime.now().astimezone().tzinfo
    return zone if zone is not None else UTC


def build_ingestor(
    settings: Settings,
    *,
    engine: str | None = None,
    use_cache: bool = True,
    cache_level: CacheLevel | None = None,
    profiles: ProfileLookup | None = None,
) -> Ingestor:
    """The ingestor of the settings; its cache is the in-process LRU in front of the ingest
    cache directory, or of `cache_level` (the shared table of a PostgreSQL deployment);
    `profiles` are the column mappings saved in the store. Every screenshot it reads is kept
    in the settings' screens folder (`screen_shelf`)."""
    ocr = make_engine(
        engine or settings.ocr_engine,
        EngineOptions(threads=settings.ocr_threads, model_dir=settings.resolved_model_dir()),
    )
    cache = (
        IngestCache(
            None if cache_level is not None else settings.resolved_cache_dir(),
            memory_items=settings.memory_cache_items,
            level=cache_level,
        )
        if use_cache
        else None
    )
    config = IngestConfig(
        max_bytes=settings.max_upload_bytes,
        max_pixels=settings.max_image_pixels,
        tz=local_zone(settings),
        strategy=settings.strategy,
    )
    return Ingestor(
        ocr,
        config=config,
        cache=cache,
        clock=utc_now,
        structure=structure_model(settings),
        profiles=profiles,
        shelf=screen_shelf(settings),
    )


def screen_shelf(settings: Settings) -> ScreenShelf:
    """Where the screenshots read are kept (`STOCKSHOT_SCREENS_DIR`, else data_dir/screens)."""
    return ScreenShelf(settings.resolved_screens_dir())


def structure_model(settings: Settings) -> TableStructureModel | None:
    """The table-structure model of the ladder's `structure` rung, or None (logged) when it is
    not installed: ingest then skips that rung."""
    from pipeline.ocr.structure import make_structure_model

    try:
        return make_structure_model(
            "rapid_table",
            EngineOptions(threads=settings.ocr_threads, model_dir=settings.resolved_model_dir()),
        )
    except EngineNotInstalledError as exc:
        log.warning("the structure rung is off: %s", exc)
        return None


Approval = Literal["manual", "auto"]
Surface = Literal["run", "serve", "watch", "demo"]

SURFACE_APPROVAL: dict[Surface, Approval] = {
    "run": "manual",
    "serve": "manual",
    "watch": "manual",
    "demo": "manual",
}
"""Who approves writes when nothing says otherwise: always a person. `run` asks the user who
typed the command at the terminal (in a pipe it leaves the proposals and says how to approve
them; `--yes` writes at once); behind the API, the dashboard and the watch folder, a person in
the approvals inbox."""


def approval_policy(surface: Surface, settings: Settings, flag: Approval | None = None) -> Approval:
    """The one place the approval policy is decided: a command-line flag, else
    `STOCKSHOT_APPROVAL`, else the surface's default."""
    return flag or settings.approval or SURFACE_APPROVAL[surface]


def open_store(settings: Settings) -> OpenStore:
    """The store the settings name: `STOCKSHOT_DATABASE_URL`, else the SQLite file
    `STOCKSHOT_DB` (see `store.stores`)."""
    from store.stores import open_store as open_url

    return open_url(settings.store_url())


def _servers_store(settings: Settings) -> OpenStore:
    """The store in-process tool servers work on; one that cannot be opened fails the run as a
    server that cannot start would."""
    from servers.errors import ServersError
    from store.errors import StoreError

    try:
        return open_store(settings)
    except (ServersError, StoreError) as exc:
        raise ToolServerError(f"the tool servers cannot open the store: {exc}") from exc


def proposal_queue(
    settings: Settings, store: Store, *, requested_by: str | None = None
) -> StoreProposals:
    """Where a run's writes wait for approval, named after who started it."""
    from pipeline.approval_desk import StoreProposals

    ttl = timedelta(seconds=settings.approval_ttl_s)
    return StoreProposals(store, ttl=ttl, clock=utc_now, requested_by=requested_by)


def server_targets(
    settings: Settings,
    groups: Sequence[str],
    *,
    approval: Approval = "manual",
    store: Store | None = None,
) -> list[Target]:
    """HTTP targets when `STOCKSHOT_MCP_URL` is set (that server's own approval rule holds);
    else, with `STOCKSHOT_SERVERS=stdio`, one stdio subprocess per group (their stderr goes to
    `servers.log` in the data folder); else the same servers in this process on `store`, over
    the MCP SDK's in-memory transport. Either way they are started with `approval`: `auto`
    only for a run whose writes a person allowed at start."""
    if settings.mcp_url:
        from pipeline.host import HttpTarget

        base = settings.mcp_url.rstrip("/")
        return [HttpTarget(g, f"{base}/{g}/mcp", settings.mcp_token) for g in groups]
    if settings.servers == "stdio":
        from pipeline.host import stdio_targets

        env = {
            **os.environ,
            "STOCKSHOT_DATABASE_URL": settings.store_url(),
            "STOCKSHOT_APPROVAL": approval,
            "STOCKSHOT_APPROVAL_TTL_S": str(settings.approval_ttl_s),
        }
        return [*stdio_targets(groups, env, errlog=settings.data_dir / "servers.log")]
    if store is None:
        raise ConfigError("in-process tool servers need the store open")  # a caller's slip
    from pipeline.host import MemoryTarget
    from servers.factory import build_server

    return [
        MemoryTarget(
            g,
            build_server(
                g,
                store,
                max_order_quantity=settings.max_order_quantity,
                approval=approval,
                approval_ttl=timedelta(seconds=settings.approval_ttl_s),
            ),
        )
        for g in groups
    ]


def servers_in_process(settings: Settings) -> bool:
    """Whether `server_targets` builds the servers here (and so needs the store open)."""
    return not settings.mcp_url and settings.servers == "memory"


def approval_desk(settings: Settings, store: Store) -> ApprovalDesk:
    """Approvals decided at a terminal: each approved call runs through an orders server from
    `server_targets`, under the settings' separation of duties."""
    from pipeline.approval_desk import ApprovalDesk

    return ApprovalDesk(
        store,
        server_targets(settings, ["orders"], store=store),
        clock=utc_now,
        separate=settings.approval_separate,
    )


def host_limits(settings: Settings) -> HostLimits:
    """A run's limits as the settings set them."""
    from pipeline.host import HostLimits

    return HostLimits(
        max_hops=settings.max_hops,
        max_hops_ceiling=settings.max_hops_ceiling,
        max_tokens=settings.max_tokens,
        wall_clock_s=settings.wall_clock_s,
        freshness_limit_s=settings.freshness_limit_s,
    )


def enabled_guards(
    settings: Settings, overrides: Mapping[str, bool] | None = None
) -> tuple[dict[str, ResponseGuard], dict[str, CallGuard]]:
    from pipeline.host import switched_on

    switches = settings.guards.model_dump()
    for name, on in (overrides or {}).items():
        if name not in switches:
            raise UnknownNameError("guard", name, switches)
        switches[name] = on
    return switched_on(switches)


async def run_agent(
    settings: Settings,
    *,
    task: str,
    results: Sequence[IngestResult],
    model_spec: str | None = None,
    base_url: str | None = None,
    dry_run: bool = False,
    guard_overrides: Mapping[str, bool] | None = None,
    targets: Sequence[Target] | None = None,
    on_event: EventSink | None = None,
    log_run: bool = True,
    proposals: ProposalQueue | None = None,
    merge: MergeMode = "auto",
    run_id: str | None = None,
    requested_by: str | None = None,
    confirmed: Question | None = None,
    confirms: str | None = None,
) -> RunRecord:
    """Ingested screenshots + a task -> a finished, logged run over real tool servers. With
    `proposals`, writes are queued there for approval instead of running. `run_id` names the
    run (a queued run's id is given when it is queued); otherwise a new one is made.
    `requested_by` (who started it) is what its calls act for: proposals and audit name it.
    `confirmed`: the question of run `confirms` a person said yes to; this run acts on
    exactly its reading."""
    import httpx

    from pipeline.contract import parse_task
    from pipeline.host import (
        ALL_GROUPS,
        Run,
        RunRecord,
        Toolbox,
        append_run_log,
        choose_groups,
        from_ingest,
        new_run_id,
        run_task,
    )
    from pipeline.ingest import ask_each
    from pipeline.models import Usage
    from pipeline.vlm import ModelOptions, make_model, sees_images
    from pipeline.vlm.base import SchemaAnswerer

    response_guards, call_guards = enabled_guards(settings, guard_overrides)
    limits = host_limits(settings)
    async with httpx.AsyncClient() as http:
        spec = model_spec or settings.model
        options = ModelOptions.from_settings(settings, http, base_url=base_url)
        model = make_model(spec, options)
        column_notes: list[str] = []
        column_usage = Usage()
        if settings.vlm_read_columns and isinstance(model, SchemaAnswerer):
            # A screenshot whose typed column mapping is unsure: the model maps what is unsure
            # before the run reads the table (pipeline.ingest.model_mapping).
            results, column_notes, column_usage = await ask_each(
                model, results, model_name=model.name, budget_s=settings.wall_clock_s / 8
            )
        try:
            # Every group is connected: the contract (and so the groups the run gets) is read
            # with the store's warehouse names, and with the model's own reading, once the
            # servers answer.
            approval: Approval = "manual" if proposals is not None else "auto"
            with ExitStack() as owned:
                store = (
                    owned.enter_context(_servers_store(settings))
                    if not targets and servers_in_process(settings)
                    else None
                )
                opened = targets or server_targets(
                    settings, ALL_GROUPS, approval=approval, store=store
                )
                async with Toolbox(opened, actor=requested_by) as toolbox:
                    record = await run_task(
                        Run(
                            task=task,
                            model=model,
                            toolbox=toolbox,
                            attachments=from_ingest(results, merge),
                            limits=limits,
                            dry_run=dry_run,
                            response_guards=response_guards,
                            call_guards=call_guards,
                            clock=utc_now,
                            on_event=on_event,
                            approvals=proposals,
                            sees_images=sees_images(spec, options),
                            model_reads_task=settings.vlm_read_task and confirmed is None,
                            run_id=run_id or new_run_id(),
                            contract=confirmed.contract if confirmed is not None else None,
                            confirms=confirms,
                        )
                    )
        except ToolServerError as exc:
            now = utc_now()
            contract = parse_task(task)
            record = RunRecord(
                id=run_id or f"run-{now:%Y%m%d%H%M%S}",
                task=task,
                model=model.name,
                groups=list(choose_groups(contract)),
                task_contract=contract,
                status="error",
                final=str(exc),
                final_by="host",
                error=str(exc),
                dry_run=dry_run,
                started_at=now,
                ended_at=now,
            )
    if column_notes:
        record.notes[:0] = column_notes
        record.tokens["prompt"] += column_usage.prompt_tokens
        record.tokens["completion"] += column_usage.completion_tokens
        record.tokens["cached"] += column_usage.cached_tokens
    if log_run:
        append_run_log(settings.resolved_run_log(), record)
    return record
