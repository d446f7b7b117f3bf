"""Games and their photos on disk: one SQLite file plus a photo folder in the data directory.

Each turn is one transaction.  A photo is written under a server-chosen name to a temporary
file, flushed, and renamed into place *before* the turn row that refers to it is committed,
so a crash at any moment of an upload leaves every earlier turn intact (at worst an orphan
photo file with no row).  SQLite runs in WAL mode, so readers never block the writer.
"""
from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    players TEXT NOT NULL,          -- JSON list of {"name", "colour"}
    created REAL NOT NULL,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS turns (
    game_id TEXT NOT NULL REFERENCES games(id),
    n INTEGER NOT NULL,             -- 1, 2, ... in the order they were added
    created REAL NOT NULL,
    photo TEXT,                     -- server-chosen file name in photos/, or NULL
    board TEXT NOT NULL,            -- board JSON as read / corrected
    report TEXT NOT NULL,           -- analysis report JSON
    PRIMARY KEY (game_id, n)
);
"""


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/tantrix`` or ``~/.local/share/tantrix``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local", "share")
    return Path(base) / "tantrix"


class Store:
    """The games database under ``data_dir`` (created if missing)."""

    def __init__(self, data_dir: str | Path):
        self.dir = Path(data_dir).expanduser()
        self.photos = self.dir / "photos"
        self.photos.mkdir(parents=True, exist_ok=True)
        self.path = self.dir / "games.sqlite3"
        self._local = threading.local()
        self._write_lock = threading.Lock()
        with self._conn() as db:
            db.executescript(SCHEMA)

    def _conn(self) -> sqlite3.Connection:
        db = getattr(self._local, "db", None)
        if db is None:
            db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
            db.row_factory = sqlite3.Row
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("PRAGMA foreign_keys=ON")
            self._local.db = db
        return db

    # -- games ----------------------------------------------------------------
    def create_game(self, name: str, players: list[dict[str, str]]) -> str:
        game_id = secrets.token_hex(8)
        with self._write_lock:
            self._conn().execute(
                "INSERT INTO games (id, name, players, created) VALUES (?, ?, ?, ?)",
                (game_id, name, json.dumps(players), time.time()))
        return game_id

    def games(self) -> list[dict[str, Any]]:
        rows = self._conn().execute(
            "SELECT g.*, (SELECT COUNT(*) FROM turns t WHERE t.game_id = g.id) AS turns "
            "FROM games g ORDER BY created DESC").fetchall()
        return [self._game(row) | {"turns": row["turns"]} for row in rows]

    def game(self, game_id: str) -> dict[str, Any] | None:
        row = self._conn().execute("SELECT * FROM games WHERE id = ?", (game_id,)).fetchone()
        return self._game(row) if row else None

    @staticmethod
    def _game(row: sqlite3.Row) -> dict[str, Any]:
        return {"id": row["id"], "name": row["name"], "players": json.loads(row["players"]),
                "created": row["created"], "finished": bool(row["finished"])}

    def finish(self, game_id: str, finished: bool = True) -> None:
        with self._write_lock:
            self._conn().execute("UPDATE games SET finished = ? WHERE id = ?", (int(finished), game_id))

    # -- turns ----------------------------------------------------------------
    def save_photo(self, data: bytes, extension: str) -> str:
        """Write photo bytes durably under a fresh server-chosen name; returns the name."""
        name = secrets.token_hex(12) + extension
        tmp = self.photos / (name + ".part")
        with open(tmp, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, self.photos / name)
        return name

    def photo_path(self, name: str) -> Path | None:
        path = self.photos / name
        # Names are ours (hex + extension); anything else is not served.
        if "/" in name or "\\" in name or name.startswith(".") or not path.is_file():
            return None
        return path

    def add_turn(self, game_id: str, board: dict[str, Any], report: dict[str, Any],
                 photo: str | None) -> int:
        """Append a turn in one transaction; returns its number (1-based)."""
        with self._write_lock:
            db = self._conn()
            db.execute("BEGIN IMMEDIATE")
            try:
                (n,) = db.execute("SELECT COALESCE(MAX(n), 0) + 1 FROM turns WHERE game_id = ?",
                                  (game_id,)).fetchone()
                db.execute("INSERT INTO turns (game_id, n, created, photo, board, report) "
                           "VALUES (?, ?, ?, ?, ?, ?)",
                           (game_id, n, time.time(), photo, json.dumps(board), json.dumps(report)))
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return n

    def replace_turn(self, game_id: str, n: int, board: dict[str, Any], report: dict[str, Any]) -> bool:
        """Store a hand-corrected board (and its new report) for turn ``n``."""
        with self._write_lock:
            cur = self._conn().execute(
                "UPDATE turns SET board = ?, report = ? WHERE game_id = ? AND n = ?",
                (json.dumps(board), json.dumps(report), game_id, n))
        return cur.rowcount == 1

    def delete_last_turn(self, game_id: str) -> bool:
        with self._write_lock:
            cur = self._conn().execute(
                "DELETE FROM turns WHERE game_id = ? AND n = (SELECT MAX(n) FROM turns WHERE game_id = ?)",
                (game_id, game_id))
        return cur.rowcount == 1

    def turns(self, game_id: str) -> list[dict[str, Any]]:
        rows = self._conn().execute(
            "SELECT * FROM turns WHERE game_id = ? ORDER BY n", (game_id,)).fetchall()
        return [{"n": r["n"], "created": r["created"], "photo": r["photo"],
                 "board": json.loads(r["board"]), "report": json.loads(r["report"])} for r in rows]

    def close(self) -> None:
        db = getattr(self._local, "db", None)
        if db is not None:
            db.close()
            self._local.db = None
