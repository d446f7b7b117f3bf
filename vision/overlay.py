"""Drawing a reading on the photo: lattice, tile outlines, numbers, confidence, findings."""
from __future__ import annotations

from typing import Any, Iterable

import cv2
import numpy as np

from .lattice import Lattice
from .reader import Scene

_GREEN = (60, 200, 60)
_ORANGE = (0, 160, 255)
_RED = (40, 40, 230)
_GREY = (170, 170, 170)


def _poly(img: np.ndarray, lat: Lattice, cell: tuple[int, int], scale: float, colour, thick: int,
          shift=(0.0, 0.0), origin=(0.0, 0.0)) -> None:
    pts = lat.hexagons(np.asarray([cell]), np.asarray([shift]))[0] / scale + np.asarray(origin)
    cv2.polylines(img, [np.round(pts).astype(np.int32)], True, colour, thick, cv2.LINE_AA)


def _text(img: np.ndarray, text: str, at, size: float, colour) -> None:
    org = (int(at[0]), int(at[1]))
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, size, (0, 0, 0), max(2, int(size * 4)), cv2.LINE_AA)
    cv2.putText(img, text, org, cv2.FONT_HERSHEY_SIMPLEX, size, colour, max(1, int(size * 2)), cv2.LINE_AA)


def draw(scene: Scene, findings: dict[str, Any] | None = None, image: np.ndarray | None = None) -> np.ndarray:
    """A BGR picture of ``scene``'s reading over its photo (decoded size).

    Thin grey lines: the lattice; green outlines: tiles read (orange when the confidence is
    low), with number and confidence; red outlines: unreadable tiles; ``findings`` (an
    analysis report) adds red marks on mismatched edges and circles on forced spaces.
    """
    img = (scene.photo.image if image is None else image).copy()
    lat = scene.lattice
    if lat is None:
        _text(img, "no tiles found", (10, 30), 0.8, _RED)
        return img
    s = scene.work_scale / scene.photo.scale  # working px per decoded px
    o = scene.origin * scene.photo.scale      # decoded px of the working image's corner
    size = float(np.median(lat.cell_size(scene.cells))) / s if len(scene.cells) else 20.0
    fs = max(0.35, size / 60.0)
    thick = max(1, int(size / 25))
    h, w = scene.work.shape[:2]
    for cell in lat.cells_in(w, h):
        _poly(img, lat, tuple(cell), s, _GREY, 1, origin=o)
    for cell, rd, px in scene.readings:
        col = _GREEN if rd.confidence >= 0.9 else _ORANGE
        _poly(img, lat, cell, s, col, thick + 1, scene.shifts.get(cell, (0.0, 0.0)), o)
        c = np.asarray(px) * scene.photo.scale
        _text(img, str(rd.tile), (c[0] - fs * 14, c[1]), fs, col)
        _text(img, f"{rd.confidence:.2f}", (c[0] - fs * 18, c[1] + fs * 26), fs * 0.6, col)
    for cell, _rd, px in scene.unreadable:
        _poly(img, lat, cell, s, _RED, thick + 1, scene.shifts.get(cell, (0.0, 0.0)), o)
        c = np.asarray(px) * scene.photo.scale
        _text(img, "?", (c[0] - fs * 8, c[1]), fs, _RED)
    for item in scene.loose:
        px = np.array(item.get("pixel", [0, 0])) * scene.photo.scale
        _text(img, f"loose {item.get('tile', '?')}", (px[0] - fs * 30, px[1]), fs * 0.8, _ORANGE)
    if findings:
        _draw_findings(img, lat, s, findings, thick, o)
    return img


def _cells(items: Iterable) -> list[tuple[int, int]]:
    out = []
    for it in items:
        if isinstance(it, dict) and "cell" in it:
            out.append(tuple(it["cell"]))
        elif isinstance(it, (list, tuple)) and len(it) == 2:
            out.append((int(it[0]), int(it[1])))
    return out


def _draw_findings(img: np.ndarray, lat: Lattice, s: float, findings: dict[str, Any], thick: int,
                   origin: np.ndarray) -> None:
    for m in findings.get("mismatches", []):
        a = lat.centres(np.array([m["cell"]]))[0] / s + origin
        b = lat.centres(np.array([m["neighbour"]]))[0] / s + origin
        mid = (a + b) / 2
        cv2.circle(img, (int(mid[0]), int(mid[1])), 4 * thick + 4, _RED, thick + 1, cv2.LINE_AA)
    for cell in _cells(findings.get("forced_spaces", [])):
        c = lat.centres(np.array([cell]))[0] / s + origin
        _poly(img, lat, cell, s, _ORANGE, thick, origin=origin)
        cv2.circle(img, (int(c[0]), int(c[1])), 3 * thick + 3, _ORANGE, -1, cv2.LINE_AA)


def write(path: str, picture: np.ndarray) -> None:
    """Save a picture (PNG/JPEG by extension); ``BadInput`` if it cannot be written."""
    from referee.errors import BadInput
    try:
        ok = cv2.imwrite(str(path), picture)
    except cv2.error:
        ok = False
    if not ok:
        raise BadInput(f"{path}: cannot write the overlay image")
