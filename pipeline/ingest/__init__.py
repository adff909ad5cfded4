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
- `columns`: a mapping a person gives or a saved profile holds, laid over the typed one;
- `model_mapping`: an unsure mapping asked of a model that answers under a JSON Schema.
"""

from pipeline.ingest.columns import ProfileLookup, apply_columns
from pipeline.ingest.config import IngestConfig
from pipeline.ingest.service import PIPELINE_VERSION, REQUESTABLE, Ingestor

__all__ = [
    "PIPELINE_VERSION",
    "REQUESTABLE",
    "IngestConfig",
    "Ingestor",
    "ProfileLookup",
    "apply_columns",
]
