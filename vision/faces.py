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

from referee.link_geometry import link_points
from referee.tiles import partner_edge, rotated_edges

from . import colours
from .lattice import MIDPOINTS, _apply
from .sampling import lab_samples

PATH_STEPS = np.array([0.15, 0.25, 0.35, 0.65, 0.75, 0.85])
"""Where along each link (0: one end, 1: the other) its path is sampled.  The ends are
left out (the reading saw them) and so is the very middle, where two links cross and the
one on top hides the other."""


@lru_cache(maxsize=None)
def link_paths(number: int, rotation: int) -> tuple[np.ndarray, np.ndarray]:
    """Plane offsets (3 * len(PATH_STEPS), 2) of points along the three links of tile
    ``number`` turned ``rotation`` steps (``referee.link_geometry``'s lines), and each point's colour as an index into
    :data:`colours.CLASSES` (3 * len(PATH_STEPS),)."""
    edges = rotated_edges(number, rotation)
    pts, cls = [], []
    for i in range(6):
        j = partner_edge(number, rotation, i)
        if j < i:
            continue
        pts.append(link_points(i, j, PATH_STEPS))
        cls += [colours.CLASSES.index(edges[i])] * len(PATH_STEPS)
    return np.concatenate(pts), np.array(cls)


BODY_CLEARANCE = 0.27
"""Least distance (tile units, centre to corner 1) from every link's midline at which a
point of a face is taken as body (:func:`body_points`): a link is about a third of a
unit wide, and blur and a hexagon laid a little off spread it further."""


@lru_cache(maxsize=None)
def body_points(number: int, rotation: int) -> np.ndarray:
    """Plane offsets (n, 2) of points of tile ``number`` turned ``rotation`` steps that lie
    on its black body: inside 0.8 of the hexagon and :data:`BODY_CLEARANCE` or more from
    every link's midline (a grid of 0.1 tile units; 13 to 55 points a tile)."""
    t = np.linspace(0.0, 1.0, 41)
    midlines = np.concatenate([link_points(i, partner_edge(number, rotation, i), t)
                               for i in range(6) if partner_edge(number, rotation, i) > i])
    grid = np.mgrid[-1:1.01:0.1, -1:1.01:0.1].reshape(2, -1).T
    # (0.8 of the way to each edge: MIDPOINTS are SQ3 / 2 long)
    grid = grid[(grid @ MIDPOINTS.T <= 0.8 * 0.75 + 1e-9).all(axis=1)]
    clear = np.min(np.linalg.norm(grid[:, None] - midlines[None], axis=2), axis=1) >= BODY_CLEARANCE
    return grid[clear]


BODY_CHROMA = 2.0
"""A body point shows body when its chroma (from the photo's grey, scaled as the colour
model scales it) is under this many times the model's ``chroma0`` (:func:`body_shares`)."""


def body_shares(bgr: np.ndarray, H: np.ndarray, centres: np.ndarray,
                placements: list[tuple[int, int]], model: colours.ColourModel) -> np.ndarray:
    """Share (N,) in 0..1 of each placed tile's body points (:func:`body_points`) that show
    grey body (:data:`BODY_CHROMA`); arguments as :func:`link_shares`.  A cluster of a
    cloth's coloured spots can give six link ends and even paths, but no black between."""
    n = len(placements)
    if n == 0:
        return np.zeros(0)
    pts = [body_points(int(t), int(r)) + np.asarray(c, np.float64)
           for (t, r), c in zip(placements, centres)]
    H = np.asarray(H, np.float64)
    img = np.concatenate([_apply(H[k] if H.ndim == 3 else H, p) for k, p in enumerate(pts)])
    grey = colours.scaled_chroma(lab_samples(bgr, img), model) < BODY_CHROMA * model.chroma0
    return np.array([part.mean() for part in np.split(grey, np.cumsum([len(p) for p in pts])[:-1])])


PATH_LEAST_SIZE = 16.0
"""Cell size (centre to corner, photo px) below which link paths are too thin to tell
one tile from another by (:func:`cover.settle_by_paths`): hard-36's tile 41, 22 px across,
showed its rival's paths better than its own."""

LEAST_SHOWN = 0.25
"""Least share of every link's path a tile face shows in its link's colour
(:func:`face_up`).  Of the 603 loose tiles read on hard and real-texture 0-99 and the 40
scattered tables, asking every path to show at 2 of 6 points or more drops 1 of 568 right
tiles, 5 of 7 face-down tiles' backs, 8 of 25 wrong numbers and 2 of 3 tiles read where
none lay.  A tile's own paths show even when another
link crosses one (the crossing hides one or two points)."""


def link_shares(bgr: np.ndarray, H: np.ndarray, centres: np.ndarray,
                placements: list[tuple[int, int]], model: colours.ColourModel,
                least_sure: float = 0.0) -> np.ndarray:
    """Share of each of the three link paths of each placed tile that shows its link's
    colour (N, 3) in 0..1.

    ``bgr``: the photo (H, W, 3) uint8; ``H``: plane → photo homography (3, 3), or one per
    tile (N, 3, 3); ``centres``: plane centres of the cells (N, 2); ``placements``: each
    cell's (tile number, rotation) as read.  A path point counts when its most likely class
    under ``model`` is its link's colour, with at least probability ``least_sure``."""
    n = len(placements)
    if n == 0:
        return np.zeros((0, 3))
    paths = [link_paths(int(t), int(r)) for t, r in placements]
    pts = np.stack([p for p, _c in paths]) + np.asarray(centres, np.float64)[:, None, :]
    want = np.stack([c for _p, c in paths])
    H = np.asarray(H, np.float64)
    lab = lab_samples(bgr, _apply(H, pts))
    lp = colours.log_probs(lab, model)
    got = np.argmax(lp, axis=-1)
    sure = lp.max(axis=-1) >= np.log(least_sure) if least_sure > 0 else True
    return ((got == want) & sure).reshape(n, 3, len(PATH_STEPS)).mean(axis=2)


def face_up(bgr: np.ndarray, H: np.ndarray, centres: np.ndarray,
            placements: list[tuple[int, int]], model: colours.ColourModel,
            least: float = LEAST_SHOWN) -> np.ndarray:
    """Does each placed tile show all three of its links' paths (``least`` of each,
    :data:`LEAST_SHOWN` unless told)?  (N,) bool; other arguments as :func:`link_shares`."""
    return (link_shares(bgr, H, centres, placements, model) >= least).all(axis=1)
