"""A Tantrix position: tiles on hex cells, with JSON read/write and validation.

The board JSON format is CONTRACT.md's.  A :class:`Board` holds only the position
(``tiles`` by cell, ``bag_empty``); reader extras (confidence, pixel, loose tiles, image
size) are kept in :attr:`Board.extras` and :attr:`Board.loose` so a read board can be
written back unchanged.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable

from .errors import BadInput
from .files import parse_json, read_text
from .hexgrid import Cell, components, neighbours
from .tiles import TILES, rotated_edges


@dataclass(frozen=True, slots=True)
class Placement:
    """A tile on the table: its number and its rotation (0..5, clockwise steps)."""

    tile: int
    rotation: int

    @property
    def edges(self) -> tuple[str, ...]:
        """The colour on each edge 0..5 as it lies on the table."""
        return rotated_edges(self.tile, self.rotation)


@dataclass
class Board:
    """A position.  ``tiles`` maps ``(q, r)`` to a :class:`Placement`."""

    tiles: dict[Cell, Placement] = field(default_factory=dict)
    bag_empty: bool = False
    loose: list[dict[str, Any]] = field(default_factory=list)
    extras: dict[Cell, dict[str, Any]] = field(default_factory=dict)
    meta: dict[str, Any] = field(default_factory=dict)

    # -- building -------------------------------------------------------------
    @classmethod
    def from_placements(
        cls, items: Iterable[tuple[Cell, int, int]], bag_empty: bool = False
    ) -> "Board":
        """Build a board from ``((q, r), tile, rotation)`` triples, validated."""
        board = cls(bag_empty=bag_empty)
        for cell, number, rotation in items:
            board.place(cell, number, rotation)
        return board

    def copy(self) -> "Board":
        return Board(dict(self.tiles), self.bag_empty, list(self.loose),
                     {k: dict(v) for k, v in self.extras.items()}, dict(self.meta))

    def place(self, cell: Cell, number: int, rotation: int) -> None:
        """Put tile ``number`` on the empty ``cell``; ``BadInput`` if impossible."""
        _check_tile_fields(number, rotation, f"cell {tuple(cell)}")
        cell = (int(cell[0]), int(cell[1]))
        if cell in self.tiles:
            raise BadInput(f"two tiles on cell {cell}")
        where = self.cell_of(number)
        if where is not None:
            raise BadInput(f"tile {number} used twice: at {where} and {cell}")
        self.tiles[cell] = Placement(number, rotation % 6)

    def remove(self, cell: Cell) -> Placement:
        """Take the tile off ``cell`` and return it."""
        try:
            return self.tiles.pop(cell)
        except KeyError:
            raise BadInput(f"no tile on cell {cell}") from None

    def move(self, src: Cell, dst: Cell, rotation: int | None = None) -> None:
        """Move the tile on ``src`` to the empty ``dst``, optionally turning it."""
        if dst in self.tiles:
            raise BadInput(f"two tiles on cell {dst}")
        p = self.remove(src)
        self.tiles[dst] = Placement(p.tile, p.rotation if rotation is None else rotation % 6)

    # -- queries --------------------------------------------------------------
    def __len__(self) -> int:
        return len(self.tiles)

    def __contains__(self, cell: object) -> bool:
        return cell in self.tiles

    def cell_of(self, number: int) -> Cell | None:
        """Where tile ``number`` lies, or ``None``."""
        for cell, p in self.tiles.items():
            if p.tile == number:
                return cell
        return None

    def numbers(self) -> set[int]:
        """The tile numbers on the board."""
        return {p.tile for p in self.tiles.values()}

    def unread_cells(self) -> set[Cell]:
        """Cells where a tile lies that could not be read (the reader's ``unreadable``
        list: a hand over it, colours that fit two tiles).  They are occupied, so no
        finding may call them empty, but their colours are unknown."""
        return {(u["q"], u["r"]) for u in self.meta.get("unreadable") or []} - self.tiles.keys()

    def occupied(self) -> set[Cell]:
        """Every cell a tile lies on: the tiles read and the :meth:`unread_cells`."""
        return set(self.tiles) | self.unread_cells()

    def tile_neighbours(self, cell: Cell) -> int:
        """How many of the six neighbours of ``cell`` hold a tile."""
        tiles = self.tiles
        return sum(1 for n in neighbours(cell) if n in tiles)

    def groups(self) -> list[set[Cell]]:
        """Connected groups of tiles, largest first."""
        return components(self.tiles)

    def main_group(self) -> set[Cell]:
        """The Tantrix: the largest connected group (empty set on an empty board)."""
        groups = self.groups()
        return groups[0] if groups else set()

    # -- JSON -----------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """The board as CONTRACT.md's board JSON (reader extras included if present)."""
        out: dict[str, Any] = {}
        if "image" in self.meta:
            out["image"] = self.meta["image"]
        out["tiles"] = [
            {"q": c[0], "r": c[1], "tile": p.tile, "rotation": p.rotation,
             **self.extras.get(c, {})}
            for c, p in sorted(self.tiles.items())
        ]
        out["bag_empty"] = self.bag_empty
        if self.loose or "image" in self.meta:
            out["loose"] = list(self.loose)
        for k, v in self.meta.items():
            if k not in out:
                out[k] = v
        return out

    def dumps(self, indent: int | None = 1) -> str:
        return json.dumps(self.to_json(), indent=indent)


_TILE_KEYS = {"q", "r", "tile", "rotation"}


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def _check_tile_fields(number: Any, rotation: Any, where: str) -> None:
    if not _is_int(number):
        raise BadInput(f"{where}: 'tile' must be an integer, got {json.dumps(number)}")
    if not _is_int(rotation):
        raise BadInput(f"{where}: 'rotation' must be an integer, got {json.dumps(rotation)}")
    if number not in TILES:
        raise BadInput(f"{where}: tile number {number} is not 1..56")
    if not 0 <= rotation <= 5:
        raise BadInput(f"{where}: rotation {rotation} is not 0..5")


def board_from_json(data: Any) -> Board:
    """Validate parsed board JSON and build a :class:`Board`; ``BadInput`` on any problem."""
    if not isinstance(data, dict):
        raise BadInput("board JSON must be an object with a 'tiles' list")
    tiles = data.get("tiles")
    if not isinstance(tiles, list):
        raise BadInput("board JSON needs a 'tiles' list")
    bag_empty = data.get("bag_empty", False)
    if not isinstance(bag_empty, bool):
        raise BadInput(f"'bag_empty' must be true or false, got {json.dumps(bag_empty)}")
    board = Board(bag_empty=bag_empty)
    for i, t in enumerate(tiles):
        if not isinstance(t, dict):
            raise BadInput(f"tiles[{i}] must be an object")
        missing = _TILE_KEYS - t.keys()
        if missing:
            raise BadInput(f"tiles[{i}] lacks {', '.join(sorted(missing))}")
        for key in ("q", "r"):
            if not _is_int(t[key]):
                raise BadInput(f"tiles[{i}]: '{key}' must be an integer, got {json.dumps(t[key])}")
        _check_tile_fields(t["tile"], t["rotation"], f"tiles[{i}]")
        board.place((t["q"], t["r"]), t["tile"], t["rotation"])
        extra = {k: v for k, v in t.items() if k not in _TILE_KEYS}
        if extra:
            board.extras[(t["q"], t["r"])] = extra
    loose = data.get("loose", [])
    if not isinstance(loose, list):
        raise BadInput("'loose' must be a list")
    on_board = board.numbers()
    for i, t in enumerate(loose):
        if not isinstance(t, dict):
            raise BadInput(f"loose[{i}] must be an object")
        number = t.get("tile")
        if number is not None:
            _check_tile_fields(number, t.get("rotation", 0), f"loose[{i}]")
            if number in on_board:
                raise BadInput(f"tile {number} used twice (on the board and loose)")
            on_board.add(number)
    board.loose = list(loose)
    _check_unreadable(data.get("unreadable", []), board)
    board.meta = {k: v for k, v in data.items() if k not in ("tiles", "bag_empty", "loose")}
    return board


def _check_unreadable(items: Any, board: Board) -> None:
    """``unreadable`` (as ``tantrix read`` writes it): a list of objects with integer
    ``q`` and ``r``, none on a cell that holds a tile read."""
    if not isinstance(items, list):
        raise BadInput("'unreadable' must be a list")
    for i, u in enumerate(items):
        if not isinstance(u, dict) or not all(_is_int(u.get(k)) for k in ("q", "r")):
            raise BadInput(f"unreadable[{i}] must be an object with integer 'q' and 'r'")
        if (u["q"], u["r"]) in board.tiles:
            raise BadInput(f"unreadable[{i}]: cell ({u['q']}, {u['r']}) already holds a tile")


def loads(text: str) -> Board:
    """Parse board JSON text; ``BadInput`` with a one-line message on any problem."""
    return board_from_json(parse_json(text))


def load(path: str | Path) -> Board:
    """Read a board JSON file; ``BadInput`` if it is missing, unreadable or invalid."""
    text = read_text(path)
    try:
        return loads(text)
    except BadInput as e:
        raise BadInput(f"{Path(path)}: {e}") from None
