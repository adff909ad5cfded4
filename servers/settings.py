"""Settings of the servers package, read from `STOCKSHOT_*` environment variables."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from platformdirs import user_data_dir
from pydantic import Field, SecretStr, ValidationError, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from servers.errors import InputError

__all__ = ["DEFAULT_MAX_ORDER_QUANTITY", "ServerSettings", "load_settings"]

DEFAULT_MAX_ORDER_QUANTITY = 10_000


class ServerSettings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="STOCKSHOT_", extra="ignore")

    data_dir: Path = Field(
        default_factory=lambda: Path(user_data_dir("stockshot")),
        description="where the SQLite store lives by default",
    )
    database_url: str | None = Field(
        default=None,
        description="the store: a SQLite path or sqlite:/// URL, or postgresql://…; "
        "else the SQLite file `db`",
    )
    db: Path | None = Field(default=None, description="SQLite store; data_dir/stockshot.db")
    mcp_token: SecretStr | None = Field(
        default=None, description="bearer token required by the HTTP transport when set"
    )
    max_order_quantity: int = Field(
        default=DEFAULT_MAX_ORDER_QUANTITY, gt=0, description="the most units one order may be for"
    )
    approval: Literal["manual", "auto"] = Field(
        default="manual",
        description="manual: every write call becomes a proposal a person approves; auto: "
        "writes run at once (the host's `stockshot run` starts its servers so)",
    )
    approval_ttl_s: float = Field(
        default=24 * 3600, gt=0, description="how long a proposal can be approved"
    )
    busy_timeout_s: float = Field(
        default=10.0, gt=0, description="how long a write waits for another writer"
    )

    @field_validator("database_url")
    @classmethod
    def _blank_url_is_no_url(cls, value: str | None) -> str | None:
        return value.strip() or None if value is not None else None

    @field_validator("mcp_token")
    @classmethod
    def _blank_token_is_no_token(cls, value: SecretStr | None) -> SecretStr | None:
        if value is None or not value.get_secret_value().strip():
            return None
        return value

    def resolved_db(self) -> Path:
        return self.db or self.data_dir / "stockshot.db"

    def store_url(self) -> str:
        """`STOCKSHOT_DATABASE_URL`, else the SQLite file (`STOCKSHOT_DB` or the default)."""
        return self.database_url or str(self.resolved_db())

    def token(self) -> str | None:
        return None if self.mcp_token is None else self.mcp_token.get_secret_value()


def load_settings() -> ServerSettings:
    """Read the settings; a bad value becomes an `InputError` that names the variable."""
    try:
        return ServerSettings()
    except ValidationError as exc:
        problems = "; ".join(
            f"STOCKSHOT_{'__'.join(str(p) for p in err['loc']).upper()}: {err['msg']}"
            for err in exc.errors()
        )
        raise InputError(f"bad setting: {problems}") from None
