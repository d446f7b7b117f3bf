"""Does a lattice cell show the bare table?

A cell the reader cannot read is reported ``unreadable`` (a tile lies there, covered by a
hand, say), and the referee then counts the cell as occupied.  A hole inside a board passes
the reader's occupancy test (its edge midpoints show the neighbours' link ends, its corners
their bodies) and reads as no tile: reported unreadable, it would hide a forced space.  The
middle of a tile is always body or link (the tile mask), and a hand or an object over it
has colours of its own; a cell whose middle is off the tile mask *and* has the colour of
the table round it is a hole (or a patch of table the lattice strays over).
"""
from __future__ import annotations

import numpy as np

from . import colours

MIDDLE = 0.3
"""Radius of the middle disc tested, in cell sizes (centre to corner)."""

ON_MASK = 0.2
"""A middle with at least this share of its pixels on the tile mask is a tile's."""

NEAR_TABLE = 8.0
"""Lab distance (ΔE) of the middle's median colour from the table's under which it is the
table.  (hard and real-texture 0-119: holes and strays 1-4, hands and objects 10-50.)"""

AROUND = 3.0
"""Half-width of the window, in cell sizes, whose off-mask pixels give the table's colour."""


def bare_table(work: np.ndarray, mask: np.ndarray, centres: np.ndarray, size: float) -> np.ndarray:
    """Which cells show the table in their middle, (N,) bool.

    ``work``: BGR uint8 image (H, W, 3); ``mask``: its tile mask (H, W), non-zero on tile
    bodies and links; ``centres``: (N, 2) cell centres in ``work`` pixels; ``size``: the
    cells' centre-to-corner size in pixels.  The table's colour is the median of the
    off-mask pixels in a window round each cell (hands and objects there are a minority).
    """
    h, w = mask.shape
    out = np.zeros(len(centres), bool)
    rad = max(MIDDLE * size, 1.5)
    half = int(np.ceil(AROUND * size))
    for i, (x, y) in enumerate(np.asarray(centres, np.float64)):
        cx, cy = int(round(x)), int(round(y))
        x0, x1 = max(cx - half, 0), min(cx + half + 1, w)
        y0, y1 = max(cy - half, 0), min(cy + half + 1, h)
        if x1 - x0 < 3 or y1 - y0 < 3:
            continue
        yy, xx = np.mgrid[y0:y1, x0:x1]
        middle = (xx - x) ** 2 + (yy - y) ** 2 <= rad * rad
        if not middle.any():
            continue
        off = mask[y0:y1, x0:x1] == 0
        if (~off[middle]).mean() >= ON_MASK or off.sum() < 20:
            continue
        lab = colours.to_lab(work[y0:y1, x0:x1])
        lab[..., 0] *= 100.0 / 255.0  # ΔE on CIE lightness (0..100), as NEAR_TABLE was measured
        table = np.median(lab[off], axis=0)
        here = np.median(lab[middle], axis=0)
        out[i] = float(np.linalg.norm(here - table)) < NEAR_TABLE
    return out
