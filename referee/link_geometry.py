"""Where a tile's links run on its face: pure geometry of the printed tiles.

A face is taken in the tile's own frame: flat-topped, edge 0 at the top, edges numbered
clockwise, y down, centre at the origin.  Distances are in units of the tile's
circumradius (centre to corner), so edge midpoints lie at ``sqrt(3)/2``.

Link geometry follows the real tiles (``../shared/real_tiles``): every link meets its edge
at the edge midpoint, square to the edge; a *corner* (edges one apart) is an arc of radius
1/2 about the vertex the two edges share; a *bend* (two apart) is an arc of radius 3/2
about the centre of the neighbouring cell across the edge between its two ends; a
*straight* (three apart) runs through the centre.  The scene generator draws its links
along these lines.
"""
from __future__ import annotations

import math

import numpy as np

APOTHEM = math.sqrt(3) / 2


def edge_midpoint(edge: int) -> np.ndarray:
    """Midpoint of ``edge`` (0..5), shape (2,), tile units, y down."""
    a = math.radians(-90 + 60 * edge)
    return APOTHEM * np.array([math.cos(a), math.sin(a)])


def vertex(k: int) -> np.ndarray:
    """Vertex ``k`` (shared by edges ``k`` and ``k+1``), shape (2,), tile units, y down."""
    a = math.radians(-60 + 60 * k)
    return np.array([math.cos(a), math.sin(a)])


CORNER_RADIUS = 0.5
"""Radius of a corner link's arc (tile units), about the vertex its two edges share."""

BEND_RADIUS = 1.5
"""Radius of a bend's arc (tile units), about the neighbouring cell's centre."""


def link_shape(e1: int, e2: int) -> tuple[int, int, float | None]:
    """The link joining edges ``e1`` and ``e2`` as ``(first, second, radius)``: its ends
    ordered so that ``first`` to ``second`` runs clockwise the short way round (a straight
    keeps the order given), and its arc's radius in tile units, ``None`` for a straight.
    The arc bulges towards the tile's centre."""
    gap = (e2 - e1) % 6
    if gap > 3:
        e1, e2, gap = e2, e1, 6 - gap
    return e1, e2, None if gap == 3 else CORNER_RADIUS if gap == 1 else BEND_RADIUS


def link_path(e1: int, e2: int, n: int = 40) -> np.ndarray:
    """Centre line of the link joining edges ``e1`` and ``e2``, shape (n, 2), tile units."""
    return link_points(e1, e2, np.linspace(0, 1, n))


def link_points(e1: int, e2: int, t: np.ndarray) -> np.ndarray:
    """Points of the link joining edges ``e1`` and ``e2`` at fractions ``t`` (n,) of its
    way from one end to the other (0 and 1: the ends), shape (n, 2), tile units."""
    e1, e2, radius = link_shape(e1, e2)
    m1, m2 = edge_midpoint(e1), edge_midpoint(e2)
    t = np.asarray(t, np.float64)
    if radius is None:
        return m1 * (1 - t[:, None]) + m2 * t[:, None]
    if radius == CORNER_RADIUS:
        centre = vertex(e1)
    else:  # bend: centre of the neighbouring cell across the middle edge
        centre = 2 * edge_midpoint((e1 + 1) % 6)
    a1 = math.atan2(*(m1 - centre)[::-1])
    a2 = math.atan2(*(m2 - centre)[::-1])
    d = (a2 - a1 + math.pi) % (2 * math.pi) - math.pi  # the short way round
    a = a1 + d * t
    return centre + radius * np.stack([np.cos(a), np.sin(a)], axis=1)
