"""A package's face: the names it offers to the rest of the code, each imported on first use.

A face declares its API once, as the imports under `if TYPE_CHECKING:` in the package's
`__init__` (`from pipeline.table.rows import to_rows as to_rows`): that is what a reader and
the type checker see. `lazy_face` reads the same block and imports a name from its module the
first time someone asks for it, so importing the face costs nothing until a name is used (a
cache hit must not load OpenCV because `pipeline.table` also offers a layout finder). Outside
code imports only from the face; `lint-imports` holds it to that.
"""

from __future__ import annotations

import ast
import importlib
import sys
from collections.abc import Callable
from pathlib import Path


def offered(package: str) -> dict[str, str]:
    """Each name `package`'s face offers, with the module that defines it, read from the
    `if TYPE_CHECKING:` imports of its `__init__`."""
    source = sys.modules[package].__file__
    if source is None:
        raise ImportError(f"{package} has no __init__ to read its face from")
    tree = ast.parse(Path(source).read_text(encoding="utf-8"))
    for node in tree.body:
        if (
            isinstance(node, ast.If)
            and isinstance(node.test, ast.Name)
            and node.test.id == "TYPE_CHECKING"
        ):
            return {
                alias.asname or alias.name: statement.module
                for statement in node.body
                if isinstance(statement, ast.ImportFrom) and statement.module
                for alias in statement.names
            }
    raise ImportError(f"{package}'s __init__ declares no face (no `if TYPE_CHECKING:` imports)")


def lazy_face(
    package: str,
) -> tuple[Callable[[str], object], Callable[[], list[str]], list[str]]:
    """The module `__getattr__`, `__dir__` and `__all__` of `package`'s face."""
    names = offered(package)

    def __getattr__(name: str) -> object:
        module = names.get(name)
        if module is None:
            offers = ", ".join(sorted(names))
            raise AttributeError(f"module {package!r} offers no {name!r} (its face: {offers})")
        value = getattr(importlib.import_module(module), name)
        setattr(sys.modules[package], name, value)
        return value

    def __dir__() -> list[str]:
        return sorted(names)

    return __getattr__, __dir__, sorted(names)
