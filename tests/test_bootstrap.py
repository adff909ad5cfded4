"""The whole mission through the entry-point wiring: real ingest, stdio tool servers, a store
(the SQLite file, or a PostgreSQL database named by STOCKSHOT_DATABASE_URL)."""

from pathlib import Path

import pytest

from pipeline.bootstrap import build_ingestor, enabled_guards, open_store, run_agent
from pipeline.errors import UnknownNameError
from pipeline.host.record import read_run_log
from pipeline.settings import Settings
from servers import catalog, domain
from store.models import OrderQuery
from tests.conftest import SAMPLES
from tests.host.conftest import LOW_LIVE, SEEDED_AT
from tests.ingest.test_model_mapping import CELLS, HEADER, typed
from tests.vlm.chat_endpoint import FakeEndpoint, completion
from tests.vlm.conftest import endpoint, server  # noqa: F401 (the chat endpoint's fixtures)


@pytest.fixture(params=["sqlite", "postgresql"])
def settings(request: pytest.FixtureRequest, tmp_path: Path) -> Settings:
    url = request.getfixturevalue("postgres_url") if request.param == "postgresql" else None
    settings = Settings(data_dir=tmp_path / "data", timezone="Asia/Shanghai", database_url=url)
    with open_store(settings) as store:
        domain.seed(store, *catalog.seed_data(), now=SEEDED_AT)
    return settings


@pytest.mark.subprocess
async def test_rules_run_over_stdio_servers_orders_the_still_low_skus_and_skips_restocked_ones(
    settings: Settings,
) -> None:
    ingestor = build_ingestor(settings)
    result = ingestor.ingest_path(SAMPLES / "erp-light-wh01.png")
    record = await run_agent(
        settings,
        task="find the SKUs that are low and raise replenishment orders",
        results=[result],
    )
    assert record.status == "done", record.final
    with open_store(settings) as store:
        orders = domain.list_orders(store, OrderQuery(status="open")).orders
        ordered = {(o.sku, o.warehouse_id) for o in orders}
        assert all(o.run_id == record.id for o in orders)
    assert ordered == LOW_LIVE
    assert "SKU-10402 in WH-01: not low any more" in record.final
    assert [r.id for r in read_run_log(settings.resolved_run_log())] == [record.id]


async def test_an_unreachable_tool_server_ends_the_run_with_a_clear_error(
    settings: Settings,
) -> None:
    settings = settings.model_copy(update={"mcp_url": "http://127.0.0.1:9"})
    record = await run_agent(settings, task="list the warehouses", results=[])
    assert record.status == "error"
    assert "cannot connect to the inventory tool server" in record.final
    assert record.task_contract is not None and record.task_contract.action == "report"


def test_an_unknown_guard_switch_names_the_known_guards(settings: Settings) -> None:
    with pytest.raises(UnknownNameError, match="unknown guard 'stal'; known: arg_repair"):
        enabled_guards(settings, {"stal": False})


@pytest.mark.subprocess
async def test_an_unsure_column_mapping_is_asked_of_an_openai_model_before_the_run(
    settings: Settings,
    endpoint: FakeEndpoint,  # noqa: F811
) -> None:
    unsure = typed(HEADER, CELLS)
    endpoint.reply(
        completion('{"on_hand": "qtyal."}', usage={"prompt_tokens": 150, "completion_tokens": 9})
    )
    endpoint.reply(completion("The warehouses are WH-01, WH-02 and WH-03."))
    settings = settings.model_copy(update={"vlm_read_task": False})
    record = await run_agent(
        settings,
        task="list the warehouses",
        results=[unsure],
        model_spec="openai:local",
        base_url=endpoint.base_url,
    )
    asked = endpoint.received[0].body
    assert asked["response_format"]["json_schema"]["name"] == "column_mapping"
    assert record.notes[0].startswith("columns of shot.png: asked openai:local because")
    assert record.tokens["prompt"] >= 150
    # The run read the table as the model mapped it.
    opening = record.messages[1].content
    assert "120" in opening and "1450" in opening.replace(",", "")
