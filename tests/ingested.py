"""An ingest result as tests need one: a file read at a given time with the given rows."""

from datetime import datetime

from pipeline.models import IngestResult, Row, Table, Tokens


def result(name: str, at: datetime, rows: list[Row], sent: int = 100) -> IngestResult:
    return IngestResult(
        file=name,
        sha256="0" * 64,
        captured_at=at,
        captured_at_source="caller",
        age_s=0.0,
        strategy="table_ocr",
        engine="rapidocr",
        cache="miss",
        size=(1920, 1080),
        crop=None,
        table=Table(),
        rows=rows,
        text="",
        tokens=Tokens(full_page_image=2000, sent=sent),
    )
