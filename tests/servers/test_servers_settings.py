from __future__ import annotations

from pathlib import Path

import pytest
from platformdirs import user_data_dir

from servers.errors import InputError
from servers.settings import DEFAULT_MAX_ORDER_QUANTITY, load_settings


def test_the_store_defaults_to_the_user_data_folder(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("STOCKSHOT_DATA_DIR")
    settings = load_settings()
    assert settings.resolved_db() == Path(user_data_dir("stockshot")) / "stockshot.db"
    assert settings.max_order_quantity == DEFAULT_MAX_ORDER_QUANTITY == 10_000
    assert settings.token() is None


def test_stockshot_db_selects_the_store(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("STOCKSHOT_DB", str(tmp_path / "x.db"))
    assert load_settings().resolved_db() == tmp_path / "x.db"


def test_the_data_folder_moves_the_default_store(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("STOCKSHOT_DATA_DIR", str(tmp_path))
    assert load_settings().resolved_db() == tmp_path / "stockshot.db"


def test_a_blank_token_means_no_token(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STOCKSHOT_MCP_TOKEN", "  ")
    assert load_settings().token() is None
    monkeypatch.setenv("STOCKSHOT_MCP_TOKEN", "s3cret")
    assert load_settings().token() == "s3cret"


def test_the_token_is_hidden_in_the_settings_repr(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STOCKSHOT_MCP_TOKEN", "s3cret")
    assert "s3cret" not in repr(load_settings())


@pytest.mark.parametrize("value", ["lots", "0", "-3"])
def test_a_bad_order_ceiling_names_the_variable(
    monkeypatch: pytest.MonkeyPatch, value: str
) -> None:
    monkeypatch.setenv("STOCKSHOT_MAX_ORDER_QUANTITY", value)
    with pytest.raises(InputError, match="STOCKSHOT_MAX_ORDER_QUANTITY"):
        load_settings()


def test_without_a_database_url_the_store_is_the_sqlite_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    assert load_settings().store_url() == str(tmp_path / "data" / "stockshot.db")
    monkeypatch.setenv("STOCKSHOT_DB", str(tmp_path / "x.db"))
    assert load_settings().store_url() == str(tmp_path / "x.db")
    monkeypatch.setenv("STOCKSHOT_DATABASE_URL", "  ")
    assert load_settings().store_url() == str(tmp_path / "x.db")


def test_stockshot_database_url_selects_the_store_before_stockshot_db(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("STOCKSHOT_DB", str(tmp_path / "x.db"))
    monkeypatch.setenv("STOCKSHOT_DATABASE_URL", "postgresql://stockshot@db.example/stockshot")
    assert load_settings().store_url() == "postgresql://stockshot@db.example/stockshot"
