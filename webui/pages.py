"""The HTML pages: check a photo, referee a game, check a puzzle.

Pages are thin shells; the browser fetches the JSON API and draws the result (see
``static/app.js``), so the page and the API can never disagree.
"""
from __future__ import annotations

from flask import Blueprint, abort, current_app, render_template

from referee.tiles import COLOURS

from . import services

bp = Blueprint("pages", __name__)


@bp.get("/")
def index():
    return render_template("index.html")


@bp.get("/puzzles")
def puzzles():
    try:
        names, unavailable = services.puzzle_names(), None
    except services.Unavailable as e:
        names, unavailable = [], str(e)
    return render_template("puzzles.html", puzzles=names, unavailable=unavailable)


@bp.get("/games")
def games():
    store = current_app.extensions["tantrix_store"]
    return render_template("games.html", games=store.games(), colours=COLOURS)


@bp.get("/games/<game_id>")
def game(game_id: str):
    record = current_app.extensions["tantrix_store"].game(game_id)
    if record is None:
        abort(404, description=f"no game {game_id!r}")
    return render_template("game.html", game=record)
