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

PAD = 0.02
"""... plus this share of the photo's side (a group of a tile or two)."""

MAX_SHARE = 0.3
"""A region covering more than this share of the photo is not worth cropping to."""

FINE_SIDE = 1200
"""Longest side (px) of the copy on which tile bodies are looked for one by one, when hue
variety finds no region (:func:`_bodies_with_links`)."""

FINE_GAP = 2
"""Gaps up to twice this (fine-copy px) in the dark bodies are closed: a link band of a
tile 15-20 px across there."""

MIN_LINKS = 30
"""Link pixels (fine copy) a body must hold to be taken for tiles."""


def _reduced(image: np.ndarray, side: int) -> tuple[np.ndarray, float, np.ndarray, np.ndarray, np.ndarray]:
    """A copy of ``image`` no longer than ``side`` px: (copy, scale, its Lab, its dark-body
    mask, its grey a/b)."""
    h, w = image.shape[:2]
    f = min(1.0, side / max(h, w))
    small = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA) if f < 1 else image
    lab = colours.to_lab(small)
    dark = bodies.dark_mask(lab)
    return small, f, lab, dark, colours.neutral_point(lab, dark)


def board_region(image: np.ndarray) -> tuple[int, int, int, int] | None:
    """Box (x0, y0, x1, y1), image px, round the tiles of a BGR uint8 photo (H, W, 3).

    ``None`` when no tiles are seen or when the box would cover more than ``MAX_SHARE``
    of the photo (reading the whole photo costs no more then).
    """
    h, w = image.shape[:2]
    small, f, lab, dark, neutral = _reduced(image, SIDE)
    # links lie inside grey bodies (as in the reader's first look): a coloured cloth is
    # no link; on a dark cloth the gate lets everything through and variety decides
    gate = bodies.body_region(dark, max(3, round(max(small.shape[:2]) / 50)))
    link = colours.link_image(lab, neutral, gate)
    variety = colours.diversity_gate(lab, neutral, link, max(7.0, WINDOW * max(small.shape[:2])))
    n, _labels, stats, _c = cv2.connectedComponentsWithStats((variety > 0.5).astype(np.uint8))
    if n <= 1:
        return _bodies_with_links(image)
    stats = stats[1:]
    areas = stats[:, cv2.CC_STAT_AREA]
    big = stats[int(np.argmax(areas))]
    # loose tiles lie beside the board: small patches count only near the largest one
    reach = max(big[2], big[3])
    near = ((stats[:, 0] < big[0] + big[2] + reach) & (stats[:, 0] + stats[:, 2] > big[0] - reach)
            & (stats[:, 1] < big[1] + big[3] + reach) & (stats[:, 1] + stats[:, 3] > big[1] - reach))
    for keep in (stats[near & (areas >= KEEP * areas.max())], big[None]):
        # (the largest patch alone when noise on a dark cloth spreads the box too wide)
        box = _worth_cropping(_box(keep, small.shape[:2], f, (w, h)), w, h)
        if box is not None:
            return box
    return _bodies_with_links(image)


def _bodies_with_links(image: np.ndarray) -> tuple[int, int, int, int] | None:
    """Box (x0, y0, x1, y1), image px, round the dark body that holds the most link colour
    of three hues or more, or ``None``.

    Where hue variety is everywhere (a cloth printed with dots of the link colours, the
    tiles a few pixels across on the small copy: hard-78's ten tiles on a 12 Mpx photo),
    the tiles still differ from the print in one way: their links lie *inside* dark
    bodies, while the print's dots lie on the cloth.  So the dark bodies are closed over
    thin links on a finer copy, and the links inside each are counted by hue.

    A dim cloth can pass for dark itself (hard-11: its lightness split falls above the
    cloth's, and the whole cloth is one body with the board in it); when the best body is
    too big to crop to, or none holds links enough, the darker part of the dark pixels
    (:func:`bodies.darker_part`) is tried instead.
    """
    h, w = image.shape[:2]
    small, f, lab, dark, neutral = _reduced(image, FINE_SIDE)
    for darker in (False, True):
        best = _linked_body(lab, bodies.darker_part(lab, dark) if darker else dark, neutral)
        if best is not None:
            box = _worth_cropping(_box(best[None], small.shape[:2], f, (w, h)), w, h)
            if box is not None:
                return box
    return None


def _linked_body(lab: np.ndarray, dark: np.ndarray, neutral: np.ndarray) -> np.ndarray | None:
    """Stats row (x, y, w, h, area) of the closed body of ``dark`` (bool, H × W) holding
    the most link pixels of three hues or more, or ``None`` if none holds
    :data:`MIN_LINKS`."""
    closed = bodies.body_region(dark, FINE_GAP).astype(np.uint8)
    n, labels, stats, _c = cv2.connectedComponentsWithStats(closed)
    if n <= 1:
        return None
    hue = colours.nearest_hue(lab, neutral)
    on = (colours.link_image(lab, neutral) > 0.3) & (closed > 0)
    per_hue = np.stack([np.bincount(labels[on & (hue == c)], minlength=n) for c in range(4)], 1)
    total = per_hue.sum(1)
    # (a tile carries three link colours: a body with one or two hues is print or a stain)
    varied = (per_hue >= np.maximum(3, 0.05 * total[:, None])).sum(1) >= 3
    score = np.where(varied, total, 0)
    score[0] = 0                                   # the background
    best = int(np.argmax(score))
    return stats[best] if score[best] >= MIN_LINKS else None


def _worth_cropping(box: np.ndarray, w: int, h: int) -> tuple[int, int, int, int] | None:
    """``box`` as a tuple if it covers at most :data:`MAX_SHARE` of a ``w`` × ``h`` photo."""
    if (box[2] - box[0]) * (box[3] - box[1]) > MAX_SHARE * w * h:
        return None
    return int(box[0]), int(box[1]), int(box[2]), int(box[3])


def _box(patches: np.ndarray, small_shape: tuple[int, int], f: float, size: tuple[int, int]
         ) -> np.ndarray:
    """Box round connected-component ``patches`` (stats rows) of the small copy, with
    margin, in the photo's px."""
    x0, y0 = patches[:, 0].min(), patches[:, 1].min()
    x1 = (patches[:, 0] + patches[:, 2]).max()
    y1 = (patches[:, 1] + patches[:, 3]).max()
    mx = MARGIN * (x1 - x0) + PAD * small_shape[1]
    my = MARGIN * (y1 - y0) + PAD * small_shape[0]
    box = np.array([x0 - mx, y0 - my, x1 + mx, y1 + my]) / f
    w, h = size
    return np.clip(np.round(box), 0, [w, h, w, h]).astype(int)


def core(box: tuple[int, int, int, int], shape: tuple[int, int]) -> tuple[float, float, float, float]:
    """The tiles' extent within a :func:`board_region` box of a photo of ``shape`` (h, w):
    the box without the margin :func:`_box` adds (a box clipped at the photo's rim gives
    a core a little smaller than the tiles' there)."""
    h, w = shape
    x0, y0, x1, y1 = (float(v) for v in box)
    # (the box is (1 + 2 MARGIN) times the tiles' extent, plus PAD of the side each way)
    mx = (x1 - x0 - 2 * PAD * w) * MARGIN / (1 + 2 * MARGIN) + PAD * w
    my = (y1 - y0 - 2 * PAD * h) * MARGIN / (1 + 2 * MARGIN) + PAD * h
    return x0 + mx, y0 + my, x1 - mx, y1 - my
