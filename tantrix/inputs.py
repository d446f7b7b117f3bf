"""Loading a position for a command: a board JSON file or a photo of the table."""
from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from referee.board import Board, loads
from referee.errors import BadInput

_JSON_START = (b"{", b"[")


def is_board_json(path: Path) -> bool:
    """True when the file looks like JSON (first non-blank byte), whatever its name."""
    with path.open("rb") as f:
        head = f.read(64).lstrip()
    return head[:1] in _JSON_START


def load_position(path: str | Path, profile: Any = None) -> Board:
    """The position in ``path``: parsed as board JSON, or read from a photo by ``vision``.

    ``profile`` (a calibration profile) is passed to the photo reader.  Raises
    ``BadInput`` with a one-line message for a missing file, malformed JSON, an invalid
    board or an unreadable image.
    """
    path = Path(path)
    if not path.exists():
        raise BadInput(f"{path}: no such file")
    if path.is_dir():
        raise BadInput(f"{path}: is a directory, not a board JSON or photo")
    try:
        as_json = is_board_json(path)
    except OSError as e:
        raise BadInput(f"{path}: cannot read ({e.strerror})") from None
    if as_json:
        try:
            return loads(path.read_text(encoding="utf-8"))
        except UnicodeDecodeError:
            raise BadInput(f"{path}: not a JSON text file") from None
        except BadInput as e:
            raise BadInput(f"{path}: {e}") from None
    from vision import read_photo  # imported late: JSON-only use needs no OpenCV

    return read_photo(path, profile=profile)


def load_profile(path: str | Path | None) -> Any:
    """Load a calibration profile for ``--profile`` (``None`` passes through)."""
    if path is None:
        return None
    from calibration.profile import load_profile as _load

    return _load(path)


def add_profile_option(parser: argparse.ArgumentParser) -> None:
    """``--profile FILE``: the calibration profile used when an input is a photo."""
    parser.add_argument("--profile", metavar="FILE",
                        help="calibration profile (tantrix calibrate) used when reading a photo")


def add_format_option(parser: argparse.ArgumentParser) -> None:
    """``--format json|text``: JSON for programs (default) or a readable view for people."""
    parser.add_argument("--format", choices=("json", "text"), default="json",
                        help="json (default) for programs, text for people")
