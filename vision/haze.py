"""A glare veil over the whole photo, cleared pixel by pixel.

Glossy tiles under a bright lamp can be veiled all over: every body looks grey and every
link pastel, and a black cloth round them is then *darker* than the tiles.  Nothing on
such a board is black any more, so neither the grey-body gate nor the per-cell clearing
(``sampling.unveil``, which measures a cell's veil against the bodies elsewhere) has a
reference.  What still holds: each colour a Tantrix tile carries has one channel near
zero (black body; red, yellow, green and blue links are saturated), so the darkest
channel over a small window measures the veil there, as a haze does (the "dark channel"
of a hazy photo).  With the veil ``a`` (share of white light over the pixel), a pixel
shows ``(1 - a) * colour + a * 255``, which is inverted.
"""
from __future__ import annotations

import cv2
import numpy as np

from .sampling import MAX_VEIL, tinted_light

VEILED = 0.2
"""A board counts as veiled when its bodies' darkest channel is at least this share of
white (black bodies under ordinary light stay well under it, about 0.05-0.1)."""


def clear_veil(bgr: np.ndarray) -> np.ndarray:
    """``bgr`` (H, W, 3) uint8 with a white veil taken off each pixel, same shape and type.

    The veil is the darkest channel's minimum over a window of about 1 % of the image's
    longer side, smoothed over twice that (a veil varies slowly), and capped at
    :data:`~vision.sampling.MAX_VEIL` (beyond, the colours are clipped white).  A light
    table is taken for a veil too and comes out dark: only the last look uses this
    (``second_look.LOOKS``: after a poor read, or beside cells that look veiled), its tiles
    must show veiled bodies in the photo as taken, and its read must beat the others.
    """
    k = max(3, round(max(bgr.shape[:2]) / 100)) | 1
    # (OpenCV's min of the planes and numpy's in-place steps: the same pixels as
    # ``bgr.min(axis=2)`` and plain expressions, in 17 ms of a 720p frame's 40)
    b, g, r = cv2.split(bgr)
    dark = cv2.erode(cv2.min(cv2.min(b, g), r), np.ones((k, k), np.uint8)).astype(np.float32)
    dark = cv2.blur(dark, (2 * k + 1, 2 * k + 1))
    a = np.minimum(dark * (1.0 / 255.0), MAX_VEIL)[..., None]
    out = bgr.astype(np.float32)
    out -= 255.0 * a
    out /= 1.0 - a
    np.clip(out, 0, 255, out=out)
    return out.astype(np.uint8)


def veiled(body: np.ndarray) -> np.ndarray:
    """Are tile bodies that show BGR ``body`` (..., 3) under a near-white veil? (...) bool.

    Lifted (darkest channel at least :data:`VEILED` of white) and not tinted
    (:func:`~vision.sampling.tinted_light`, as ``sampling.unveil`` asks of a veil): a
    wooden or coloured table read as tiles is tinted, black bodies are not lifted.
    """
    return (np.min(body, axis=-1) >= VEILED * 255.0) & ~tinted_light(body)
