"""The manual stays true to the code: the README is a front page whose links all lead to pages
that exist, the generated pages (configuration, commands) are what the code writes now, and
every `stockshot` command line a page shows names commands and options the parsers have."""

from __future__ import annotations

import argparse
import functools
import importlib.util
import re
from pathlib import Path
from types import ModuleType

import pytest
from pydantic import BaseModel

from pipeline.cli import COMMANDS, build_parser
from pipeline.settings import Settings
from servers.settings import ServerSettings

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
PAGES = sorted((ROOT / "docs").glob("*.md"))
LINK = re.compile(r"\]\(([^)\s]*)\)")
HEADING = re.compile(r"^#+ (.+)$", re.MULTILINE)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
FENCE = re.compile(r"^```[^\n]*\n(.*?)^```", re.MULTILINE | re.DOTALL)
COMMAND_LINE = re.compile(r"\bstockshot ([a-z]+)(?: ([a-z]+))?([^#|]*)")


@functools.cache
def _generator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("docs_generator", ROOT / "scripts" / "docs.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _local_links(page: Path) -> list[str]:
    """The pages a page links to in this repository, as `path` or `path#anchor`."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return [link for link in LINK.findall(text) if ":" not in link]


def _anchors(page: Path) -> set[str]:
    """The anchors a page's headings get, as GitHub makes them."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    return {
        re.sub(r"[^\w\- ]", "", h.strip().lower()).replace(" ", "-") for h in HEADING.findall(text)
    }


def _broken(page: Path) -> list[str]:
    broken = []
    for link in _local_links(page):
        path, _, anchor = link.partition("#")
        target = (page.parent / path) if path else page
        if not target.exists() or (anchor and anchor not in _anchors(target)):
            broken.append(link)
    return broken


def test_the_readme_is_a_front_page_of_at_most_15_kb() -> None:
    size = len(README.read_bytes())
    assert size <= 15 * 1024, f"README.md is {size} bytes; move detail into docs/"


def test_the_readme_opens_with_the_two_commands_a_newcomer_runs() -> None:
    first_block = FENCE.search(README.read_text(encoding="utf-8"))
    assert first_block is not None
    assert [line.split("#")[0].strip() for line in first_block.group(1).splitlines()] == [
        "make demo",
        "make test",
    ]


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda p: p.name)
def test_every_page_and_heading_a_page_links_to_exists(page: Path) -> None:
    broken = _broken(page)
    assert not broken, f"{page.name} links to pages or headings that are not there: {broken}"


def test_a_link_to_a_heading_that_is_not_there_is_caught(tmp_path: Path) -> None:
    (tmp_path / "other.md").write_text("# Other\n\n## Keys and roles\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "# Page\n\n## Here\n\n[a](other.md#keys-and-roles) [b](other.md#keys) "
        "[c](#here) [d](gone.md) [e](https://example.com/x)\n",
        encoding="utf-8",
    )
    assert _broken(page) == ["other.md#keys", "gone.md"]


def test_the_readme_links_every_docs_page() -> None:
    linked = {(README.parent / link.partition("#")[0]).resolve() for link in _local_links(README)}
    unlinked = [page.name for page in PAGES if page.resolve() not in linked]
    assert not unlinked, f"README.md does not link {unlinked}"


def test_the_generated_pages_are_what_the_code_writes_now() -> None:
    generator = _generator()
    for path, render in generator.PAGES.items():
        committed = (ROOT / path).read_text(encoding="utf-8")
        assert committed == render(), f"{path} is out of date: run {generator.REGENERATE}"


def test_the_configuration_page_names_every_setting_with_its_variable() -> None:
    page = (ROOT / "docs" / "configuration.md").read_text(encoding="utf-8")
    for name in Settings.model_fields:
        assert f"`STOCKSHOT_{name.upper()}" in page, name
    assert "`STOCKSHOT_GUARDS__SCOPE`" in page


def test_the_command_page_lists_every_command_the_parser_has() -> None:
    page = (ROOT / "docs" / "commands.md").read_text(encoding="utf-8")
    for name in COMMANDS:
        assert f"## `stockshot {name}`" in page, name


def _options(parser: argparse.ArgumentParser) -> set[str]:
    return {option for action in parser._actions for option in action.option_strings}


def _command_lines(text: str) -> list[str]:
    """What a page shows as typed: its code spans and the lines of its code blocks (without
    their shell comments)."""
    blocks = [line.split(" #")[0] for block in FENCE.findall(text) for line in block.splitlines()]
    return blocks + CODE_SPAN.findall(FENCE.sub("", text))


def _mismatches(page: Path) -> list[str]:
    subparsers = _generator().subcommands
    commands = subparsers(build_parser())
    wrong = []
    for line in _command_lines(page.read_text(encoding="utf-8")):
        for name, sub, rest in COMMAND_LINE.findall(line):
            parser = commands.get(name)
            if parser is None:
                wrong.append(f"stockshot {name}: no such command")
                continue
            subs = subparsers(parser)
            if subs and sub and sub in subs:
                parser = subs[sub]
            elif subs and sub and not sub.isupper():
                wrong.append(f"stockshot {name} {sub}: no such subcommand")
                continue
            known = _options(parser) | {o for p in subs.values() for o in _options(p)}
            wrong += [
                f"stockshot {name}: no option {option}"
                for option in re.findall(r"(?<![\w-])--[a-z][a-z-]*", rest)
                if option not in known
            ]
    return wrong


@pytest.mark.parametrize("page", [README, *PAGES], ids=lambda p: p.name)
def test_every_command_line_a_page_shows_names_real_commands_and_options(page: Path) -> None:
    wrong = _mismatches(page)
    assert not wrong, f"{page.name}: {wrong}"


def test_a_command_line_naming_an_option_the_parser_lacks_is_caught(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "Run `stockshot ingest shot.png --colums x` or `stockshot fly`.\n", encoding="utf-8"
    )
    assert _mismatches(page) == [
        "stockshot ingest: no option --colums",
        "stockshot fly: no such command",
    ]


def test_the_changelog_says_what_the_current_reading_version_changed() -> None:
    from pipeline.ingest import PIPELINE_VERSION

    changelog = (ROOT / "docs" / "changelog.md").read_text(encoding="utf-8")
    versions = re.findall(r"^\| (\d+) \|", changelog, re.MULTILINE)
    assert versions[0] == PIPELINE_VERSION, (
        f"PIPELINE_VERSION is {PIPELINE_VERSION}: add its line at the top of docs/changelog.md"
    )


def test_the_api_page_has_a_row_for_every_route_the_app_serves() -> None:
    from fastapi import FastAPI

    from pipeline.api.routes import api_router

    app = FastAPI()
    app.include_router(api_router())
    page = (ROOT / "docs" / "api.md").read_text(encoding="utf-8")
    missing = [
        f"{method.upper()} {path}"
        for path, operations in app.openapi()["paths"].items()
        for method in operations
        if f"`{method.upper()} {path}" not in page
    ]
    assert not missing, f"docs/api.md has no row for {missing}"


def test_every_make_target_a_page_names_is_in_the_makefile() -> None:
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    targets = set(re.findall(r"^([a-z][\w-]*):", makefile, re.MULTILINE))
    named = {
        f"{page.name}: make {target}"
        for page in (README, *PAGES)
        for line in _command_lines(page.read_text(encoding="utf-8"))
        for target in re.findall(r"\bmake ([a-z][\w-]*)", line)
        if target not in targets
    }
    assert not named, f"no such make target: {sorted(named)}"


def _variables(model: type[BaseModel], prefix: str = "STOCKSHOT_") -> set[str]:
    names = set()
    for name, info in model.model_fields.items():
        variable = f"{prefix}{name.upper()}"
        names.add(variable)
        if isinstance(info.annotation, type) and issubclass(info.annotation, BaseModel):
            names |= {f"{variable}__<NAME>", *_variables(info.annotation, f"{variable}__")}
    return names


def test_every_setting_a_page_names_is_one_stockshot_reads() -> None:
    known = _variables(Settings) | _variables(ServerSettings)
    unknown = {
        f"{page.name}: {variable}"
        for page in (README, *PAGES)
        for variable in re.findall(r"STOCKSHOT_[A-Z_]+(?:__<NAME>)?", page.read_text("utf-8"))
        if variable.rstrip("_") not in known
    }
    assert not unknown, f"no such setting: {sorted(unknown)}"
