"""Where on a photo the tiles are: a box to read at full resolution.

A small group of tiles in a large photo (a far shot, a 12 Mpx photo of a few tiles) ends
up a few pixels per tile on the reader's working copy, and the photo's own statistics
(its strongest colours, its lightness split) are then the table's, not the tiles'.
Tiles are the one thing on a table that shows three link colours side by side, so the
box is taken round the places where several link hues lie close together.
"""
from __future__ import annotations

import cv2
import numpy as np

from . import bodies, colours

SIDE = 480
"""Longest side (px) of the small copy the region is looked for on."""

WINDOW = 1 / 24
"""Hue-variety window as a share of the small copy's longest side (a few tiles across at
the sizes where reading a region pays)."""

KEEP = 0.03
"""Patches of hue variety this big (share of the largest) and within the largest one's
size of it belong to the region: loose tiles beside a large board are small patches."""

MARGIN = 0.15
"""Margin round the box, as a share of its size (tiles at the edge of the group)."""

MAX_SHARE = 0.3
"""A region covering more than this share of the photo is not worth cropping to."""


def board_region(image: np.ndarray) -> tuple[int, int, int, int] | None:
    """Box (x0, y0, x1, y1), image px, round the tiles of a BGR uint8 photo (H, W, 3).

    ``None`` when no tiles are seen or when the box would cover more than ``MAX_SHARE``
    of the photo (reading the whole photo costs no more then).
    """
    h, w = image.shape[:2]
    f = min(1.0, SIDE / max(h, w))
    small = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1 else image
    lab = colours.to_lab(small)
    dark = bodies.dark_mask(lab)
    neutral = colours.neutral_point(lab, dark)
    # links lie inside grey bodies (as in the reader's first look): a coloured cloth is
    # no link; on a dark cloth the gate lets everything through and variety decides
    gate = bodies.body_region(dark, max(3, round(max(small.shape[:2]) / 50)))
    link = colours.link_image(lab, neutral, gate)
    variety = colours.diversity_gate(lab, neutral, link, max(7.0, WINDOW * max(small.shape[:2])))
    n, _labels, stats, _c = cv2.connectedComponentsWithStats((variety > 0.5).astype(np.uint8))
    if n <= 1:
        return None
    stats = stats[1:]
    areas = stats[:, cv2.CC_STAT_AREA]
    big = stats[int(np.argmax(areas))]
    # loose tiles lie beside the board: small patches count only near the largest one
    reach = max(big[2], big[3])
    near = ((stats[:, 0] < big[0] + big[2] + reach) & (stats[:, 0] + stats[:, 2] > big[0] - reach)
            & (stats[:, 1] < big[1] + big[3] + reach) & (stats[:, 1] + stats[:, 3] > big[1] - reach))
    for keep in (stats[near & (areas >= KEEP * areas.max())], big[None]):
        # (the largest patch alone when noise on a dark cloth spreads the box too wide)
        box = _box(keep, small.shape[:2], f, (w, h))
        if (box[2] - box[0]) * (box[3] - box[1]) <= MAX_SHARE * w * h:
            return int(box[0]), int(box[1]), int(box[2]), int(box[3])
    return None


def _box(patches: np.ndarray, small_shape: tuple[int, int], f: float, size: tuple[int, int]
         ) -> np.ndarray:
    """Box round connected-component ``patches`` (stats rows) of the small copy, with
    margin, in the photo's px."""
    x0, y0 = patches[:, 0].min(), patches[:, 1].min()
    x1 = (patches[:, 0] + patches[:, 2]).max()
    y1 = (patches[:, 1] + patches[:, 3]).max()
    mx = MARGIN * (x1 - x0) + 0.02 * small_shape[1]
    my = MARGIN * (y1 - y0) + 0.02 * small_shape[0]
    box = np.array([x0 - mx, y0 - my, x1 + mx, y1 + my]) / f
    w, h = size
    return np.clip(np.round(box), 0, [w, h, w, h]).astype(int)
