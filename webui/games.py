"""Refereeing a game: players and colours, a photo (or board) after each turn, stored in
SQLite so a game survives a restart.

JSON routes under ``/api/games``; the photo of a turn at ``/games/<id>/photos/<n>``.
The move-by-move report (placements in order, forced/free, restraint violations, tiles
moved or removed, the bag) comes from :mod:`referee.replay`; each turn also keeps its own
analysis report.
"""
from __future__ import annotations

import hashlib
import json
import threading
from collections import OrderedDict
from typing import Any

from flask import Blueprint, Response, abort, current_app, jsonify, request, send_file

from referee.board import board_from_json
from referee.errors import BadInput
from referee.tiles import COLOURS

from . import services
from .api import analyze_board, board_from_request, view_extras, want_view
from .store import Store

bp = Blueprint("games", __name__)

MAX_PLAYERS = 4


def store() -> Store:
    return current_app.extensions["tantrix_store"]


def _game_or_404(game_id: str) -> dict[str, Any]:
    game = store().game(game_id)
    if game is None:
        abort(404, description=f"no game {game_id!r}")
    return game


def _players(data: Any) -> list[dict[str, str]]:
    if not isinstance(data, list) or not 1 <= len(data) <= MAX_PLAYERS:
        raise BadInput(f"'players' must be a list of 1 to {MAX_PLAYERS} players")
    out, seen = [], set()
    for i, p in enumerate(data):
        if not isinstance(p, dict):
            raise BadInput(f"players[{i}] must be an object with 'name' and 'colour'")
        name = p.get("name")
        colour = p.get("colour")
        if not isinstance(name, str) or not name.strip() or len(name) > 40:
            raise BadInput(f"players[{i}]: 'name' must be 1 to 40 characters")
        if colour not in COLOURS:
            raise BadInput(f"players[{i}]: 'colour' must be one of {', '.join(COLOURS)}")
        if colour in seen:
            raise BadInput(f"colour {colour} chosen twice")
        seen.add(colour)
        out.append({"name": name.strip(), "colour": colour})
    return out


def game_record(game_id: str, view: bool = False) -> dict[str, Any]:
    """The whole game: players, every turn's board and report, the running scores."""
    game = _game_or_404(game_id)
    turns = store().turns(game_id)
    out_turns = []
    for t in turns:
        entry = {"n": t["n"], "created": t["created"],
                 "photo": f"/games/{game_id}/photos/{t['n']}" if t["photo"] else None,
                 "board": t["board"], "report": t["report"],
                 "scores": {p["colour"]: t["report"]["colours"][p["colour"]]["score"]
                            for p in game["players"]}}
        out_turns.append(entry)
    record = dict(game)
    record["turns"] = out_turns
    boards = [board_from_json(t["board"]) for t in turns]
    if out_turns:
        record["replay"] = _cached_replay(game, turns, boards)
        record["bag"] = services.bag_count(boards[-1], game["players"])
        last = out_turns[-1]
        record["scores"] = last["scores"]
        top = max(last["scores"].values())
        record["leaders"] = [p["name"] for p in game["players"] if last["scores"][p["colour"]] == top]
        if game["finished"]:
            record["winners"] = record["leaders"]
        if view:
            board = boards[-1]
            before = boards[-2].tiles if len(boards) > 1 else {}
            changed = {c for c, p in board.tiles.items() if before.get(c) != p}
            record["view"] = view_extras(board, last["report"], new_cells=changed)
    return record


_REPLAYS: "OrderedDict[str, dict]" = OrderedDict()
_REPLAYS_LOCK = threading.Lock()


def _cached_replay(game: dict[str, Any], turns: list[dict[str, Any]], boards) -> dict[str, Any]:
    """The replay of a game, recomputed only when its players or turns changed: a turn
    where many tiles appeared at once can take the replay seconds, and the page asks
    for the game after every upload."""
    key = hashlib.sha256(json.dumps([game["players"], [t["board"] for t in turns]],
                                    sort_keys=True).encode()).hexdigest()
    with _REPLAYS_LOCK:
        if key in _REPLAYS:
            _REPLAYS.move_to_end(key)
            return _REPLAYS[key]
    result = services.replay(boards, game["players"])
    with _REPLAYS_LOCK:
        _REPLAYS[key] = result
        while len(_REPLAYS) > 64:
            _REPLAYS.popitem(last=False)
    return result


@bp.get("/api/games")
def list_games():
    return jsonify(games=store().games())


@bp.post("/api/games")
def create_game():
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        raise BadInput("send a JSON object: {\"name\": ..., \"players\": [{\"name\", \"colour\"}]}")
    name = data.get("name") or "Game"
    if not isinstance(name, str) or len(name) > 80:
        raise BadInput("'name' must be text of at most 80 characters")
    game_id = store().create_game(name.strip() or "Game", _players(data.get("players")))
    return jsonify(game_record(game_id)), 201


@bp.get("/api/games/<game_id>")
def get_game(game_id: str):
    return jsonify(game_record(game_id, view=want_view()))


@bp.get("/api/games/<game_id>/export")
def export_game(game_id: str):
    """The game record as a JSON file download."""
    record = game_record(game_id)
    body = current_app.json.dumps(record, indent=1)
    return Response(body, mimetype="application/json", headers={
        "Content-Disposition": f'attachment; filename="tantrix-game-{game_id}.json"'})


@bp.post("/api/games/<game_id>/turns")
def add_turn(game_id: str):
    """A photo (multipart ``photo``) or board JSON after a turn; stored, then reported."""
    game = _game_or_404(game_id)
    if game["finished"]:
        raise BadInput("this game is finished; no more turns can be added")
    board, photo = board_from_request()
    # The referee counts the bag from the tiles on the table and in the hands: once it is
    # empty the endgame has begun and the restraints are lifted.
    if not board.bag_empty and services.bag_count(board, game["players"]) == 0:
        board.bag_empty = True
    report = services.analyze(board)
    board_json = report.pop("board")
    photo_name = store().save_photo(photo.data, photo.extension) if photo else None
    n = store().add_turn(game_id, board_json, report, photo_name)
    out = {"n": n, "report": report, "board": board_json}
    if want_view():
        out.update(view_extras(board, report))
    return jsonify(out), 201


@bp.put("/api/games/<game_id>/turns/<int:n>")
def correct_turn(game_id: str, n: int):
    """Replace turn ``n``'s board with a hand-corrected one (JSON body); re-analysed."""
    _game_or_404(game_id)
    board, photo = board_from_request()
    if photo is not None:
        raise BadInput("send the corrected board as JSON, not a photo")
    report = analyze_board(board, False)
    board_json = report.pop("board")
    if not store().replace_turn(game_id, n, board_json, report):
        abort(404, description=f"game {game_id} has no turn {n}")
    return jsonify({"n": n, "report": report, "board": board_json})


@bp.delete("/api/games/<game_id>/turns/last")
def undo_turn(game_id: str):
    _game_or_404(game_id)
    if not store().delete_last_turn(game_id):
        raise BadInput("this game has no turns to remove")
    return jsonify(game_record(game_id))


@bp.post("/api/games/<game_id>/finish")
def finish_game(game_id: str):
    _game_or_404(game_id)
    store().finish(game_id, True)
    return jsonify(game_record(game_id))


@bp.get("/games/<game_id>/photos/<int:n>")
def turn_photo(game_id: str, n: int):
    _game_or_404(game_id)
    for t in store().turns(game_id):
        if t["n"] == n and t["photo"]:
            path = store().photo_path(t["photo"])
            if path is not None:
                return send_file(path, max_age=3600)
    abort(404, description=f"turn {n} of game {game_id} has no photo")
