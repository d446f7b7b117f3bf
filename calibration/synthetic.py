"""Synthetic photos of flat printed things seen by a known camera (for tests and benchmarks).

A texture printed at ``px_per_mm`` lies on the table plane (z = 0, x right, y down, mm);
a camera with intrinsics ``k``, distortion ``dist`` and pose ``(rvec, tvec)`` photographs
it.  Every photo pixel is traced back exactly: undistort it, intersect its ray with the
plane, look the texture up.  Blur and noise are added afterwards like a real sensor.
"""
from __future__ import annotations

import cv2
import numpy as np


def look_at_pose(distance_mm: float, tilt_deg: float, turn_deg: float, target_mm: tuple[float, float],
                 roll_deg: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """A camera ``distance_mm`` from ``target_mm`` on the plane, tilted ``tilt_deg`` from overhead.

    ``turn_deg`` is the direction (around the plane normal) the camera leans from;
    returns OpenCV's ``(rvec, tvec)`` mapping plane points into camera coordinates.
    """
    t, a = np.radians(tilt_deg), np.radians(turn_deg)
    target = np.array([target_mm[0], target_mm[1], 0.0])
    # Camera above the plane (negative z, since the camera looks along +z at the plane).
    offset = np.array([np.sin(t) * np.cos(a), np.sin(t) * np.sin(a), -np.cos(t)]) * distance_mm
    centre = target + offset
    forward = (target - centre) / distance_mm
    up_hint = np.array([0.0, -1.0, 0.0]) if abs(forward[1]) < 0.9 else np.array([1.0, 0.0, 0.0])
    right = np.cross(forward, up_hint)
    right /= np.linalg.norm(right)
    down = np.cross(forward, right)
    r = np.vstack([right, down, forward])  # rows: camera axes in plane coordinates
    roll = np.radians(roll_deg)
    rz = np.array([[np.cos(roll), -np.sin(roll), 0], [np.sin(roll), np.cos(roll), 0], [0, 0, 1]])
    r = rz @ r
    rvec, _ = cv2.Rodrigues(r)
    tvec = -r @ centre
    return rvec.ravel(), tvec.ravel()


def render_plane(texture: np.ndarray, px_per_mm: float, origin_px: tuple[float, float],
                 k: np.ndarray, dist: np.ndarray, rvec: np.ndarray, tvec: np.ndarray,
                 size: tuple[int, int], background: int | tuple[int, ...] = 90) -> np.ndarray:
    """Photograph ``texture`` (plane point (0, 0) mm at texture pixel ``origin_px``).

    ``size`` is the photo's (width, height).  Pixels whose ray misses the texture get
    ``background``.
    """
    w, h = size
    xs, ys = np.meshgrid(np.arange(w, dtype=np.float64), np.arange(h, dtype=np.float64))
    pix = np.stack([xs.ravel(), ys.ravel()], axis=1).reshape(-1, 1, 2)
    norm = cv2.undistortPoints(pix, k, dist, criteria=(cv2.TERM_CRITERIA_COUNT | cv2.TERM_CRITERIA_EPS, 40, 1e-10))
    norm = norm.reshape(-1, 2)
    r, _ = cv2.Rodrigues(np.asarray(rvec, float))
    # Plane → normalised camera coordinates is the homography [r1 r2 t]; invert it.
    hom = np.column_stack([r[:, 0], r[:, 1], np.asarray(tvec, float)])
    inv = np.linalg.inv(hom)
    rays = np.hstack([norm, np.ones((len(norm), 1))]) @ inv.T
    plane = rays[:, :2] / rays[:, 2:3]
    map_x = (plane[:, 0] * px_per_mm + origin_px[0] - 0.5).reshape(h, w).astype(np.float32)
    map_y = (plane[:, 1] * px_per_mm + origin_px[1] - 0.5).reshape(h, w).astype(np.float32)
    border = background if isinstance(background, tuple) else (background,) * 4
    return cv2.remap(texture, map_x, map_y, cv2.INTER_LINEAR,
                     borderMode=cv2.BORDER_CONSTANT, borderValue=border)


def sensor(image: np.ndarray, rng: np.random.Generator, blur_sigma: float = 0.8, noise: float = 3.0) -> np.ndarray:
    """Lens blur and sensor noise on a rendered photo (uint8 in, uint8 out)."""
    out = cv2.GaussianBlur(image.astype(np.float32), (0, 0), blur_sigma) if blur_sigma > 0 else image.astype(np.float32)
    out += rng.normal(0, noise, out.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def apply_cast(image_bgr: np.ndarray, gains_rgb: tuple[float, float, float], exposure: float = 1.0) -> np.ndarray:
    """A colour cast: each linear-RGB channel times its gain (and ``exposure``), BGR uint8 in/out."""
    v = image_bgr.astype(np.float64) / 255.0
    lin = np.where(v <= 0.04045, v / 12.92, ((v + 0.055) / 1.055) ** 2.4)
    lin = lin * np.array(gains_rgb[::-1]) * exposure
    lin = np.clip(lin, 0, 1)
    out = np.where(lin <= 0.0031308, lin * 12.92, 1.055 * lin ** (1 / 2.4) - 0.055)
    return np.clip(np.round(out * 255), 0, 255).astype(np.uint8)


def composite_tiles(tile_dir, layout: list[tuple[tuple[int, int], int, int]], *, radius: float = 66.0,
                    background: tuple[int, int, int] = (150, 160, 170), size: tuple[int, int] | None = None,
                    rng: np.random.Generator | None = None) -> tuple[np.ndarray, dict]:
    """Lay real tile photos on a flat-topped hex lattice: a top-down synthetic table photo.

    ``tile_dir`` holds ``tile_NN.png`` (BGRA, flat-topped, edge 0 at the top) and
    ``labels.csv`` (``tile,edge_colours_in_photo``), as ../shared/real_tiles does.
    ``layout``: ``((q, r), tile number, turn)`` with ``turn`` = clockwise 60° steps
    applied to the photo.  ``radius`` is the lattice centre-to-corner in pixels.
    Returns the BGR image and the board JSON (CONTRACT.md, with ``pixel`` centres).
    """
    import csv
    from pathlib import Path

    from referee.hexgrid import to_pixel
    from referee.tiles import find_tile

    tile_dir = Path(tile_dir)
    initials = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
    with open(tile_dir / "labels.csv") as f:
        seen = {int(row["tile"]): tuple(initials[c] for c in row["edge_colours_in_photo"])
                for row in csv.DictReader(f)}
    centres = np.array([to_pixel(c, radius) for c, _, _ in layout])
    lo = centres.min(axis=0) - 1.5 * radius
    hi = centres.max(axis=0) + 1.5 * radius
    w, h = size if size is not None else (int(hi[0] - lo[0]), int(hi[1] - lo[1]))
    shift = (np.array([w, h]) - (hi - lo)) / 2 - lo
    canvas = np.empty((h, w, 3), np.float32)
    canvas[:] = background
    if rng is not None:  # a little cloth texture
        canvas += cv2.GaussianBlur(rng.normal(0, 6, (h, w, 1)).astype(np.float32), (0, 0), 1.5)[..., None]
    tiles = []
    for (cell, number, turn), centre in zip(layout, centres + shift):
        tile = cv2.imread(str(tile_dir / f"tile_{number:02d}.png"), cv2.IMREAD_UNCHANGED)
        th, tw = tile.shape[:2]
        pad = int(max(th, tw) * 0.15)
        tile = cv2.copyMakeBorder(tile, pad, pad, pad, pad, cv2.BORDER_CONSTANT, value=(0, 0, 0, 0))
        th, tw = tile.shape[:2]
        scale = radius / (tw - 2 * pad) * 2 * 0.985
        m = cv2.getRotationMatrix2D(((tw - 1) / 2, (th - 1) / 2), -60.0 * turn, scale)
        m[:, 2] += centre - [(tw - 1) / 2, (th - 1) / 2]
        warped = cv2.warpAffine(tile, m, (w, h), flags=cv2.INTER_LINEAR, borderValue=(0, 0, 0, 0))
        alpha = warped[..., 3:4].astype(np.float32) / 255.0
        canvas = canvas * (1 - alpha) + warped[..., :3].astype(np.float32) * alpha
        edges = tuple(seen[number][(i - turn) % 6] for i in range(6))
        found = find_tile(edges)
        if found is None or found[0] != number:
            raise ValueError(f"labels.csv edges of tile {number} do not match the tile set")
        tiles.append({"q": cell[0], "r": cell[1], "tile": number, "rotation": found[1],
                      "pixel": [round(float(centre[0]), 2), round(float(centre[1]), 2)]})
    image = np.clip(np.round(canvas), 0, 255).astype(np.uint8)
    return image, {"tiles": tiles, "image": {"width": w, "height": h}}
