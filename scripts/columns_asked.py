"""How well a real model maps the columns the typing is unsure of (`pipeline.ingest.model_mapping`),
over hand-written tables (headers in other languages, misread or terse, each with the
mapping a person gives it): `scripts/data/columns_cases.json`, and a sealed part
(`columns_cases_sealed.json`) written before any model read it, that no test quotes and no
prompt is tuned on. Each part is reported apart (`--split tune|sealed|both`).

    .venv/bin/python scripts/columns_asked.py --model openai:qwen2.5-coder-1.5b \\
        --base-url http://127.0.0.1:8765/v1 --schema-wire json_object

For each table: the fields the typing maps right, the fields right after the model was asked,
and the fields the model made wrong that the typing had right. A model that cannot be reached
maps nothing (the typing stands) and is reported as such.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import httpx

from pipeline.ingest import ask_columns
from pipeline.models import IngestResult, Table, Tokens
from pipeline.table import FIELDS, mapping_doubts, to_rows
from pipeline.vlm import ModelOptions, make_model
from pipeline.vlm.base import SchemaAnswerer

DATA = Path(__file__).resolve().parent / "data"
SPLITS = {"tune": DATA / "columns_cases.json", "sealed": DATA / "columns_cases_sealed.json"}


def typed(header: list[str], cells: list[list[str]]) -> IngestResult:
    """The table as ingest types it: rows, columns and the unsure warning."""
    table = Table(header=header, cells=cells)
    mapped = to_rows(table, [[1.0] * len(header) for _ in cells])
    return IngestResult(
        file="table.png", sha256="0" * 64, captured_at=datetime.now(UTC),
        captured_at_source="caller", age_s=0.0, strategy="table_ocr", engine="rapidocr",
        cache="miss", size=(1920, 1080), crop=None,
        table=table.model_copy(update={"columns": mapped.columns()}), rows=mapped.rows,
        text="", tokens=Tokens(full_page_image=0, sent=0), warnings=mapping_doubts(mapped),
    )  # fmt: skip


def right(result: IngestResult, expected: dict[str, str | None]) -> set[str]:
    held = {c.maps_to: c.header for c in result.table.columns if c.maps_to is not None}
    return {f for f in FIELDS if held.get(f) == expected.get(f)}


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", required=True)
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--budget-s", type=float, default=120.0)
    parser.add_argument(
        "--schema-wire", default="json_schema", help="json_object for llama-cpp-python's server"
    )
    parser.add_argument("--split", choices=[*SPLITS, "both"], default="both")
    args = parser.parse_args()
    splits = list(SPLITS) if args.split == "both" else [args.split]
    async with httpx.AsyncClient() as http:
        model = make_model(
            args.model,
            ModelOptions(
                base_url=args.base_url,
                allow_remote=False,
                http_client=http,
                schema_wire=args.schema_wire,
            ),
        )
        assert isinstance(model, SchemaAnswerer), f"{args.model} cannot answer under a schema"
        lines = []
        for split in splits:
            cases = json.loads(SPLITS[split].read_text(encoding="utf-8"))["cases"]
            print(f"## {split}")
            lines.append(f"{split}: " + await score(model, model.name, cases, args.budget_s))
    print("\n".join(lines))
    return 0


async def score(
    model: SchemaAnswerer, name: str, cases: list[dict[str, Any]], budget_s: float
) -> str:
    """Each case typed, then asked; the totals as one line."""
    totals = {"typed": 0, "asked": 0, "after": 0, "broken": 0, "fields": 0}
    for case in cases:
        before = typed(case["header"], case["rows"])
        done = await ask_columns(model, before, model_name=name, budget_s=budget_s)
        was, now = right(before, case["expected"]), right(done.result, case["expected"])
        totals["typed"] += len(was)
        totals["after"] += len(now)
        totals["broken"] += len(was - now)
        totals["asked"] += done.asked
        totals["fields"] += len(FIELDS)
        print(f"{len(was)}/5 -> {len(now)}/5  {' | '.join(case['header'])}")
        if done.asked:
            print(f"    {done.note[:240]}")
    n = totals["fields"]
    return (
        f"{len(cases)} tables, {totals['asked']} asked: fields right typed {totals['typed']}/{n}, "
        f"after asking {totals['after']}/{n}; made wrong by the model {totals['broken']}"
    )


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
