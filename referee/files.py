"""Reading input files with one-line ``BadInput`` errors (board JSON, profiles, photos)."""
from __future__ import annotations

import json
import os
from pathlib import Path

from typing import Any

from .errors import BadInput


def read_bytes(path: str | os.PathLike) -> bytes:
    """The bytes of ``path``; ``BadInput`` naming the file if it is missing or unreadable."""
    p = Path(path)
    try:
        return p.read_bytes()
    except FileNotFoundError:
        raise BadInput(f"{p}: no such file") from None
    except IsADirectoryError:
        raise BadInput(f"{p}: is a directory") from None
    except OSError as e:
        raise BadInput(f"{p}: cannot read ({e.strerror})") from None


def read_text(path: str | os.PathLike) -> str:
    """The UTF-8 text of ``path``; ``BadInput`` as :func:`read_bytes`, or if it is not text."""
    try:
        return read_bytes(path).decode("utf-8")
    except UnicodeDecodeError:
        raise BadInput(f"{Path(path)}: not a UTF-8 text file") from None


def parse_json(text: str) -> Any:
    """Parsed JSON; ``BadInput`` ("malformed JSON: ... at line L column C") if it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise BadInput(f"malformed JSON: {e.msg} at line {e.lineno} column {e.colno}") from None
