"""Geometry a reader applies before looking for tiles: undistort, or rectify the table plane.

One call for the reader::

    prep = prepare(image, profile)
    # ... find and read tiles in prep.image, expecting tiles prep.tile_pitch_px apart ...
    photo_xy = prep.to_photo(found_xy)   # report ``pixel`` in the original photo
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

import numpy as np

from .camera import distort_points, undistort
from .profile import Profile
from .table import rectify


@dataclass
class Prepared:
    """``image``: what to analyse (BGR uint8); ``to_photo``: its pixels (N, 2) → original
    photo pixels (N, 2); ``tile_pitch_px``: expected centre distance of touching tiles in
    ``image`` pixels when the table profile fixes the scale, else ``None``; ``steps``:
    what was done (``"undistort"``, ``"rectify"``)."""

    image: np.ndarray
    to_photo: Callable[[np.ndarray], np.ndarray]
    tile_pitch_px: float | None
    steps: tuple[str, ...]


def _identity(points: np.ndarray) -> np.ndarray:
    return np.asarray(points, np.float64).reshape(-1, 2)


def _surround(image: np.ndarray) -> tuple[int, ...]:
    """Median colour of the photo's outer frame (mostly table): fills what the rectified
    view shows beyond the photo, where black would look like one huge tile body."""
    h, w = image.shape[:2]
    m = max(1, min(h, w) // 50)
    px = image.reshape(h, w, -1)
    ring = np.concatenate([part.reshape(-1, px.shape[2]) for part in (px[:m], px[-m:], px[:, :m], px[:, -m:])])
    return tuple(int(v) for v in np.median(ring, axis=0)) + (0,) * (4 - px.shape[2])


def prepare(image: np.ndarray, profile: Profile | None) -> Prepared:
    """Apply the profile's geometry to a BGR photo.

    With a table section and a photo of the calibrated size, the photo is rectified (lens
    distortion included when there is a camera section) and the tile pitch is known.
    A photo of another size (the camera moved or zoomed: the table profile no longer
    holds) falls back to undistortion only.  Without geometry the photo is unchanged.
    """
    if profile is None:
        return Prepared(image, _identity, None, ())
    h, w = image.shape[:2]
    table, camera = profile.table, profile.camera
    if table is not None and tuple(table.image_size) == (w, h):
        flat = rectify(image, table, camera, border=_surround(image))
        return Prepared(flat, lambda pts: table.to_photo(pts, camera), float(table.tile_pitch_px),
                        ("undistort", "rectify") if camera is not None else ("rectify",))
    if camera is not None:
        camera.matrix_for((w, h))  # BadInput if the photo cannot come from this camera
        return Prepared(undistort(image, camera), lambda pts: distort_points(pts, camera, (w, h)), None,
                        ("undistort",))
    return Prepared(image, _identity, None, ())
