"""Image bytes in, `IngestResult` out: validate, normalise, crop, OCR, structure, stamp.

I/O objects come in from the entry points: the OCR engine, the cache and the clock.

- `service`: the `Ingestor` (the cache and one analysis per bytes at a time, the tab a page
  shows selected, the result put together);
- `ladder`: the rungs climbed in one loop, each with its reader and its acceptance rule, until
  one's reading is taken (a photo's two readings weighed when its first is unsure);
- `readings`: the rungs' readers, each reading a page's table its own way;
- `faded_text`: a photo's text that blur or glare faded, found at a lower contrast;
- `assembly`: texts read per cell turned into an attempt, and the crops the recogniser reads;
- `attempts`: what a rung works on and what it produced;
- `results`: warnings, the model's text and the image payload beside the table;
- `config`: how an `Ingestor` reads;
- `cache`: results kept by the content hash, an in-process LRU in front of a shared level;
- `freshness`: when a screen was captured, from the evidence the image carries;
- `columns`: a mapping a person gives or a saved profile holds, laid over the typed one;
- `model_mapping`: an unsure mapping asked of a model that answers under a JSON Schema.

Outside code imports from this face only; its names load their module on first use, so a
cache hit loads no OCR engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pipeline.faces import lazy_face

if TYPE_CHECKING:
    from pipeline.ingest.cache import (
        CacheLevel as CacheLevel,
        Entry as Entry,
        IngestCache as IngestCache,
    )
    from pipeline.ingest.columns import (
        ProfileLookup as ProfileLookup,
        apply_columns as apply_columns,
    )
    from pipeline.ingest.config import IngestConfig as IngestConfig
    from pipeline.ingest.model_mapping import ask_columns as ask_columns, ask_each as ask_each
    from pipeline.ingest.service import (
        PIPELINE_VERSION as PIPELINE_VERSION,
        REQUESTABLE as REQUESTABLE,
        Ingestor as Ingestor,
    )

else:
    __getattr__, __dir__, __all__ = lazy_face(__name__)
