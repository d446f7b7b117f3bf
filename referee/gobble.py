"""Tantrix Gobble: the two-touch rule, gobbles and double gobbles, no restraints (RULES.md).

After the first two tiles, every new tile must touch at least two tiles and match every
touching edge.  Filling a forced space (3+ neighbours, as :mod:`referee.gobbles` decides) is
a gobble: in the race game the player hands one tile to an opponent, two for a double
gobble (4+ neighbours, the edition that rewards it); solo, the player takes back the top
penalty tile.  Restraints do not apply: double and same-colour gobbles may be made.
"""
from __future__ import annotations

from dataclasses import asdict, dataclass
from typing import Any, Iterable

from .board import Board
from .errors import BadInput
from .gobbles import DOUBLE, FORCED, forced_spaces
from .hexgrid import Cell, neighbours
from .matching import facing_colours, fits
from .tiles import TILES, rotated_edges

MIN_TOUCH = 2
"""Tiles a new tile must touch once two tiles are down."""


@dataclass(frozen=True)
class GobbleMove:
    """Verdict on one Gobble placement; ``give`` = tiles to hand to opponents (0, 1 or 2)."""

    tile: int
    cell: Cell
    rotation: int
    legal: bool
    reason: str
    gobble: bool = False
    double: bool = False
    give: int = 0

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["cell"] = list(self.cell)
        return d


def check_gobble_move(board: Board, number: int, cell: Cell, rotation: int,
                      double_gives_two: bool = True) -> GobbleMove:
    """Judge placing tile ``number`` turned ``rotation`` on ``cell`` under Gobble rules."""
    if number not in TILES:
        raise BadInput(f"tile number {number} is not 1..56")
    cell = (int(cell[0]), int(cell[1]))
    rotation %= 6
    where = board.cell_of(number)
    if where is not None:
        raise BadInput(f"tile {number} is already on the board at {where}")
    if cell in board.tiles:
        return GobbleMove(number, cell, rotation, False, f"cell {cell} already holds a tile")
    edges = rotated_edges(number, rotation)
    touching = board.tile_neighbours(cell)
    if board.tiles:
        need = 1 if len(board) < 2 else MIN_TOUCH
        if touching < need:
            return GobbleMove(number, cell, rotation, False,
                              f"cell {cell} touches {touching} tile{'s' if touching != 1 else ''}; "
                              f"Gobble needs {need}")
        facing = facing_colours(board, cell)
        bad = fits(edges, facing)
        if bad is not None:
            return GobbleMove(number, cell, rotation, False,
                              f"edge {bad}: tile shows {edges[bad]}, neighbour shows {facing[bad]}")
    gobble = touching >= FORCED
    double = touching >= DOUBLE
    give = (2 if double and double_gives_two else 1) if gobble else 0
    reason = ("double gobble!" if double else "gobble!") if gobble else "legal"
    return GobbleMove(number, cell, rotation, True, reason, gobble, double, give)


def gobble_moves(board: Board, number: int) -> list[GobbleMove]:
    """Every legal Gobble placement of tile ``number`` (gobbles first, then by cell)."""
    if not board.tiles:
        return [check_gobble_move(board, number, (0, 0), k) for k in range(6)]
    cells = {n for c in board.tiles for n in neighbours(c)} - set(board.tiles)
    out = [m for c in sorted(cells) for k in range(6)
           if (m := check_gobble_move(board, number, c, k)).legal]
    out.sort(key=lambda m: (-m.give, m.cell, m.rotation))
    return out


def gobble_spaces(board: Board) -> list[dict[str, Any]]:
    """Open gobbles on the board: cell, neighbours, tiles a filler would hand over."""
    return [{"cell": list(s.cell), "neighbours": s.neighbours, "double": s.double,
             "give": 2 if s.double else 1}
            for s in forced_spaces(board)]


def penalty_tiles(board: Board, hand: Iterable[int]) -> list[int]:
    """Tiles of ``hand`` that have no legal Gobble placement now (they go to the penalty stack)."""
    return [n for n in hand if not gobble_moves(board, n)]

