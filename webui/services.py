"""The web app's only door to the rest of the project.

Every finding comes from ``referee`` and every reading from ``vision``; this module just
calls them and shapes the answers for HTTP.  Modules built in parallel (the photo reader,
puzzles, replay, calibration profiles) are imported lazily so a route that needs a missing
one answers 503 with a message instead of breaking the whole app.
"""
from __future__ import annotations

import importlib
import logging
import threading
from typing import Any

from referee.board import Board
from referee.errors import BadInput

log = logging.getLogger("webui")


class Unavailable(RuntimeError):
    """A part of the project this route needs is not installed in this build (HTTP 503)."""


def _module(name: str):
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name and name.startswith(e.name):
            raise Unavailable(f"{name} is not part of this build yet") from None
        raise


# The photo reader is CPU and memory heavy; on a small machine a burst of uploads must
# queue rather than all decode and segment at once.
_reader_slots = threading.BoundedSemaphore(2)


def set_reader_concurrency(n: int) -> None:
    """How many photos may be read at the same time (the rest wait their turn)."""
    global _reader_slots
    _reader_slots = threading.BoundedSemaphore(max(1, int(n)))


def load_profile(path: str | None) -> Any:
    """The calibration profile at ``path`` for the reader, or ``None``."""
    if not path:
        return None
    try:
        profile = _module("calibration.profile")
    except Unavailable:
        return path  # let the reader interpret the path itself
    for name in ("load_profile", "load"):
        fn = getattr(profile, name, None)
        if callable(fn):
            return fn(path)
    return path


def parse_profile(text: str) -> Any:
    """A calibration profile from JSON text (a per-request upload); ``BadInput`` if bad."""
    return _module("calibration.profile").loads(text)


def read_photo(photo, profile: Any = None) -> Board:
    """The board the photo reader sees in an uploaded photo (:class:`webui.images.Photo`).

    The encoded bytes go to the reader, which decodes them (at reduced scale for big
    photos) and answers ``BadInput`` for anything undecodable or truncated.
    """
    vision = _module("vision")
    reader = getattr(vision, "read_photo", None)
    if reader is None:
        raise Unavailable("the photo reader (vision.read_photo) is not part of this build yet")
    with _reader_slots:
        board = reader(photo.data, profile=profile) if profile is not None else reader(photo.data)
    if "image" not in board.meta:
        board.meta["image"] = {"width": photo.width, "height": photo.height}
    return board


def analyze(board: Board) -> dict[str, Any]:
    """CONTRACT's analysis report of ``board`` plus the board itself under ``board``."""
    analysis = _module("referee.analysis")
    report = analysis.analyze(board)
    report["board"] = board.to_json()
    return report


def puzzle_names() -> list[str]:
    """Every puzzle name ``check`` accepts, in the puzzles module's order."""
    puzzles = _module("referee.puzzles")
    for name in ("puzzle_names", "names", "list_puzzles"):
        fn = getattr(puzzles, name, None)
        if callable(fn):
            return list(fn())
    for name in ("PUZZLE_NAMES", "NAMES", "PUZZLES"):
        value = getattr(puzzles, name, None)
        if value is not None:
            return list(value)
    raise Unavailable("referee.puzzles has no list of puzzle names")


def check(puzzle: str, board: Board) -> dict[str, Any]:
    """The puzzle verdict ``{"puzzle", "solved", "reasons", ...}`` for ``board``."""
    puzzles = _module("referee.puzzles")
    fn = getattr(puzzles, "check_puzzle", None) or getattr(puzzles, "check", None)
    if fn is None:
        raise Unavailable("referee.puzzles has no check function")
    verdict = fn(puzzle, board)
    if not isinstance(verdict, dict):  # a dataclass verdict
        verdict = dict(getattr(verdict, "__dict__", {}))
    verdict.setdefault("puzzle", puzzle)
    return verdict


def _players(players: list[dict[str, Any]]):
    mod = _module("referee.replay")
    return mod, [mod.Player(p["name"], p["colour"]) for p in players]


def replay(boards: list[Board], players: list[dict[str, Any]]) -> dict[str, Any]:
    """The move-by-move report of a game (:func:`referee.replay.replay`) from the photo
    boards after each turn; the game starts from an empty table.  A failure is reported
    in ``{"error": ...}`` so one odd photo never hides the rest of the game."""
    mod, people = _players(players)
    try:
        return mod.replay([Board()] + list(boards), people)
    except BadInput as e:
        return {"error": str(e)}
    except Exception as e:  # noqa: BLE001 - the game page must still show the turns
        log.exception("replay failed")
        return {"error": f"replay failed ({type(e).__name__})"}


def bag_count(board: Board, players: list[dict[str, Any]]) -> int:
    """Tiles left in the bag with ``board`` on the table (:func:`referee.replay.bag_count`)."""
    mod, people = _players(players)
    return mod.bag_count(board, people, None)


__all__ = ["Unavailable", "read_photo", "analyze", "check", "puzzle_names",
           "load_profile", "parse_profile", "replay", "bag_count", "set_reader_concurrency"]
