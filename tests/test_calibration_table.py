"""Table-plane profiles: homography recovery from a printed board and from tile centres."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from calibration import camera, table
from calibration.camera import BoardSpec, CameraProfile
from calibration.synthetic import look_at_pose, render_plane, sensor
from referee import board as boards
from referee.errors import BadInput
from referee.hexgrid import to_pixel
from tantrix.cli import main

SIZE = (960, 720)
K = np.array([[900.0, 0, 478.0], [0, 900.0, 361.0], [0, 0, 1]])
D = np.array([-0.12, 0.05, 0.0, 0.0, 0.0])
PPM = 4.0
BOARD = BoardSpec("chessboard", (9, 6), 25.0)
TILT = 35.0


def _photo(k=K, d=D, tilt=TILT, seed=0):
    texture = camera.board_image(BOARD, dpi=25.4 * PPM, margin_mm=12)
    rvec, tvec = look_at_pose(420, tilt, 70, (112.5, 75.0), roll_deg=8)
    img = render_plane(texture, PPM, (12 * PPM, 12 * PPM), k, d, rvec, tvec, SIZE, 110)
    return sensor(img, np.random.default_rng(seed), 0.7, 2.0)


def _true_camera(d=D) -> CameraProfile:
    return CameraProfile(K.copy(), np.asarray(d, float), SIZE, 0.0)


def _grid_residual(points: np.ndarray, cols: int, rows: int) -> tuple[float, float]:
    """Fit a similarity (scale, turn, shift) to a detected corner grid; (RMS px, spacing px)."""
    ideal = np.mgrid[0:cols, 0:rows].T.reshape(-1, 2).astype(np.float64)
    m, _ = cv2.estimateAffinePartial2D(ideal, points.astype(np.float64), method=cv2.LMEDS)
    fit = ideal @ m[:, :2].T + m[:, 2]
    rms = float(np.sqrt(np.mean(np.sum((fit - points) ** 2, axis=1))))
    return rms, float(np.sqrt(abs(np.linalg.det(m[:, :2]))))


def test_board_photo_fixes_plane_scale_and_tilt():
    cam = _true_camera()
    prof = table.from_board_photo(_photo(), BOARD, cam, tile_mm=45.0)
    assert prof.tilt_deg == pytest.approx(TILT, abs=1.0)
    assert prof.tile_pitch_px == pytest.approx(45.0 * prof.px_per_mm)
    assert prof.rms_px < 0.5
    # The rectified photo shows the board as a perfect grid at the profile's scale.
    flat = table.rectify(_photo(seed=1), prof, cam, border=110)
    found = camera.find_board(flat, BOARD)
    assert found is not None
    rms, spacing = _grid_residual(found[1], *BOARD.inner_corners)
    assert rms < 0.5
    assert spacing == pytest.approx(25.0 * prof.px_per_mm, rel=0.005)


def test_tilt_without_camera_profile_is_estimated():
    no_lens = np.zeros(5)
    prof = table.from_board_photo(_photo(d=no_lens), BOARD, None)
    assert prof.tilt_deg == pytest.approx(TILT, abs=3.0)
    flat = table.rectify(_photo(d=no_lens, seed=2), prof, None, border=110)
    rms, _ = _grid_residual(camera.find_board(flat, BOARD)[1], *BOARD.inner_corners)
    assert rms < 0.5


def test_overhead_camera_has_no_tilt():
    prof = table.from_board_photo(_photo(d=np.zeros(5), tilt=0.0), BOARD, None)
    assert prof.tilt_deg == pytest.approx(0.0, abs=2.0)


def test_point_maps_round_trip():
    cam = _true_camera()
    prof = table.from_board_photo(_photo(), BOARD, cam)
    pts = np.random.default_rng(4).uniform([100, 100], [860, 620], (30, 2))
    back = prof.to_photo(prof.to_rectified(pts, cam), cam)
    assert np.abs(back - pts).max() < 0.05
    # the expected tile pitch in the photo shrinks towards the far (upper) side
    near, far = prof.photo_pitch_px((480, 650), cam), prof.photo_pitch_px((480, 80), cam)
    assert near > far > 0


def _lattice_view(tilt: float, noise: float, seed: int):
    """Tile centres on a hex lattice (pitch 45 mm) seen by K at ``tilt``: cells, pixels."""
    cells = [(q, r) for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3]
    radius_mm = 45.0 / np.sqrt(3)
    plane = np.array([[*to_pixel(c, radius_mm), 0.0] for c in cells])
    rvec, tvec = look_at_pose(500, tilt, 200, (0.0, 0.0), roll_deg=-12)
    pix, _ = cv2.projectPoints(plane, rvec, tvec, K, np.zeros(5))
    pix = pix.reshape(-1, 2) + np.random.default_rng(seed).normal(0, noise, (len(cells), 2))
    return cells, pix


def test_tile_centres_fix_plane_and_pitch():
    cells, pix = _lattice_view(30.0, 0.5, 0)
    prof = table.from_tiles(list(zip(cells, map(tuple, pix))), SIZE, None)
    assert prof.source == "tiles" and prof.px_per_mm is None
    assert prof.tilt_deg == pytest.approx(30.0, abs=3.0)
    rect = prof.to_rectified(pix)
    # neighbours are one pitch apart everywhere in the rectified view
    index = {c: i for i, c in enumerate(cells)}
    d = [np.linalg.norm(rect[index[(q + 1, r)]] - rect[index[(q, r)]]) for q, r in cells if (q + 1, r) in index]
    assert np.std(d) / np.mean(d) < 0.02  # 0.5 px of noise on a ~75 px pitch
    assert np.mean(d) == pytest.approx(prof.tile_pitch_px, rel=0.01)


def test_tile_centres_with_known_camera_give_tilt():
    cells, pix = _lattice_view(40.0, 0.3, 1)
    prof = table.from_tiles(list(zip(cells, map(tuple, pix))), SIZE, CameraProfile(K, np.zeros(5), SIZE, 0.0))
    assert prof.tilt_deg == pytest.approx(40.0, abs=1.0)


def test_a_misplaced_centre_is_ignored():
    cells, pix = _lattice_view(25.0, 0.3, 2)
    pix[5] += [40, -30]
    prof = table.from_tiles(list(zip(cells, map(tuple, pix))), SIZE, None)
    assert prof.tilt_deg == pytest.approx(25.0, abs=3.0)


def test_too_few_or_collinear_tiles_are_bad_input():
    with pytest.raises(BadInput, match="at least 4"):
        table.from_tiles([((0, 0), (1, 1)), ((1, 0), (50, 1)), ((2, 0), (100, 1))], SIZE)
    with pytest.raises(BadInput, match="one row"):
        table.from_tiles([((0, i), (1, 60 * i)) for i in range(5)], SIZE)


def test_real_photo_tiles_calibrate_table(shared_dir):
    """The hand-labelled real photo: its tile centres lie on one rectified lattice."""
    b = boards.load(shared_dir / "real_photos" / "discovery10.json")
    items = [(c, tuple(b.extras[c]["pixel"])) for c in b.tiles]
    prof = table.from_tiles(items, (1600, 1200))
    assert prof.rms_px < 0.02 * prof.tile_pitch_px  # hand labels are good to a few px
    photo_pitch = prof.photo_pitch_px(tuple(b.extras[(0, 0)]["pixel"]) if (0, 0) in b.extras else items[0][1])
    assert 150 < photo_pitch < 400


def test_profile_rejects_photo_of_other_size():
    prof = table.from_board_photo(_photo(d=np.zeros(5)), BOARD, None)
    with pytest.raises(BadInput, match="table profile is for 960x720"):
        table.rectify(np.zeros((100, 100, 3), np.uint8), prof)


def test_cli_table_from_board_and_from_tiles(tmp_path, shared_dir, capsys):
    photo = tmp_path / "table.png"
    cv2.imwrite(str(photo), _photo(d=np.zeros(5)))
    out = tmp_path / "p.json"
    assert main(["calibrate", "table", str(photo), "--tile-mm", "44", "-o", str(out)]) == 0
    assert "camera tilt" in capsys.readouterr().out
    t = json.loads(out.read_text())["table"]
    assert t["source"] == "board" and abs(t["tilt_deg"] - TILT) < 3
    assert t["tile_pitch_px"] == pytest.approx(44 * t["px_per_mm"], rel=1e-3)
    real = shared_dir / "real_photos"
    out2 = tmp_path / "q.json"
    assert main(["calibrate", "table", str(real / "discovery10.jpg"), "--tiles",
                 str(real / "discovery10.json"), "-o", str(out2)]) == 0
    assert json.loads(out2.read_text())["table"]["source"] == "tiles"
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((200, 300, 3), 90, np.uint8))
    for argv in (["calibrate", "table", str(blank), "-o", str(tmp_path / "r.json")],
                 ["calibrate", "table", str(photo), "--tiles", str(tmp_path / "none.json")],
                 ["calibrate", "table", str(photo), "--tile-mm", "0.5"]):
        assert main(argv) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_prepare_rectifies_undistorts_or_passes_through():
    from calibration.prepare import prepare
    from calibration.profile import Profile

    cam = _true_camera()
    photo = _photo()
    prof = Profile(camera=cam, table=table.from_board_photo(photo, BOARD, cam, tile_mm=45.0))
    prep = prepare(photo, prof)
    assert prep.steps == ("undistort", "rectify")
    assert prep.image.shape[:2] == prof.table.rectified_size[::-1]
    assert prep.tile_pitch_px == pytest.approx(prof.table.tile_pitch_px)
    # board corners found in the prepared image map back onto the photo's corners
    _, in_photo = camera.find_board(photo, BOARD)
    _, in_prep = camera.find_board(prep.image, BOARD)
    assert np.abs(prep.to_photo(in_prep) - in_photo).max() < 0.5
    # a photo of another size: the table no longer holds, the lens still does
    small = cv2.resize(photo, (480, 360))
    prep2 = prepare(small, prof)
    assert prep2.steps == ("undistort",) and prep2.image.shape == small.shape and prep2.tile_pitch_px is None
    back = prep2.to_photo(np.array([[240.0, 180.0], [20.0, 20.0]]))
    assert np.abs(back[0] - [240, 180]).max() < 1.0  # the centre hardly moves, corners do
    assert np.abs(back[1] - [20, 20]).max() > 1.0
    prep3 = prepare(photo, None)
    assert prep3.image is photo and prep3.steps == ()
    with pytest.raises(BadInput, match="aspect"):
        prepare(np.zeros((500, 500, 3), np.uint8), Profile(camera=cam))


def test_cli_table_from_tiles_the_reader_finds(tmp_path, capsys):
    """No printed board: the tiles read confidently from the photo fix the plane."""
    from referee.board import Board
    from referee.hexgrid import ring
    from scenegen import default_params, render

    cells = [(0, 0)] + ring((0, 0), 1) + ring((0, 0), 2)
    rng = np.random.default_rng(7)
    board = Board.from_placements((c, n, int(rng.integers(6))) for c, n in zip(cells[:12], range(1, 13)))
    params = default_params()
    params["tilt_deg"] = 25.0
    img, _ = render(board, params, seed=3)
    photo, out = tmp_path / "shot.png", tmp_path / "t.json"
    cv2.imwrite(str(photo), img)
    assert main(["calibrate", "table", str(photo), "-o", str(out)]) == 0, capsys.readouterr().err
    assert "tiles read from the photo" in capsys.readouterr().err
    t = json.loads(out.read_text())["table"]
    assert t["source"] == "tiles"
    assert abs(t["tilt_deg"] - 25.0) < 4.0
