"""A colour cast taken off the photo by channel gains measured on the tile bodies.

A lamp the camera did not balance (a tungsten bulb) scales the photo's blue, green and red
channels by different gains.  The reader's grey (``colours.neutral_point``) shifts a and b
by the bodies' tint, which is right for the dark bodies but not for the light links: the
gain is a product, so a yellow link is shifted far more than a black body, and under a
strong cast a tile without red reads as nothing (its yellow turns orange, its green
yellow, its blue grey).  The black bodies are the one surface known to be grey, so their
channels give the gains back (von Kries): each channel is scaled so the bodies come out
grey.  The bodies are dark, so the gains are measured coarsely: this is the reader's last
look (``second_look.LOOKS``), tried after a poor read or a good one that seems to have
missed a tile (``reader._missed_beside``), and kept only when it reads better.
"""
from __future__ import annotations

import numpy as np

from . import bodies, colours
from .order_stats import median

MIN_LEVEL = 4.0
"""Least body level (0-255, each channel) whose channel ratios mean anything: bodies
crushed to black by a dim exposure carry no tint to measure."""

MIN_CAST = 1.15
"""Least ratio of the largest to the smallest gain worth a look: a weaker tint is what the
reader's grey already takes off."""


def body_gains(bgr: np.ndarray) -> np.ndarray | None:
    """Per-channel gains (3,) float, B G R, that make the tile bodies grey at their mean
    level (``colours.darkest_grey``, as the reader's grey is measured); ``None`` when the
    bodies are too dark to tell (:data:`MIN_LEVEL`) or barely tinted (:data:`MIN_CAST`).
    ``bgr``: (H, W, 3) uint8, measured on every other pixel."""
    half = bgr[::2, ::2]
    lab = colours.to_lab(half)
    sel = colours.darkest_grey(lab, bodies.dark_mask(lab), step=1)
    if sel is None:
        return None
    level = median(half[sel].astype(np.float32), axis=0)
    if level.min() < MIN_LEVEL:
        return None
    gains = float(level.mean()) / level
    if gains.max() / gains.min() < MIN_CAST:
        return None
    return gains


def balanced(bgr: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``bgr`` (H, W, 3) uint8 with each channel scaled by ``gains`` (3,), clipped."""
    return np.clip(bgr * gains.astype(np.float32), 0, 255).astype(np.uint8)
