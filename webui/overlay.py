"""Where to draw the report's findings on the photo.

The reader gives a pixel centre for every tile it read.  Findings on empty cells (forced
spaces, holes, controlled cells) have no pixel of their own, so a projective map from cell
centres (:func:`referee.hexgrid.to_pixel`) to photo pixels is fitted to the read tiles by
least squares and used to place them.  This is drawing geometry only: it decides nothing
about the position.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from referee.board import Board
from referee.hexgrid import to_pixel

Cell = tuple[int, int]


def _fit(cells: list[Cell], pixels: list[tuple[float, float]]):
    """A function cell -> (x, y) fitted to the known pairs, or ``None`` with too few."""
    src = np.array([to_pixel(c) for c in cells], float)
    dst = np.array(pixels, float)
    n = len(cells)
    if n == 0:
        return None
    if n < 3 or np.linalg.matrix_rank(np.c_[src, np.ones(n)]) < 3:
        # Too few or collinear: a similarity guess from the first tile and the tile size.
        off = dst[0] - src[0] * _scale_guess(src, dst)
        s = _scale_guess(src, dst)
        return lambda c: tuple(np.array(to_pixel(c)) * s + off)
    a = np.c_[src, np.ones(n)]
    if n >= 6:
        # Homography by DLT: perspective photos are not affine.
        rows = []
        for (x, y), (u, v) in zip(src, dst):
            rows.append([x, y, 1, 0, 0, 0, -u * x, -u * y, -u])
            rows.append([0, 0, 0, x, y, 1, -v * x, -v * y, -v])
        _, _, vt = np.linalg.svd(np.array(rows))
        hm = vt[-1].reshape(3, 3)
        if abs(hm[2, 2]) > 1e-12:
            hm = hm / hm[2, 2]

            def project(c):
                x, y = to_pixel(c)
                u, v, w = hm @ np.array([x, y, 1.0])
                return (u / w, v / w)

            err = max(math.dist(project(c), p) for c, p in zip(cells, pixels))
            if math.isfinite(err):
                return project
    m, *_ = np.linalg.lstsq(a, dst, rcond=None)
    return lambda c: tuple(np.array([*to_pixel(c), 1.0]) @ m)


def _scale_guess(src: np.ndarray, dst: np.ndarray) -> float:
    if len(src) >= 2:
        ds = np.linalg.norm(src[1] - src[0])
        if ds > 0:
            return float(np.linalg.norm(dst[1] - dst[0]) / ds)
    return 60.0  # a typical tile of ~120 px across, for a lone tile


def is_low(extra: dict[str, Any], threshold: float) -> bool:
    """Whether a read tile should be checked by hand: the reader flagged it, or its
    confidence is under the page's threshold."""
    conf = extra.get("confidence")
    if extra.get("corrected"):
        return False
    return bool(extra.get("low_confidence")) or (isinstance(conf, (int, float)) and conf < threshold)


def overlay(board: Board, report: dict[str, Any], low_confidence: float,
            flagged=frozenset()) -> dict[str, Any] | None:
    """Shapes to draw over the photo, in photo pixels; ``None`` without pixel data.

    Returns ``{"width", "height", "radius", "tiles": [...], "loose": [...],
    "marks": [{"kind", "cell", "x", "y"}], "mismatches": [{"x1","y1","x2","y2", ...}]}``;
    ``flagged`` cells (named by a puzzle verdict's reasons) are marks of kind ``flagged``.
    """
    image = board.meta.get("image") or {}
    if not isinstance(image, dict):
        return None
    known = {c: e["pixel"] for c, e in board.extras.items()
             if c in board.tiles and isinstance(e.get("pixel"), (list, tuple)) and len(e["pixel"]) == 2}
    if not image or not (known or board.loose):
        return None
    # Unreadable tiles have a cell and a pixel too: they help fit the lattice.
    anchors = dict(known)
    for u in board.meta.get("unreadable") or []:
        if isinstance(u, dict) and isinstance(u.get("pixel"), (list, tuple)) and len(u["pixel"]) == 2 \
                and isinstance(u.get("q"), int) and isinstance(u.get("r"), int):
            anchors.setdefault((u["q"], u["r"]), u["pixel"])
    cells = sorted(anchors)
    fit = _fit(cells, [tuple(map(float, anchors[c])) for c in cells])

    def at(c: Cell):
        if c in known:
            return tuple(map(float, known[c]))
        return fit(c) if fit else None

    radius = 40.0
    if fit:
        x0, y0 = fit((0, 0))
        x1, y1 = fit((1, 0))
        radius = max(4.0, math.dist((x0, y0), (x1, y1)) / math.sqrt(3))
    tiles = []
    for c in sorted(board.tiles):
        p = board.tiles[c]
        xy = at(c)
        if xy is None:
            continue
        conf = board.extras.get(c, {}).get("confidence")
        tiles.append({"cell": list(c), "tile": p.tile, "rotation": p.rotation,
                      "x": round(xy[0], 1), "y": round(xy[1], 1), "confidence": conf,
                      "low": is_low(board.extras.get(c, {}), low_confidence)})
    loose = [{"tile": t.get("tile"), "x": t["pixel"][0], "y": t["pixel"][1]}
             for t in board.loose if isinstance(t.get("pixel"), (list, tuple))]
    # Tiles the reader saw but could not read (a hand over them...): the page lets the
    # player say which tile lies there.
    unreadable = [{"cell": [u["q"], u["r"]], "x": u["pixel"][0], "y": u["pixel"][1]}
                  for u in board.meta.get("unreadable") or []
                  if isinstance(u, dict) and isinstance(u.get("pixel"), (list, tuple))
                  and isinstance(u.get("q"), int) and isinstance(u.get("r"), int)]
    marks = []
    kinds = (("forced", [s["cell"] for s in report.get("forced_spaces", [])]),
             ("double", report.get("double_gobbles", [])),
             ("same", report.get("same_colour_forced", [])),
             ("controlled", report.get("controlled_cells", [])),
             ("hole", report.get("holes", [])),
             ("flagged", sorted(flagged)))
    for kind, items in kinds:
        for cell in items:
            xy = at((int(cell[0]), int(cell[1])))
            if xy is not None:
                marks.append({"kind": kind, "cell": list(cell),
                              "x": round(xy[0], 1), "y": round(xy[1], 1)})
    mism = []
    for m in report.get("mismatches", []):
        a = at(tuple(m["cell"]))
        b = at(tuple(m["neighbour"]))
        if a is None or b is None:
            continue
        # The shared edge: perpendicular to the centre line, through its midpoint.
        mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
        dx, dy = b[0] - a[0], b[1] - a[1]
        norm = math.hypot(dx, dy) or 1.0
        half = norm / math.sqrt(3) / 2
        px, py = -dy / norm * half, dx / norm * half
        mism.append({"cell": m["cell"], "neighbour": m["neighbour"], "colours": m["colours"],
                     "x1": round(mx + px, 1), "y1": round(my + py, 1),
                     "x2": round(mx - px, 1), "y2": round(my - py, 1)})
    return {"width": image.get("width"), "height": image.get("height"),
            "radius": round(radius, 1), "tiles": tiles, "loose": loose, "unreadable": unreadable,
            "marks": marks, "mismatches": mism}
