from pathlib import Path

from pipeline.ocr.base import files_fingerprint


def test_a_model_folder_fingerprint_follows_its_files_bytes(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    for folder in (one, two):
        folder.mkdir()
        (folder / "det.onnx").write_bytes(b"detector v1")
        (folder / "rec.onnx").write_bytes(b"recogniser v1")
    assert files_fingerprint(one) == files_fingerprint(two)
    (two / "rec.onnx").write_bytes(b"recogniser v2")
    files_fingerprint.cache_clear()
    assert files_fingerprint(one) != files_fingerprint(two)
