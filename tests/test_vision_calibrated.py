"""The reader with a calibration profile's geometry, and photos turned by EXIF."""
from __future__ import annotations

import io
import json

import numpy as np
from PIL import Image

from calibration.camera import CameraProfile
from calibration.profile import Profile
from referee.board import board_from_json
from referee.compare import best_alignment
from vision import read_photo
from vision.image_io import load_photo

from conftest import SAMPLES

PHOTO = SAMPLES / "midgame_clean.jpg"


def _camera_for(w: int, h: int, k1: float = 0.0) -> CameraProfile:
    k = np.array([[0.9 * w, 0, w / 2], [0, 0.9 * w, h / 2], [0, 0, 1]], float)
    return CameraProfile(k, np.array([k1, 0, 0, 0, 0], float), (w, h), 0.1)


def test_camera_profile_reads_the_same_board_with_pixels_in_the_photo():
    truth = board_from_json(json.loads(PHOTO.with_suffix(".json").read_text()))
    plain = read_photo(PHOTO)
    w, h = plain.meta["image"]["width"], plain.meta["image"]["height"]
    calibrated = read_photo(PHOTO, Profile(camera=_camera_for(w, h)))
    assert calibrated.meta["geometry"] == ["undistort"]
    assert calibrated.meta["image"] == plain.meta["image"]
    assert best_alignment(truth, calibrated)[2] == len(truth)
    # with no lens distortion the pixels land where the plain reading put them
    steps, (dq, dr), _ = best_alignment(plain, calibrated)
    assert steps == 0
    for (q, r), extra in calibrated.extras.items():
        x0, y0 = plain.extras[(q + dq, r + dr)]["pixel"]
        assert abs(extra["pixel"][0] - x0) < 2.0 and abs(extra["pixel"][1] - y0) < 2.0


def test_a_profile_for_another_aspect_ratio_is_bad_input():
    import pytest
    from referee.errors import BadInput

    with pytest.raises(BadInput, match="aspect"):
        read_photo(PHOTO, Profile(camera=_camera_for(1000, 1000)))


def test_exif_turned_photo_reports_the_upright_size():
    arr = np.zeros((300, 400, 3), np.uint8)
    im = Image.fromarray(arr)
    exif = im.getexif()
    exif[0x0112] = 6  # "rotate 90° clockwise to show upright"
    buf = io.BytesIO()
    im.save(buf, "JPEG", exif=exif.tobytes())
    photo = load_photo(buf.getvalue())
    assert (photo.width, photo.height) == (300, 400)
    assert photo.image.shape[:2] == (400, 300)
