"""One `Settings` object, built once by an entry point and passed down."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from platformdirs import user_data_dir
from pydantic import BaseModel, Field, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

__all__ = ["GuardSettings", "NarrowingSettings", "Settings"]


class GuardSettings(BaseModel):
    """Each host guard is on unless switched off (`STOCKSHOT_GUARDS__STALL=false`)."""

    stall: bool = Field(
        default=True,
        description="bounce a turn with no tool call and no question before any result "
        "justifies an answer",
    )
    prose_call: bool = Field(
        default=True,
        description="run a tool call the model left in its text instead of the tool-call field",
    )
    arg_repair: bool = Field(
        default=True,
        description="reshape arguments that fit the tool's schema only after reshaping",
    )
    repeat_rejected: bool = Field(
        default=True, description="block the identical call a tool server already rejected"
    )
    unchanged_field: bool = Field(
        default=True, description="block a retry that leaves unchanged the field a rejection named"
    )
    read_loop: bool = Field(
        default=True,
        description="block the same read again with nothing new in between, past a limit",
    )
    give_up: bool = Field(
        default=True,
        description="end the turn at a third attempt at a call rejected or blocked twice",
    )
    truncation: bool = Field(
        default=True,
        description="run nothing of a reply cut at the token limit; double the next reply's budget",
    )
    freshness: bool = Field(
        default=True,
        description="a write needs a live read of a SKU known only from an old screenshot",
    )
    scope: bool = Field(
        default=True,
        description="hold every write to the task contract (switchable for an ablation or a "
        "local run; never per request over the API)",
    )
    false_claim: bool = Field(
        default=True,
        description="bounce an answer that claims what no tool did, or a report that leaves "
        "low rows out",
    )


class NarrowingSettings(BaseModel):
    """How the step schema is narrowed (`STOCKSHOT_VLM_NARROW__ID_ENUMS=false`)."""

    writes_after_read: bool = Field(
        default=True, description="a write is offered only once its SKUs were read live in this run"
    )
    id_enums: bool = Field(
        default=True,
        description="id fields take only the values valid now (screens, task, listed orders)",
    )
    quantity_bounds: bool = Field(
        default=True,
        description="a write carries exactly the quantity the task or its rule gives, or none",
    )
    needed_reads: bool = Field(
        default=True, description="a read is offered while the task still needs it"
    )


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="STOCKSHOT_", env_nested_delimiter="__", extra="ignore"
    )

    data_dir: Path = Field(
        default_factory=lambda: Path(user_data_dir("stockshot")),
        description="where the store, cache, run log and prepared models live by default",
    )
    cache_dir: Path | None = Field(default=None, description="ingest cache; data_dir/cache")
    screens_dir: Path | None = Field(
        default=None, description="kept screenshots, by SHA-256; data_dir/screens"
    )
    database_url: str | None = Field(
        default=None,
        description="the store: a SQLite path or sqlite:/// URL, or postgresql://…; "
        "else the SQLite file `db`",
    )
    db: Path | None = Field(default=None, description="SQLite store; data_dir/stockshot.db")
    run_log: Path | None = Field(default=None, description="JSONL audit log of runs")
    model_dir: Path | None = Field(default=None, description="prepared OCR models")
    timezone: str | None = Field(
        default=None, description="zone for naive capture stamps (EXIF, file names); local"
    )

    ocr_engine: str = Field(
        default="rapidocr",
        description="rapidocr | paddleocr | tesseract (`stockshot models status`)",
    )
    ocr_threads: int = Field(default=0, ge=0, description="0 = one per core")
    strategy: str = Field(
        default="auto",
        description="auto | table_ocr | full_page | ui_crop | multi_image: how ingest reads "
        "a screenshot",
    )
    memory_cache_items: int = Field(
        default=256, ge=0, description="ingest results kept in memory beside the disk cache"
    )
    max_upload_bytes: int = Field(
        default=25 * 1024 * 1024, gt=0, description="the largest image file accepted, in bytes"
    )
    max_image_pixels: int = Field(
        default=50_000_000, gt=0, description="the most pixels an image may have (width x height)"
    )

    model: str = Field(default="rules", description="rules | openai:NAME | scripted:PATH")
    base_url: str | None = Field(default=None, description="OpenAI-compatible endpoint")
    api_key: str | None = Field(
        default=None, description="the key sent to the OpenAI-compatible endpoint"
    )
    vlm_timeout_s: float = Field(
        default=120.0, gt=0, description="how long one model request may take"
    )
    vlm_retries: int = Field(
        default=2, ge=0, description="retries of a model request that failed for a passing reason"
    )
    vlm_steps: Literal["native", "schema", "auto"] = Field(
        default="auto",
        description="native tool calls, one JSON step per request under a schema, or native "
        "until the model answers in prose and schema steps for the rest of that run",
    )
    vlm_schema_wire: Literal["json_schema", "json_object"] = Field(
        default="json_schema",
        description="how the step schema is sent: OpenAI's response_format json_schema "
        "(vLLM, llama.cpp server, Ollama, LM Studio) or json_object with a schema "
        "(llama-cpp-python)",
    )
    vlm_step_max_tokens: int = Field(default=256, gt=0, description="budget of one schema step")
    vlm_read_task: bool = Field(
        default=True,
        description="an openai model also reads the task before the run, under a JSON Schema; "
        "where the reader read every word its reading stands and a differing model reading is "
        "only recorded and said; where it did not, the model's reading may be offered as the "
        "run's question",
    )
    vlm_read_columns: bool = Field(
        default=True,
        description="an openai model also maps a screenshot's columns before the run when the "
        "typed mapping is unsure (one request under a JSON Schema; only the unsure fields)",
    )
    vlm_images: bool = Field(
        default=True,
        description="the endpoint's model reads images: a screenshot sent as text can then be "
        "looked at with the host's screen_view tool; false for a text-only model (the tool is "
        "not offered)",
    )
    vlm_narrow: NarrowingSettings = Field(default_factory=NarrowingSettings)
    max_order_quantity: int = Field(
        default=10_000, gt=0, description="the servers' per-order limit (bounds step quantities)"
    )
    allow_remote_models: bool = Field(
        default=True,
        description="false: a model endpoint must be on this machine (a loopback address)",
    )

    max_hops: int = Field(
        default=12,
        gt=0,
        description="the fewest hops a run gets; its budget grows with the work its contract "
        "implies (pipeline.host.budget) up to max_hops_ceiling",
    )
    max_hops_ceiling: int = Field(default=48, gt=0, description="the most hops a run gets")
    max_tokens: int = Field(
        default=1024, gt=0, description="the budget of one model reply, in tokens"
    )
    wall_clock_s: float = Field(
        default=300.0, gt=0, description="the longest a run may take, in seconds"
    )
    freshness_limit_s: float = Field(
        default=900.0,
        gt=0,
        description="a screenshot older than this needs a live read before a write "
        "(freshness guard)",
    )
    mcp_url: str | None = Field(
        default=None, description="streamable HTTP base of `stockshot servers all --transport http`"
    )
    mcp_token: str | None = Field(
        default=None, description="the bearer token of the MCP servers over HTTP"
    )
    servers: Literal["memory", "stdio"] = Field(
        default="memory",
        description="how a run, the demo and the approvals desk reach the tool servers when "
        "STOCKSHOT_MCP_URL is unset: memory runs the same servers in this process over the MCP "
        "SDK's in-memory transport; stdio starts one subprocess per group",
    )

    guards: GuardSettings = Field(default_factory=GuardSettings)
    approval: Literal["manual", "auto"] | None = Field(
        default=None,
        description="manual: every write becomes a proposal a person approves; auto: writes "
        "run at once. Default: manual everywhere (stockshot run asks at a terminal; --yes writes)",
    )
    approval_ttl_s: float = Field(
        default=24 * 3600, gt=0, description="how long a proposal can be approved"
    )
    approval_separate: bool = Field(
        default=False,
        description="separation of duties: whoever started a run (an API key, a terminal user) "
        "cannot approve the writes it proposed",
    )
    approver_direct_writes: bool = Field(
        default=False,
        description="let an approver key's MCP client write through serve's mounts without a "
        "proposal, audited under the key's name (default: its writes are proposals too)",
    )
    api_guard_switches: bool = Field(
        default=False,
        description="let POST /v1/runs switch guards per request (never scope); off by default",
    )

    host: str = Field(default="127.0.0.1", description="address `stockshot serve` binds")
    port: int = Field(default=8000, ge=0, le=65535, description="port `stockshot serve` listens on")
    api_keys: Annotated[list[str], NoDecode] = Field(
        default_factory=list, description="comma-separated; when set, the API requires one"
    )
    cors_origins: Annotated[list[str], NoDecode] = Field(
        default_factory=list, description="comma-separated origins allowed to call the API"
    )
    allowed_hosts: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="comma-separated Host names the API answers besides loopback ones "
        "(a proxy's name); on a loopback address others are refused (DNS rebinding)",
    )
    max_files_per_request: int = Field(
        default=10, gt=0, description="the most images one upload may carry"
    )
    api_workers: int = Field(default=0, ge=0, description="OCR worker threads; 0 = one per core")
    mount_mcp: bool = Field(default=True, description="serve the MCP servers at /mcp/<group>/")
    job_wait_s: float = Field(
        default=300.0,
        gt=0,
        description="with a PostgreSQL store: how long an ingest request waits for a worker",
    )
    worker_heartbeat_s: float = Field(
        default=5.0,
        gt=0,
        description="how often a worker says it is alive; one silent for 3 times this is "
        "taken as dead and its jobs are retried",
    )
    webhook_urls: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        description="comma-separated URLs that receive proposal.created, proposal.decided, "
        "order.created, order.cancelled and run.finished as signed JSON POSTs",
    )
    webhook_secret: str | None = Field(
        default=None, description="the shared secret of the webhooks' HMAC-SHA256 signature"
    )
    webhook_retention_days: float = Field(
        default=30,
        gt=0,
        description="how long events and their webhook delivery log are kept before pruning",
    )
    webhook_interval_s: float = Field(
        default=5.0, gt=0, description="how often pending webhook deliveries are sent"
    )
    screenshot_retention_days: float = Field(
        default=30,
        gt=0,
        description="how long a screenshot is kept on disk after it was last read in (what a "
        "run, proposal or order shows); one a pending proposal shows is kept until decided",
    )
    screenshot_max_mb: float | None = Field(
        default=None,
        gt=0,
        description="a cap on the kept screenshots, in MiB: past it the least recently read "
        "go first (never one a pending proposal shows); none by default",
    )
    watch_interval_s: float = Field(default=1.0, gt=0, description="watch folder polling")
    watch_settle_s: float = Field(
        default=2.0, ge=0, description="a file must stop changing this long before it is taken"
    )

    @field_validator("api_keys", "cors_origins", "allowed_hosts", "webhook_urls", mode="before")
    @classmethod
    def _comma_separated(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    def resolved_cache_dir(self) -> Path:
        return self.cache_dir or self.data_dir / "cache"

    @field_validator("database_url")
    @classmethod
    def _blank_url_is_no_url(cls, value: str | None) -> str | None:
        return value.strip() or None if value is not None else None

    def resolved_db(self) -> Path:
        return self.db or self.data_dir / "stockshot.db"

    def store_url(self) -> str:
        """`STOCKSHOT_DATABASE_URL`, else the SQLite file (`STOCKSHOT_DB` or the default)."""
        return self.database_url or str(self.resolved_db())

    def resolved_screens_dir(self) -> Path:
        return self.screens_dir or self.data_dir / "screens"

    def resolved_run_log(self) -> Path:
        return self.run_log or self.data_dir / "runs.jsonl"

    def resolved_model_dir(self) -> Path:
        return self.model_dir or self.data_dir / "models"
