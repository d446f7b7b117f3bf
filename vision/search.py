"""Finding the lattice: many hypotheses, each judged by how many of its cells read as tiles.

Link contrast alone (colour on edge midpoints, black corners) is fooled by a few tiles on a
table: one big hexagon drawn round a small group puts its midpoints on links and its
corners on the table.  What only the true lattice does is make its cells *read*: each
occupied cell's six edges show one of the 56 tiles cleanly.  So hypotheses come from every
cue there is, are ranked cheaply, grown, and the one whose cells read best is kept.

Hypotheses (2x2 maps from the plane's unit hexagon to image pixels, before the offset):
- the link image's autocorrelation ring, and its multiples (the ring found can be the
  second or third ring of the lattice, turned by 30°, when there are few tiles);
- single-tile blobs (a loose tile, a tile standing apart): their hexagon gives the cells'
  size and perspective shape, not the board's turn, so turns are swept;
- a known tile pitch (a fixed-camera table profile), turns swept;
- as a last resort, a sweep of sizes and turns;
- in the reader's last look, when nothing reads clearly, the rings of the box the links
  fill (:func:`core_rings`: a small board in a large image, whose ring the whole image's
  shrinking loses), each grown however its middle reads before growing.

Order, for speed: a live camera's previous lattice is tried first (``prior``); then the
:func:`likely` few (the rings as they are, the clearest single tile), each grown only if
six or more cells near the middle already read cleanly, and kept if the grown lattice is
:func:`_clear`; only then are all hypotheses ranked.  On a photo of a Tantrix that reads
well the ~50 other hypotheses are never looked at.  (``stage`` splits the two, so that the
reader can try the likely few again with another grey before ranking everything; the
flattened rings, ``ring_maps(flat=True)``, serve that second try.)
"""
from __future__ import annotations

import contextvars
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Literal

import cv2
import numpy as np

from . import bodies, colours, identify, lattice, sampling
from .lattice import (
    _SEARCH,
    BASIS,
    SQ3,
    Lattice,
    _grow,
    affine_from_basis,
    autocorr_bases,
    cell_contrast,
    cells_on_mask,
    fold_phase,
    local_shifts,
    plane_cells,
)
from .sampling import sample_cells

GROWN = 4
"""How many of the best-ranked hypotheses are grown and judged by reading."""

CLEAN_BLOB = 0.85
"""A single-tile blob is clean when the hexagon fitted to it overlaps it this much (IoU)."""

HEX_SCALES = (0.8, 1.25)
"""Scales at which a single-tile blob's shape is also tried as the lattice's (turned every
5°) when even the sweep found no lattice that reads well.  (hard-104: a steep wide-angle
view, three touching tiles; the clean blobs are a loose tile nearer the camera, 1.3 times
the board's cells, and nothing found the board.)"""

CLEAR_SHARE = 0.85
"""A lattice whose judged cells read this well (soft count / cells) ends the search."""

POLISHED_SHARE = 0.92
"""... and above this share its scale needs no polishing either.  (0.95 polished a board
with one tile covered by a cup, video-720p 13, whose four copies all came back to the same
lattice: 27 ms of its 73; at 0.92 the 720p median frame takes 46 ms.  Measured on the
first 120 images: hard 2 tiles fewer (hard-89), real-texture the same, video-720p 0-39
one more.)"""

POLISH_SCALES = (0.88, 0.94, 1.06, 1.13)
"""Scales the polish re-grows a lattice from, all of them.  (Tried and dropped: nearest
first, where a frame bettered by both 0.94 and 0.88 kept 0.94's and lost half its tiles;
stopping at a copy that reads cleanly, which lost a loose tile on real-texture 40;
skipping lattices short of clean by under two cells, which lost 6 tiles on hard 40.)"""

EARLY_CELLS = 6
"""Cells near the middle that must read cleanly before a likely hypothesis is trusted
without ranking the others (with fewer tiles, several lattices read about as well)."""

EARLY_SHARE = 0.75
"""... and the share of them that must read (a soft count) before the hypothesis is grown
and judged; the grown lattice must then be :func:`_clear` to be taken."""

_INV_BASIS = np.linalg.inv(BASIS)
_DET_BASIS = abs(float(np.linalg.det(BASIS)))

MAX_JUDGED_CELLS = 60
"""Cells read to judge one lattice (the clearest ones): enough to tell, and fast."""


def turn(deg: float) -> np.ndarray:
    """2x2 rotation by ``deg`` degrees (counter-clockwise in the plane)."""
    a = np.deg2rad(deg)
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


RING_SIDE = 256.0
"""The link image is shrunk to this side (px) for its autocorrelation."""

CORE_MASS = 0.05
"""Share of the link image's mass cut off each side to find the box the tiles fill."""

CORE_SHARE = 0.6
"""That box is looked at alone only when clearly smaller than the image ..."""

CORE_BETTER = 1.25
"""... and its lattice replaces the search's only when it reads clearly more (this share,
plus a cell): about as good, it is mostly the same lattice placed a little differently
(real-texture-150: 17.5 against 17.4, one tile then read wrong)."""

CORE_FROM = 4.0
"""... and the image is shrunk at least this much for its ring (on less shrunk images the
box's ring found other lattices for boards already read: real-texture-52, -79)."""


FLAT_SIGMA = 2.0
"""Blur (px at :data:`RING_SIDE`) taken off the link image for its flattened rings."""


def ring_maps(link: np.ndarray, subpixel: bool = False, flat: bool = False) -> list[np.ndarray]:
    """2x2 maps (plane → working image) of the link image's autocorrelation rings, best
    first (``subpixel``: see ``lattice.autocorr_bases``).  ``flat``: of the link image
    less its blur (:data:`FLAT_SIGMA`): where the bodies light up a little too, the whole
    board's own autocorrelation outweighs its cells' ring."""
    h, w = link.shape
    f = min(1.0, RING_SIDE / max(h, w))
    small = cv2.resize(link, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1 else link
    if flat:
        small = small - cv2.GaussianBlur(small, (0, 0), FLAT_SIGMA)
    return [(base / f) @ _INV_BASIS for base in autocorr_bases(small, 3, subpixel)]


def core_rings(link: np.ndarray) -> list[tuple[np.ndarray, None]]:
    """The hypotheses of the rings of the box the links fill (:func:`_core_box`), when the
    whole image had to be shrunk so far for its ring that small tiles in it lost theirs
    (hard-48: tiles 18 px across in a 1600 px working image are 3 px at ring size): each
    ring as it is, at most :data:`GROWN` (all of them are grown)."""
    h, w = link.shape
    box = _core_box(link)
    if box is None or max(h, w) <= CORE_FROM * RING_SIDE:
        return []
    x0, y0, x1, y1 = box
    if max(x1 - x0, y1 - y0) > CORE_SHARE * max(h, w):
        return []
    return [(M, None) for M in ring_maps(link[y0:y1, x0:x1], subpixel=True)][:GROWN]


def _core_box(link: np.ndarray) -> tuple[int, int, int, int] | None:
    """(x0, y0, x1, y1) px holding the middle of the link image's mass, padded by a tenth
    of its size each side, or ``None`` for an empty image."""
    h, w = link.shape
    ends = []
    for prof in (link.sum(0), link.sum(1)):
        cum = np.cumsum(prof, dtype=np.float64)
        if cum[-1] <= 0:
            return None
        lo, hi = np.searchsorted(cum, [CORE_MASS * cum[-1], (1 - CORE_MASS) * cum[-1]])
        pad = 0.1 * (hi - lo) + 2
        ends.append((max(0, int(lo - pad)), min(len(prof), int(hi + pad) + 1)))
    (x0, x1), (y0, y1) = ends
    return x0, y0, x1, y1


def hypotheses(link: np.ndarray, hexes: list[bodies.Hexagon], pitch_px: float | None = None,
               rings: list[np.ndarray] | None = None, groups: Sequence[bodies.Hexagon] = ()
               ) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """Candidate lattices: (2x2 map plane → working image, offset px or ``None``).

    Without an offset, the offset is found by folding the link image (:func:`fold_phase`).
    ``hexes``: single-tile blobs, best first (:func:`single_tiles`); ``rings``: the
    :func:`ring_maps` of ``link`` when already known; ``groups``: blobs of a few touching
    tiles (:func:`bodies.small_groups`).
    """
    out: list[tuple[np.ndarray, np.ndarray | None]] = []
    r30 = turn(30.0) / SQ3
    for M in ring_maps(link) if rings is None else rings:
        out += [(M * s, None) for s in (0.25, 1 / 3, 0.5, 1.0, 2.0)]
        out += [(M @ r30 * s, None) for s in (1 / 3, 0.5, 1.0)]
    for hx in hexes[:3]:
        out.append((hx.M, hx.centre))  # the lattice of that very tile
        out += [(hx.M @ turn(a), None) for a in range(5, 60, 5)]
    for group in groups:
        out.append((group.M, group.centre))  # the lattice of a few touching tiles
    if pitch_px:
        # a fixed camera's profile knows the cells' size: nothing else is worth trying
        out = _near_pitch(out, pitch_px)
        size = pitch_px / SQ3
        out += [(size * turn(a), None) for a in range(0, 60, 3)]
    return out


def likely(rings: list[np.ndarray], hexes: list[bodies.Hexagon], pitch_px: float | None = None
           ) -> list[tuple[np.ndarray, np.ndarray | None]]:
    """The few hypotheses that are usually right, most often right first: each
    autocorrelation ring as it is (when the photo shows more than a few tiles, its first
    ring is the lattice's), then the clearest single-tile blob's own lattice, then the
    first ring taken as the lattice's second ring (√3 times the pitch, turned by 30°:
    what a board of a dozen tiles in a ring or a line often shows strongest)."""
    out: list[tuple[np.ndarray, np.ndarray | None]] = [(M, None) for M in rings[:2]]
    out += [(hx.M, hx.centre) for hx in hexes[:1]]
    out += [(M @ turn(30.0) / SQ3, None) for M in rings[:1]]
    return _near_pitch(out, pitch_px) if pitch_px else out


def _near_pitch(maps: list[tuple[np.ndarray, np.ndarray | None]], pitch_px: float
                ) -> list[tuple[np.ndarray, np.ndarray | None]]:
    size = pitch_px / SQ3
    return [(M, off) for M, off in maps if abs(np.log(np.sqrt(abs(np.linalg.det(M))) / size)) < 0.15]


def single_tiles(mask: np.ndarray) -> list[bodies.Hexagon]:
    """Blobs of the tile mask that are one clean hexagon each, most trustworthy first."""
    return sorted(bodies.single_hexagons(mask), key=lambda x: -x.iou * x.size)


SAME_BLOB_SIZE = 0.15
"""A clean single-tile blob is one of a lattice's cells only when their sizes differ by
under this much (natural log of the ratio; ~16 %).  A lattice 23 % too small, centred and
turned on a lone real tile whose left half lay in a shadow, took the lone-tile bonus too,
read the tile's middle a little more clearly and won; its corners then fell on the links
and the tile was left unreadable (real tiles 5 and 13 under ``shadow-0.3``)."""


def blob_agreement(lat: Lattice, hexes: list[bodies.Hexagon]) -> float:
    """Evidence from clean single-tile blobs for (+) or against (-) a lattice.

    A loose tile may be turned any way, but it is as big as the lattice's cells around it:
    each blob far from that size counts -0.5.  A blob that is exactly one of the
    lattice's cells (same centre, turn and size, :data:`SAME_BLOB_SIZE`) counts +0.1, a
    tie-break for lone tiles.
    """
    return float(blob_agreements([lat], hexes)[0])


def blob_agreements(lats: list[Lattice], hexes: list[bodies.Hexagon]) -> np.ndarray:
    """:func:`blob_agreement` of each of ``lats``, (L,).

    All lattices and blobs at once: the search ranks some ninety hypotheses at a time, and
    one call per lattice cost a hard photo's search a tenth of its time."""
    clean = [hx for hx in hexes[:4] if hx.iou >= CLEAN_BLOB]
    score = np.zeros(len(lats))
    if not clean or not lats:
        return score
    n, b = len(lats), len(clean)
    centres = np.array([hx.centre for hx in clean], np.float64)           # (B, 2)
    inverse = np.array([lat._inverse() for lat in lats])                   # (L, 3, 3)
    H = np.array([lat.H for lat in lats])
    at = np.broadcast_to(centres, (n, b, 2))
    cells = plane_cells(lattice._apply(inverse, at).reshape(-1, 2)).reshape(n, b, 2)
    plane = cells.astype(np.float64) @ BASIS.T                              # (L, B, 2)
    p0, p1, p2 = (lattice._apply(H, plane + d) for d in ((0.0, 0.0), (1.0, 0.0), (0.0, 1.0)))
    d1, d2 = p1 - p0, p2 - p0
    sizes = np.sqrt(np.abs(d1[..., 0] * d2[..., 1] - d1[..., 1] * d2[..., 0]))
    apart = np.abs(np.log(sizes / np.array([hx.size for hx in clean])))
    far = apart > 0.4
    near = (apart < SAME_BLOB_SIZE) & (np.linalg.norm(p0 - centres, axis=2) < 0.25 * sizes)
    for i in range(b):  # (summed in blob order, as one lattice at a time would)
        same = np.zeros(n, bool)
        for k in np.flatnonzero(near[:, i] & ~far[:, i]):
            same[k] = lats[k].turn_against(plane[k, i], clean[i].M) < 8
        score += np.where(far[:, i], -0.5, np.where(same, 0.1, 0.0))
    return score


def sweep(link: np.ndarray, pitch_px: float | None = None) -> list[tuple[np.ndarray, None]]:
    """Last-resort hypotheses: square-on lattices of every size (or about the known
    pitch's) and turn."""
    h, w = link.shape
    if pitch_px:
        sizes = pitch_px / SQ3 * np.array([0.94, 0.97, 1.0, 1.03, 1.06])
        return [(s * turn(a), None) for s in sizes for a in range(0, 60, 2)]
    sizes = np.geomspace(5.0, max(6.0, min(h, w) / 6.0), 18)
    return [(s * turn(a), None) for s in sizes for a in range(0, 60, 6)]


def rescaled(hexes: list[bodies.Hexagon]) -> list[tuple[np.ndarray, None]]:
    """Last-resort hypotheses from single-tile blobs: a loose tile nearer the camera or
    farther away than the board (a wide lens, a steep view) is bigger or smaller than the
    board's cells, but its shape shows the view's slant, which a square-on sweep lacks."""
    clean = [hx for hx in hexes if hx.iou >= CLEAN_BLOB][:2]
    return [(hx.M @ turn(a) * s, None) for hx in clean for s in HEX_SCALES
            for a in range(0, 60, 5)]


def _seed(link: np.ndarray, M: np.ndarray, offset: np.ndarray | None, centre: np.ndarray
          ) -> tuple[float, float, Lattice] | None:
    """A map with its best offset near ``centre``: ``(fold ncc, cell size px, lattice)``,
    or ``None`` when the map is no plausible lattice for this image."""
    h, w = link.shape
    base = M @ BASIS
    det = abs(M[0, 0] * M[1, 1] - M[0, 1] * M[1, 0])
    size = float(np.sqrt(det))
    # (a map placed by a blob of the tile mask may be as big as the tiles there: a close-up
    # of two; other maps no bigger than a third of the image, or a board's rings twice the
    # pitch win on small boards)
    most = min(h, w) / (2.0 if offset is not None else 3.0)
    if size < 4 or size > most or det * _DET_BASIS < 1e-6:
        return None
    fold_offset, ncc = fold_phase(link, base, centre, 2.5 * size * SQ3)
    offset = fold_offset if offset is None else offset
    return ncc, size, Lattice(affine_from_basis(base, offset))


def _seeds(bgr: np.ndarray, link: np.ndarray, model: colours.ColourModel,
           maps: list[tuple[np.ndarray, np.ndarray | None]],
           centre: np.ndarray, hexes: list[bodies.Hexagon]) -> list[tuple[float, Lattice]]:
    """Each map with its best offset near ``centre``, ranked by how well the cells near
    ``centre`` read (before the lattice is grown to follow perspective).
    """
    folded = [s for s in (_seed(link, M, offset, centre) for M, offset in maps) if s is not None]
    lats = [lat for _ncc, _size, lat in folded]
    blobs = blob_agreements(lats, hexes)
    reads = _readabilities_near(bgr, link, model, lats, centre,
                                [2.5 * size * SQ3 for _ncc, size, _lat in folded])
    seeds = [(r + 0.1 * ncc + float(agree), lat)
             for (ncc, _size, lat), agree, (r, _n) in zip(folded, blobs, reads)]
    seeds.sort(key=lambda s: -s[0])
    return _distinct(seeds)


def _early(bgr: np.ndarray, link: np.ndarray, model: colours.ColourModel,
           maps: list[tuple[np.ndarray, np.ndarray | None]], centre: np.ndarray,
           hexes: list[bodies.Hexagon]) -> Lattice | None:
    """The first of the :func:`likely` hypotheses that reads cleanly, grown and judged
    :func:`_clear`; ``None`` if none does (then every hypothesis is ranked).

    Most photos of a Tantrix are read right by their autocorrelation ring: ranking the ~50
    other hypotheses first would cost most of a frame's time for nothing.  Only a lattice
    whose cells near the middle already read cleanly (:data:`EARLY_CELLS` of them) is grown.
    """
    h, w = link.shape
    for M, offset in maps:
        seed = _seed(link, M, offset, centre)
        if seed is None:
            continue
        _ncc, size, lat = seed
        r, n = _readability(bgr, link, lat, model, (centre, 2.5 * size * SQ3))
        if n < EARLY_CELLS or r < EARLY_SHARE * n:
            continue
        grown = _grow(link, lat, centre, w, h)
        if grown is None:
            continue
        _score(bgr, link, model, grown, hexes)
        if _clear(grown):
            return grown
    return None


def _distinct(seeds: list[tuple[float, Lattice]], n: int = GROWN) -> list[tuple[float, Lattice]]:
    """The first ``n`` seeds that are not the same lattice as a better-ranked one."""
    turns = [turn(60 * k) for k in range(6)]
    out: list[tuple[float, Lattice]] = []
    for ncc, lat in seeds:
        M = lat.H[:2, :2]
        variants = [M @ t for t in turns]  # the hexagon's 60° symmetry: the same lattice
        if not any(np.abs(v - o.H[:2, :2]).max() < 0.05 * np.abs(o.H[:2, :2]).max()
                   for _n, o in out for v in variants):
            out.append((ncc, lat))
            if len(out) >= n:
                break
    return out


def readability(bgr: np.ndarray, link: np.ndarray, lat: Lattice, model: colours.ColourModel,
                near: tuple[np.ndarray, float] | None = None) -> float:
    """How many of the lattice's occupied cells read as a Tantrix tile (a soft count).

    A cell counts fully when the best of the 336 (tile, rotation) candidates explains its
    six edge colours well (``fit``) and clearly beats the others (``confidence``).
    ``near`` = (centre, radius px) looks only at cells centred within that circle.
    """
    return _readability(bgr, link, lat, model, near)[0]


def _readability(bgr: np.ndarray, link: np.ndarray, lat: Lattice, model: colours.ColourModel,
                 near: tuple[np.ndarray, float] | None = None) -> tuple[float, int]:
    """:func:`readability` and the number of occupied cells it judged."""
    if near is not None:
        return _readabilities_near(bgr, link, model, [lat], near[0], [near[1]])[0]
    reads = _cell_reads(bgr, link, lat, model)
    return float(reads.sum()), len(reads)


def _cell_reads(bgr: np.ndarray, link: np.ndarray, lat: Lattice, model: colours.ColourModel,
                occ: np.ndarray | None = None) -> np.ndarray:
    """How well each judged occupied cell of the whole image reads, 0..1 (see
    :func:`readability`); ``occ``: the :func:`_judged_cells` when already known."""
    occ = _judged_cells(link, lat) if occ is None else occ
    if len(occ) == 0:
        return np.zeros(0)
    shifts, _ = local_shifts(link, lat, occ)
    edges, _corners = sample_cells(bgr, lat, occ, shifts)
    return _read_values(edges, model, learn=True)


def _read_values(edges: np.ndarray, model: colours.ColourModel, learn: bool) -> np.ndarray:
    """How well cells with edge samples ``edges`` (N, 6, 3) read, (N,) 0..1: the best
    candidate's fit times its confidence, each clipped (see :func:`readability`).
    ``learn``: one round of learning the photo's colours from the readings first."""
    m = colours.adapt_scale(model, edges.reshape(-1, 3))
    readings = identify.identify(colours.log_probs(edges, m), unique=False)
    if learn and len(readings) >= 6:
        # one round of learning this photo's colours from its own readings (light and
        # real tile prints shift them off the prototypes), as the reader itself does
        conf = np.repeat([r.confidence for r in readings], 6)
        m = colours.calibrate(m, edges.reshape(-1, 3), identify.edge_labels(readings).ravel(), conf)
        readings = identify.identify(colours.log_probs(edges, m), unique=False)
    fit = np.array([r.fit for r in readings])
    conf = np.array([r.confidence for r in readings])
    # a clean reading (fit near 1) beats a lattice that only roughly lands on the links
    return np.clip((fit - 0.45) / 0.5, 0, 1) * np.clip(2 * conf, 0, 1)


def _readabilities_near(bgr: np.ndarray, link: np.ndarray, model: colours.ColourModel,
                        lats: list[Lattice], centre: np.ndarray, radii: list[float]
                        ) -> list[tuple[float, int]]:
    """:func:`_readability` of each of ``lats`` within ``radii[i]`` px of ``centre``, as
    ``(readability, cells judged)``: the clearest occupied cells there (a quarter of
    :data:`MAX_JUDGED_CELLS` at most), each at the best of the coarse shifts only (a quick
    look), read without learning the photo's colours from them.

    The cells of all lattices are mapped and sampled together (one homography per cell):
    ranking a hundred hypotheses one at a time cost most of a failing search's time in
    small calls.  Each lattice's colours are still adapted to its own cells."""
    mine = [_cells_near(link, lat, (centre, rad)) for lat, rad in zip(lats, radii)]
    Hs = np.array([lat.H for lat in lats]).reshape(-1, 3, 3)
    owner = np.repeat(np.arange(len(lats)), [len(c) for c in mine])
    if len(owner) == 0:
        return [(0.0, 0)] * len(lats)
    plane = np.concatenate(mine).astype(np.float64) @ BASIS.T
    con = lattice._contrast_at(link, Hs[owner], plane, np.zeros((1, 2)))[:, 0]
    starts = np.r_[0, np.cumsum([len(c) for c in mine])]
    picked = [starts[i] + _clearest(con[starts[i]:starts[i + 1]], MAX_JUDGED_CELLS // 4)
              for i in range(len(lats))]
    judged = np.concatenate(picked)
    if len(judged) == 0:
        return [(0.0, 0)] * len(lats)
    coarse = lattice._contrast_at(link, Hs[owner[judged]], plane[judged], _SEARCH)
    at = plane[judged] + _SEARCH[coarse.argmax(1)]
    edges, _corners = sampling._sample_at(bgr, Hs[owner[judged]], at)
    out, k = [], 0
    for idx in picked:
        n = len(idx)
        out.append((float(_read_values(edges[k:k + n], model, learn=False).sum()) if n else 0.0, n))
        k += n
    return out


def _judged_cells(link: np.ndarray, lat: Lattice) -> np.ndarray:
    """The occupied cells :func:`readability` reads over the whole image (the clearest, at
    most :data:`MAX_JUDGED_CELLS`), (M, 2)."""
    h, w = link.shape
    cells = lat.cells_in(w, h)
    if len(cells) == 0:
        return np.zeros((0, 2), int)
    con = cell_contrast(link, lat, cells)[:, 0]
    return cells[_clearest(con, MAX_JUDGED_CELLS)]


def _cells_near(link: np.ndarray, lat: Lattice, near: tuple[np.ndarray, float]) -> np.ndarray:
    """The lattice's cells (M, 2) centred in the image ``link`` and within ``near`` =
    (centre, radius px)."""
    h, w = link.shape
    (cx, cy), rad = near
    cells, centres = lat.cells_and_centres_in(w, h, window=(cx - rad, cy - rad, cx + rad, cy + rad))
    return cells[np.linalg.norm(centres - near[0], axis=1) < rad]


def _clearest(contrast: np.ndarray, most: int) -> np.ndarray:
    """Indices of the occupied cells of ``contrast`` (M,), clearest first, at most ``most``."""
    order = np.argsort(-contrast)[:most]
    return order[contrast[order] > lattice.occupied()]


def _clear(lat: Lattice) -> bool:
    """Does a judged lattice read so well that no other hypothesis need be tried?"""
    return lat.judged >= 3 and lat.score >= CLEAR_SHARE * lat.judged


@dataclass(frozen=True)
class Prior:
    """A live camera's previous-frame lattice (see ``vision.tracking``): ``lattice`` on a
    working image of ``shape`` (h, w), to be taken only if it reads cleanly at least
    ``min_judged`` occupied cells; or, when ``min_score`` is given, if it reads at least
    that much (a soft count: a scene that never reads cleanly, where the last search's
    lattice did not either).  ``grey``: the Lab a/b the previous frame was read with when
    that was its tile bodies' own (``vision.reader``'s body-grey read), to read this frame
    with too.  ``link``: the previous frame's link image (``shape``), to measure how far
    the camera moved when the lattice does not follow where it was (:func:`_moved`)."""

    lattice: Lattice
    shape: tuple[int, int]
    min_judged: int = 0
    min_score: float | None = None
    grey: np.ndarray | None = None
    link: np.ndarray | None = None

    def for_shape(self, shape: tuple[int, int]) -> Lattice | None:
        """The lattice scaled to a working image of ``shape`` (the same frame may be worked
        on at another size), or ``None`` for another camera or a crop."""
        (h0, w0), (h, w) = self.shape, shape
        if h0 <= 0 or w0 <= 0 or abs(w / w0 - h / h0) > 0.01 * w / w0:
            return None
        f = w / w0
        return replace(self.lattice, H=np.diag([f, f, 1.0]) @ self.lattice.H)


CENTRE_BLUR = 1 / 16
"""Blur (share of the image's longer side) of the link image whose peak is the middle of
the tiles."""


def link_centre(link: np.ndarray) -> np.ndarray | None:
    """Where the link colour is densest (x, y px), the middle of the search; ``None``
    if there is none.

    The peak of the blurred link image, not its mean: scattered link-like colour on a busy
    cloth pulls the mean off the tiles by several cells.
    """
    h, w = link.shape
    f = min(1.0, 128.0 / max(h, w))
    small = cv2.resize(link, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1 else link
    blur = cv2.GaussianBlur(small, (0, 0), max(1.0, CENTRE_BLUR * max(small.shape)))
    if blur.max() <= 0:
        return None
    y, x = np.unravel_index(int(np.argmax(blur)), blur.shape)
    return (np.array([x, y], np.float64) + 0.5) / f - 0.5


def find_lattice(bgr: np.ndarray, link: np.ndarray, mask: np.ndarray, model: colours.ColourModel,
                 pitch_px: float | None = None, prior: Prior | None = None,
                 peak: bool = False, own_ring: bool = False,
                 stage: Literal["all", "early", "rest"] = "all",
                 flat: bool = False) -> Lattice | None:
    """The lattice whose cells read best, or ``None``; ``score`` = its :func:`readability`.

    ``bgr`` is the working image that ``link`` and ``mask`` were made from; ``pitch_px``
    an expected centre distance of touching tiles there, when a profile knows it.
    ``prior``: a previous frame of the same camera (:class:`Prior`); when its lattice still
    reads cleanly after being refined on this image,
    it is taken without any search (``tracked`` is set; its scale was polished on the frame
    it was found in, and a camera that jitters hardly changes it).  ``peak``: search
    about :func:`link_centre` instead of the link image's mean (a busy cloth's look).
    ``own_ring``: when nothing reads clearly, also try the rings of the box the links fill
    (:func:`core_rings`; the bright look's, whose link image shows small tiles' links).
    ``stage``: ``"all"``; ``"early"`` stops after the usually right hypotheses
    (:func:`_early`, ``None`` when none reads cleanly), ``"rest"`` skips them (after an
    ``"early"`` that found nothing).  ``flat``: the usually right hypotheses take the
    flattened rings (``ring_maps(flat=True)``).
    """
    centre = link_centre(link) if peak else lattice.link_mean(link)
    if centre is None:
        return None
    hexes = single_tiles(mask)
    previous = None if prior is None else prior.for_shape(link.shape)
    if previous is not None:
        tracked = _follow(bgr, link, model, previous, centre, hexes, prior.min_judged, prior.min_score)
        moved = None if tracked is not None else _moved(prior, previous, link)
        if moved is not None:
            tracked = _follow(bgr, link, model, moved, centre, hexes, prior.min_judged, prior.min_score)
        if tracked is not None:
            following = _FOLLOW_ONLY.get()
            if following is not None:
                following.followed = True
            return tracked
    following = _FOLLOW_ONLY.get()
    if following is not None:
        if not following.followed:
            following.misses += 1
            if following.max_misses is not None and following.misses > following.max_misses:
                raise NotFollowed
        return None
    rings = ring_maps(link, flat=flat)
    if stage != "rest":
        best = _early(bgr, link, model, likely(rings, hexes, pitch_px), centre, hexes)
        if best is not None:
            return _polish_scale(bgr, link, model, best, centre, hexes)
        if stage == "early":
            return None
    seeds = _seeds(bgr, link, model, hypotheses(link, hexes, pitch_px, rings, bodies.small_groups(mask)),
                   centre, hexes)
    best = _judge(bgr, link, model, seeds, centre, hexes, mask)
    # the last resorts in turn, each made only while the lattice so far reads poorly
    for last_resort in (lambda: sweep(link, pitch_px), lambda: rescaled(hexes)):
        if not (best is None or best.score < max(1.5, 0.5 * best.judged) or _unexplained(best, mask)):
            break
        seeds = _seeds(bgr, link, model, last_resort(), centre, hexes)
        other = _judge(bgr, link, model, seeds, centre, hexes, mask)
        if other is not None and (best is None or other.score > best.score):
            best = other
    if own_ring and (best is None or not _clear(best)):
        # (a small board in a large image: its own rings, each grown, however its middle
        # reads unrefined; hard-48's lattice, 5 px off there, judged no cell before growing)
        maps = core_rings(link)
        if maps:
            seeds = [(0.0, replace(s[2], steep=True))
                     for s in (_seed(link, M, off, centre) for M, off in maps) if s is not None]
            other = _judge(bgr, link, model, seeds, centre, hexes, mask)
            if other is not None and beats(other, best):
                best = other
    if best is None:
        return None
    return _polish_scale(bgr, link, model, best, centre, hexes)


UNEXPLAINED_SHARE = 0.6
FEW_COVERED = 30
"""A lattice found for a small group (the tile mask under at most this many of its cells)
that judges under this share of those cells leaves the group unexplained: it does not end
the search, and the last-resort sweep is tried too.  (sample_images/tangle_two_solved: six
touching tiles with ring-shaped links; no single-tile blob, the link image's ring is the
rings', and a lattice 0.6 cells off at one end judged 3 cells and read them cleanly: 4 of
6 read, the puzzle "not solved".  Now 6 of 6; hard and real-texture 0-119 the same but
one tile more.)"""


def beats(lat: Lattice, other: Lattice | None) -> bool:
    """Does ``lat`` read better than ``other`` (clearly better, :data:`CORE_BETTER`, when
    ``lat`` was grown from a small board's own ring and so is ``steep``)?"""
    if other is None:
        return True
    return lat.score > (CORE_BETTER * other.score + 1.0 if lat.steep else other.score)


def _unexplained(lat: Lattice, mask: np.ndarray) -> bool:
    """Does a lattice judge far fewer cells than the tile mask ``mask`` (H, W) covers, on a
    small group (:data:`UNEXPLAINED_SHARE`, :data:`FEW_COVERED`)?"""
    h, w = mask.shape
    covered = cells_on_mask(mask, lat, lat.cells_in(w, h))
    return covered <= FEW_COVERED and lat.judged < UNEXPLAINED_SHARE * covered


@dataclass
class Following:
    """What :func:`following_only` saw of one read: ``misses`` (looks whose lattice search
    did not follow the prior) before the first that did (``followed``)."""

    max_misses: int | None = None
    misses: int = 0
    followed: bool = False


class NotFollowed(Exception):
    """Raised within :func:`following_only` when more looks than allowed miss the prior."""


_FOLLOW_ONLY: contextvars.ContextVar[Following | None] = contextvars.ContextVar("follow_only", default=None)


@contextmanager
def following_only(max_misses: int | None = None) -> Iterator[Following]:
    """Within this, :func:`find_lattice` only follows a :class:`Prior`: it finds no lattice
    (searches nothing) where the prior is not followed, so that a read which cannot follow
    the last frame costs little (a live camera then reads the frame again from scratch,
    see ``vision.tracking``).  This holds for every look of a read, on any working copy of
    the photo; the reader reads no crop within it (a crop is read without a prior, so it
    could only miss).  With ``max_misses``, more misses than that before the first look
    that follows raise :class:`NotFollowed` (a scene read by its first look: the camera
    jumped, nothing is gained by trying the other looks)."""
    state = Following(max_misses)
    token = _FOLLOW_ONLY.set(state)
    try:
        yield state
    finally:
        _FOLLOW_ONLY.reset(token)


def only_following() -> bool:
    """Is this read within :func:`following_only` (no lattice is searched for)?"""
    return _FOLLOW_ONLY.get() is not None


def read_at_size(prior: Prior | None, shape: tuple[int, int]) -> bool:
    """Within :func:`following_only`: was ``prior`` found on a working image no larger than
    ``shape`` (h, w)?  Then a larger copy of this frame has nothing to follow."""
    return _FOLLOW_ONLY.get() is not None and prior is not None and prior.shape[1] <= shape[1]


MOVED_RESPONSE = 0.1
"""A phase correlation of two frames' link images peaking lower than this measures no
shift (the tiles changed, or too little of them shows)."""

MOVED_CELLS = 0.15
"""A shift under this share of a cell is none: the lattice followed unmoved already."""


def _moved(prior: Prior, lat: Lattice, link: np.ndarray) -> Lattice | None:
    """``lat`` (the prior's lattice on ``link``'s image) moved by the shift between the
    prior's link image and ``link``, as a phase correlation of the two measures it, or
    ``None`` when it sees no clear shift of :data:`MOVED_CELLS` of a cell or more.

    A follow absorbs a shift of a third of a cell (the growth's per-cell search); a
    camera that jitters by more, or small tiles far away (a 28 px tile on a 1920 px frame
    moves most of a cell when the frame moves 1 %), would otherwise be searched afresh
    every frame.  Measured on half-size copies (2 ms on a 1024 px working image)."""
    if prior.link is None or prior.link.shape != link.shape:
        return None
    half = [cv2.resize(np.asarray(im, np.float32), None, fx=0.5, fy=0.5, interpolation=cv2.INTER_AREA)
            for im in (prior.link, link)]
    window = cv2.createHanningWindow(half[0].shape[::-1], cv2.CV_32F)
    (dx, dy), response = cv2.phaseCorrelate(half[0], half[1], window)
    h, w = link.shape
    size = float(lat.cell_size(lat.cell_at(np.array([[w / 2, h / 2]])))[0])
    if response < MOVED_RESPONSE or np.hypot(dx, dy) * 2 < MOVED_CELLS * size:
        return None
    return replace(lat, H=np.array([[1.0, 0, 2 * dx], [0, 1.0, 2 * dy], [0, 0, 1]]) @ lat.H)


def _follow(bgr: np.ndarray, link: np.ndarray, model: colours.ColourModel, prior: Lattice,
            centre: np.ndarray, hexes: list[bodies.Hexagon], min_judged: int = 0,
            min_score: float | None = None) -> Lattice | None:
    """The previous frame's lattice refined on this one, if it reads :func:`_clear` (or at
    least ``min_score``) and at least ``min_judged`` occupied cells (a lattice slipping off
    the tiles reads fewer).

    A camera that jitters moves the lattice by a fraction of a cell, which the growth's
    per-cell search absorbs.
    """
    h, w = link.shape
    lat = _grow(link, replace(prior, score=0.0, judged=0, tracked=False), centre, w, h)
    if lat is None:
        return None
    _score(bgr, link, model, lat, hexes)
    reads = _clear(lat) or (min_score is not None and lat.score >= min_score)
    if not reads or lat.judged < min_judged:
        return None
    lat.tracked = True
    return lat


def _judge(bgr: np.ndarray, link: np.ndarray, model: colours.ColourModel,
           seeds: list[tuple[float, Lattice]], centre: np.ndarray, hexes: list[bodies.Hexagon],
           mask: np.ndarray | None = None) -> Lattice | None:
    h, w = link.shape
    best: Lattice | None = None
    for _ncc, seed in seeds[:GROWN]:
        lat = _grow(link, seed, centre, w, h)
        if lat is None:
            continue
        _score(bgr, link, model, lat, hexes)
        if best is None or lat.score > best.score:
            best = lat
        if _clear(best) and (mask is None or not _unexplained(best, mask)):
            break  # the cells read cleanly: the other hypotheses cannot do better
    return best


def _score(bgr: np.ndarray, link: np.ndarray, model: colours.ColourModel, lat: Lattice,
           hexes: list[bodies.Hexagon], above: float | None = None) -> bool:
    """Set ``lat.score`` (readability + blob evidence) and ``lat.judged``; returns ``True``.

    With ``above``: when the lattice cannot score above it (every judged cell reads at most
    1, so the score is at most the cells judged plus the blob evidence), nothing is read
    or set and ``False`` is returned (a polish copy that cannot win is not read).
    """
    occ = _judged_cells(link, lat)
    blobs = blob_agreement(lat, hexes)
    if above is not None and len(occ) + blobs <= above:
        return False
    lat.judged = len(occ)
    lat.score = float(_cell_reads(bgr, link, lat, model, occ=occ).sum()) + blobs
    return True


def _polish_scale(bgr: np.ndarray, link: np.ndarray, model: colours.ColourModel, lat: Lattice,
                  centre: np.ndarray, hexes: list[bodies.Hexagon]) -> Lattice:
    """Try the lattice a little larger and smaller about the board's middle; keep the best.

    Local shifts let a lattice a few per cent off in scale still fit the middle cells, so
    the growth can settle on a wrong scale; re-growing from scaled copies escapes that.
    A copy that judges too few cells to score above the best so far is not read
    (:func:`_score`'s ``above``; the same outcome, one read of ~2 ms less).
    """
    h, w = link.shape
    best = lat
    if _polished(lat):
        return lat
    c = centre
    for f in POLISH_SCALES:
        T = np.array([[f, 0, (1 - f) * c[0]], [0, f, (1 - f) * c[1]], [0, 0, 1.0]])
        grown = _grow(link, Lattice(T @ lat.H, steep=lat.steep), c, w, h)
        if grown is None:
            continue
        if _score(bgr, link, model, grown, hexes, above=best.score + 0.3) and grown.score > best.score + 0.3:
            best = grown
    return best


def _polished(lat: Lattice) -> bool:
    """Does a judged lattice read so well that its scale needs no polishing?"""
    return _clear(lat) and lat.score >= POLISHED_SHARE * lat.judged
