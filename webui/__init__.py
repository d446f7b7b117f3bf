"""The web companion: a Flask app that referees the table from photos or board JSON.

``create_app(config)`` builds the app; ``tantrix serve`` runs it.  Blueprints:
:mod:`webui.pages` (HTML pages), :mod:`webui.api` (JSON API mirroring the CLI) and
:mod:`webui.games` (games stored in SQLite).  The app holds no rules: findings come from
``referee`` and readings from ``vision`` through :mod:`webui.services`.
"""
from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from flask import Flask

from vision.acceptance import CHECK_CONFIDENCE

from .errors import register_error_handlers
from .store import Store, default_data_dir

DEFAULTS: dict[str, Any] = {
    "DATA_DIR": None,                  # games database + photos; None = ~/.local/share/tantrix
    "MAX_CONTENT_LENGTH": 25 * 1024 * 1024,   # bytes per request; more is answered 413
    "MAX_IMAGE_PIXELS": 60_000_000,    # width x height from the header; more is refused (400)
    "PROFILE": None,                   # calibration profile file for the reader
    "LOW_CONFIDENCE": CHECK_CONFIDENCE,  # tiles read below this (or flagged by the reader) are marked
    "READER_CONCURRENCY": 2,           # photos read at once; further uploads wait
}


def create_app(config: dict[str, Any] | None = None) -> Flask:
    """Build the companion app.  ``config`` overrides :data:`DEFAULTS` (and Flask keys)."""
    app = Flask(__name__, static_folder="static", template_folder="templates")
    app.config.update(DEFAULTS)
    app.config.update(config or {})
    app.config["DEBUG"] = False  # never: the debugger would run code for any visitor
    app.config["PROPAGATE_EXCEPTIONS"] = False
    app.json.sort_keys = False
    data_dir = Path(app.config["DATA_DIR"] or default_data_dir()).expanduser()
    app.config["DATA_DIR"] = str(data_dir)
    app.extensions["tantrix_store"] = Store(data_dir)

    from . import services
    services.set_reader_concurrency(app.config["READER_CONCURRENCY"])
    # Loaded once at start-up so a bad profile file stops `tantrix serve` with a clear
    # one-line message instead of failing every upload later.
    app.extensions["tantrix_profile"] = services.load_profile(app.config["PROFILE"])

    from .api import bp as api_bp
    from .games import bp as games_bp
    from .pages import bp as pages_bp
    app.register_blueprint(pages_bp)
    app.register_blueprint(api_bp)
    app.register_blueprint(games_bp)
    register_error_handlers(app)
    logging.getLogger("werkzeug").setLevel(logging.WARNING)
    return app


__all__ = ["create_app", "DEFAULTS"]
