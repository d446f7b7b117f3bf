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

Glare on glossy tiles measures the cast better: a glare spot is the lamp's own light
mirrored, so where it lifts a black corner the light added is the lamp's colour
(:func:`glare_gains`).  Under a cast the camera did not balance, a veiled green link
looks yellow and a veiled blue one grey, and a tile reads confidently as the tile with
that link's colour swapped (real tiles under the benchmark's warm glare: 10 of 56).

When the bodies are too dark to show a tint at all, the lightest surface in view is
taken as white (:func:`white_gains`): under a strong warm lamp and a dim exposure, the
real tiles whose blue links sink into the body read as nothing otherwise.
"""
from __future__ import annotations

import numpy as np

from . import bodies, colours, sampling
from .order_stats import median, percentile

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
    level = _body_level(bgr)
    return None if _too_dark(level) else _to_grey(level, MIN_CAST)


def cast_gains(bgr: np.ndarray) -> np.ndarray | None:
    """The balanced look's gains when no glare shows the lamp: :func:`body_gains`, or,
    when the bodies are too dark to show a tint at all, :func:`white_gains` (bodies
    visible and barely tinted say the cast is weak: a light surface is then more likely
    a coloured table than a white one lit by the lamp)."""
    level = _body_level(bgr)
    return white_gains(bgr) if _too_dark(level) else _to_grey(level, MIN_CAST)


def _too_dark(level: np.ndarray | None) -> bool:
    """Are the bodies (their :func:`_body_level`) too dark to show a tint, or missing?"""
    return level is None or level.min() < MIN_LEVEL


def _body_level(bgr: np.ndarray) -> np.ndarray | None:
    """Median B, G, R (3,) of the tile bodies (``colours.darkest_grey``, on every other
    pixel), or ``None`` when no pixel looks like one."""
    half = bgr[::2, ::2]
    lab = colours.to_lab(half)
    sel = colours.darkest_grey(lab, bodies.dark_mask(lab), step=1)
    if sel is None:
        return None
    return median(half[sel].astype(np.float32), axis=0)


LIGHTEST_SHARE = 0.1
"""Share of the photo's pixels, the lightest by channel sum, taken as a white surface by
:func:`white_gains`."""

WHITE_FROM = 80.0
"""Least mean level (0-255) of that lightest tenth for it to be a lit surface, not a dim
photo's noise.  (120 until session 88: a real tile's crop under a cold cast and a dim
exposure shows its light paper at level 99, and 25 of 56 such crops read as nothing or
wrong, their yellow links as green about as well.  At 80 hard and real-texture 0-99 read
the same tiles.)"""


def white_gains(bgr: np.ndarray) -> np.ndarray | None:
    """Per-channel gains (3,) float, B G R, that make the lightest tenth of the photo
    (:data:`LIGHTEST_SHARE`, median B, G, R; pixels clipped in every channel left out) grey;
    ``None`` when it is too dark (:data:`WHITE_FROM`) or barely tinted (:data:`MIN_CAST`).

    The "white patch" guess of a cast, for when the bodies are too dark to show one
    (:func:`cast_gains`): under a strong warm lamp and a dim exposure a
    tile's blue links sink into its black body, and the lightest surface in view (a
    white table or sheet, a light wall) still shows the lamp's colour.  A coloured table
    is no white, so the balanced read it gives must win as any balanced read does.
    ``bgr``: (H, W, 3) uint8, measured on every other pixel."""
    half = bgr[::2, ::2].reshape(-1, 3)
    total = half.sum(1, dtype=np.int32)
    light = half[total >= percentile(total, 100 * (1 - LIGHTEST_SHARE))]
    # (a channel clipped at white under the lamp still shows the tint, if less of it; a
    # pixel clipped in all three is a glare spot or a blown-out patch, no colour at all)
    light = light[(light < 250).any(1)]
    if len(light) < 20:
        return None
    level = median(light.astype(np.float32), axis=0)
    if level.mean() < WHITE_FROM or _too_dark(level):
        return None
    return _to_grey(level, MIN_CAST)


def _to_grey(colour: np.ndarray, least: float) -> np.ndarray | None:
    """Gains (3,) that scale BGR ``colour`` (3,) to grey at its mean level, or ``None``
    when they are less than ``least`` apart (largest over smallest)."""
    gains = float(colour.mean()) / colour
    return gains if gains.max() / gains.min() >= least else None


GLARE_LIFT = 0.2
"""Least share of white light over a corner for its glare to give the lamp's colour (a
corner barely lifted is mostly body, and its colour mostly noise)."""

CLIPPED = 250.0
"""A corner with a channel this bright is clipped: its colour is no longer the lamp's."""

GLARE_CAST = 1.25
"""Least ratio of the largest to the smallest gain that the glare's colour must show for
a look: two glare-lit corners of a tile under a white spot measure up to 1.21."""


def glare_gains(corners: np.ndarray) -> np.ndarray | None:
    """Per-channel gains (3,) float, B G R, that make the lamp's light grey, measured on
    glare over the tiles' corners; ``None`` when fewer than two corners are lit by glare
    (:data:`GLARE_LIFT`, not :data:`CLIPPED`) or their light is near grey
    (:data:`GLARE_CAST`).

    ``corners``: (N, 3) BGR samples of the corners of tiles read (black body wherever no
    glare lies).  The darker half of them give the body; a corner showing ``(1 - a) *
    body + a * lamp`` gives ``a`` by its lightness and so the lamp's colour."""
    c = np.asarray(corners, np.float64).reshape(-1, 3)
    if len(c) < 2:
        return None
    body = median(c[np.argsort(c.mean(1))[: len(c) // 2]], axis=0)
    a = sampling.veil_share(c, body)
    lit = (a >= GLARE_LIFT) & (c.max(1) < CLIPPED)
    if lit.sum() < 2:
        return None
    lamp = median(sampling.veil_light(c[lit], body, a[lit]), axis=0)
    if lamp.min() <= 0:
        return None
    return _to_grey(lamp, GLARE_CAST)


def balanced(bgr: np.ndarray, gains: np.ndarray) -> np.ndarray:
    """``bgr`` (H, W, 3) uint8 with each channel scaled by ``gains`` (3,), clipped."""
    return np.clip(bgr * gains.astype(np.float32), 0, 255).astype(np.uint8)
