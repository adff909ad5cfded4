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


def test_a_remembered_fingerprint_is_the_files_own_and_is_read_again_when_a_file_changes(
    tmp_path: Path,
) -> None:
    models, memo = tmp_path / "models", tmp_path / "data" / "fingerprints.json"
    models.mkdir()
    (models / "rec.onnx").write_bytes(b"recogniser v1")
    plain = files_fingerprint(models)
    remembered = files_fingerprint(models, memo=memo)
    files_fingerprint.cache_clear()
    again = files_fingerprint(models, memo=memo)  # a new process: from the memo
    assert plain == remembered == again
    assert memo.is_file()

    (models / "rec.onnx").write_bytes(b"recogniser v2, longer")
    files_fingerprint.cache_clear()
    changed = files_fingerprint(models, memo=memo)
    files_fingerprint.cache_clear()
    assert changed != plain
    assert changed == files_fingerprint(models)


def test_an_unreadable_memo_only_means_the_files_are_read_again(tmp_path: Path) -> None:
    models, memo = tmp_path / "models", tmp_path / "fingerprints.json"
    models.mkdir()
    (models / "det.onnx").write_bytes(b"detector")
    memo.write_text("{not json", encoding="utf-8")
    assert files_fingerprint(models, memo=memo) == files_fingerprint(models)
