"""Checked reading of profile JSON fields.

Every failure is a :class:`referee.errors.BadInput` with a one-line message that names
the offending field (``"profile: camera.camera_matrix must be 3x3 numbers"``), so the CLI
exits 2 and the web page answers 400 instead of showing a traceback.
"""
from __future__ import annotations

import math
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
