"""Where a tile's colours are sampled: points along each edge's link end, and the corners.

Shared by the lattice search (which reads candidate cells to judge a lattice) and the
reader (which reads the final cells on the full-resolution photo).
"""
from __future__ import annotations

import numpy as np

from . import colours
from .lattice import BASIS, CORNERS, MIDPOINTS, SQ3, Lattice, _apply, sample
from .order_stats import median

# edge sample pattern in plane units: along the centre→midpoint ray and across it
_RAY = np.array([0.68, 0.76, 0.84])
_ACROSS = np.array([-0.07, 0.0, 0.07])


def _edge_offsets() -> np.ndarray:
    out = []
    for k in range(6):
        d = MIDPOINTS[k] / np.linalg.norm(MIDPOINTS[k])
        n = np.array([-d[1], d[0]])
        out.append([(SQ3 / 2) * t * d + a * n for t in _RAY for a in _ACROSS])
    return np.array(out)


EDGE_OFFSETS = _edge_offsets()
"""(6, P, 2) plane offsets from a cell centre of the sample points of each edge."""
CORNER_OFFSETS = CORNERS * 0.8
"""(6, 2) plane offsets of the corner samples (always tile body on a Tantrix tile)."""

# flank samples: beside an edge's link end, where a tile is always body.  Here (edge
# length 1) they lie at least 0.26 from the centre line of any link a tile can carry (a
# link is at most 0.24 wide; blur spreads it) and 0.12 inside the tile's outline.
_FLANK_RAY = np.array([0.80, 0.86])
_FLANK_ACROSS = np.array([0.34, 0.38])


def _flank_offsets() -> np.ndarray:
    out = []
    for k in range(6):
        d = MIDPOINTS[k] / np.linalg.norm(MIDPOINTS[k])
        n = np.array([-d[1], d[0]])
        out.append([[(SQ3 / 2) * t * d + side * a * n for t in _FLANK_RAY for a in _FLANK_ACROSS]
                    for side in (-1, 1)])
    return np.array(out)


FLANK_OFFSETS = _flank_offsets()
"""(6, 2, P, 2) plane offsets of the samples on either side of each edge's link end."""


def lab_samples(bgr: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Lab (a, b centred on 0) of a BGR uint8 image sampled at points (..., 2) → (..., 3)."""
    return _to_lab(sample(bgr, pts))


def _to_lab(v: np.ndarray) -> np.ndarray:
    """BGR float samples (..., 3) → Lab (a, b centred on 0) (..., 3)."""
    if v.size == 0:
        return v.astype(np.float64)
    lab = colours.to_lab(np.clip(v.reshape(-1, 1, 3) + 0.5, 0, 255).astype(np.uint8))
    return lab.reshape(v.shape).astype(np.float64)


MAX_VEIL = 0.8
"""The most glare a cell is cleared of (share of white over it): beyond, its colours are
clipped white and nothing is left to read."""


MAX_TINT = 0.5
"""The most a glare veil's colour may differ between channels (share of its brightest)."""


def veil_share(samples: np.ndarray, body: np.ndarray) -> np.ndarray:
    """The share ``a`` of white light over BGR samples (..., 3) of black body ``body``
    (BGR (3,)), by how much lighter they are: a sample under glare shows ``(1 - a) * body
    + a * light``.  Not clipped (below 0: darker than the body)."""
    return (samples.mean(-1) - body.mean()) / max(255.0 - body.mean(), 1.0)


def veil_light(samples: np.ndarray, body: np.ndarray, a: np.ndarray) -> np.ndarray:
    """The colour (..., 3) of the light that veils BGR samples (..., 3) of black body
    ``body`` (3,) by the share ``a`` (...) (:func:`veil_share`): a glare spot mirrors the
    lamp, so this is the lamp's colour."""
    return (samples - (1.0 - a)[..., None] * body) / np.maximum(a, 1e-3)[..., None]


def unveil(edges: np.ndarray, corners: np.ndarray, body: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Remove a glare veil from BGR samples of cells: edges (N, 6, P, 3), corners (N, 6, 3).

    Glare adds white light over a patch of tiles: a sample shows ``(1 - a) * colour + a *
    white``.  Every corner of a Tantrix tile is black body (``body``, BGR (3,)), so how much
    lighter a cell's corners are than the bodies elsewhere gives ``a`` and the veil's
    colour, which are then taken off (unless that colour is far from the lamp's, which
    the bodies show: see :data:`MAX_TINT` and :func:`lamp_tint`).  Returns the cleared
    (edges, corners).
    """
    c = median(corners, axis=1)                                   # (N, 3)
    a = np.clip(veil_share(c, body), 0.0, MAX_VEIL)
    veil = c - (1.0 - a)[:, None] * body                            # a * light, (N, 3)
    # glare is the lamp's own colour; corners tinted strongly against it (a hand, a
    # wooden table beside the board) are no veil and are left as they are
    light = veil_light(c, body, a)
    tinted = tinted_light(light / lamp_tint(body))
    a = np.where(tinted, 0.0, a)
    veil = np.where(tinted[:, None], 0.0, veil)
    k = 1.0 / (1.0 - a)
    e = (edges - veil[:, None, None, :]) * k[:, None, None, None]
    cc = (corners - veil[:, None, :]) * k[:, None, None]
    return np.clip(e, 0, 255), np.clip(cc, 0, 255)


def sample_cells(bgr: np.ndarray, lat: Lattice, cells: np.ndarray, shifts: np.ndarray,
                 body: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Median Lab per edge (N, 6, 3) and Lab per corner (N, 6, 3) of each cell.

    ``lat`` maps the plane to ``bgr``'s pixels; ``shifts`` (N, 2) are per-cell plane shifts;
    ``body``: the tile bodies' BGR (3,), to clear each cell of glare first (:func:`unveil`).
    """
    return _sample_at(bgr, lat.H, np.asarray(cells, np.float64) @ BASIS.T + shifts, body)


def sample_hexagons(bgr: np.ndarray, Hs: np.ndarray, shifts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """:func:`sample_cells` of cell (0, 0) of each of N one-cell lattices ``Hs`` (N, 3, 3)
    (hexagons fitted to loose tiles) at its shift (N, 2), all at once."""
    return _sample_at(bgr, Hs, np.asarray(shifts, np.float64))


def _sample_at(bgr: np.ndarray, H: np.ndarray, centres: np.ndarray, body: np.ndarray | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """:func:`sample_cells` of cells centred at plane points ``centres`` (N, 2); ``H``
    (3, 3), or (N, 3, 3) one homography per cell."""
    v = sample(bgr, _apply(H, centres[:, None, None, :] + EDGE_OFFSETS[None]))
    c = _corners_at(bgr, H, centres)
    if body is not None and len(v):
        v, c = unveil(v.astype(np.float64), c.astype(np.float64), np.asarray(body, np.float64))
    return median(_to_lab(v), axis=2), _to_lab(c)


def flank_cells(bgr: np.ndarray, lat: Lattice, cells: np.ndarray, shifts: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray]:
    """Median Lab of each edge's link end (N, 6, 3), as :func:`sample_cells` gives it, and
    of the body on either side of it (N, 6, 2, 3) (:data:`FLANK_OFFSETS`), uncorrected.

    A link is narrower than an edge, so on a tile its flanks are body; a hand or an object
    over the edge shows its own colour across the link end and its flanks alike."""
    centres = np.asarray(cells, np.float64) @ BASIS.T + shifts
    flanks = sample(bgr, _apply(lat.H, centres[:, None, None, None, :] + FLANK_OFFSETS[None]))
    return _sample_at(bgr, lat.H, centres)[0], median(_to_lab(flanks), axis=3)


def tinted_light(light: np.ndarray) -> np.ndarray:
    """Is a light of BGR ``light`` (..., 3) too coloured to be a glare veil? (...) bool.

    Glare is the lamp's own colour, near white: channels further apart than
    :data:`MAX_TINT` of the brightest are a hand, a wooden table, a coloured object."""
    hi = np.max(light, axis=-1)
    return hi - np.min(light, axis=-1) > MAX_TINT * np.maximum(hi, 1.0)


LAMP_TINT_FLOOR = 0.25
"""The least a channel of the lamp's colour (:func:`lamp_tint`) is taken to be, as a
share of its brightest: below, a black body's channel is too dark to measure it."""


def lamp_tint(body: np.ndarray) -> np.ndarray:
    """The lamp's colour as channel shares of its brightest (3,), measured on the black
    bodies ``body`` (BGR (3,)): a black body reflects the lamp's colour, dimmed.

    A glare spot mirrors that lamp, so a veil is judged tinted (a hand, a wooden table)
    against it, not against white: under a warm lamp whose cast the camera left in, the
    glare is as orange as the bodies (hard-196, 2763 K: the veil over five tiles read
    tinted and was left on, and their blue links read green).  The same von Kries idea as
    ``balance``'s body gains, but always given: those are ``None`` for bodies too dark or
    barely tinted (no look is worth making), while a veil needs a reference anyway."""
    b = np.maximum(np.asarray(body, np.float64), 0.0)
    return np.maximum(b / max(float(b.max()), 1.0), LAMP_TINT_FLOOR)


def _corners_at(bgr: np.ndarray, H: np.ndarray, centres: np.ndarray) -> np.ndarray:
    """BGR (N, 6, 3) at the six corners (always body on a tile) of cells centred at plane
    points ``centres`` (N, 2); ``H`` (3, 3), or (N, 3, 3) one homography per cell."""
    return sample(bgr, _apply(H, centres[:, None, :] + CORNER_OFFSETS[None]))


def corner_samples(bgr: np.ndarray, lat: Lattice, cells: np.ndarray, shifts: np.ndarray) -> np.ndarray:
    """BGR (N, 6, 3) at the six corners of ``cells`` (N, 2) at their plane ``shifts`` (N, 2)."""
    return _corners_at(bgr, lat.H, np.asarray(cells, np.float64) @ BASIS.T + shifts)


def body_colour(bgr: np.ndarray, lat: Lattice, cells: np.ndarray, shifts: np.ndarray) -> np.ndarray | None:
    """Median BGR (3,) of the corners of ``cells``: the tile bodies' colour in this photo;
    ``None`` for no cells (a read with no clear cell has seen no body: the median of no
    corners was NaN, and a veil cleared to it cast NaN samples to bytes, video-720p-10)."""
    if len(cells) == 0:
        return None
    return median(corner_samples(bgr, lat, cells, shifts).reshape(-1, 3), axis=0).astype(np.float64)


def body_lab(bgr: np.ndarray, lat: Lattice, cells: np.ndarray, shifts: np.ndarray) -> np.ndarray | None:
    """:func:`body_colour` as Lab (3,), a and b centred on 0 (``None`` for no cells)."""
    body = body_colour(bgr, lat, cells, shifts)
    return None if body is None else _to_lab(body)


def corner_colours(bgr: np.ndarray, lat: Lattice, cells: np.ndarray, shifts: np.ndarray) -> np.ndarray:
    """Median BGR (N, 3) of each cell's six corners (its body, if a tile lies there)."""
    return median(corner_samples(bgr, lat, cells, shifts), axis=1).astype(np.float64)
