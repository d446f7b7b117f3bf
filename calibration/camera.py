"""Camera profile: lens intrinsics and distortion from photos of a printed board.

Units: pixels for the camera matrix and image sizes, millimetres for the board.  A
board is described by its number of *squares* ``(columns, rows)`` (a 9x6 chessboard has
8x5 inner corners) and the side of one square in mm.

Typical use::

    board = BoardSpec("chessboard", (9, 6), 25.0)
    cam = calibrate([load_image(p) for p in paths], board)
    flat = undistort(photo, cam)
"""
from __future__ import annotations

import struct
import zlib
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Sequence

import cv2
import numpy as np

from referee.errors import BadInput

from . import fields

BOARD_KINDS = ("chessboard", "charuco")
CHARUCO_DICTIONARY = cv2.aruco.DICT_5X5_1000
CHARUCO_MARKER_RATIO = 0.7
"""ArUco marker side as a fraction of the square side on boards we print."""


@dataclass(frozen=True)
class BoardSpec:
    """A printed calibration board: ``kind``, squares ``(columns, rows)``, square side in mm."""

    kind: str = "chessboard"
    squares: tuple[int, int] = (9, 6)
    square_mm: float = 25.0

    def __post_init__(self) -> None:
        if self.kind not in BOARD_KINDS:
            raise BadInput(f"unknown board kind {self.kind!r} (use {' or '.join(BOARD_KINDS)})")
        c, r = self.squares
        if c < 3 or r < 3 or c > 40 or r > 40:
            raise BadInput(f"board must have 3..40 squares each way, got {c}x{r}")
        if not (0 < self.square_mm < 1000):
            raise BadInput(f"square size must be between 0 and 1000 mm, got {self.square_mm}")

    @property
    def inner_corners(self) -> tuple[int, int]:
        """OpenCV's pattern size: inner corners per row and per column."""
        return (self.squares[0] - 1, self.squares[1] - 1)

    def object_points(self) -> np.ndarray:
        """The chessboard's inner corners on the board plane, (N, 3) float32 in mm, z = 0.

        Order is OpenCV's: row by row, left to right.
        """
        cols, rows = self.inner_corners
        grid = np.mgrid[0:cols, 0:rows].T.reshape(-1, 2).astype(np.float32)
        return np.hstack([(grid + 1) * self.square_mm, np.zeros((len(grid), 1), np.float32)])

    def charuco_board(self) -> "cv2.aruco.CharucoBoard":
        dictionary = cv2.aruco.getPredefinedDictionary(CHARUCO_DICTIONARY)
        return cv2.aruco.CharucoBoard(self.squares, self.square_mm,
                                      self.square_mm * CHARUCO_MARKER_RATIO, dictionary)

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "squares": list(self.squares), "square_mm": self.square_mm}

    @classmethod
    def from_json(cls, data: Any, where: str = "board") -> "BoardSpec":
        kind = fields.require(data, "kind", where)
        if kind not in BOARD_KINDS:
            raise BadInput(f"profile: {where}.kind must be one of {', '.join(BOARD_KINDS)}")
        sq = fields.size(fields.require(data, "squares", where), f"{where}.squares")
        mm = fields.number(fields.require(data, "square_mm", where), f"{where}.square_mm", positive=True)
        return cls(kind, sq, mm)


def parse_squares(text: str) -> tuple[int, int]:
    """``"9x6"`` → ``(9, 6)``; ``BadInput`` otherwise."""
    parts = text.lower().replace("×", "x").split("x")
    if len(parts) != 2 or not all(p.strip().isdigit() for p in parts):
        raise BadInput(f"--squares must look like 9x6, got {text!r}")
    return (int(parts[0]), int(parts[1]))


@dataclass
class CameraProfile:
    """Intrinsics of one camera at one zoom/focus.

    ``camera_matrix`` is the 3x3 K in pixels for images of ``image_size`` = (width, height);
    ``dist_coeffs`` are OpenCV's (k1, k2, p1, p2, k3, ...); ``rms_px`` is the RMS
    reprojection error of the calibration in pixels.
    """

    camera_matrix: np.ndarray
    dist_coeffs: np.ndarray
    image_size: tuple[int, int]
    rms_px: float
    board: BoardSpec | None = None
    photos_used: int = 0
    per_photo_rms_px: list[float] = field(default_factory=list)

    @property
    def focal_px(self) -> tuple[float, float]:
        return (float(self.camera_matrix[0, 0]), float(self.camera_matrix[1, 1]))

    def matrix_for(self, size: tuple[int, int]) -> np.ndarray:
        """K for images of ``size`` (w, h): the same camera, photo scaled uniformly.

        ``BadInput`` if the aspect ratio differs (a crop or another camera mode).
        """
        w0, h0 = self.image_size
        w, h = size
        if (w, h) == (w0, h0):
            return self.camera_matrix.copy()
        sx, sy = w / w0, h / h0
        if abs(sx - sy) > 0.01 * max(sx, sy):
            raise BadInput(f"photo is {w}x{h} but the camera profile is for {w0}x{h0} (other aspect ratio)")
        k = self.camera_matrix.copy()
        k[0, :] *= sx
        k[1, :] *= sy
        k[2, :] = [0, 0, 1]
        return k

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "image_size": list(self.image_size),
            "camera_matrix": np.round(self.camera_matrix, 6).tolist(),
            "dist_coeffs": np.round(self.dist_coeffs.ravel(), 9).tolist(),
            "rms_px": round(float(self.rms_px), 4),
            "photos_used": self.photos_used,
        }
        if self.per_photo_rms_px:
            out["per_photo_rms_px"] = [round(float(v), 4) for v in self.per_photo_rms_px]
        if self.board is not None:
            out["board"] = self.board.to_json()
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "camera") -> "CameraProfile":
        k = fields.array(fields.require(data, "camera_matrix", where), f"{where}.camera_matrix", (3, 3))
        if k[0, 0] <= 0 or k[1, 1] <= 0 or not np.allclose(k[2], [0, 0, 1]):
            raise BadInput(f"profile: {where}.camera_matrix is not a camera matrix "
                           "(needs positive focal lengths and last row 0 0 1)")
        d = fields.array(fields.require(data, "dist_coeffs", where), f"{where}.dist_coeffs", (None,))
        if d.size not in (4, 5, 8, 12, 14):
            raise BadInput(f"profile: {where}.dist_coeffs must have 4, 5, 8, 12 or 14 numbers")
        size = fields.size(fields.require(data, "image_size", where), f"{where}.image_size")
        rms = fields.number(data.get("rms_px", 0.0), f"{where}.rms_px")
        board = BoardSpec.from_json(data["board"], f"{where}.board") if "board" in data else None
        used = fields.integer(data.get("photos_used", 0), f"{where}.photos_used", minimum=0)
        return cls(k, d, size, rms, board, used)


# -- detection ------------------------------------------------------------------------

def find_board(image: np.ndarray, board: BoardSpec) -> tuple[np.ndarray, np.ndarray] | None:
    """Find ``board`` in a BGR or grey photo.

    Returns ``(object_points (N, 3) mm, image_points (N, 2) px)`` as float32, or ``None``
    if the board is not (completely, for a chessboard) visible.
    """
    grey = image if image.ndim == 2 else cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    if board.kind == "charuco":
        return _find_charuco(grey, board)
    return _find_chessboard(grey, board)


def _find_chessboard(grey: np.ndarray, board: BoardSpec) -> tuple[np.ndarray, np.ndarray] | None:
    pattern = board.inner_corners
    # The sector-based detector is more accurate and copes with blur; on big photos it is
    # slow, so search a reduced copy and refine the corners at full resolution.
    scale = min(1.0, 1600.0 / max(grey.shape))
    small = grey if scale == 1.0 else cv2.resize(grey, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    found, corners = cv2.findChessboardCornersSB(small, pattern, flags=cv2.CALIB_CB_NORMALIZE_IMAGE)
    if not found:
        found, corners = cv2.findChessboardCorners(
            small, pattern, flags=cv2.CALIB_CB_ADAPTIVE_THRESH | cv2.CALIB_CB_NORMALIZE_IMAGE)
        if not found:
            return None
    corners = corners.reshape(-1, 1, 2).astype(np.float32) / scale
    # Sub-pixel refinement window: a quarter of the smallest corner spacing, at least 2 px.
    spacing = _min_spacing(corners.reshape(-1, 2), pattern)
    win = int(max(2, min(11, spacing / 4)))
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 50, 0.001)
    corners = cv2.cornerSubPix(grey, corners, (win, win), (-1, -1), criteria)
    return board.object_points(), corners.reshape(-1, 2)


def _min_spacing(points: np.ndarray, pattern: tuple[int, int]) -> float:
    grid = points.reshape(pattern[1], pattern[0], 2)
    dx = np.linalg.norm(np.diff(grid, axis=1), axis=2).min() if pattern[0] > 1 else np.inf
    dy = np.linalg.norm(np.diff(grid, axis=0), axis=2).min() if pattern[1] > 1 else np.inf
    return float(min(dx, dy))


def _find_charuco(grey: np.ndarray, board: BoardSpec) -> tuple[np.ndarray, np.ndarray] | None:
    detector = cv2.aruco.CharucoDetector(board.charuco_board())
    corners, ids, _, _ = detector.detectBoard(grey)
    if corners is None or ids is None or len(ids) < 6:
        return None
    obj, img = board.charuco_board().matchImagePoints(corners, ids)
    if obj is None or len(obj) < 6:
        return None
    obj = obj.reshape(-1, 3).astype(np.float32)
    # Same origin convention as the chessboard: mm from the board's outer corner.
    return obj, img.reshape(-1, 2).astype(np.float32)


# -- calibration ----------------------------------------------------------------------

def calibrate(images: Sequence[np.ndarray], board: BoardSpec, *, names: Sequence[str] | None = None,
              progress: Callable[[Iterable], Iterable] | None = None) -> tuple[CameraProfile, list[str]]:
    """Calibrate from photos of ``board``; returns the profile and notes on skipped photos.

    All photos must have the same size.  With fewer than 3 usable photos the principal
    point is fixed at the image centre and the aspect ratio at 1 (a single view cannot
    pin them down).  ``k3`` is always fixed at 0: ordinary lenses do not need it and
    leaving it free lets it absorb noise.  ``progress`` wraps the loop over photos
    (e.g. ``tqdm``).  ``BadInput`` when no photo shows the board.
    """
    names = list(names) if names is not None else [f"photo {i + 1}" for i in range(len(images))]
    if not images:
        raise BadInput("no photos given")
    sizes = {(im.shape[1], im.shape[0]) for im in images}
    if len(sizes) > 1:
        raise BadInput("photos differ in size: " + ", ".join(f"{w}x{h}" for w, h in sorted(sizes)))
    size = sizes.pop()
    obj_pts, img_pts, notes, used = [], [], [], []
    iterator = progress(range(len(images))) if progress is not None else range(len(images))
    for i in iterator:
        found = find_board(images[i], board)
        if found is None:
            notes.append(f"{names[i]}: no {board.squares[0]}x{board.squares[1]} {board.kind} found, skipped")
            continue
        obj_pts.append(found[0])
        img_pts.append(found[1])
        used.append(i)
    if not obj_pts:
        raise BadInput(f"no {board.squares[0]}x{board.squares[1]} {board.kind} found in any photo")
    profile, more = calibrate_points(obj_pts, img_pts, size)
    profile.board = board
    return profile, notes + more


def calibrate_points(obj_pts: Sequence[np.ndarray], img_pts: Sequence[np.ndarray], size: tuple[int, int],
                     fix_k3: bool = True) -> tuple[CameraProfile, list[str]]:
    """The camera from board corners already found: per view (N, 3) plane points and (N, 2) pixels.

    See :func:`calibrate` for the model choices; ``fix_k3=False`` frees the sixth-order
    radial term for strongly distorting lenses (and needs many well spread views).
    """
    flags = cv2.CALIB_FIX_K3 if fix_k3 else 0
    k0 = None
    notes = []
    if len(obj_pts) < 3:
        flags |= cv2.CALIB_FIX_PRINCIPAL_POINT | cv2.CALIB_FIX_ASPECT_RATIO | cv2.CALIB_USE_INTRINSIC_GUESS
        f = float(max(size))  # a normal lens; refined by the solver
        k0 = np.array([[f, 0, (size[0] - 1) / 2], [0, f, (size[1] - 1) / 2], [0, 0, 1]], float)
        notes.append(f"only {len(obj_pts)} usable photo(s): principal point fixed at the centre; "
                     "10+ photos at varied angles give a better profile")
    obj_pts = [np.asarray(o, np.float32).reshape(-1, 3) for o in obj_pts]
    img_pts = [np.asarray(p, np.float32).reshape(-1, 2) for p in img_pts]
    criteria = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 100, 1e-9)
    rms, k, d, rvecs, tvecs = cv2.calibrateCamera(obj_pts, img_pts, size, k0, None,
                                                  flags=flags, criteria=criteria)
    per_photo = []
    for o, p, rv, tv in zip(obj_pts, img_pts, rvecs, tvecs):
        proj, _ = cv2.projectPoints(o, rv, tv, k, d)
        per_photo.append(float(np.sqrt(np.mean(np.sum((proj.reshape(-1, 2) - p) ** 2, axis=1)))))
    return CameraProfile(k, d.ravel(), size, float(rms), None, len(obj_pts), per_photo), notes


# -- using a profile ---------------------------------------------------------------------

_MAP_CACHE: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}


def undistort(image: np.ndarray, camera: "CameraProfile | Any") -> np.ndarray:
    """The photo with lens distortion removed, same size and same camera matrix.

    ``camera``: a :class:`CameraProfile`, or a whole profile (its ``camera`` section is
    used; without one the photo is returned unchanged).

    Straight lines on the table become straight; pixel coordinates keep their meaning
    (K is unchanged), so a point's position moves only by the distortion.  Photos
    scaled uniformly from the calibrated size are accepted.  The remap tables are
    cached per (profile, size) so repeated live frames cost one ``cv2.remap``.
    """
    if not isinstance(camera, CameraProfile):
        camera = getattr(camera, "camera", None)
        if camera is None:
            return image
    h, w = image.shape[:2]
    key = (id(camera), camera.camera_matrix.tobytes(), camera.dist_coeffs.tobytes(), w, h)
    maps = _MAP_CACHE.get(key)
    if maps is None:
        k = camera.matrix_for((w, h))
        maps = cv2.initUndistortRectifyMap(k, camera.dist_coeffs, None, k, (w, h), cv2.CV_16SC2)
        if len(_MAP_CACHE) > 8:
            _MAP_CACHE.clear()
        _MAP_CACHE[key] = maps
    return cv2.remap(image, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)


def undistort_points(points: np.ndarray, camera: CameraProfile, size: tuple[int, int] | None = None) -> np.ndarray:
    """Photo pixel coordinates (N, 2) → the same points in the undistorted photo (N, 2)."""
    k = camera.matrix_for(size or camera.image_size)
    pts = np.asarray(points, np.float64).reshape(-1, 1, 2)
    return cv2.undistortPoints(pts, k, camera.dist_coeffs, P=k).reshape(-1, 2)


def distort_points(points: np.ndarray, camera: CameraProfile, size: tuple[int, int] | None = None) -> np.ndarray:
    """Inverse of :func:`undistort_points`: undistorted pixels (N, 2) → photo pixels (N, 2)."""
    k = camera.matrix_for(size or camera.image_size)
    pts = np.asarray(points, np.float64).reshape(-1, 2)
    norm = (pts - k[:2, 2]) / [k[0, 0], k[1, 1]]
    obj = np.hstack([norm, np.ones((len(norm), 1))])
    proj, _ = cv2.projectPoints(obj, np.zeros(3), np.zeros(3), k, camera.dist_coeffs)
    return proj.reshape(-1, 2)


# -- printable board ---------------------------------------------------------------------

def board_image(board: BoardSpec, dpi: float = 300.0, margin_mm: float = 12.0) -> np.ndarray:
    """The board drawn at ``dpi`` with a white margin and its size written under it.

    Returns a grey uint8 image.  Square edges fall on rounded multiples of the exact
    square size in pixels, so the whole board is accurate to half a pixel.
    """
    if not (50 <= dpi <= 2400):
        raise BadInput(f"--dpi must be between 50 and 2400, got {dpi}")
    px_per_mm = dpi / 25.4
    cols, rows = board.squares
    side = board.square_mm * px_per_mm
    if side < 8:
        raise BadInput(f"squares of {board.square_mm} mm are only {side:.1f} px at {dpi} dpi; raise --dpi")
    bw, bh = int(round(cols * side)), int(round(rows * side))
    margin = int(round(margin_mm * px_per_mm))
    text_h = int(round(8 * px_per_mm))
    if board.kind == "charuco":
        drawn = board.charuco_board().generateImage((bw, bh), marginSize=0, borderBits=1)
    else:
        edges_x = np.round(np.arange(cols + 1) * side).astype(int)
        edges_y = np.round(np.arange(rows + 1) * side).astype(int)
        drawn = np.full((bh, bw), 255, np.uint8)
        for j in range(rows):
            for i in range(cols):
                if (i + j) % 2 == 0:
                    drawn[edges_y[j]:edges_y[j + 1], edges_x[i]:edges_x[i + 1]] = 0
    out = np.full((bh + 2 * margin + text_h, bw + 2 * margin), 255, np.uint8)
    out[margin:margin + bh, margin:margin + bw] = drawn
    label = describe_board(board, dpi)
    scale = max(0.3, 3.2 * px_per_mm / 30)
    (tw, th), _ = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, 1)
    if tw > out.shape[1] - 2 * margin:
        scale *= (out.shape[1] - 2 * margin) / tw
    cv2.putText(out, label, (margin, margin + bh + int(margin * 0.6) + th // 2), cv2.FONT_HERSHEY_SIMPLEX,
                scale, 0, max(1, int(scale * 1.5)), cv2.LINE_AA)
    return out


def describe_board(board: BoardSpec, dpi: float) -> str:
    """One line saying what the printed board is and how to print it."""
    c, r = board.squares
    return (f"Tantrix calibration {board.kind} {c}x{r} squares of {board.square_mm:g} mm "
            f"({c * board.square_mm:g} x {r * board.square_mm:g} mm) - print at 100% ({dpi:g} dpi), "
            f"check one square with a ruler")


def png_with_dpi(image: np.ndarray, dpi: float, comment: str) -> bytes:
    """Encode ``image`` as PNG carrying its physical resolution (pHYs) and a comment (tEXt)."""
    ok, buf = cv2.imencode(".png", image)
    if not ok:  # pragma: no cover - cv2 encodes any uint8 image
        raise BadInput("could not encode the board image")
    data = buf.tobytes()
    ppm = int(round(dpi / 0.0254))

    def chunk(kind: bytes, body: bytes) -> bytes:
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)

    extra = chunk(b"pHYs", struct.pack(">IIB", ppm, ppm, 1))
    extra += chunk(b"tEXt", b"Comment\x00" + comment.encode("latin-1", "replace"))
    ihdr_end = 8 + 8 + 13 + 4  # signature, IHDR length+type, IHDR body, CRC
    return data[:ihdr_end] + extra + data[ihdr_end:]


def png_dpi(data: bytes) -> float | None:
    """The dpi a PNG's pHYs chunk states, or ``None``."""
    pos = 8
    while pos + 8 <= len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        if kind == b"pHYs":
            x, _, unit = struct.unpack(">IIB", data[pos + 8:pos + 17])
            return x * 0.0254 if unit == 1 else None
        if kind == b"IDAT":
            return None
        pos += 12 + length
    return None
