"""Camera calibration on photos rendered through a known camera, the printable board, the CLI."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from calibration import camera
from calibration.camera import BoardSpec, CameraProfile
from calibration.synthetic import look_at_pose, render_plane, sensor
from tantrix.cli import main

SIZE = (960, 720)
K_TRUE = np.array([[820.0, 0, 486.0], [0, 815.0, 352.0], [0, 0, 1]])
D_TRUE = np.array([-0.21, 0.09, 0.001, -0.0015, 0.0])
PX_PER_MM = 4.0
MARGIN_MM = 12.0


def _shots(board: BoardSpec, n: int, seed: int, size=SIZE, k=K_TRUE, d=D_TRUE) -> list[np.ndarray]:
    """``n`` photos of the printed ``board`` from varied poses, blurred and noisy."""
    texture = camera.board_image(board, dpi=25.4 * PX_PER_MM, margin_mm=MARGIN_MM)
    centre = (board.squares[0] * board.square_mm / 2, board.squares[1] * board.square_mm / 2)
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        rvec, tvec = look_at_pose(rng.uniform(330, 420), rng.uniform(10, 45), rng.uniform(0, 360), centre,
                                  roll_deg=rng.uniform(-30, 30))
        img = render_plane(texture, PX_PER_MM, (MARGIN_MM * PX_PER_MM,) * 2, k, d, rvec, tvec, size, 120)
        out.append(sensor(img, rng, blur_sigma=0.8, noise=3.0))
    return out


@pytest.fixture(scope="module")
def chess_photos() -> list[np.ndarray]:
    return _shots(BoardSpec("chessboard", (9, 6), 25.0), 10, seed=1)


@pytest.fixture(scope="module")
def chess_profile(chess_photos) -> CameraProfile:
    profile, notes = camera.calibrate(chess_photos, BoardSpec("chessboard", (9, 6), 25.0))
    assert notes == []
    return profile


def _rel(a: float, b: float) -> float:
    return abs(a - b) / abs(b)


def test_chessboard_recovers_known_intrinsics(chess_profile):
    k = chess_profile.camera_matrix
    assert chess_profile.photos_used == 10
    assert _rel(k[0, 0], K_TRUE[0, 0]) < 0.02
    assert _rel(k[1, 1], K_TRUE[1, 1]) < 0.02
    assert _rel(k[0, 2], K_TRUE[0, 2]) < 0.02
    assert _rel(k[1, 2], K_TRUE[1, 2]) < 0.02
    assert chess_profile.rms_px < 0.5
    assert max(chess_profile.per_photo_rms_px) < 0.5
    assert abs(chess_profile.dist_coeffs[0] - D_TRUE[0]) < 0.03


def test_charuco_recovers_known_intrinsics():
    board = BoardSpec("charuco", (9, 6), 25.0)
    photos = _shots(board, 8, seed=5)
    profile, _ = camera.calibrate(photos, board)
    k = profile.camera_matrix
    assert profile.photos_used >= 6
    for (i, j) in ((0, 0), (1, 1), (0, 2), (1, 2)):
        assert _rel(k[i, j], K_TRUE[i, j]) < 0.02
    assert profile.rms_px < 0.5


def test_undistort_straightens_the_board(chess_photos, chess_profile):
    """Corners of a flat board fit one homography after undistortion, not before."""
    board = BoardSpec("chessboard", (9, 6), 25.0)

    def homography_residual(img):
        obj, pts = camera.find_board(img, board)
        h, _ = cv2.findHomography(obj[:, :2], pts, 0)
        fit = cv2.perspectiveTransform(obj[:, None, :2].astype(np.float64), h).reshape(-1, 2)
        return float(np.sqrt(np.mean(np.sum((fit - pts) ** 2, axis=1))))

    from calibration.profile import Profile

    assert np.array_equal(camera.undistort(chess_photos[0], Profile(camera=chess_profile)),
                          camera.undistort(chess_photos[0], chess_profile))
    assert camera.undistort(chess_photos[0], Profile()) is chess_photos[0]
    raw = [homography_residual(p) for p in chess_photos[:4]]
    flat = [homography_residual(camera.undistort(p, chess_profile)) for p in chess_photos[:4]]
    assert max(flat) < 0.5
    assert min(raw) > 2 * max(flat)


def test_point_maps_invert_each_other(chess_profile):
    rng = np.random.default_rng(3)
    pts = rng.uniform([50, 50], [900, 670], (40, 2))
    flat = camera.undistort_points(pts, chess_profile)
    back = camera.distort_points(flat, chess_profile)
    assert np.abs(back - pts).max() < 0.05
    assert np.abs(flat - pts).max() > 1.0  # the lens does move points


def test_profile_scales_to_a_resized_photo(chess_profile):
    k = chess_profile.matrix_for((480, 360))
    assert np.allclose(k[:2], chess_profile.camera_matrix[:2] / 2, atol=1e-9)
    with pytest.raises(Exception, match="aspect"):
        chess_profile.matrix_for((720, 720))


def test_single_view_keeps_centre_fixed():
    board = BoardSpec("chessboard", (9, 6), 25.0)
    photos = _shots(board, 1, seed=9)
    profile, notes = camera.calibrate(photos, board)
    assert profile.photos_used == 1
    assert any("principal point fixed" in n for n in notes)
    assert profile.camera_matrix[0, 2] == pytest.approx((SIZE[0] - 1) / 2)


def test_no_board_in_photo_is_bad_input():
    from referee.errors import BadInput

    blank = np.full((480, 640, 3), 128, np.uint8)
    with pytest.raises(BadInput, match="no 9x6 chessboard found"):
        camera.calibrate([blank], BoardSpec())


@pytest.mark.parametrize("kind", ["chessboard", "charuco"])
def test_printed_board_has_true_size_and_is_detectable(tmp_path, kind, capsys):
    out = tmp_path / "board.png"
    assert main(["calibrate", "print-board", str(out), "--board", kind, "--squares", "7x5",
                 "--square-mm", "20", "--dpi", "150"]) == 0
    said = capsys.readouterr().out
    assert "7x5 squares of 20 mm" in said and "150 dpi" in said
    data = out.read_bytes()
    assert camera.png_dpi(data) == pytest.approx(150, abs=0.02)  # pHYs holds whole px per metre
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_GRAYSCALE)
    found = camera.find_board(cv2.cvtColor(img, cv2.COLOR_GRAY2BGR), BoardSpec(kind, (7, 5), 20.0))
    assert found is not None
    obj, pts = found
    # 20 mm at 150 dpi = 118.11 px between corners, everywhere on the sheet
    a, _ = cv2.estimateAffine2D(np.ascontiguousarray(obj[:, :2]), pts)
    scale = np.sqrt(abs(np.linalg.det(a[:, :2])))
    assert scale == pytest.approx(150 / 25.4, rel=0.003)


def test_cli_camera_writes_profile(tmp_path, capsys):
    board = BoardSpec("chessboard", (7, 5), 30.0)
    photos = _shots(board, 4, seed=11, size=(640, 480),
                    k=np.array([[560.0, 0, 322], [0, 560, 236], [0, 0, 1]]), d=np.array([-0.1, 0.02, 0, 0, 0]))
    paths = []
    for i, p in enumerate(photos):
        path = tmp_path / f"shot{i}.png"
        cv2.imwrite(str(path), p)
        paths.append(str(path))
    blank = tmp_path / "blank.png"
    cv2.imwrite(str(blank), np.full((480, 640, 3), 200, np.uint8))
    out = tmp_path / "prof.json"
    code = main(["calibrate", "camera", *paths, str(blank), "--squares", "7x5", "--square-mm", "30", "-o", str(out)])
    cap = capsys.readouterr()
    assert code == 0, cap.err
    assert "blank.png: no 7x5 chessboard found" in cap.err
    data = json.loads(out.read_text())
    cam = data["camera"]
    assert cam["image_size"] == [640, 480] and cam["photos_used"] == 4
    assert cam["rms_px"] < 0.5
    assert abs(cam["camera_matrix"][0][0] - 560) / 560 < 0.02
    assert cam["board"] == {"kind": "chessboard", "squares": [7, 5], "square_mm": 30.0}
    assert "RMS reprojection" in cap.out


def test_cli_camera_bad_inputs(tmp_path, capsys):
    a = tmp_path / "a.png"
    b = tmp_path / "b.png"
    cv2.imwrite(str(a), np.zeros((100, 120, 3), np.uint8))
    cv2.imwrite(str(b), np.zeros((90, 120, 3), np.uint8))
    junk = tmp_path / "junk.jpg"
    junk.write_bytes(b"not a jpeg at all")
    cases = [
        ["calibrate", "camera", str(tmp_path / "missing.jpg")],
        ["calibrate", "camera", str(junk)],
        ["calibrate", "camera", str(a), str(b)],
        ["calibrate", "camera", str(a), "--squares", "nine"],
        ["calibrate", "camera", str(a), "--square-mm", "-3"],
        ["calibrate", "camera", str(a), "-o", str(tmp_path / "nodir" / "p.json")],
        ["calibrate", "print-board", str(tmp_path / "x.jpg")],
        ["calibrate", "print-board", str(tmp_path / "x.png"), "--dpi", "5"],
    ]
    for argv in cases:
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("tantrix: ") and "Traceback" not in err, (argv, err)
