"""`stockshot bench`: the pipeline's stages measured beside their alternatives, in one run.

Sections: ingest per image (full-page baseline, the `table_ocr` pipeline, engine vs engine),
cold start vs warm, cache hits vs a miss, tokens per tier, a process pool vs one process, the
agent host's overhead and a `rules` run over stdio, and peak memory. `run_bench` returns one
JSON-able document; `report` renders it; `targets` judges it. Entry point: `stockshot bench`
(`pipeline.cli.bench`).
"""
