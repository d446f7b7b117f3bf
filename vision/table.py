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
from .lattice import BASIS, SQ3, Lattice

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
    spots = []
    for i, window, middle in _middles(centres, size, mask.shape[:2]):
        x0, y0, x1, y1 = window
        off = mask[y0:y1, x0:x1] == 0
        if (~off[middle]).mean() < ON_MASK and off.sum() >= 20:
            spots.append((i, window, middle, off))
    labs = _window_labs(work, [window for _i, window, _m, _o in spots], eight_bit=True)
    for (i, _window, middle, off), lab8 in zip(spots, labs):
        table = _masked_median(lab8, off)
        here = _masked_median(lab8, middle)
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
    tested = []
    for i, (q, r) in enumerate(cells):
        around = [c for k in range(1, AROUND_CELLS + 1) for c in ring((int(q), int(r)), k)
                  if c not in skip]
        table_polys = _hexagons(lat, around, 0.9)
        mine_poly = _hexagons(lat, [(q, r)], 0.8)
        # (only the windows round the cells and their rings are converted: this runs on
        # live frames, and a whole 720p frame's Lab costs more than the rest of the test)
        pts = np.concatenate(table_polys + mine_poly)
        x0, y0 = np.maximum(np.floor(pts.min(0)), 0).astype(int)
        x1, y1 = np.minimum(np.ceil(pts.max(0)) + 1, [w, h]).astype(int)
        if x1 - x0 >= 2 and y1 - y0 >= 2:
            tested.append((i, (x0, y0, x1, y1), table_polys, mine_poly))
    labs = _window_labs(work, [window for _i, window, _t, _m in tested])
    for (i, (x0, y0, _x1, _y1), table_polys, mine_poly), lab in zip(tested, labs):
        table = lab[_filled(table_polys, (x0, y0), lab.shape[:2])]
        mine = lab[_filled(mine_poly, (x0, y0), lab.shape[:2])]
        # (a cell needs a few cells' worth of table round it to say what the table shows)
        if len(mine) < 10 or len(table) < 3 * max(len(mine), 50):
            continue
        out[i] = _palette_share(table, mine)
    return out


SAME_COLOUR = 16.0
"""Lab distance (ΔE) from a cell middle's median colour within which a pixel continues
that colour (:func:`runs_onto`, :func:`shown_on_faces`)."""

SPREAD_CELLS = 2.0
"""A colour covering at least this many cells' area round a cell's middle runs on past
the cell (:func:`runs_onto`)."""


ONTO_SHRINK = 0.7
"""Share of a tile's size (centre to corner) that :func:`runs_onto` looks at: the tile's
face within its rim, where a table's colour never reaches."""


def runs_onto(work: np.ndarray, lat: Lattice, cells: np.ndarray, tiles: list, size: float
              ) -> tuple[np.ndarray, np.ndarray]:
    """Does the colour in each cell's middle run on beyond the cell, (N,) bool, and what
    share of the faces of the cell's ``tiles`` does it cover, joined to the middle, (N,)?

    The pixels round the middle that keep its colour (:data:`SAME_COLOUR`), joined to it,
    run on beyond the cell when they cover :data:`SPREAD_CELLS` cells or reach the rim of
    the window looked at (:data:`AROUND` cell sizes each way).  A hand, its arm or an
    object laid over a tile runs on past the tile, as the dark bodies of a board do round a
    tile its links leave unread; a dot of a printed cloth in a hole of the board stays
    within the cell (hard and real-texture 0-199: empty cells hugged by the board 0.3-1.5
    cells, hidden tiles mostly 2-9 or to the rim).

    A hand or an object over a board's rim lies over the tiles beside the tile it hides
    as well, so its colour runs from the hidden cell onto their faces (within
    :data:`ONTO_SHRINK`); a printed cloth's colour stops at a tile's rim (hard and
    real-texture 0-119: 11 of 14 hidden tiles beside two tiles read 0.04-0.38, all 19
    empty cells of printed cloths 0).  ``work``: BGR uint8 (H, W, 3); ``lat``: the lattice
    (plane → ``work`` pixels); ``cells``: (N, 2) lattice cells; ``tiles``: per cell, the
    cells (q, r) of the tiles read beside it (may be empty); ``size``: the cells'
    centre-to-corner size in ``work`` pixels."""
    cells = np.asarray(cells, int).reshape(-1, 2)
    spread, onto = np.zeros(len(cells), bool), np.zeros(len(cells))
    cell_area = 1.5 * np.sqrt(3.0) * size * size
    for i, (x0, y0, x1, y1), middle in _middles(lat.centres(cells), size, work.shape[:2]):
        lab = _lab(work[y0:y1, x0:x1])
        same = np.linalg.norm(lab - np.median(lab[middle], axis=0), axis=2) < SAME_COLOUR
        _n, labels = cv2.connectedComponents(same.astype(np.uint8), connectivity=8)
        ids = labels[middle & same]
        ids = ids[ids > 0]
        if len(ids) == 0:
            continue
        joined = labels == np.bincount(ids).argmax()
        rim = joined[0].any() or joined[-1].any() or joined[:, 0].any() or joined[:, -1].any()
        spread[i] = bool(rim or joined.sum() >= SPREAD_CELLS * cell_area)
        faces = _filled(_hexagons(lat, list(tiles[i]), ONTO_SHRINK), (x0, y0), joined.shape)
        if spread[i] and faces.any():
            onto[i] = float((joined & faces).sum() / faces.sum())
    return spread, onto


def shown_on_faces(work: np.ndarray, lat: Lattice, cells: np.ndarray, tiles: list,
                   least: float = 0.0) -> np.ndarray:
    """Do more than ``least`` of the faces of each cell's ``tiles`` show the colour of the
    cell's middle (within :data:`SAME_COLOUR` of its median), while the faces' own median
    colour is not that colour, (N,) bool?

    What :func:`runs_onto` measures above ``least`` needs that much.  This samples a fixed
    pattern of points (:data:`_MIDDLE_POINTS`, :data:`_FACE_POINTS`) for every cell at
    once instead of the window of :data:`AROUND` cell sizes each way: a board's rim has
    many cells beside two tiles, and each such window costs a live frame about a
    millisecond.  A middle coloured like the faces (:data:`FACE_APART`: a table as dark as
    the bodies) tells a cover from the table by nothing that runs onto the faces, and is
    passed over; so is one whose colour no point just inside the tiles' rims shows
    (:func:`_crossing`).  Arguments as :func:`runs_onto`'s (no ``size``: the pattern is laid in the
    lattice's plane)."""
    cells = np.asarray(cells, int).reshape(-1, 2)
    out = np.zeros(len(cells), bool)
    faces = [list(t) for t in tiles]
    if len(cells) == 0 or not any(faces):
        return out
    h, w = work.shape[:2]
    # every sample point of every cell in one lattice mapping and one colour conversion
    plane = [(c @ BASIS.T) + _MIDDLE_POINTS for c in cells.astype(np.float64)]
    plane += [(np.asarray(f, np.float64) @ BASIS.T)[:, None] + _FACE_POINTS for f in faces if f]
    plane += [_crossing(c, f) for c, f in zip(cells, faces) if f]
    pts = lat.to_image(np.concatenate([p.reshape(-1, 2) for p in plane]))
    xy = np.round(pts).astype(int)
    inside = (xy[:, 0] >= 0) & (xy[:, 0] < w) & (xy[:, 1] >= 0) & (xy[:, 1] < h)
    xy = np.clip(xy, 0, [w - 1, h - 1])
    lab = _lab(np.ascontiguousarray(work[xy[:, 1], xy[:, 0]][None]))[0]
    n_mid, n_face, n_cross = len(_MIDDLE_POINTS), len(_FACE_POINTS), len(_CROSS_ALONG)
    at = len(cells) * n_mid
    cross_at = at + sum(len(f) for f in faces) * n_face
    for i, f in enumerate(faces):
        if not f:
            continue
        n, m = len(f) * n_face, len(f) * n_cross
        mid_in, face_in = inside[i * n_mid:(i + 1) * n_mid], inside[at:at + n]
        mid, face = lab[i * n_mid:(i + 1) * n_mid][mid_in], lab[at:at + n][face_in]
        cross = lab[cross_at:cross_at + m][inside[cross_at:cross_at + m]]
        at, cross_at = at + n, cross_at + m
        if len(mid) == 0 or len(face) == 0 or len(cross) == 0:
            continue
        mid = np.median(mid, axis=0)
        if (np.linalg.norm(np.median(face, axis=0) - mid) < FACE_APART
                or not (np.linalg.norm(cross - mid, axis=1) < SAME_COLOUR).any()):
            continue
        shown = np.count_nonzero(np.linalg.norm(face - mid, axis=1) < SAME_COLOUR)
        out[i] = bool(shown > least * len(face))
    return out


def _crossing(cell: np.ndarray, tiles: list) -> np.ndarray:
    """Plane points (len(tiles), len(:data:`_CROSS_ALONG`), 2) just inside each tile's
    rim along the edge it shares with ``cell``, off that edge's middle.  A cover running
    from the cell onto a tile's face crosses that rim; a cloth's colour stops at it, where
    a tile shows its black body (the middle of the edge is left out: a link ends there,
    and a cloth may share its colour)."""
    c = np.asarray(cell, np.float64) @ BASIS.T
    out = []
    for t in tiles:
        d = np.asarray(t, np.float64) @ BASIS.T - c
        u = d / np.linalg.norm(d)
        e = np.array([-u[1], u[0]])
        base = c + 0.5 * d + CROSS_IN * u
        out.append(base + _CROSS_ALONG[:, None] * e)
    return np.array(out)


FACE_APART = 8.0
"""How far (ΔE) the colour over a cell must lie from the median colour of the faces of the
tiles beside it for :func:`shown_on_faces` to look further: nearer, a table or cloth as
dark as the bodies shares colours with the bodies' own pixels and tells nothing by running
onto them.  (A hand in dim light is dark too: hard-41's lay 10 from the faces beside it.)"""

CROSS_IN = 0.1
"""How far inside a tile's rim (plane units, a cell's centre to corner being 1)
:func:`shown_on_faces` looks for a cover crossing onto the tile ..."""

_CROSS_ALONG = np.array([-0.4, -0.3, -0.2, 0.2, 0.3, 0.4])
"""... and where along the shared edge (whose half-length is 0.5)."""


def _hex_points(radius: float, step: float) -> np.ndarray:
    """Plane points (N, 2) of a square grid of ``step`` within the flat-topped hexagon of
    centre-to-corner ``radius`` about the origin."""
    g = np.arange(-radius, radius + 1e-9, step)
    xx, yy = np.meshgrid(g, g)
    p = np.stack([xx.ravel(), yy.ravel()], 1)
    a = np.abs(p)
    keep = (a[:, 1] <= radius * SQ3 / 2) & (SQ3 * a[:, 0] + a[:, 1] <= radius * SQ3)
    return p[keep]


_FACE_POINTS = _hex_points(ONTO_SHRINK, 0.1)
"""Where :func:`shown_on_faces` samples a tile's face: a grid a tenth of a cell apart
within its hexagon shrunk to :data:`ONTO_SHRINK` (134 points)."""

_MIDDLE_POINTS = _hex_points(MIDDLE, 0.1)
_MIDDLE_POINTS = _MIDDLE_POINTS[np.hypot(*_MIDDLE_POINTS.T) <= MIDDLE]
"""... and a cell's middle: the same grid within the disc of :data:`MIDDLE` (21 points)."""


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


def _window_labs(work: np.ndarray, windows: list, eight_bit: bool = False) -> list[np.ndarray]:
    """The Lab (:func:`_lab`; with ``eight_bit``, OpenCV's 8-bit Lab) of each window
    ``(x0, y0, x1, y1)`` of ``work`` (BGR uint8).

    The cells tested on one read are mostly neighbours, and their windows, three cells
    wide each way, overlap: the box round them all is converted once when it is no larger
    than the windows together (the conversion is per pixel, so the values are the same)."""
    if not windows:
        return []
    convert = (lambda bgr: cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab)) if eight_bit else _lab
    box = np.array(windows)
    bx0, by0 = box[:, :2].min(0)
    bx1, by1 = box[:, 2:].max(0)
    if (bx1 - bx0) * (by1 - by0) > ((box[:, 2] - box[:, 0]) * (box[:, 3] - box[:, 1])).sum():
        return [convert(work[y0:y1, x0:x1]) for x0, y0, x1, y1 in windows]
    lab = convert(work[by0:by1, bx0:bx1])
    return [lab[y0 - by0:y1 - by0, x0 - bx0:x1 - bx0] for x0, y0, x1, y1 in windows]


def _masked_median(lab8: np.ndarray, where: np.ndarray) -> np.ndarray:
    """NumPy's median (3,) of :func:`_lab`'s values at the pixels ``where`` (bool, not
    empty) of ``lab8`` (8-bit Lab, H x W x 3), from each channel's histogram.

    8-bit Lab has 256 levels a channel, so the running count of a histogram finds the
    middle levels without sorting: a tenth of the time over a window of 25,000 pixels
    (:func:`bare_table` takes two such medians a cell, on live frames).  The two middle
    levels (one and the same for an odd count) are mapped as :func:`_lab` maps pixels and
    averaged in float32, as NumPy averages them."""
    n = int(np.count_nonzero(where))
    sel = where.astype(np.uint8)
    middle = np.empty((1, 2, 3), np.uint8)
    for c in range(3):
        run = np.cumsum(cv2.calcHist([lab8], [c], sel, [256], [0, 256]).ravel())
        middle[0, :, c] = np.searchsorted(run, [(n - 1) // 2, n // 2], side="right")
    lo, hi = _delta_e(colours.centred(middle))[0]
    return (lo + hi) / np.float32(2.0)


def _lab(bgr: np.ndarray) -> np.ndarray:
    """Lab of a BGR uint8 image with lightness on CIE's 0..100, so distances are ΔE (as
    :data:`NEAR_TABLE` and :data:`PALETTE_BIN` were measured)."""
    return _delta_e(colours.to_lab(bgr))


def _delta_e(lab: np.ndarray) -> np.ndarray:
    """``lab`` (centred float32 Lab, ..., 3) with its lightness scaled in place from
    0..255 to CIE's 0..100."""
    lab[..., 0] *= 100.0 / 255.0
    return lab


def _hexagons(lat: Lattice, cells: list, shrink: float) -> list[np.ndarray]:
    """The image corners (6, 2) of each of ``cells``' hexagons shrunk to ``shrink``."""
    if not cells:
        return []
    return list(lat.hexagons(np.asarray(cells), scale=shrink))


def _filled(polys: list[np.ndarray], corner: tuple[int, int], shape: tuple[int, int]) -> np.ndarray:
    """Bool mask of ``shape`` inside the polygons, given in image pixels of a window whose
    top-left pixel is ``corner``."""
    m = np.zeros(shape, np.uint8)
    if polys:
        cv2.fillPoly(m, [np.round(p - corner).astype(np.int32) for p in polys], 1)
    return m > 0
