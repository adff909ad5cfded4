"""Column mappings through the API: given with an upload, saved for a screen, used for the
next screenshot of it, listed and forgotten."""

from __future__ import annotations

import httpx

from tests.api.conftest import SAMPLE, ingest

HEADERS = ["SKU", "Product", "Warehouse", "On hand", "Reorder point", "Status"]


async def test_a_mapping_sent_with_an_upload_reads_the_rows_again_and_says_so(
    client: httpx.AsyncClient,
) -> None:
    (plain,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
    header = plain["table"]["header"]
    on_hand = next(c["header"] for c in plain["table"]["columns"] if c["maps_to"] == "on_hand")
    reorder = next(
        c["header"] for c in plain["table"]["columns"] if c["maps_to"] == "reorder_point"
    )
    # Swapped on purpose: the caller's mapping wins over the typed one.
    (swapped,) = await ingest(
        client,
        (SAMPLE.name, SAMPLE.read_bytes()),
        columns=f"on_hand={reorder},reorder_point={on_hand}",
    )
    assert swapped["table"]["header"] == header
    first, again = plain["rows"][0], swapped["rows"][0]
    assert (again["on_hand"], again["reorder_point"]) == (first["reorder_point"], first["on_hand"])
    assert any(w.startswith("columns mapped by the caller") for w in swapped["warnings"])
    sources = {c["source"] for c in swapped["table"]["columns"]}
    assert sources == {"given"}


async def test_a_saved_profile_maps_the_next_screenshot_of_the_screen_until_it_is_deleted(
    client: httpx.AsyncClient,
) -> None:
    (plain,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
    header = plain["table"]["header"]
    response = await client.put(
        "/v1/profiles",
        json={"headers": header, "mapping": {"on_hand": header[4]}, "name": "swapped"},
    )
    assert response.status_code == 200, response.text
    profile = response.json()
    assert profile["created_by"].startswith("api:")
    listed = (await client.get("/v1/profiles")).json()
    assert [p["signature"] for p in listed] == [profile["signature"]]
    (mapped,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
    assert any(w.startswith("columns mapped by a saved profile") for w in mapped["warnings"])
    assert mapped["rows"][0]["on_hand"] == plain["rows"][0]["reorder_point"]
    assert (await client.delete(f"/v1/profiles/{profile['signature']}")).status_code == 204
    assert (await client.get(f"/v1/profiles/{profile['signature']}")).status_code == 404
    (back,) = await ingest(client, (SAMPLE.name, SAMPLE.read_bytes()))
    assert back["rows"][0] == plain["rows"][0]


async def test_a_profile_for_a_header_the_table_lacks_or_a_field_outside_the_schema_is_refused_with_the_reason(
    client: httpx.AsyncClient,
) -> None:
    bad_header = await client.put(
        "/v1/profiles", json={"headers": HEADERS, "mapping": {"on_hand": "Qty"}}
    )
    assert bad_header.status_code == 422 and "no column headed 'Qty'" in bad_header.text
    bad_field = await client.put(
        "/v1/profiles", json={"headers": HEADERS, "mapping": {"stock": "On hand"}}
    )
    assert bad_field.status_code == 422 and "unknown field" in bad_field.text
    unknown = await client.delete("/v1/profiles/nope")
    assert unknown.status_code == 404
