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

    stall: bool = True
    prose_call: bool = True
    arg_repair: bool = True
    repeat_rejected: bool = True
    unchanged_field: bool = True
    read_loop: bool = True
    give_up: bool = True
    truncation: bool = True
    freshness: bool = True
    scope: bool = True
    """Switchable for an ablation or a local run; never per request over the API."""
    false_claim: bool = True


class NarrowingSettings(BaseModel):
    """How the step schema is narrowed (`STOCKSHOT_VLM_NARROW__ID_ENUMS=false`)."""

    writes_after_read: bool = True
    id_enums: bool = True
    quantity_bounds: bool = True
    needed_reads: bool = True


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="STOCKSHOT_", env_nested_delimiter="__", extra="ignore"
    )

    data_dir: Path = Field(default_factory=lambda: Path(user_data_dir("stockshot")))
    cache_dir: Path | None = Field(default=None, description="ingest cache; data_dir/cache")
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

    ocr_engine: str = "rapidocr"
    ocr_threads: int = Field(default=0, ge=0, description="0 = one per core")
    strategy: str = "auto"
    memory_cache_items: int = Field(default=256, ge=0)
    max_upload_bytes: int = Field(default=25 * 1024 * 1024, gt=0)
    max_image_pixels: int = Field(default=50_000_000, gt=0)

    model: str = Field(default="rules", description="rules | openai:NAME | scripted:PATH")
    base_url: str | None = Field(default=None, description="OpenAI-compatible endpoint")
    api_key: str | None = None
    vlm_timeout_s: float = Field(default=120.0, gt=0)
    vlm_retries: int = Field(default=2, ge=0)
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
        "the run's contract is the meet of its reading and the reader's (it can only narrow)",
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
    allow_remote_models: bool = True

    max_hops: int = Field(
        default=12,
        gt=0,
        description="the fewest hops a run gets; its budget grows with the work its contract "
        "implies (pipeline.host.budget) up to max_hops_ceiling",
    )
    max_hops_ceiling: int = Field(default=48, gt=0, description="the most hops a run gets")
    max_tokens: int = Field(default=1024, gt=0)
    wall_clock_s: float = Field(default=300.0, gt=0)
    freshness_limit_s: float = Field(default=900.0, gt=0)
    mcp_url: str | None = Field(
        default=None, description="streamable HTTP base of `stockshot servers all --transport http`"
    )
    mcp_token: str | None = None
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
    port: int = Field(default=8000, ge=0, le=65535)
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
    max_files_per_request: int = Field(default=10, gt=0)
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

    def resolved_run_log(self) -> Path:
        return self.run_log or self.data_dir / "runs.jsonl"

    def resolved_model_dir(self) -> Path:
        return self.model_dir or self.data_dir / "models"
