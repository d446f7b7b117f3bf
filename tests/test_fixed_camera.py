"""A camera on a stand: one photo of the printed board fixes the table plane for every later frame.

Real rendered scenes (scenegen through one fixed camera, see bench/fixed_camera_bench.py):
a 45° tilted 450x800 camera, a chessboard calibration photo and three frames of random
legal boards, read by the real reader with and without the table profile.
"""
from __future__ import annotations

import numpy as np
import pytest

from bench import fixed_camera_bench as fcb

STAND = 9  # hard tier: 450x800 portrait, 45° tilt, k1 -0.13, black cloth, boards of 28, 18, 17 tiles
FRAMES = 3
MAX_SIDE = 800


@pytest.fixture(scope="module")
def stand(tmp_path_factory):
    s = fcb.make_stand("hard", STAND, FRAMES, MAX_SIDE)
    cal, shots = fcb.ensure_stand(s, tmp_path_factory.mktemp("stand"))
    profile, err = fcb.calibrate_table(cal, cal.with_name("profile.json"))
    assert err is None, err
    return s, shots, profile


def test_the_camera_does_not_move_between_frames(stand):
    s, shots, _ = stand
    assert s.params["tilt_deg"] > 40 and (s.params["width"], s.params["height"]) == (450, 800)
    # one camera: the same table point lands on the same pixel in every frame
    cams = [tr["render"]["camera"] for _, tr in shots]
    assert all(c == cams[0] for c in cams)
    assert len({len(tr["tiles"]) for _, tr in shots}) == FRAMES  # different boards


def test_calibration_photo_fixes_scale_and_tilt(stand):
    s, shots, profile = stand
    table = profile.table
    assert table.source == "board" and profile.camera is None
    assert table.tilt_deg == pytest.approx(s.params["tilt_deg"], abs=2.0)
    # the true tile centres of every frame, rectified, lie one tile pitch apart in all
    # three lattice directions: scale right within a few %, tilt removed
    spacing = fcb.rectified_spacing(table, [tr for _, tr in shots])
    assert spacing["pairs"] > 50
    assert spacing["pitch_ratio"] == pytest.approx(1.0, abs=0.03)
    assert spacing["anisotropy"] < 0.02
    assert spacing["tiles_outside_view"] == 0  # the crop at 2x zoom keeps every tile
    # the rectified view stays about the photo's size (the far table is not blown up)
    w, h = table.image_size
    rw, rh = table.rectified_size
    assert rw * rh < 2.0 * w * h


def test_rectified_view_beyond_the_photo_is_table_coloured(stand):
    import cv2

    from calibration.prepare import prepare
    from calibration.table import rectify_maps

    _, shots, profile = stand
    photo = cv2.imread(str(shots[0][0]))
    prep = prepare(photo, profile)
    assert prep.steps == ("rectify",) and prep.tile_pitch_px == pytest.approx(profile.table.tile_pitch_px)
    mx, my = rectify_maps(profile.table)
    h, w = photo.shape[:2]
    outside = (mx < -1) | (my < -1) | (mx > w) | (my > h)
    assert outside.any()
    border = np.concatenate([photo[:8].reshape(-1, 3), photo[-8:].reshape(-1, 3)])
    fill = prep.image[outside].astype(int)
    assert np.abs(np.median(fill, axis=0) - np.median(border, axis=0)).max() <= 2


def test_reading_with_the_table_profile_is_at_least_as_good(stand):
    _, shots, profile = stand
    without = [fcb.read_scored(path, truth, None) for path, truth in shots]
    with_table = [fcb.read_scored(path, truth, profile) for path, truth in shots]
    tiles = sum(r["truth_tiles"] for r in without)

    def total(rows, key):
        return sum(r[key] for r in rows)

    assert all(r["error"] is None for r in with_table)
    assert total(with_table, "agree") >= total(without, "agree")
    assert total(with_table, "tp") >= total(without, "tp")
    # on this 45° stand the rectified frames read nearly every tile
    assert total(with_table, "agree") >= 0.8 * tiles
    # read pixels are reported in the photo, not in the rectified view
    assert total(with_table, "tp") >= 0.8 * tiles
