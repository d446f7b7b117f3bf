"""JSON API mirroring the CLI (CONTRACT.md, "Web API").

``POST /api/read``, ``POST /api/analyze``, ``POST /api/check/<puzzle>``, ``GET /api/puzzles``.
``/api/analyze`` and ``/api/check`` take a multipart ``photo`` or a board JSON body.  With
``?view=1`` the answer also carries what the page draws: ``diagram`` (SVG), ``overlay``
(shapes in photo pixels) and ``findings`` (sentences).
"""
from __future__ import annotations

import json
import re
from typing import Any

from flask import Blueprint, abort, current_app, jsonify, request

from referee.board import Board, loads
from referee.errors import BadInput

from . import diagram, services, words
from .images import Photo, check_photo
from .overlay import is_low, overlay

bp = Blueprint("api", __name__, url_prefix="/api")


def profile() -> Any:
    """The calibration profile for this request: an uploaded ``profile`` file (multipart),
    else the one given at start-up (``tantrix serve --profile``), else ``None``."""
    f = request.files.get("profile") if request.mimetype == "multipart/form-data" else None
    if f is not None and f.filename:
        try:
            return services.parse_profile(f.read().decode("utf-8"))
        except UnicodeDecodeError:
            raise BadInput("profile: not a text (JSON) file") from None
    return current_app.extensions.get("tantrix_profile")


def uploaded_photo() -> Photo | None:
    """The checked ``photo`` of a multipart request, or ``None`` if there is none."""
    f = request.files.get("photo")
    if f is None:
        return None
    data = f.read()
    return check_photo(data, int(current_app.config["MAX_IMAGE_PIXELS"]))


def board_from_request() -> tuple[Board, Photo | None]:
    """The board a request is about: a JSON body, a multipart ``board`` or ``photo``."""
    if request.is_json or request.mimetype in ("text/json", "text/plain"):
        text = request.get_data(cache=False)
        try:
            return loads(text.decode("utf-8")), None
        except UnicodeDecodeError:
            raise BadInput("board JSON is not UTF-8 text") from None
    if request.mimetype == "multipart/form-data":
        photo = uploaded_photo()
        if photo is not None:
            # A photo can't show the bag: the players say when it is empty (endgame).
            flag = request.form.get("bag_empty", "")
            if flag not in ("", "0", "false", "1", "true", "on"):
                raise BadInput(f"'bag_empty' must be true or false, got {flag!r}")
            board = services.read_photo(photo, profile())
            board.bag_empty = flag in ("1", "true", "on")
            return board, photo
        board_file = request.files.get("board")
        text = board_file.read().decode("utf-8", "replace") if board_file else request.form.get("board")
        if text is not None:
            return loads(text), None
        raise BadInput("no photo: send the image in the multipart field 'photo'")
    if not request.content_length:
        raise BadInput("empty request: send a multipart 'photo' or a board JSON body")
    raise BadInput(f"unsupported content type {request.mimetype or 'none'}: "
                   "send multipart/form-data with 'photo' or application/json")


def want_view() -> bool:
    return request.args.get("view", "") in ("1", "true", "yes")


def view_extras(board: Board, report: dict[str, Any], new_cells=frozenset(),
                flagged=frozenset()) -> dict[str, Any]:
    """What the page draws for a report: the SVG diagram, photo overlay, sentences.
    ``new_cells`` are outlined as just placed, ``flagged`` cells as named by a verdict."""
    low = float(current_app.config["LOW_CONFIDENCE"])
    return {
        "diagram": diagram.board_svg(board, report, low_confidence=low, new_cells=new_cells,
                                     flagged=flagged),
        "overlay": overlay(board, report, low, flagged=flagged),
        "findings": words.findings(report),
        "low_confidence": low,
        "low_tiles": [list(c) for c in sorted(board.tiles) if is_low(board.extras.get(c, {}), low)],
        "unreadable": len(board.meta.get("unreadable") or []),
    }


def analyze_board(board: Board, view: bool) -> dict[str, Any]:
    report = services.analyze(board)
    if view:
        report.update(view_extras(board, report))
    return report


@bp.post("/read")
def read():
    """Photo -> board JSON, as ``tantrix read``."""
    photo = uploaded_photo()
    if photo is None:
        raise BadInput("no photo: send the image in the multipart field 'photo'")
    board = services.read_photo(photo, profile())
    return jsonify(board.to_json())


@bp.post("/analyze")
def analyze():
    """Photo or board JSON -> analysis report (+ ``board``), as ``tantrix analyze``."""
    board, _ = board_from_request()
    return jsonify(analyze_board(board, want_view()))


@bp.get("/puzzles")
def puzzles():
    """The puzzle names ``/api/check/<puzzle>`` accepts, as ``tantrix check --list``."""
    return jsonify(puzzles=services.puzzle_names())


@bp.post("/check/<puzzle>")
def check(puzzle: str):
    """Photo or board JSON -> puzzle verdict, as ``tantrix check``; 404 for unknown puzzles."""
    if puzzle not in services.puzzle_names():
        abort(404, description=f"unknown puzzle {puzzle!r} (GET /api/puzzles lists them)")
    board, _ = board_from_request()
    verdict = services.check(puzzle, board)
    if want_view():
        report = services.analyze(board)
        verdict = dict(verdict)
        verdict["board"] = board.to_json()
        verdict["report"] = {k: v for k, v in report.items() if k != "board"}
        verdict.update(view_extras(board, report, flagged=cells_named(verdict.get("reasons", []))))
    return jsonify(json.loads(json.dumps(verdict, default=_plain)))


_CELL = re.compile(r"\((-?\d+),\s*(-?\d+)\)")


def cells_named(reasons: list[Any]) -> set[tuple[int, int]]:
    """The cells a verdict's reasons point at (written ``(q,r)``), to draw them."""
    return {(int(q), int(r)) for text in reasons if isinstance(text, str) for q, r in _CELL.findall(text)}


def _plain(o: Any):
    if isinstance(o, (set, frozenset, tuple)):
        return list(o)
    if hasattr(o, "__dict__"):
        return o.__dict__
    return str(o)
