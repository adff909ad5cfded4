"""What `deploy/` hands a user is what stockshot reads and runs."""

from __future__ import annotations

import configparser
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.cli import build_parser
from pipeline.settings import Settings
from servers.settings import ServerSettings
from store.stores import store_scheme
from tests.conftest import ROOT, cli_env

DEPLOY = ROOT / "deploy"
UNITS = sorted((DEPLOY / "systemd").glob("*.service"))


def deploy_env() -> dict[str, str]:
    env: dict[str, str] = {}
    for line in (DEPLOY / "stockshot.env").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            name, _, value = line.partition("=")
            env[name.strip()] = value.strip()
    return env


def test_every_variable_in_the_env_file_is_a_setting_stockshot_reads() -> None:
    known = {f"STOCKSHOT_{name.upper()}" for name in Settings.model_fields} | {
        f"STOCKSHOT_{name.upper()}" for name in ServerSettings.model_fields
    }
    assert set(deploy_env()) <= known
    assert "STOCKSHOT_DATABASE_URL" in deploy_env()


def test_the_env_file_names_a_postgres_store_for_every_process(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for name, value in deploy_env().items():
        monkeypatch.setenv(name, value)
    assert store_scheme(Settings().store_url()) == "postgresql"
    assert ServerSettings().store_url() == Settings().store_url()


@pytest.mark.parametrize("unit", UNITS, ids=[u.name for u in UNITS])
def test_every_unit_runs_a_command_stockshot_parses(unit: Path) -> None:
    parsed = configparser.ConfigParser(interpolation=None)
    parsed.read(unit, encoding="utf-8")
    assert parsed["Service"]["EnvironmentFile"] == "/etc/stockshot/stockshot.env"
    argv = shlex.split(parsed["Service"]["ExecStart"].replace("%i", "8001"))
    assert argv[0] == "/opt/stockshot/.venv/bin/stockshot"
    args = build_parser().parse_args(argv[1:])
    assert callable(args.handler)


def test_the_first_start_commands_work_with_the_env_file_on_a_real_database(
    postgres_url: str, tmp_path: Path
) -> None:
    env = cli_env() | deploy_env()
    env |= {"STOCKSHOT_DATABASE_URL": postgres_url, "STOCKSHOT_DATA_DIR": str(tmp_path / "data")}

    def stockshot(*args: str) -> str:
        done = subprocess.run(
            [sys.executable, "-m", "pipeline.cli", *args],
            cwd=ROOT, env=env, capture_output=True, text=True, encoding="utf-8", timeout=120,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert stockshot("orders") == "no orders\n"
    seeded = stockshot("store", "seed")
    assert seeded.startswith(f"seeded {postgres_url} with the demo catalogue")
    assert "SKU-10232,Hex nut" in stockshot("store", "export")
