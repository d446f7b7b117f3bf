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

import cv2
import numpy as np

from referee.hexgrid import ring

from . import colours
from .lattice import BASIS, CORNERS, Lattice

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
    out = np.zeros(len(centres), bool)
    for i, (x0, y0, x1, y1), middle in _middles(centres, size, mask.shape[:2]):
        off = mask[y0:y1, x0:x1] == 0
        if (~off[middle]).mean() >= ON_MASK or off.sum() < 20:
            continue
        lab = _lab(work[y0:y1, x0:x1])
        table = np.median(lab[off], axis=0)
        here = np.median(lab[middle], axis=0)
        out[i] = float(np.linalg.norm(here - table)) < NEAR_TABLE
    return out


LIKE_AROUND = 0.97
"""Share of a cell's pixels with colours the empty cells round it show, from which an
unreadable cell is the table (a patterned cloth: see :func:`like_around`)."""

PALETTE_BIN = 6.0
"""Side of the Lab colour bins (ΔE, lightness on 0..100) of :func:`like_around`."""

PALETTE_SHARE = 0.002
"""A colour bin is the table's when at least this share of the pixels round a cell fall
in it (fewer are noise or a passing speck)."""

AROUND_CELLS = 3
"""Hex distance out to which the empty cells round a cell give the table's colours."""


def like_around(work: np.ndarray, lat: Lattice, cells: np.ndarray, busy: set,
                spots: np.ndarray | None = None) -> np.ndarray:
    """Share of each cell's pixels whose colour the empty cells round it also show, (N,).

    The middle test (:func:`bare_table`) takes the table for one colour beside a tile
    mask; a striped, checked or flowered cloth has dark parts on the mask and bright ones
    off it, so a stray cell of such a cloth passes neither.  Its colours, though, are the
    colours of the cells round it, while a tile's body and links, a hand or an object bring
    colours of their own.  A hand spread over the empty cells round a covered tile lends
    them its colours too, and the tile then passes for table: on hard and real-texture
    0-199 this took 4 covered tiles' unreadable cells (and 6 other tiles' that read as no
    tile) along with 83 of the 129 unreadable cells where no tile lies.

    ``work``: BGR uint8 (H, W, 3); ``lat``: the lattice (plane → ``work`` pixels); ``cells``: (N, 2) cells to test; ``busy``: cells holding a tile or
    reported unreadable (never used as table); ``spots``: (M, 2) ``work`` pixels of loose
    tiles (their cells are not table either).  Cells with too little table round them get 0.
    """
    cells = np.asarray(cells, int).reshape(-1, 2)
    out = np.zeros(len(cells))
    if len(cells) == 0:
        return out
    skip = set(busy)
    if spots is not None and len(spots):
        skip |= {tuple(int(v) for v in c) for c in lat.cell_at(np.asarray(spots, np.float64))}
    h, w = work.shape[:2]
    for i, (q, r) in enumerate(cells):
        around = [c for k in range(1, AROUND_CELLS + 1) for c in ring((int(q), int(r)), k)
                  if c not in skip]
        table_polys = _hexagons(lat, around, 0.9)
        mine_poly = _hexagons(lat, [(q, r)], 0.8)
        # (only the window round the cell and its ring is converted: this runs on live
        # frames, and a whole 720p frame's Lab costs more than the rest of the test)
        pts = np.concatenate(table_polys + mine_poly)
        x0, y0 = np.maximum(np.floor(pts.min(0)), 0).astype(int)
        x1, y1 = np.minimum(np.ceil(pts.max(0)) + 1, [w, h]).astype(int)
        if x1 - x0 < 2 or y1 - y0 < 2:
            continue
        lab = _lab(work[y0:y1, x0:x1])
        table = lab[_filled(table_polys, (x0, y0), lab.shape[:2])]
        mine = lab[_filled(mine_poly, (x0, y0), lab.shape[:2])]
        # (a cell needs a few cells' worth of table round it to say what the table shows)
        if len(mine) < 10 or len(table) < 3 * max(len(mine), 50):
            continue
        out[i] = _palette_share(table, mine)
    return out


SAME_COLOUR = 16.0
"""Lab distance (ΔE) from a cell middle's median colour within which a pixel continues
that colour (:func:`spreads`)."""

SPREAD_CELLS = 2.0
"""A colour covering at least this many cells' area round a cell's middle runs on past
the cell (:func:`spreads`)."""


def spreads(work: np.ndarray, centres: np.ndarray, size: float) -> np.ndarray:
    """Does the colour in each cell's middle run on beyond the cell, (N,) bool?

    The pixels round the middle that keep its colour (:data:`SAME_COLOUR`), joined to it,
    cover :data:`SPREAD_CELLS` cells or reach the rim of the window looked at
    (:data:`AROUND` cell sizes each way).  A hand, its arm or an object laid over a tile
    runs on past the tile, as the dark bodies of a board do round a tile its links leave
    unread; a dot of a printed cloth in a hole of the board stays within the cell (hard
    and real-texture 0-199: empty cells hugged by the board 0.3-1.5 cells, hidden tiles
    mostly 2-9 or to the rim).  ``work``: BGR uint8 (H, W, 3); ``centres``: (N, 2) work
    pixels; ``size``: the cells' centre-to-corner size in pixels."""
    out = np.zeros(len(centres), bool)
    cell_area = 1.5 * np.sqrt(3.0) * size * size
    for i, (x0, y0, x1, y1), middle in _middles(centres, size, work.shape[:2]):
        lab = _lab(work[y0:y1, x0:x1])
        same = np.linalg.norm(lab - np.median(lab[middle], axis=0), axis=2) < SAME_COLOUR
        _n, labels = cv2.connectedComponents(same.astype(np.uint8), connectivity=8)
        ids = labels[middle]
        ids = ids[ids > 0]
        if len(ids) == 0:
            continue
        joined = labels == np.bincount(ids).argmax()
        rim = joined[0].any() or joined[-1].any() or joined[:, 0].any() or joined[:, -1].any()
        out[i] = bool(rim or joined.sum() >= SPREAD_CELLS * cell_area)
    return out


def _palette_share(table: np.ndarray, mine: np.ndarray) -> float:
    """Share of the Lab pixels ``mine`` (K, 3) whose colour bin, or a bin beside it, holds
    at least :data:`PALETTE_SHARE` of the Lab pixels ``table`` (M, 3)."""
    # (channels as rows: reductions along a (M, 3) array's columns cost a live frame ms)
    tb = np.floor(np.ascontiguousarray(table.T) / PALETTE_BIN).astype(np.int64)
    lo = tb.min(1) - 1
    dims = tb.max(1) - lo + 2
    tb -= lo[:, None]
    flat = (tb[0] * dims[1] + tb[1]) * dims[2] + tb[2]
    counts = np.bincount(flat, minlength=int(np.prod(dims))).reshape(dims)
    seen = counts >= max(2.0, PALETTE_SHARE * len(table))
    # one bin either way on every axis (a colour on a bin's border falls on either side
    # of it); the padding bins round ``dims`` keep np.roll from wrapping colours round
    for axis in range(3):
        seen = seen | np.roll(seen, 1, axis) | np.roll(seen, -1, axis)
    mb = np.floor(mine / PALETTE_BIN).astype(np.int64) - lo
    inside = ((mb >= 0) & (mb < dims)).all(1)
    hit = np.zeros(len(mine), bool)
    hit[inside] = seen[tuple(mb[inside].T)]
    return float(hit.mean())


def _middles(centres: np.ndarray, size: float, shape: tuple[int, int]):
    """For each cell centre (N, 2) of an image of ``shape`` (H, W) with cells of ``size``
    (centre to corner, px): ``(i, window, middle)``, the window :data:`AROUND` cell sizes
    each way round it, clipped to the image, as ``(x0, y0, x1, y1)`` (end exclusive), and
    the bool mask of the window's pixels in the cell's middle disc (:data:`MIDDLE`).  Cells
    whose window or middle falls off the image are passed over."""
    h, w = shape
    rad = max(MIDDLE * size, 1.5)
    half = int(np.ceil(AROUND * size))
    for i, (x, y) in enumerate(np.asarray(centres, np.float64).reshape(-1, 2)):
        cx, cy = int(round(x)), int(round(y))
        x0, x1 = max(cx - half, 0), min(cx + half + 1, w)
        y0, y1 = max(cy - half, 0), min(cy + half + 1, h)
        if x1 - x0 < 3 or y1 - y0 < 3:
            continue
        middle = _disc(x, y, rad, (x0, y0, x1, y1))
        if middle.any():
            yield i, (x0, y0, x1, y1), middle


def _disc(x: float, y: float, rad: float, window: tuple[int, int, int, int]) -> np.ndarray:
    """Bool mask of the window ``(x0, y0, x1, y1)`` (image pixels, end exclusive): the
    pixels within ``rad`` of ``(x, y)``.  (Only the disc's own box is measured: these
    tests run on live frames, and a window three cells wide each way is large.)"""
    x0, y0, x1, y1 = window
    out = np.zeros((y1 - y0, x1 - x0), bool)
    bx0, bx1 = max(int(np.floor(x - rad)), x0), min(int(np.ceil(x + rad)) + 1, x1)
    by0, by1 = max(int(np.floor(y - rad)), y0), min(int(np.ceil(y + rad)) + 1, y1)
    if bx1 <= bx0 or by1 <= by0:
        return out
    yy, xx = np.mgrid[by0:by1, bx0:bx1]
    out[by0 - y0:by1 - y0, bx0 - x0:bx1 - x0] = (xx - x) ** 2 + (yy - y) ** 2 <= rad * rad
    return out


def _lab(bgr: np.ndarray) -> np.ndarray:
    """Lab of a BGR uint8 image with lightness on CIE's 0..100, so distances are ΔE (as
    :data:`NEAR_TABLE` and :data:`PALETTE_BIN` were measured)."""
    lab = colours.to_lab(bgr)
    lab[..., 0] *= 100.0 / 255.0
    return lab


def _hexagons(lat: Lattice, cells: list, shrink: float) -> list[np.ndarray]:
    """The image corners (6, 2) of each of ``cells``' hexagons shrunk to ``shrink``."""
    if not cells:
        return []
    plane = (np.asarray(cells, np.float64).reshape(-1, 2) @ BASIS.T)[:, None] + shrink * CORNERS
    return list(lat.to_image(plane.reshape(-1, 2)).reshape(-1, 6, 2))


def _filled(polys: list[np.ndarray], corner: tuple[int, int], shape: tuple[int, int]) -> np.ndarray:
    """Bool mask of ``shape`` inside the polygons, given in image pixels of a window whose
    top-left pixel is ``corner``."""
    m = np.zeros(shape, np.uint8)
    if polys:
        cv2.fillPoly(m, [np.round(p - corner).astype(np.int32) for p in polys], 1)
    return m > 0
