"""SQL text is written in one place: the store (`store/`, its migrations included). The
pipeline and the tool servers reach a database only through the store's statements."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

_SQL = re.compile(
    r"^\s*(SELECT|INSERT\s+INTO|UPDATE\s+\w+\s+SET|DELETE\s+FROM|CREATE\s+(TABLE|INDEX|UNIQUE)"
    r"|ALTER\s+TABLE|DROP\s+(TABLE|INDEX)|LISTEN|NOTIFY|PRAGMA|BEGIN|COMMIT|ROLLBACK|SET\s+LOCAL"
    r"|WITH\s+\w+\s+AS)\b"
)


def sql_texts(source: str) -> list[tuple[int, str]]:
    """Each string in `source` (f-strings by their literal parts) that reads as SQL."""
    found: list[tuple[int, str]] = []
    tree = ast.parse(source)
    parts = {
        id(v) for node in ast.walk(tree) if isinstance(node, ast.JoinedStr) for v in node.values
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in parts:
            if _SQL.match(node.value):
                found.append((node.lineno, node.value))
        elif isinstance(node, ast.JoinedStr):
            text = "".join(
                v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "x"
                for v in node.values
            )
            if _SQL.match(text):
                found.append((node.lineno, text))
    return found


def test_the_check_finds_sql_text_written_plainly_or_as_an_f_string() -> None:
    source = (
        'a = "SELECT data FROM stockshot_uploads WHERE key = %s"\n'
        'b = f"LISTEN {channel}"\n'
        'c = "select the warehouse to count"\n'
        'd = "Deletes from the list"\n'
    )
    assert [line for line, _ in sql_texts(source)] == [1, 2]


def test_no_sql_text_is_written_outside_the_store() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text.strip()[:60]}"
        for package in ("pipeline", "servers")
        for path in sorted((ROOT / package).rglob("*.py"))
        for line, text in sql_texts(path.read_text(encoding="utf-8"))
    ]
    assert found == []
