"""The accuracy targets of a bench document: fields on the browser corpus and its photos, the
UI-kit held-out split (overall, cards and lists, photos, screens with no row), TEDS against
the peers, tokens per screen, photo latency, and text read by content."""

from __future__ import annotations

from pipeline.bench.document import Measurements, Peer, Target
from pipeline.bench.peers import breakdown
from pipeline.bench.verdicts import (
    latency_target,
    ms_of,
    pair_text,
    set_total,
    share_of,
    target,
    token_target,
)

__all__ = ["table_targets", "text_targets"]

_TEDS_PEERS: tuple[Peer, ...] = ("rapid_table", "img2table")
"""The peers whose TEDS ours is judged against."""


def table_targets(doc: Measurements) -> list[Target]:
    """Accuracy on the corpus, TEDS against the peers, photo latency, text for every image."""
    if not doc.get("tables"):
        return []
    found = []
    for key, label, threshold in (
        ("corpus", "browser corpus renders", 99.5),
        ("photos", "browser corpus photos", 98.0),
    ):
        total = set_total(doc, key, "stockshot")
        fields, cells = (total["fields"], total["cells"]) if total else (None, None)
        share = share_of(fields)
        found.append(
            target(
                f"fields_{key}",
                f"inventory fields right on the {label}",
                None if share is None else share * 100,
                ">=",
                threshold,
                "%",
                f"{pair_text(fields)} fields; cells {pair_text(cells)}",
            )
        )
    found += _uikit_targets(doc)
    for table_set in doc["tables"]["sets"]:
        if not table_set["key"].startswith("tables:"):
            continue
        totals = table_set["totals"]
        ours = totals.get("stockshot", {}).get("teds")
        peers = {
            k: score for k in _TEDS_PEERS if (score := totals.get(k, {}).get("teds")) is not None
        }
        best = max(peers.values(), default=None)
        found.append(
            target(
                f"teds_{table_set['key']}",
                f"TEDS on {table_set['label']} above RapidTable's and img2table's",
                None if ours is None or best is None else ours - best,
                ">",
                0.0,
                "TEDS",
                f"stockshot {ours if ours is None else round(ours, 3)} vs "
                + ", ".join(f"{k} {v:.3f}" for k, v in peers.items()),
            )
        )
    shares = [
        (name, share)
        for key in ("corpus", "photos")
        for table_set in doc["tables"]["sets"]
        if table_set["key"] == key
        for name, share in table_set["totals"].get("token_shares", [])
    ]
    worst = max(shares, key=lambda s: s[1], default=None)
    found.append(
        token_target(
            "tokens_corpus",
            "tokens sent for every table screen of the browser corpus at most 30% of the "
            "full-page image estimate (the worst one)",
            None if worst is None else worst[1],
            "not measured"
            if worst is None
            else f"worst {worst[0]}; {sum(s <= 0.3 for _, s in shares)} of {len(shares)} "
            "within 30%",
        )
    )
    photos = set_total(doc, "photos", "stockshot")
    found.append(
        latency_target(
            "photo_latency",
            "warm ingest of a photo at most 1.5 s (the slowest photo's median)",
            photos["max_ms"] if photos else None,
            f"median over the photos {ms_of(photos['median_ms'] if photos else None)}",
        )
    )
    return found


def text_targets(doc: Measurements) -> list[Target]:
    """Text judged by content: every image of known text read right, character for
    character (whitespace aside)."""
    texts = doc["texts"]
    images = texts["images"]
    if not images:
        return []
    wrong = [i for i in images if i["tools"]["stockshot"]["cer"] > 0]
    total = texts["totals"]["stockshot"]
    plain = texts["totals"]["rapidocr"]
    return [
        target(
            "text_by_content",
            "every image of known text read right, character for character (CER 0)",
            float(total["right"]),
            ">=",
            float(total["images"]),
            "images",
            f"mean CER {total['mean_cer']} (plain `RapidOCR()`: {plain['right']} of "
            f"{plain['images']} right, mean CER {plain['mean_cer']})"
            + (
                "; misread: "
                + ", ".join(f"{i['name']} -> {i['tools']['stockshot']['read']!r}" for i in wrong)
                if wrong
                else ""
            ),
        )
    ]


def _uikit_targets(doc: Measurements) -> list[Target]:
    """The UI-kit corpus's held-out split: fields overall, on card layouts and on photos, and
    no screen without a row."""
    sealed = next(
        (s for s in doc["tables"]["sets"] if s["key"] == "uikits-sealed" and s["images"]), None
    )
    if sealed is None:
        return []
    parts = breakdown(sealed)
    sealed_total = set_total(doc, "uikits-sealed", "stockshot")
    total = sealed_total["fields"] if sealed_total else None
    blocks = [parts["by_layout"][k] for k in ("cards", "list") if k in parts["by_layout"]]
    cards = [sum(p[0] for p in blocks), sum(p[1] for p in blocks)] if blocks else None
    found = []
    for key, label, pair, threshold in (
        ("fields_uikits", "UI-kit corpus, held-out split", total, 97.0),
        ("fields_uikits_cards", "UI-kit card and list layouts, held-out", cards, 95.0),
        ("fields_uikits_photos", "UI-kit photos, held-out", parts["by_layout"].get("photo"), 95.0),
    ):
        share = share_of(pair)
        if share is None:
            continue  # a quick run measures a few images, maybe none of this kind
        found.append(
            target(
                key,
                f"inventory fields right on the {label}",
                share * 100,
                ">=",
                threshold,
                "%",
                f"{pair_text(pair)} fields",
            )
        )
    found.append(
        target(
            "rows_uikits",
            "screens of the UI-kit held-out split with no row read",
            float(len(parts["no_rows"])),
            "<=",
            0.0,
            "screens",
            "names not listed (held-out split)",
        )
    )
    return found
