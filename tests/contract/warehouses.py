"""The demo warehouses' names, in English and Chinese, as a task may give them: what the task
readers' tests pass as the names a deployment knows."""

from __future__ import annotations

NAMES = {
    "Main distribution centre": "WH-01",
    "主配送中心": "WH-01",
    "North hub": "WH-02",
    "北方仓": "WH-02",
    "South hub": "WH-03",
    "南方仓": "WH-03",
}
