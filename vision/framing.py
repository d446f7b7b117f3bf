"""Close-ups: photos framed so tightly that their tiles touch the photo's edge.

The lattice search wants cells well inside the image (a cell larger than a third of the
image's short side is taken for no lattice at all: on a board photo such a "cell" is a
hexagon drawn round a group of tiles), and the table's colour round a tile tells the tile
apart from it.  A photo of one tile filling its frame (``../shared/real_tiles``'s crops
read directly: 8 of 56 right) has neither.  Such a photo is read again with a margin of
the table's colour added round it, as if the camera had stepped back.
"""
from __future__ import annotations

import cv2
import numpy as np

MARGIN = 0.3
"""Width of the margin added on each side, in the photo's longer side (0.3 on the 56 real
tile crops: 56 read right; 0.08: 13)."""

TOUCHING = (0.01, 0.5)
"""A photo is tight when the tile mask covers this share of its outermost pixels (low,
high): a real tile filling its 130×120 crop touches the rim along 3-9 % of it; a mask over
more than half the rim has taken in the table (a black cloth: real-texture-79's mask covers
its whole rim), and says nothing of how the tiles are framed."""


CLOSE_UP_SIDE = 150
"""A framed photo whose first read finds no cell at its rim is read once more shrunk so the
photo's longer side is at most this (px): a close-up taken nearer, or at a higher
resolution, shows its tile far bigger than the search's filters and link gates are made
for (the real tile crops enlarged 2×: tiles 260 px across, no link found at all)."""


def close_up_shrink(height: int, width: int) -> float | None:
    """The factor that brings a photo of ``height`` × ``width`` px to :data:`CLOSE_UP_SIDE`,
    or ``None`` when it is no bigger."""
    f = CLOSE_UP_SIDE / max(height, width)
    return f if f < 1.0 else None


RIM_SLACK = 0.5
"""A cell reaches the rim when a corner of it lies within this many cell sizes (centre to
corner) of the photo's edge, or past it (the 56 real tile crops: -0.02 to 0.21; with a
margin of 0.19 sizes added, 13 of them read)."""


def reaches_rim(corners: np.ndarray, width: float, height: float, size: float) -> bool:
    """Do any of the points ``corners`` (N, 2; x, y px) lie within :data:`RIM_SLACK` ×
    ``size`` px of the edge of a ``width`` × ``height`` photo, or outside it?"""
    slack = RIM_SLACK * size
    x, y = np.asarray(corners, np.float64).reshape(-1, 2).T
    return bool(((x < slack) | (y < slack) | (x > width - slack) | (y > height - slack)).any())


def tight(mask: np.ndarray) -> bool:
    """Does the tile mask (H, W; non-zero on tile bodies and links) reach the image's rim
    (within :data:`RIM_BAND` of it) along a share of it within :data:`TOUCHING`?"""
    rim = _rim_band(mask)
    share = np.count_nonzero(rim) / rim.size
    return bool(TOUCHING[0] <= share <= TOUCHING[1])


def table_colour(image: np.ndarray, mask: np.ndarray) -> tuple[float, float, float]:
    """The table's BGR colour at the image's rim: the median of the rim pixels off the tile
    mask (of all rim pixels when fewer than a tenth are off it).

    ``image``: BGR uint8 (H, W, 3); ``mask``: its tile mask (H, W)."""
    pixels = _rim(image)
    off = _rim(mask) == 0
    if np.count_nonzero(off) >= 0.1 * off.size:
        pixels = pixels[off]
    return tuple(float(v) for v in np.median(pixels.reshape(-1, 3), axis=0))


def with_margin(image: np.ndarray, colour: tuple[float, float, float]) -> tuple[np.ndarray, int]:
    """``image`` (BGR uint8) with a border of ``colour`` :data:`MARGIN` of its longer side
    wide; returns the framed image and the border's width (px)."""
    m = max(1, int(round(MARGIN * max(image.shape[:2]))))
    return cv2.copyMakeBorder(image, m, m, m, m, cv2.BORDER_CONSTANT, value=colour), m


RIM_BAND = 0.01
"""Depth of the rim band :func:`tight` looks in, in the photo's longer side (at least one
pixel past the outermost): tiles cut out close may leave a line of table a few pixels
wide at the edge (four real tile crops laid in a rhombus: their bodies stop 2 px short
of the picture's edge)."""


def _rim_band(mask: np.ndarray) -> np.ndarray:
    """Per outermost pixel of ``mask`` (as :func:`_rim`): is any pixel within
    :data:`RIM_BAND` of the edge on its line inward non-zero?"""
    d = 1 + int(round(RIM_BAND * max(mask.shape[:2])))
    # (only the band is compared, not the whole mask)
    top, bottom = (mask[:d] != 0).any(0), (mask[-d:] != 0).any(0)
    left, right = (mask[:, :d] != 0).any(1), (mask[:, -d:] != 0).any(1)
    return np.concatenate([top, bottom, left[1:-1], right[1:-1]])


def _rim(a: np.ndarray) -> np.ndarray:
    """The outermost pixels of an (H, W, ...) array, each once: (2H + 2W - 4, ...)."""
    return np.concatenate([a[0], a[-1], a[1:-1, 0], a[1:-1, -1]])
