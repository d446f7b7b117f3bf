"""Decoding photos for the reader, with one-line ``BadInput`` errors.

Big photos are decoded at a reduced scale straight from the JPEG/PNG data (libjpeg's DCT
scaling), because the reader never needs more than about 1-3 Mpx: a 12 Mpx photo decoded
at 1/2 or 1/4 size costs a fraction of a full decode.

JPEGs stored upright are decoded by simplejpeg (libjpeg-turbo, as OpenCV's decoder, and
the same pixels: checked on 249 decodes of the bench tiers, ``../shared`` and the samples,
70 of them reduced), which takes ~2 ms less of a 720p frame; anything it declines (EXIF
turned, CMYK, damaged data) goes to OpenCV as before.
"""
from __future__ import annotations

import io
import os
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np
import simplejpeg

from referee.errors import BadInput
from referee.files import read_bytes

MAX_PIXELS = 80_000_000
"""Larger images are refused (decompression bombs); 80 Mpx is above any phone camera."""

WORK_PIXELS = 1_500_000
"""Reduced decoding keeps at least this many pixels (the reader works on ~1 Mpx at most)."""

_REDUCED = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}


@dataclass
class Photo:
    """A decoded photo: ``image`` is BGR uint8 (H, W, 3) at ``scale`` of the original.

    ``width``/``height`` are the original photo's size in pixels; a pixel (x, y) of
    ``image`` is (x / scale, y / scale) in the original.
    """

    image: np.ndarray
    width: int
    height: int
    scale: float = 1.0


_EXIF_ORIENTATION = 0x0112
_TURNED = {5, 6, 7, 8}  # EXIF orientations that swap width and height


def _header(data: bytes) -> tuple[tuple[int, int], int | None] | None:
    """((width, height) as shown upright, EXIF orientation or ``None``), from the file
    header without decoding pixels, if Pillow knows the format.

    OpenCV's decoder applies the EXIF orientation (phone photos taken sideways), so the
    size is swapped here too for orientations that turn the picture by 90°.
    """
    try:
        from PIL import Image  # Pillow comes with scikit-image
        Image.MAX_IMAGE_PIXELS = None
        with Image.open(io.BytesIO(data)) as im:
            w, h = int(im.size[0]), int(im.size[1])
            try:
                orientation = im.getexif().get(_EXIF_ORIENTATION)
            except Exception:  # noqa: BLE001 - no readable EXIF: shown as stored
                orientation = None
            return ((h, w) if orientation in _TURNED else (w, h)), orientation
    except Exception:  # noqa: BLE001 - unknown header: let OpenCV decide
        return None


def _is_jpeg(data: bytes) -> bool:
    return data[:3] == b"\xff\xd8\xff"


def _check_truncated(data: bytes, name: str) -> None:
    if _is_jpeg(data):
        tail = data.rstrip(b"\x00")[-2:]
        if tail != b"\xff\xd9":
            raise BadInput(f"{name}: truncated JPEG image")
    elif data[:8] == b"\x89PNG\r\n\x1a\n":
        if b"IEND" not in data[-16:]:
            raise BadInput(f"{name}: truncated PNG image")


def _quiet_imdecode(buf: np.ndarray, flags: int) -> np.ndarray | None:
    """``cv2.imdecode`` with libjpeg/libpng warnings kept off stderr (CONTRACT: an error is
    one line).  The C libraries write to file descriptor 2 directly, so it is redirected
    for the duration of the call."""
    try:
        saved = os.dup(2)
    except OSError:
        return cv2.imdecode(buf, flags)
    null = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(null, 2)
        return cv2.imdecode(buf, flags)
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(null)


def _fast_jpeg(data: bytes, factor: int, size: tuple[int, int]) -> np.ndarray | None:
    """A JPEG stored upright decoded by simplejpeg at 1/``factor`` of ``size`` (the same
    pixels as ``cv2.imdecode``'s, reduced or not), or ``None`` when it declines the data."""
    try:
        if factor == 1:
            return simplejpeg.decode_jpeg(data, colorspace="BGR")
        return simplejpeg.decode_jpeg(data, colorspace="BGR", min_width=-(-size[0] // factor),
                                      min_height=-(-size[1] // factor))
    except Exception:  # noqa: BLE001 - data it will not take: OpenCV decides
        return None


def decode_bytes(data: bytes, name: str = "image", reduce: bool = True) -> Photo:
    """Decode an encoded image; ``BadInput`` if it is empty, not an image, truncated or huge."""
    if not data:
        raise BadInput(f"{name}: empty file")
    _check_truncated(data, name)
    head = _header(data)
    size = None if head is None else head[0]
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise BadInput(f"{name}: image of {size[0]}x{size[1]} pixels is too large (limit {MAX_PIXELS} pixels)")
    buf = np.frombuffer(data, np.uint8)
    factor = 1
    if reduce and size is not None and _is_jpeg(data):
        for f in (8, 4, 2):
            if size[0] * size[1] / (f * f) >= WORK_PIXELS:
                factor = f
                break
    image = None
    if size is not None and _is_jpeg(data) and head[1] in (None, 1):
        image = _fast_jpeg(data, factor, size)
    if image is None:
        image = _quiet_imdecode(buf, _REDUCED[factor] if factor > 1 else cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise BadInput(f"{name}: not a readable image")
    if size is None:
        size = (image.shape[1] * factor, image.shape[0] * factor)
        if size[0] * size[1] > MAX_PIXELS:
            raise BadInput(f"{name}: image of {size[0]}x{size[1]} pixels is too large")
    scale = image.shape[1] / size[0]
    return Photo(image, size[0], size[1], scale)


def load_photo(source: "str | os.PathLike | bytes | np.ndarray", reduce: bool = True) -> Photo:
    """A :class:`Photo` from a path, encoded bytes, or a BGR/grey/BGRA uint8 array."""
    if isinstance(source, np.ndarray):
        return from_array(source)
    if isinstance(source, (bytes, bytearray, memoryview)):
        return decode_bytes(bytes(source), reduce=reduce)
    return decode_bytes(read_bytes(source), str(Path(source)), reduce=reduce)


def from_array(image: np.ndarray) -> Photo:
    """Wrap an image array (BGR, BGRA or grey, uint8) as a :class:`Photo`."""
    if not isinstance(image, np.ndarray) or image.ndim not in (2, 3) or image.size == 0:
        raise BadInput("image array must be H x W (x 3) uint8")
    if image.dtype != np.uint8:
        raise BadInput(f"image array must be uint8, got {image.dtype}")
    if image.shape[0] * image.shape[1] > MAX_PIXELS:
        raise BadInput("image array is too large")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    elif image.shape[2] != 3:
        raise BadInput("image array must have 1, 3 or 4 channels")
    return Photo(np.ascontiguousarray(image), image.shape[1], image.shape[0], 1.0)


def load_image(path: str | os.PathLike) -> np.ndarray:
    """A photo at full resolution as a BGR uint8 array (for calibration, where every pixel
    counts); ``BadInput`` if it is missing, not an image, truncated or too large."""
    return load_photo(path, reduce=False).image
