"""Fixed-camera table profile: the table plane's homography from one calibration photo.

For a camera on a stand the table plane never moves, so one photo fixes the map from
photo pixels to a *rectified* view: the table seen from straight above, at a known
scale (``tile_pitch_px``: distance between the centres of two touching tiles, in
rectified pixels) and with the camera's tilt removed.  Live frames are then rectified
with one precomputed ``cv2.remap`` (lens distortion included when the profile also has
a camera section) and the reader's lattice search can start from the known scale.

Coordinates: "photo" = pixels of the raw camera image (``image_size``); "undistorted" =
the same pixels after :func:`calibration.camera.undistort` (equal to photo pixels
without a camera profile); "rectified" = pixels of :func:`rectify`'s output.
``homography`` maps undistorted → rectified.

Two ways to calibrate:

* :func:`from_board_photo`: a printed chessboard/ChArUco board lying flat on the table
  (its known square size gives mm, so ``tile_mm`` sets the tile pitch);
* :func:`from_tiles`: a board JSON with pixel centres (the reader's confident output or
  ground truth); the tile centres themselves fix the plane and the pitch.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

import cv2
import numpy as np

from referee.errors import BadInput
from referee.hexgrid import to_pixel

from . import fields
from .camera import BoardSpec, CameraProfile, distort_points, find_board, undistort_points

DEFAULT_TILE_MM = 45.0
"""Centre-to-centre distance of touching tiles (= width across flats) assumed when a
printed board calibrates the table and ``--tile-mm`` is not given; measure your tiles."""


@dataclass
class TableProfile:
    """The table plane seen by a fixed camera.

    ``homography``: 3x3, undistorted photo pixels → rectified pixels.
    ``image_size``/``rectified_size``: (width, height) of photos and of rectified images.
    ``tile_pitch_px``: centre distance of touching tiles in rectified pixels.
    ``px_per_mm``: rectified pixels per mm on the table, when known (board calibration).
    ``tilt_deg``: angle between the camera's axis and the table normal, when known.
    ``rms_px``: residual of the fit in rectified pixels.
    """

    homography: np.ndarray
    image_size: tuple[int, int]
    rectified_size: tuple[int, int]
    tile_pitch_px: float
    px_per_mm: float | None = None
    tilt_deg: float | None = None
    rms_px: float = 0.0
    source: str = "board"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "homography": np.round(self.homography, 12).tolist(),
            "image_size": list(self.image_size),
            "rectified_size": list(self.rectified_size),
            "tile_pitch_px": round(float(self.tile_pitch_px), 4),
            "rms_px": round(float(self.rms_px), 4),
            "source": self.source,
        }
        if self.px_per_mm is not None:
            out["px_per_mm"] = round(float(self.px_per_mm), 6)
        if self.tilt_deg is not None:
            out["tilt_deg"] = round(float(self.tilt_deg), 3)
        return out

    @classmethod
    def from_json(cls, data: Any, where: str = "table") -> "TableProfile":
        h = fields.array(fields.require(data, "homography", where), f"{where}.homography", (3, 3))
        if abs(np.linalg.det(h)) < 1e-12:
            raise BadInput(f"profile: {where}.homography is singular")
        size = fields.size(fields.require(data, "image_size", where), f"{where}.image_size")
        rsize = fields.size(fields.require(data, "rectified_size", where), f"{where}.rectified_size")
        pitch = fields.number(fields.require(data, "tile_pitch_px", where), f"{where}.tile_pitch_px", positive=True)
        ppm = data.get("px_per_mm")
        ppm = None if ppm is None else fields.number(ppm, f"{where}.px_per_mm", positive=True)
        tilt = data.get("tilt_deg")
        tilt = None if tilt is None else fields.number(tilt, f"{where}.tilt_deg")
        rms = fields.number(data.get("rms_px", 0.0), f"{where}.rms_px")
        source = data.get("source", "board")
        if not isinstance(source, str):
            raise BadInput(f"profile: {where}.source must be a string")
        return cls(h, size, rsize, pitch, ppm, tilt, rms, source)

    # -- point maps ------------------------------------------------------------------
    def to_rectified(self, points: np.ndarray, camera: CameraProfile | None = None) -> np.ndarray:
        """Photo pixels (N, 2) → rectified pixels (N, 2)."""
        pts = np.asarray(points, np.float64).reshape(-1, 2)
        if camera is not None:
            pts = undistort_points(pts, camera, self.image_size)
        return _apply(self.homography, pts)

    def to_photo(self, points: np.ndarray, camera: CameraProfile | None = None) -> np.ndarray:
        """Rectified pixels (N, 2) → photo pixels (N, 2) (e.g. tile centres for ``pixel``)."""
        pts = _apply(np.linalg.inv(self.homography), np.asarray(points, np.float64).reshape(-1, 2))
        if camera is not None:
            pts = distort_points(pts, camera, self.image_size)
        return pts

    def photo_pitch_px(self, point: tuple[float, float], camera: CameraProfile | None = None) -> float:
        """Expected tile pitch in *photo* pixels near ``point`` (for searching unrectified photos)."""
        p = np.asarray(point, float)
        r = self.to_rectified(p[None], camera)[0]
        ends = self.to_photo(np.array([r + [self.tile_pitch_px / 2, 0], r - [self.tile_pitch_px / 2, 0],
                                       r + [0, self.tile_pitch_px / 2], r - [0, self.tile_pitch_px / 2]]), camera)
        return float((np.linalg.norm(ends[0] - ends[1]) + np.linalg.norm(ends[2] - ends[3])) / 2)


def _apply(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    if len(pts) == 0:
        return pts.reshape(0, 2)
    return cv2.perspectiveTransform(pts.reshape(-1, 1, 2), h).reshape(-1, 2)


# -- building a profile ------------------------------------------------------------------

MAX_ZOOM = 2.0
"""Largest linear magnification, relative to the photo centre, that the rectified view keeps.

A tilted camera sees the far table small; rectifying blows it up by (depth ratio)^1.5,
without bound towards the horizon.  Beyond twice the centre's scale the photo holds
little detail, and keeping it made rectified images up to 12 times the photo's pixels
(mostly stretched far-off table), which the reader then shrank, tiles included."""


def _frame(plane_h: np.ndarray, size: tuple[int, int], max_side_factor: float = 2.0,
           max_zoom: float = MAX_ZOOM) -> tuple[np.ndarray, tuple[int, int], float]:
    """Turn a photo→plane homography into photo→rectified.

    The rectified image keeps the photo's pixel density at the photo centre and its
    "up" direction there, and is cropped to what the photo shows where the rectified
    view magnifies the photo at most ``max_zoom`` times the centre's scale (and at most
    ``max_side_factor`` times the photo's long side each way).  Returns (homography,
    size, scale) where scale is rectified px per plane unit.
    """
    w, h = size
    c = np.array([(w - 1) / 2, (h - 1) / 2])
    eps = 1.0
    pts = _apply(plane_h, np.array([c, c + [eps, 0], c + [0, eps]]))
    jac = np.column_stack([(pts[1] - pts[0]) / eps, (pts[2] - pts[0]) / eps])  # plane per photo px
    scale = 1.0 / np.sqrt(abs(np.linalg.det(jac)))
    ang = np.arctan2(jac[1, 0], jac[0, 0])  # photo x axis seen in the plane
    rot = np.array([[np.cos(-ang), -np.sin(-ang)], [np.sin(-ang), np.cos(-ang)]])
    sim = np.eye(3)
    sim[:2, :2] = scale * rot
    if np.linalg.det(jac) < 0:  # plane axes mirrored relative to the photo: flip y back
        sim[1, :] *= -1
    hr = sim @ plane_h
    # Bounds: photo points on a grid, in front of the camera and not magnified beyond
    # max_zoom.  A homography's Jacobian determinant is det(H) / w^3 (w its third row
    # times [x, y, 1]), so the linear zoom relative to the centre is (w_centre / w)^1.5.
    gx, gy = np.meshgrid(np.linspace(0, w - 1, 97), np.linspace(0, h - 1, 97))
    grid = np.column_stack([gx.ravel(), gy.ravel()])
    hom = np.hstack([grid, np.ones((len(grid), 1))]) @ hr.T
    w_centre = np.array([c[0], c[1], 1.0]) @ hr[2]
    ratio = hom[:, 2] / w_centre
    keep = ratio > 0
    keep[keep] = ratio[keep] ** -1.5 <= max_zoom
    pts = hom[keep, :2] / hom[keep, 2:3]
    centre = _apply(hr, c[None])[0]
    limit = max_side_factor * max(w, h)
    lo = np.maximum(pts.min(axis=0), centre - limit)
    hi = np.minimum(pts.max(axis=0), centre + limit)
    shift = np.array([[1, 0, -lo[0]], [0, 1, -lo[1]], [0, 0, 1.0]])
    hr = shift @ hr
    rsize = (int(np.ceil(hi[0] - lo[0])) + 1, int(np.ceil(hi[1] - lo[1])) + 1)
    return hr / hr[2, 2], rsize, scale


def camera_tilt(plane_to_photo: np.ndarray, k: np.ndarray | None, size: tuple[int, int]) -> float | None:
    """Angle (degrees) between the camera axis and the plane normal.

    ``plane_to_photo`` maps an isotropic plane frame to undistorted photo pixels.  With
    ``k`` unknown the focal length is solved from the homography assuming square
    pixels and the principal point at the image centre (Zhang's two constraints for
    one view); ``None`` when the view is too close to frontal or degenerate to tell.
    """
    g = np.asarray(plane_to_photo, float)
    if k is None:
        cx, cy = (size[0] - 1) / 2, (size[1] - 1) / 2
        t = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1.0]])
        m = t @ g
        m = m / np.linalg.norm(m[:, 0])
        h1, h2 = m[:, 0], m[:, 1]
        # Frontal views carry no perspective to measure: the projective depth is the same
        # at every photo corner.
        inv = np.linalg.inv(g)
        corners = np.array([[0, 0, 1], [size[0], 0, 1], [0, size[1], 1], [size[0], size[1], 1.0]])
        depth = corners @ inv[2]
        if np.all(depth > 0) and depth.max() / depth.min() < 1.02:
            return 0.0
        a = np.array([h1[0] * h2[0] + h1[1] * h2[1], (h1[0] ** 2 + h1[1] ** 2) - (h2[0] ** 2 + h2[1] ** 2)])
        b = np.array([h1[2] * h2[2], h1[2] ** 2 - h2[2] ** 2])
        # x·a + b = 0 for both constraints with x = 1/f^2, solved by least squares.
        x = -float(a @ b) / float(a @ a) if float(a @ a) > 0 else -1.0
        if not np.isfinite(x) or x <= 0:
            return None
        f2 = 1.0 / x
        if f2 > (100.0 * max(size)) ** 2:
            return 0.0  # an absurdly long focal length: no measurable perspective
        f = np.sqrt(f2)
        k = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
    m = np.linalg.inv(k) @ g
    r1, r2 = m[:, 0], m[:, 1]
    lam = 2.0 / (np.linalg.norm(r1) + np.linalg.norm(r2))
    r1, r2 = r1 * lam, r2 * lam
    n = np.cross(r1, r2)
    n /= np.linalg.norm(n)
    return float(np.degrees(np.arccos(min(1.0, abs(n[2])))))


def from_board_photo(image: np.ndarray, board: BoardSpec, camera: CameraProfile | None = None,
                     tile_mm: float = DEFAULT_TILE_MM) -> TableProfile:
    """Table profile from one photo of ``board`` lying flat on the table.

    ``tile_mm`` is the centre distance of touching tiles on the table (width across
    flats).  ``BadInput`` if the board is not found.
    """
    size = (image.shape[1], image.shape[0])
    found = find_board(image, board)
    if found is None:
        raise BadInput(f"no {board.squares[0]}x{board.squares[1]} {board.kind} found in the table photo")
    obj, img = found
    if camera is not None:
        img = undistort_points(img, camera, size).astype(np.float32)
    plane_h, _ = cv2.findHomography(img, obj[:, :2], 0)
    if plane_h is None:
        raise BadInput("table photo: the board's corners do not fix a plane")
    hr, rsize, scale = _frame(plane_h, size)
    rms = float(np.sqrt(np.mean(np.sum((_apply(hr, img) - _apply(hr, _apply(np.linalg.inv(plane_h), obj[:, :2].astype(np.float64)))) ** 2, axis=1))))
    k = camera.matrix_for(size) if camera is not None else None
    tilt = camera_tilt(np.linalg.inv(plane_h), k, size)
    return TableProfile(hr, size, rsize, tile_mm * scale, scale, tilt, rms, "board")


def from_tiles(cells: Iterable[tuple[tuple[int, int], tuple[float, float]]], image_size: tuple[int, int],
               camera: CameraProfile | None = None) -> TableProfile:
    """Table profile from tile centres whose lattice cells are known.

    ``cells``: ``((q, r), (x, y))`` pairs, photo pixels.  Needs at least 4 tiles not all
    in one row; with 8 or more a robust fit drops misplaced centres.
    """
    items = list(cells)
    if len(items) < 4:
        raise BadInput(f"table calibration from tiles needs at least 4 tiles with pixel centres, got {len(items)}")
    plane = np.array([to_pixel(c, 1.0) for c, _ in items], np.float64)  # centre-to-corner = 1
    pix = np.array([p for _, p in items], np.float64)
    if np.linalg.matrix_rank(plane - plane.mean(axis=0), tol=1e-6) < 2:
        raise BadInput("table calibration from tiles: the tiles lie in one row; use tiles spread in 2-D")
    if camera is not None:
        pix = undistort_points(pix, camera, image_size)
    method = cv2.RANSAC if len(items) >= 8 else 0
    plane_h, mask = cv2.findHomography(pix, plane, method, 0.15)
    if plane_h is None:
        raise BadInput("table calibration from tiles: the centres do not fix a plane")
    pitch_plane = np.sqrt(3.0)  # touching tiles' centres, centre-to-corner = 1
    hr, rsize, scale = _frame(plane_h, image_size)
    inl = mask.ravel().astype(bool) if mask is not None else np.ones(len(items), bool)
    fitted = _apply(hr, pix[inl])
    wanted = _apply(hr, _apply(np.linalg.inv(plane_h), plane[inl]))
    rms = float(np.sqrt(np.mean(np.sum((fitted - wanted) ** 2, axis=1))))
    k = camera.matrix_for(image_size) if camera is not None else None
    tilt = camera_tilt(np.linalg.inv(plane_h), k, image_size)
    return TableProfile(hr, image_size, rsize, pitch_plane * scale, None, tilt, rms, "tiles")


# -- rectifying live frames -----------------------------------------------------------------

_MAPS: dict[tuple, tuple[np.ndarray, np.ndarray]] = {}
MAP_STEP = 8
"""Spacing (rectified px) of the exactly computed points of a rectification map."""


def rectify_maps(table: TableProfile, camera: CameraProfile | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``cv2.remap`` tables (float32, rectified size) from photo pixels to rectified ones.

    Undistortion and the plane homography are folded into one lookup, computed once
    per profile and cached.
    """
    key = (table.homography.tobytes(), table.rectified_size, table.image_size,
           None if camera is None else (camera.camera_matrix.tobytes(), camera.dist_coeffs.tobytes()))
    maps = _MAPS.get(key)
    if maps is not None:
        return maps
    rw, rh = table.rectified_size
    # The map is smooth: compute it exactly on a grid every MAP_STEP pixels and
    # interpolate in between (errors far below a pixel, ~50x less work).
    cw, ch = (rw - 1) // MAP_STEP + 2, (rh - 1) // MAP_STEP + 2
    xs, ys = np.meshgrid(np.arange(cw, dtype=np.float64) * MAP_STEP, np.arange(ch, dtype=np.float64) * MAP_STEP)
    grid = np.stack([xs.ravel(), ys.ravel()], axis=1)
    inv = np.linalg.inv(table.homography)
    hom = np.hstack([grid, np.ones((len(grid), 1))]) @ inv.T
    with np.errstate(divide="ignore", invalid="ignore"):
        src = hom[:, :2] / hom[:, 2:3]
    far = ~np.all(np.isfinite(src) & (np.abs(src) < 1e5), axis=1)
    src[far] = -1e5
    if camera is not None and (~far).any():
        src[~far] = distort_points(src[~far], camera, table.image_size)
    coarse = src.reshape(ch, cw, 2).astype(np.float32)
    fx, fy = np.meshgrid(np.arange(rw, dtype=np.float32) / MAP_STEP, np.arange(rh, dtype=np.float32) / MAP_STEP)
    fine = cv2.remap(coarse, fx, fy, cv2.INTER_LINEAR)
    maps = (np.ascontiguousarray(fine[..., 0]), np.ascontiguousarray(fine[..., 1]))
    if len(_MAPS) > 4:
        _MAPS.clear()
    _MAPS[key] = maps
    return maps


def rectify(image: np.ndarray, table: TableProfile, camera: CameraProfile | None = None,
            border: int | tuple[int, ...] = 0) -> np.ndarray:
    """The table seen from straight above (``table.rectified_size``), distortion removed.

    ``image`` must be a photo of ``table.image_size`` from the calibrated camera.
    """
    h, w = image.shape[:2]
    if (w, h) != tuple(table.image_size):
        raise BadInput(f"photo is {w}x{h} but the table profile is for "
                       f"{table.image_size[0]}x{table.image_size[1]} photos from the fixed camera")
    mx, my = rectify_maps(table, camera)
    value = border if isinstance(border, tuple) else (border,) * 4
    return cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT, borderValue=value)
