"""Does a tile's face show the links its reading claims, all the way along?

A reading is made from the link ends at the six edges.  A tile's face also carries each
link's whole path between its two ends: a sharp curve round a corner, a gentle curve or
a straight line through the middle.  Something that is no tile face can give six plausible
ends and no paths: the back of a face-down tile, whose one-coloured number reaches some
edges, or a hexagon laid half over a tile and half over the cloth.  This module samples
the paths a reading implies and says how much of them shows the reading's colours.
"""
from __future__ import annotations

from functools import lru_cache

import numpy as np

from referee.tiles import partner_edge, rotated_edges

from . import colours
from .lattice import CORNERS, MIDPOINTS, SQ3, _apply, sample
from .sampling import _to_lab

PATH_STEPS = np.array([0.15, 0.25, 0.35, 0.65, 0.75, 0.85])
"""Where along each link (0: one end, 1: the other) its path is sampled.  The ends are
left out (the reading saw them) and so is the very middle, where two links cross and the
one on top hides the other."""


def _path(i: int, j: int) -> np.ndarray:
    """Plane points (len(PATH_STEPS), 2) along the link from edge ``i`` to edge ``j`` of a
    cell centred at the origin (edge length 1): Tantrix links meet their edges square."""
    a, b = MIDPOINTS[i], MIDPOINTS[j]
    turn = (j - i) % 6
    if turn == 3:
        return a + PATH_STEPS[:, None] * (b - a)
    if turn in (1, 5):
        # a sharp curve: round the corner the two edges share, radius half an edge
        centre = CORNERS[(i + 1) % 6] if turn == 1 else CORNERS[i]
        radius = 0.5
    else:
        # a gentle curve: round the corner of the neighbour beyond the edge between them,
        # radius one and a half edges
        middle = (i + 1) % 6 if turn == 2 else (i - 1) % 6
        centre = MIDPOINTS[middle] / np.linalg.norm(MIDPOINTS[middle]) * SQ3
        radius = 1.5
    a0 = np.arctan2(*(a - centre)[::-1])
    a1 = np.arctan2(*(b - centre)[::-1])
    sweep = (a1 - a0 + np.pi) % (2 * np.pi) - np.pi
    ang = a0 + PATH_STEPS * sweep
    return centre + radius * np.stack([np.cos(ang), np.sin(ang)], axis=1)


@lru_cache(maxsize=None)
def link_paths(number: int, rotation: int) -> tuple[np.ndarray, np.ndarray]:
    """Plane offsets (3 * len(PATH_STEPS), 2) of points along the three links of tile
    ``number`` turned ``rotation`` steps, and each point's colour as an index into
    :data:`colours.CLASSES` (3 * len(PATH_STEPS),)."""
    edges = rotated_edges(number, rotation)
    pts, cls = [], []
    for i in range(6):
        j = partner_edge(number, rotation, i)
        if j < i:
            continue
        pts.append(_path(i, j))
        cls += [colours.CLASSES.index(edges[i])] * len(PATH_STEPS)
    return np.concatenate(pts), np.array(cls)


LEAST_SHOWN = 0.25
"""Least share of every link's path a tile face shows in its link's colour
(:func:`face_up`).  Of the loose tiles read on hard and real-texture 0-99 and 40 scattered
tables (455), every path shown at 2 of 6 points or more kept 428 of 433 right tiles
and dropped 5 of 6 face-down tiles' backs, 4 of 14 wrong numbers and 1 of 2 tiles read
where none lay (one path at 0 or 1 point).  A tile's own paths show even when another
link crosses one (the crossing hides one or two points)."""


def link_shares(bgr: np.ndarray, H: np.ndarray, centres: np.ndarray,
                placements: list[tuple[int, int]], model: colours.ColourModel) -> np.ndarray:
    """Share of each of the three link paths of each placed tile that shows its link's
    colour (N, 3) in 0..1.

    ``bgr``: the photo (H, W, 3) uint8; ``H``: plane → photo homography (3, 3), or one per
    tile (N, 3, 3); ``centres``: plane centres of the cells (N, 2); ``placements``: each
    cell's (tile number, rotation) as read.  A path point counts when its most likely class
    under ``model`` is its link's colour."""
    n = len(placements)
    if n == 0:
        return np.zeros((0, 3))
    paths = [link_paths(int(t), int(r)) for t, r in placements]
    pts = np.stack([p for p, _c in paths]) + np.asarray(centres, np.float64)[:, None, :]
    want = np.stack([c for _p, c in paths])
    H = np.asarray(H, np.float64)
    img = _apply(H, pts)
    lab = _to_lab(sample(bgr, img).astype(np.float64))
    got = np.argmax(colours.log_probs(lab, model), axis=-1)
    return (got == want).reshape(n, 3, len(PATH_STEPS)).mean(axis=2)


def face_up(bgr: np.ndarray, H: np.ndarray, centres: np.ndarray,
            placements: list[tuple[int, int]], model: colours.ColourModel) -> np.ndarray:
    """Does each placed tile show all three of its links' paths (:data:`LEAST_SHOWN`)?
    (N,) bool; arguments as :func:`link_shares`."""
    return (link_shares(bgr, H, centres, placements, model) >= LEAST_SHOWN).all(axis=1)
