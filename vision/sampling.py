"""Where a tile's colours are sampled: points along each edge's link end, and the corners.

Shared by the lattice search (which reads candidate cells to judge a lattice) and the
reader (which reads the final cells on the full-resolution photo).
"""
from __future__ import annotations

import numpy as np

from . import colours
from .lattice import BASIS, CORNERS, MIDPOINTS, SQ3, Lattice, sample

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


def lab_samples(bgr: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Lab (a, b centred on 0) of a BGR uint8 image sampled at points (..., 2) → (..., 3)."""
    v = sample(bgr, pts)
    if v.size == 0:
        return v.astype(np.float64)
    lab = colours.to_lab(np.clip(v.reshape(-1, 1, 3) + 0.5, 0, 255).astype(np.uint8))
    return lab.reshape(v.shape).astype(np.float64)


def sample_cells(bgr: np.ndarray, lat: Lattice, cells: np.ndarray, shifts: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Median Lab per edge (N, 6, 3) and Lab per corner (N, 6, 3) of each cell.

    ``lat`` maps the plane to ``bgr``'s pixels; ``shifts`` (N, 2) are per-cell plane shifts.
    """
    centres = np.asarray(cells, np.float64) @ BASIS.T + shifts
    v = lab_samples(bgr, lat.to_image(centres[:, None, None, :] + EDGE_OFFSETS[None]))
    edges = np.median(v, axis=2)
    corners = lab_samples(bgr, lat.to_image(centres[:, None, :] + CORNER_OFFSETS[None]))
    return edges, corners
