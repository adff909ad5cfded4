from __future__ import annotations

import anyio

from servers.roundtrip import READ_TOOL, WRITE_TOOL, measure


async def test_round_trips_are_measured_for_a_read_and_a_write_tool_on_both_transports() -> None:
    with anyio.fail_after(60):
        results = await measure(calls=3)
    assert [(r.transport, r.tool) for r in results] == [
        ("memory", READ_TOOL),
        ("memory", WRITE_TOOL),
        ("stdio", READ_TOOL),
        ("stdio", WRITE_TOOL),
    ]
    assert all(r.calls == 3 and 0 < r.median_ms <= r.p90_ms for r in results)
