"""Legal moves: where a tile may go, and why not where it may not.

A placement is checked in this order, and the first failure is the reason given:
the cell must be empty, touch the Tantrix (any tile), match every touching edge, and —
while the bag still has tiles — keep restraint 1 (no new same-colour forced space),
restraint 2 (no new double gobble) and, for a free move onto a cell with one or two
neighbours, restraint 3 (not a controlled cell).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .board import Board
from .errors import BadInput
from .gobbles import DOUBLE, FORCED, is_same_colour, neighbour_counts
from .hexgrid import DIRECTIONS, Cell
from .matching import facing_colours, fits
from .restraints import controlled_cells
from .tiles import TILES, rotated_edges


@dataclass(frozen=True, slots=True)
class MoveCheck:
    """Verdict on placing ``tile`` with ``rotation`` on ``cell``.

    ``code`` is ``None`` for a legal move, else one of ``occupied``, ``no_contact``,
    ``mismatch`` (``edge`` says where), ``restraint_1``, ``restraint_2``, ``restraint_3``.
    """

    tile: int
    cell: Cell
    rotation: int
    code: str | None = None
    edge: int | None = None
    reason: str = ""

    @property
    def legal(self) -> bool:
        return self.code is None


class MoveContext:
    """What every placement check on one board needs, computed once.

    Build it once per board and reuse it for every tile of a hand: occupancy-only facts
    (neighbour counts, controlled cells) do not depend on the tile.
    """

    def __init__(self, board: Board, bag_empty: bool | None = None) -> None:
        self.board = board
        self.bag_empty = board.bag_empty if bag_empty is None else bag_empty
        # a tile that could not be read fills its cell; its edges constrain nothing
        self.occupied = board.occupied()
        self.counts = neighbour_counts(self.occupied)
        self.facing = {c: facing_colours(board, c) for c in self.counts}
        # (edge, colour) pairs a tile must show on each candidate cell: the fast match test
        self.constraints = {
            c: tuple((e, f) for e, f in enumerate(facing) if f is not None)
            for c, facing in self.facing.items()
        }
        self._critical_cache: dict[Cell, list[tuple]] = {}
        if self.bag_empty:
            self.controlled: set[Cell] = set()
        else:
            view = board if not board.bag_empty else Board(board.tiles, bag_empty=False, meta=board.meta)
            self.controlled = set(controlled_cells(view))

    def check(self, number: int, cell: Cell, rotation: int) -> MoveCheck:
        """Check one placement (see the module docstring for the order of checks)."""
        board = self.board
        if cell in self.occupied:
            what = "a tile" if cell in board.tiles else "a tile that could not be read"
            return MoveCheck(number, cell, rotation, "occupied", None, f"cell {cell} already holds {what}")
        edges = rotated_edges(number, rotation)
        if not board.tiles:
            return MoveCheck(number, cell, rotation)
        k = self.counts.get(cell, 0)
        if k == 0:
            return MoveCheck(number, cell, rotation, "no_contact", None,
                             f"cell {cell} touches no tile")
        facing = self.facing[cell]
        bad = fits(edges, facing)
        if bad is not None:
            return MoveCheck(number, cell, rotation, "mismatch", bad,
                             f"edge {bad}: tile shows {edges[bad]}, neighbour shows {facing[bad]}")
        if self.bag_empty:
            return MoveCheck(number, cell, rotation)
        r1, r2 = self._created_gobbles(cell, edges)
        if r1 is not None:
            return MoveCheck(number, cell, rotation, "restraint_1", None,
                             f"restraint 1: makes a same-colour forced space at {r1}")
        if r2 is not None:
            return MoveCheck(number, cell, rotation, "restraint_2", None,
                             f"restraint 2: makes a double gobble at {r2}")
        if k < FORCED and cell in self.controlled:
            return MoveCheck(number, cell, rotation, "restraint_3", None,
                             f"restraint 3: cell {cell} is on a controlled side")
        return MoveCheck(number, cell, rotation)

    def _created_gobbles(self, cell: Cell, edges: tuple[str, ...]) -> tuple[Cell | None, Cell | None]:
        """First neighbour made a same-colour forced space, first made a double gobble."""
        same = double = None
        for e, n, before, facing, was_same in self._critical(cell):
            if same is None and not was_same:
                facing = list(facing)
                facing[(e + 3) % 6] = edges[e]
                if is_same_colour(facing):
                    same = n
            if double is None and before + 1 >= DOUBLE > before:
                double = n
        return same, double

    def _critical(self, cell: Cell) -> list[tuple]:
        """Empty neighbours that a tile on ``cell`` would turn into forced spaces (cached)."""
        found = self._critical_cache.get(cell)
        if found is None:
            found = []
            q, r = cell
            for e, (dq, dr) in enumerate(DIRECTIONS):
                n = (q + dq, r + dr)
                before = self.counts.get(n, 0)
                if n in self.occupied or before + 1 < FORCED:
                    continue
                facing = self.facing[n]
                found.append((e, n, before, facing, before >= FORCED and is_same_colour(facing)))
            self._critical_cache[cell] = found
        return found

    def candidate_cells(self) -> list[Cell]:
        """Empty cells touching the board, sorted ((0, 0) alone on an empty board)."""
        return sorted(self.counts) if self.board.tiles else [(0, 0)]


def _check_tile_available(board: Board, number: int) -> None:
    if number not in TILES:
        raise BadInput(f"tile number {number} is not 1..56")
    if board.cell_of(number) is not None:
        raise BadInput(f"tile {number} is already on the board at {board.cell_of(number)}")


def all_moves(board: Board, number: int, bag_empty: bool | None = None,
              context: MoveContext | None = None) -> list[MoveCheck]:
    """Every placement of tile ``number`` on every cell touching the board, with verdicts."""
    _check_tile_available(board, number)
    ctx = context or MoveContext(board, bag_empty)
    return [ctx.check(number, c, k) for c in ctx.candidate_cells() for k in range(6)]


def legal_moves(board: Board, number: int, bag_empty: bool | None = None,
                context: MoveContext | None = None) -> list[tuple[Cell, int]]:
    """Every legal ``(cell, rotation)`` for tile ``number``, sorted."""
    _check_tile_available(board, number)
    ctx = context or MoveContext(board, bag_empty)
    if not board.tiles:
        return [((0, 0), k) for k in range(6)]
    rotations = [rotated_edges(number, k) for k in range(6)]
    out = []
    for cell in ctx.candidate_cells():
        cons = ctx.constraints[cell]
        for k, edges in enumerate(rotations):
            # only a matching placement needs the full check (restraints)
            if all(edges[e] == f for e, f in cons) and ctx.check(number, cell, k).legal:
                out.append((cell, k))
    return out


def hand_moves(board: Board, hand: Iterable[int],
               bag_empty: bool | None = None) -> dict[int, list[tuple[Cell, int]]]:
    """Legal moves for each tile of a hand, sharing one :class:`MoveContext`."""
    ctx = MoveContext(board, bag_empty)
    return {n: legal_moves(board, n, context=ctx) for n in hand}


def check_move(board: Board, number: int, cell: Cell, rotation: int,
               bag_empty: bool | None = None) -> MoveCheck:
    """Verdict on one placement."""
    _check_tile_available(board, number)
    return MoveContext(board, bag_empty).check(number, tuple(cell), rotation % 6)


def forced_fills(board: Board, hand: Iterable[int],
                 bag_empty: bool | None = None) -> dict[Cell, list[tuple[int, int]]]:
    """For each forced space, the ``(tile, rotation)`` of the hand that legally fill it."""
    ctx = MoveContext(board, bag_empty)
    hand = list(hand)
    out: dict[Cell, list[tuple[int, int]]] = {}
    for cell, k in sorted(ctx.counts.items()):
        if k < FORCED:
            continue
        out[cell] = [(n, rot) for n in hand for rot in range(6) if ctx.check(n, cell, rot).legal]
    return out
