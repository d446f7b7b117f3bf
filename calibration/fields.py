"""Checked reading of profile JSON fields and of calibration photos.

Every failure is a :class:`referee.errors.BadInput` with a one-line message that names
the offending field (``"profile: camera.camera_matrix must be 3x3 numbers"``), so the CLI
exits 2 and the web page answers 400 instead of showing a traceback.
"""
from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import numpy as np

from referee.errors import BadInput


def require(data: Any, key: str, where: str) -> Any:
    """``data[key]``; ``BadInput`` if ``data`` is not an object or lacks ``key``."""
    if not isinstance(data, dict):
        raise BadInput(f"profile: {where} must be a JSON object")
    if key not in data:
        raise BadInput(f"profile: {where}.{key} is missing")
    return data[key]


def number(value: Any, where: str, *, positive: bool = False) -> float:
    """A finite JSON number (not a boolean) as float."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise BadInput(f"profile: {where} must be a finite number")
    if positive and value <= 0:
        raise BadInput(f"profile: {where} must be positive")
    return float(value)


def integer(value: Any, where: str, *, minimum: int | None = None) -> int:
    """A JSON integer (not a boolean or float)."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise BadInput(f"profile: {where} must be an integer")
    if minimum is not None and value < minimum:
        raise BadInput(f"profile: {where} must be at least {minimum}")
    return value


def array(value: Any, where: str, shape: tuple[int | None, ...]) -> np.ndarray:
    """A nested list of finite numbers with ``shape`` (``None`` = any length) as float64."""
    try:
        arr = np.array(value, dtype=float)
    except (TypeError, ValueError):
        arr = None
    if arr is None or arr.dtype == object or _has_bool(value):
        raise BadInput(f"profile: {where} must be a list of numbers")
    if arr.ndim != len(shape) or any(s is not None and s != n for s, n in zip(shape, arr.shape)):
        want = "x".join("N" if s is None else str(s) for s in shape)
        raise BadInput(f"profile: {where} must have shape {want}, got {'x'.join(map(str, arr.shape))}")
    if not np.all(np.isfinite(arr)):
        raise BadInput(f"profile: {where} must hold finite numbers")
    return arr


def _has_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return True
    if isinstance(value, (list, tuple)):
        return any(_has_bool(v) for v in value)
    return False


def size(value: Any, where: str) -> tuple[int, int]:
    """An image size ``[width, height]`` of positive integers."""
    if not isinstance(value, (list, tuple)) or len(value) != 2:
        raise BadInput(f"profile: {where} must be [width, height]")
    w = integer(value[0], f"{where}[0]", minimum=1)
    h = integer(value[1], f"{where}[1]", minimum=1)
    return (w, h)


def read_bytes(path: str | os.PathLike, what: str) -> bytes:
    """The bytes of a file; ``BadInput`` ("``what`` not found: path"...) if it cannot be read."""
    p = Path(path)
    try:
        return p.read_bytes()
    except FileNotFoundError:
        raise BadInput(f"{what} not found: {p}") from None
    except IsADirectoryError:
        raise BadInput(f"{what} is a directory: {p}") from None
    except OSError as e:
        raise BadInput(f"cannot read {what} {p}: {e.strerror}") from None


def load_image(path: str | os.PathLike, *, flags: int | None = None) -> np.ndarray:
    """Read a photo as a BGR uint8 array, ``BadInput`` if missing, not an image or truncated.

    Decoding goes through ``cv2.imdecode`` on the file's bytes so libjpeg's warnings about
    a truncated file never reach stderr; a JPEG without its end marker counts as truncated.
    """
    import cv2

    p = Path(path)
    data = read_bytes(p, "photo")
    if data[:2] == b"\xff\xd8" and b"\xff\xd9" not in data[-1024:]:
        raise BadInput(f"truncated JPEG: {p}")
    if data[:8] == b"\x89PNG\r\n\x1a\n" and b"IEND" not in data[-64:]:
        raise BadInput(f"truncated PNG: {p}")
    buf = np.frombuffer(data, dtype=np.uint8)
    image = cv2.imdecode(buf, cv2.IMREAD_COLOR if flags is None else flags) if buf.size else None
    if image is None:
        raise BadInput(f"not an image: {p}")
    return image
