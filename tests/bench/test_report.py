"""`stockshot bench --quick` writes both reports with every section, from measured numbers."""

import contextlib
import io
import json
import statistics
from pathlib import Path
from typing import Any

import pytest

from pipeline.bench.report import SECTIONS
from pipeline.cli import main


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Any]]:
    out = tmp_path_factory.mktemp("reports")
    printed = io.StringIO()
    with pytest.MonkeyPatch.context() as patch, contextlib.redirect_stdout(printed):
        patch.setenv("STOCKSHOT_DATA_DIR", str(out / "data"))
        assert main(["bench", "--quick", "--out", str(out)]) == 0
    markdown = (out / "bench.md").read_text(encoding="utf-8")
    doc = json.loads((out / "bench.json").read_text(encoding="utf-8"))
    doc["printed"] = printed.getvalue()
    return markdown, doc


def ratio_of_medians(numerator: list[float], denominator: list[float]) -> float:
    return statistics.median(numerator) / statistics.median(denominator)


def headline(doc: dict[str, Any]) -> dict[str, Any]:
    return next(i for i in doc["ingest"]["images"] if i["headline"])


def test_the_markdown_report_has_every_section(written: tuple[str, dict[str, Any]]) -> None:
    markdown, _ = written
    for section in SECTIONS:
        assert f"\n{section}" in markdown, section
    assert "Load average (1, 5, 15 min)" in markdown
    assert "A quick run: a smoke run" in markdown


def test_the_json_report_has_every_section_and_the_load_average(
    written: tuple[str, dict[str, Any]],
) -> None:
    _, doc = written
    sections = {"meta", "targets", "ingest", "cache", "cold_start", "tokens", "batch", "host"}
    assert sections <= set(doc)
    assert {"memory", "profiles"} <= set(doc)
    assert len(doc["meta"]["load_avg_start"]) == 3
    assert len(doc["meta"]["load_avg_end"]) == 3
    assert doc["meta"]["quick"] is True
    assert doc["meta"]["mode"] == "quick"


def test_every_target_has_a_verdict_and_a_margin(written: tuple[str, dict[str, Any]]) -> None:
    _, doc = written
    keys = {t["key"] for t in doc["targets"]}
    assert {"ingest_speedup", "ingest_accuracy", "ingest_latency", "cache_memory"} <= keys
    assert {"cache_disk", "tokens", "host_per_hop", "stdio_run", "batch"} <= keys
    assert {"command_hit", "command_run", "photo_vs_clean"} <= keys
    for target in doc["targets"]:
        assert target["met"] in (True, False), target
        assert target["margin"] != "not measured"
    missed = {t["key"] for t in doc["targets"] if t["met"] is False}
    assert {p["target"] for p in doc["profiles"]} == missed


def test_the_ingest_speedup_is_the_ratio_of_the_measured_medians(
    written: tuple[str, dict[str, Any]],
) -> None:
    _, doc = written
    image = headline(doc)
    base = image["samples_ms"][doc["ingest"]["baseline"]]
    ours = image["samples_ms"][doc["ingest"]["ours"]]
    assert base and ours and all(ms > 0 for ms in base + ours)
    speedup = next(t for t in doc["targets"] if t["key"] == "ingest_speedup")
    assert speedup["value"] == pytest.approx(ratio_of_medians(base, ours))
    latency = next(t for t in doc["targets"] if t["key"] == "ingest_latency")
    assert latency["value"] == pytest.approx(statistics.median(ours))


def test_speed_is_judged_on_every_image_and_against_the_baseline_with_our_threads(
    written: tuple[str, dict[str, Any]],
) -> None:
    _, doc = written
    targets = {t["key"]: t for t in doc["targets"]}
    ratios = [i["vs_baseline"][doc["ingest"]["ours"]]["value"] for i in doc["ingest"]["images"]]
    assert targets["ingest_speedup_images"]["value"] == pytest.approx(statistics.median(ratios))
    assert targets["ingest_speedup_images_worst"]["value"] == pytest.approx(min(ratios))
    assert "ingest_speedup_same_threads" in targets and "ingest_latency_worst" in targets
    assert all(
        "full_page:RapidOCR(our threads)" in i["samples_ms"] for i in doc["ingest"]["images"]
    )


def test_text_is_judged_by_the_characters_read_not_by_being_there(
    written: tuple[str, dict[str, Any]],
) -> None:
    markdown, doc = written
    images = doc["texts"]["images"]
    drawn = {i["name"] for i in images}
    assert {"zh-white-on-transparent", "zh-black-on-transparent"} <= drawn, doc["texts"].get(
        "not_drawn"
    )
    target = next(t for t in doc["targets"] if t["key"] == "text_by_content")
    right = sum(i["tools"]["stockshot"]["cer"] == 0 for i in images)
    assert target["value"] == right and target["threshold"] == len(images)
    assert "## Text by content" in markdown


def test_rapid_table_is_also_given_the_crop_and_the_truth_box(
    written: tuple[str, dict[str, Any]],
) -> None:
    _, doc = written
    tools = doc["tables"]["tools"]
    assert {"rapid_table", "rapid_table@our-crop", "rapid_table@truth-box"} <= set(tools)
    assert "rapidocr+rows@threads" in tools
    photos = next(s for s in doc["tables"]["sets"] if s["key"] == "photos")
    assert all("rapid_table@truth-box" not in i["tools"] for i in photos["images"])


def test_accuracy_is_reported_next_to_speed_for_every_variant(
    written: tuple[str, dict[str, Any]],
) -> None:
    _, doc = written
    for image in doc["ingest"]["images"]:
        for key in image["samples_ms"]:
            hits, total = image["accuracy"][key]
            assert 0 <= hits <= total and total > 0


def test_cache_cold_batch_and_host_ratios_come_from_their_samples(
    written: tuple[str, dict[str, Any]],
) -> None:
    _, doc = written
    cache = doc["cache"]["samples_ms"]
    assert doc["cache"]["miss_vs_memory"]["value"] == pytest.approx(
        ratio_of_medians(cache["miss"], cache["memory"])
    )
    assert doc["cache"]["miss_vs_disk"]["value"] == pytest.approx(
        ratio_of_medians(cache["miss"], cache["disk"])
    )
    assert set(doc["cache"]["states"]) == {"miss/memory/disk"}
    cold = doc["cold_start"]["samples_ms"]
    assert doc["cold_start"]["cold_vs_warm"]["value"] == pytest.approx(
        ratio_of_medians(cold["cold"], cold["warm"])
    )
    configs = {c["key"]: c for c in doc["batch"]["configs"]}
    assert doc["batch"]["pool_vs_single_all_cores"]["value"] == pytest.approx(
        ratio_of_medians(configs["pool"]["per_minute"], configs["single_all_cores"]["per_minute"])
    )
    probes = doc["batch"]["cpu_scaling"]
    assert len(probes) == 2
    cores = doc["meta"]["cpu_count"]
    for probe in probes:
        assert probe["scaling"] == pytest.approx(cores * probe["alone_s"] / probe["together_s"])
    assert doc["memory"]["ingest_process_peak_rss_mb"] > 50
    memory = doc["host"]["memory"]
    assert all(status == "done" for status in memory["statuses"] + doc["host"]["stdio"]["statuses"])
    per_hop = next(t for t in doc["targets"] if t["key"] == "host_per_hop")
    assert per_hop["value"] == pytest.approx(statistics.median(memory["per_hop_ms"]))


def test_tokens_per_tier_are_shares_of_the_full_page_estimate(
    written: tuple[str, dict[str, Any]],
) -> None:
    _, doc = written
    assert "28x28" in doc["tokens"]["formula"]
    for image in doc["tokens"]["images"]:
        for tier in ("table_ocr", "ui_crop", "full_page"):
            assert image["share"][tier] == pytest.approx(
                image["sent"][tier] / image["full_page_image"]
            )


def test_the_side_by_side_table_is_printed(written: tuple[str, dict[str, Any]]) -> None:
    markdown, doc = written
    assert "| target | measured | threshold | verdict | margin | detail |" in doc["printed"]
    assert (
        "| variant | median (min–max) | faster than baseline | cells exactly right |"
        in (doc["printed"])
    )
    assert markdown.strip() in doc["printed"]


def test_a_folder_of_images_is_measured_beside_the_samples(tmp_path: Path) -> None:
    from pipeline.bench.images import SAMPLES_DIR, collect

    extra = tmp_path / "mine"
    extra.mkdir()
    (extra / "a.png").write_bytes((SAMPLES_DIR / "overlay-black-wh02.png").read_bytes())
    images = collect([extra], quick=True)
    assert [i.name for i in images][-1] == "a.png"
    assert images[-1].truth is None
