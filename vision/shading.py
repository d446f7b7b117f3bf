"""A shadow over part of the board, taken off the cells' colour samples.

The colour model (``vision.colours``) is one per photo: yellow is told from green largely
by its lightness, learnt on the photo's lightest links.  A shadow over part of the board
(the player's arm, the camera's holder, a lamp's falloff past a book) darkens the links
under it, and a yellow link there is as dark as a green one in the light: the tiles under
it read confidently as their twins with green for yellow (the real photos darkened to
0.3 of the light over their left part, ``bench.real_photo_bench``'s ``shadow-0.3``:
discovery10 4 of 10 right, carpet13 5 of 12).

A yellow link keeps its hue in a shadow while its lightness falls, and yellow is on three
tiles of four: the yellow links of a cell and its neighbours give the light that falls
there (:func:`cell_gains`).  A cell lit clearly less than the board (:data:`LEAST_GAIN`)
has its samples lifted as the light would be (:func:`lifted`): Lab lightness goes as the
cube root of luminance, and hue is kept.
"""
from __future__ import annotations

import numpy as np

from referee.hexgrid import distance

from . import colours
from .order_stats import percentile, row_medians

REACH = 2
"""Hex distance of the clear cells whose yellow links give a cell's light (19 cells at
most)."""

LEAST_CELLS = 3
"""Clear cells showing yellow needed to tell the board's light (fewer: left as sampled)."""

LEAST_ALIKE = 3
"""Cells lit alike within :data:`REACH`, the cell itself included, needed to tell its light:
a shadow falls over several tiles, while one cell's yellow can read dark on its own (a
link end half on the body, a hand's edge): hard-16's cells so lifted alone, at gains up to
1.9, lost two tiles on hard 0-119."""

YELLOW_CHROMA = 8.0
"""Least Lab a/b distance from the grey for an edge sample to count as a link nearest
yellow's hue: a yellow link keeps its hue in a shadow, only its lightness and chroma fall."""

TWIN = 1.3
"""Most ratio, either way, between two cells' yellow links (on ``L* + 16``,
:data:`L_OFFSET`) for them to count as lit alike: a cell past a shadow's edge is 1.5-3
times darker, and its lit neighbours would tell it the light it does not get."""

BOARD_PERCENTILE = 75.0
"""Percentile of the cells' yellow taken as the board's light: a shadow over up to three
quarters of it, or glare over a few cells, leaves that the lit cells' yellow."""

LEAST_GAIN = 1.4
"""Least ratio of the board's light to a cell's (on ``L* + 16``: :data:`L_OFFSET`) for the
cell to be lifted.  The colour model learnt on the whole board takes up some unevenness
(the real photos with a shadow to half the light, a gain of about 1.7, read whole
unlifted), and a lamp's falloff over a board lifted at 1.2-1.3 lost a tile
(real-texture-113, warm light on dark felt)."""

MOST_GAIN = 3.0
"""The most a cell is lifted (a shadow to a twenty-seventh of the light)."""

L_OFFSET = 16.0 * 255.0 / 100.0
"""Lab's ``L* + 16``, which scales with the cube root of luminance, in 8-bit lightness
units (0..255, as ``colours.to_lab`` gives them)."""


def yellow_light(edges: np.ndarray, neutral: np.ndarray) -> np.ndarray:
    """Each cell's yellow link's ``L* + 16`` (N,), NaN where fewer than two of its edge
    samples (N, 6, 3) lie nearest yellow's hue (:data:`YELLOW_CHROMA`) about the grey
    ``neutral`` (2,): a yellow link has two ends."""
    chroma = np.hypot(edges[..., 1] - neutral[0], edges[..., 2] - neutral[1])
    yellow = ((colours.nearest_hue(edges, neutral) == colours.CLASSES.index("yellow"))
              & (chroma >= YELLOW_CHROMA))
    return np.where(yellow.sum(1) >= 2, row_medians(edges[..., 0] + L_OFFSET, yellow), np.nan)


def cell_gains(cells: np.ndarray, edges: np.ndarray, clear: np.ndarray,
               neutral: np.ndarray) -> np.ndarray:
    """The gain (N,) float, 1 or :data:`LEAST_GAIN` to :data:`MOST_GAIN`, that lifts each
    of ``cells`` (N, 2) axial to the board's light.

    ``edges``: (N, 6, 3) Lab edge samples of the cells; ``clear``: (N,) bool, the cells
    whose link contrast says they hold tiles; ``neutral``: the photo's grey a/b (2,).  A
    cell's light is the median yellow (:func:`yellow_light`) of the clear cells within
    :data:`REACH` lit as it is (:data:`TWIN`, when it shows yellow itself); the board's,
    the :data:`BOARD_PERCENTILE` of the clear cells' yellow.  A cell with no yellow near
    is left as it is."""
    gains = np.ones(len(cells))
    own = yellow_light(edges, neutral)
    shown = clear & ~np.isnan(own)
    if shown.sum() < LEAST_CELLS:
        return gains
    y = own[shown]
    board = percentile(y, BOARD_PERCENTILE)
    if y.min() * LEAST_GAIN > board:
        # (every cell's light is a median of these: none is lit that much less)
        return gains
    cells = np.asarray(cells)
    # (N, K): the cells showing yellow within REACH of each cell, lit as it is when it
    # shows yellow itself (a cell without: any; its own NaN stands in by y's largest)
    near = distance((cells[:, 0, None], cells[:, 1, None]),
                    (cells[None, shown, 0], cells[None, shown, 1])) <= REACH
    apart = y[None, :] / np.where(np.isnan(own), y.max(), own)[:, None]
    near &= np.isnan(own)[:, None] | ((apart <= TWIN) & (apart >= 1.0 / TWIN))
    told = near.sum(1) >= LEAST_ALIKE
    if not told.any():
        return gains
    light = row_medians(np.broadcast_to(y, near.shape)[told], near[told])
    ratio = board / np.maximum(light, 1.0)
    gains[told] = np.where(ratio >= LEAST_GAIN, np.minimum(ratio, MOST_GAIN), 1.0)
    return gains


def lifted(samples: np.ndarray, gains: np.ndarray, neutral: np.ndarray) -> np.ndarray:
    """Lab ``samples`` (N, ..., 3) of N cells as they would be lit ``gains`` (N,) times as
    much: ``L* + 16`` (:data:`L_OFFSET`) scaled by the gain and a/b about ``neutral`` (2,)
    by its square root (float64 copy; ``samples`` itself where nothing is lifted)."""
    g = np.asarray(gains, np.float64).reshape((-1,) + (1,) * (samples.ndim - 1))
    if samples.size == 0 or np.all(g == 1.0):
        return samples
    out = samples.astype(np.float64, copy=True)
    out[..., 0] = np.minimum((out[..., 0] + L_OFFSET) * g[..., 0] - L_OFFSET, 255.0)
    # (chroma by the gain's square root: lifted by the whole gain, the pale blue links of
    # discovery10 under a round shadow to 0.35 read green, 2 tiles of 10 right; lightness
    # alone, carpet13 under a shadow to 0.3 lost 2 tiles of 12: its pale blue and its
    # dark red fall in chroma as well)
    out[..., 1:] = neutral + (out[..., 1:] - neutral) * np.sqrt(g)
    return out
