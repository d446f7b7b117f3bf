"""Every error leaves the app as a short message: JSON ``{"error": ...}`` for the API,
a small page for browsers.  No traceback ever reaches a client."""
from __future__ import annotations

import logging

from flask import Flask, jsonify, render_template, request
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from referee.errors import BadInput

from .services import Unavailable

log = logging.getLogger("webui")


def _wants_json() -> bool:
    if request.path.startswith("/api/"):
        return True
    best = request.accept_mimetypes.best_match(["text/html", "application/json"])
    return best == "application/json"


def error_response(message: str, status: int):
    message = " ".join(str(message).split())  # one line
    if _wants_json():
        return jsonify(error=message), status
    return render_template("error.html", message=message, status=status), status


def register_error_handlers(app: Flask) -> None:
    @app.errorhandler(BadInput)
    def bad_input(e: BadInput):
        return error_response(str(e), 400)

    @app.errorhandler(Unavailable)
    def unavailable(e: Unavailable):
        return error_response(str(e), 503)

    @app.errorhandler(RequestEntityTooLarge)
    def too_large(e):
        limit = app.config.get("MAX_CONTENT_LENGTH") or 0
        return error_response(f"upload too large (limit {limit / 1048576:.0f} MB)", 413)

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):
        if e.description and e.description != type(e).description:
            text = e.description  # a message the route chose
        elif e.code == 404:
            text = f"no such page: {request.path}"
        else:
            text = e.name.lower()
        return error_response(text, e.code or 500)

    @app.errorhandler(Exception)
    def internal(e: Exception):
        log.exception("internal error on %s %s", request.method, request.path)
        return error_response(f"internal error ({type(e).__name__}); the server log has details", 500)
