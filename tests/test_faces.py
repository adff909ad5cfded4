"""Each package's face offers its whole API: every name it lists is the object its module
defines, a name it does not offer is refused with what it does offer, and importing a face
loads none of its modules until a name is used."""

from __future__ import annotations

import importlib
import pkgutil
import subprocess
import sys
from pathlib import Path

import pytest

from pipeline.faces import offered

ROOT = Path(__file__).resolve().parents[1]
FACES = ("pipeline.table", "pipeline.host", "pipeline.imaging", "pipeline.ingest")


@pytest.mark.parametrize("package", FACES)
def test_every_name_a_face_offers_is_the_object_its_module_defines(package: str) -> None:
    face = importlib.import_module(package)
    names = offered(package)
    assert names
    assert sorted(face.__all__) == sorted(names)
    for name, module in names.items():
        assert getattr(face, name) is getattr(importlib.import_module(module), name)


@pytest.mark.parametrize("package", FACES)
def test_no_face_offers_a_name_one_of_its_modules_also_has(package: str) -> None:
    """Python sets a package's attribute to a submodule once it is imported: a name shared with
    a submodule would answer with the module or the function depending on import order."""
    face = importlib.import_module(package)
    modules = {info.name for info in pkgutil.iter_modules(face.__path__)}
    assert modules.isdisjoint(offered(package))


def test_a_name_a_face_does_not_offer_is_refused_with_what_it_offers() -> None:
    face = importlib.import_module("pipeline.table")
    with pytest.raises(AttributeError, match=r"offers no 'not_there' \(its face: .*to_rows"):
        _ = face.not_there


@pytest.mark.subprocess
def test_importing_a_face_loads_none_of_its_modules_until_a_name_is_used() -> None:
    probe = (
        "import sys, pipeline.host, pipeline.table, pipeline.ingest, pipeline.imaging\n"
        "before = sorted(m for m in sys.modules if m.count('.') >= 2 and m.split('.')[1] in "
        "('host', 'table', 'ingest', 'imaging'))\n"
        "from pipeline.host import RunRecord\n"
        "print(before, 'pipeline.host.record' in sys.modules, 'mcp' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, check=True
    )
    assert done.stdout.split() == ["[]", "True", "False"]
