"""Which way is south: turning a lattice's labels so the board reads the right way up.

A lattice fitted to a photo labels its cells from any of six directions.  The board JSON
wants +r (south) pointing down the photo, so labels are turned by a multiple of 60°.
"""
from __future__ import annotations

from dataclasses import replace

import numpy as np

from . import lattice
from .lattice import BASIS, MIDPOINTS, SQ3, Lattice

def choose_frame(lat: Lattice, cells: np.ndarray) -> tuple[Lattice, int]:
    """Turn the plane by a multiple of 60° so that +r (south) points down the photo.

    Returns the new lattice and the number of clockwise steps the labels turned.
    """
    centre = cells.mean(0) if len(cells) else np.zeros(2)
    k = int(down_steps(lat.H[None], (centre @ BASIS.T)[None])[0])
    return replace(lat, H=lat.H @ TURN_STEPS[k]), k


def upright(Hs: np.ndarray) -> np.ndarray:
    """:func:`choose_frame` of N one-cell lattices at the plane's origin, ``Hs``
    (N, 3, 3), all at once (a cloth's print can make dozens of loose places a frame)."""
    if len(Hs) == 0:
        return Hs
    steps = down_steps(Hs, np.zeros((len(Hs), 2)))
    return np.array([H @ TURN_STEPS[k] for H, k in zip(Hs, steps)])


_TO_NEIGHBOURS = MIDPOINTS * 2 / SQ3
"""(6, 2) plane unit vectors from a cell's centre towards its 6 neighbours."""


def down_steps(Hs: np.ndarray, at: np.ndarray) -> np.ndarray:
    """Clockwise label steps (N,) int that make the edge of the cell centred at plane point
    ``at`` (N, 2) that points most down the photo under ``Hs`` (N, 3, 3) its edge 3."""
    pts = np.concatenate([at[:, None, :], at[:, None, :] + _TO_NEIGHBOURS[None]], axis=1)
    img = lattice._apply(Hs, pts)
    dy = img[:, 1:, 1] - img[:, :1, 1]
    dx = img[:, 1:, 0] - img[:, :1, 0]
    e = np.argmax(dy / np.maximum(np.hypot(dx, dy), 1e-9), axis=1)
    return (3 - e) % 6


def turn_steps(k: int) -> np.ndarray:
    """The 3x3 plane turn for ``k`` clockwise label steps: p_old = Rcw(-60k) p_new."""
    th = -np.deg2rad(60 * k)
    R = np.eye(3)
    R[:2, :2] = [[np.cos(th), -np.sin(th)], [np.sin(th), np.cos(th)]]
    return R


TURN_STEPS = [turn_steps(k) for k in range(6)]
