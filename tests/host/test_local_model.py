"""Opt-in (`pytest -m local_model`, after `make local-model`): a real small model served by
llama.cpp on 127.0.0.1 drives one replenishment through the host, its guards and real servers."""

import os

import httpx
import pytest

from pipeline.bootstrap import enabled_guards
from pipeline.host.attachments import from_ingest
from pipeline.host.loop import HostLimits, Run, run_task
from pipeline.host.toolbox import MemoryTarget, Toolbox
from pipeline.ocr import OcrEngine
from pipeline.settings import Settings
from pipeline.vlm.endpoint import ChatEndpoint
from pipeline.vlm.openai import OpenAIModel
from store.sql import SqlStore
from tests.conftest import SAMPLES, make_ingestor
from tests.host.conftest import LOW_LIVE, open_orders

pytestmark = pytest.mark.local_model

URL = os.environ.get("STOCKSHOT_LOCAL_MODEL_URL", "http://127.0.0.1:8765/v1")
NAME = os.environ.get("STOCKSHOT_LOCAL_MODEL", "qwen2.5-coder-0.5b")


@pytest.fixture
def endpoint() -> str:
    try:
        reply = httpx.get(f"{URL}/models", timeout=3)
        reply.raise_for_status()
    except httpx.HTTPError as exc:
        pytest.skip(f"no model server answers at {URL} ({exc}); start one with `make local-model`")
    return URL


async def test_a_real_local_model_replenishes_through_the_guards_and_orders_nothing_unsafe(
    endpoint: str, rapidocr: OcrEngine, targets: list[MemoryTarget], store: SqlStore
) -> None:
    screen = make_ingestor(rapidocr).ingest_path(SAMPLES / "erp-light-wh01.png")
    responses, calls = enabled_guards(Settings())
    async with httpx.AsyncClient() as http, Toolbox(targets) as toolbox:
        model = OpenAIModel(
            NAME, ChatEndpoint(client=http, base_url=endpoint, timeout_s=600, retries=1)
        )
        record = await run_task(
            Run(
                task="find the SKUs that are low and raise replenishment orders",
                model=model,
                toolbox=toolbox,
                groups=("inventory", "orders", "warehouses"),
                attachments=from_ingest([screen]),
                limits=HostLimits(max_hops=10, wall_clock_s=1800),
                response_guards=responses,
                call_guards=calls,
            )
        )
    assert record.status in ("done", "limit"), record.final
    assert record.tokens["prompt"] > 0
    ordered = set(open_orders(store))
    assert ordered <= LOW_LIVE, f"ordered SKUs that are not low live: {ordered - LOW_LIVE}"
