"""The Strategy restraints: same-colour forced spaces, double gobbles, controlled sides.

The controlled-side rule uses RULES.md's cascade: fill every forced space at once, again and
again; it ends in *conflict* when a forced space has four or more neighbours or two forced
spaces touch.  Only occupancy matters, not colours.

Choice for a board that already breaks a restraint (its own cascade conflicts): the forced
spaces where the board's cascade conflicts are set aside (never filled, never counted),
round after round, until the board's cascade runs clean; an empty cell is then controlled
when its own cascade, with those cells set aside, conflicts: that is, it conflicts somewhere
the board's cascade did not.  On a board without a conflict nothing is set aside and this is
exactly the literal definition.
"""
from __future__ import annotations

from dataclasses import dataclass

from .board import Board
from .gobbles import DOUBLE, FORCED, ForcedSpace, forced_spaces, neighbour_counts
from .hexgrid import DIRECTIONS, Cell

_MAX_ROUNDS = 10_000  # the cascade stays inside the tiles' hex-convex hull; this is a guard


def _conflicts(forced: set[Cell], counts: dict[Cell, int]) -> set[Cell]:
    """Cells of one cascade round that conflict: ≥4 neighbours, or touching another."""
    bad = set()
    for c in forced:
        if counts[c] >= DOUBLE:
            bad.add(c)
        q, r = c
        for dq, dr in DIRECTIONS[:3]:
            n = (q + dq, r + dr)
            if n in forced:
                bad.add(c)
                bad.add(n)
    return bad


def cascade(occupied: set[Cell] | dict, add: Cell | None = None, *,
            aside: frozenset[Cell] = frozenset(),
            base: tuple[dict[Cell, int], set[Cell]] | None = None) -> set[Cell]:
    """Run the cascade on ``occupied`` (plus the cell ``add``); return the conflict cells.

    An empty result means **no conflict**; otherwise the cells of the first conflicting
    round that conflict.  Cells in ``aside`` are never filled nor counted as forced.
    ``base`` = (neighbour counts, forced set) of ``occupied`` when the caller already has
    them, which saves recomputing them for every candidate cell.
    """
    counts, forced = base if base is not None else _base(occupied)
    counts = dict(counts)
    occ = set(occupied)
    current = set(forced)
    if add is not None:
        current.discard(add)
        current |= _occupy(add, occ, counts)
    current -= aside
    for _ in range(_MAX_ROUNDS):
        if not current:
            return set()
        bad = _conflicts(current, counts)
        if bad:
            return bad
        new: set[Cell] = set()
        for c in current:
            new |= _occupy(c, occ, counts)
        current = new - aside
    raise AssertionError("cascade did not settle")


def _occupy(c: Cell, occ: set[Cell], counts: dict[Cell, int]) -> set[Cell]:
    """Occupy ``c``; return the empty neighbours it makes (or keeps) forced."""
    occ.add(c)
    counts.pop(c, None)
    made = set()
    q, r = c
    get = counts.get
    for n in ((q, r - 1), (q + 1, r - 1), (q + 1, r), (q, r + 1), (q - 1, r + 1), (q - 1, r)):
        if n not in occ:
            k = get(n, 0) + 1
            counts[n] = k
            if k >= FORCED:
                made.add(n)
    return made


def _base(occupied) -> tuple[dict[Cell, int], set[Cell]]:
    counts = neighbour_counts(occupied)
    return counts, {c for c, k in counts.items() if k >= FORCED}


def existing_conflicts(board: Board, base=None) -> frozenset[Cell]:
    """Forced spaces set aside because the board's own cascade already conflicts there.

    Conflicting cells are set aside round after round until the board's cascade runs
    clean; empty for a board that breaks no restraint.
    """
    occupied = board.occupied()
    base = base or _base(occupied)
    aside: frozenset[Cell] = frozenset()
    while True:
        bad = cascade(occupied, aside=aside, base=base)
        if not bad:
            return aside
        aside = aside | bad


def _filled_by_cascade(occupied, aside: frozenset[Cell], base) -> set[Cell]:
    """Every cell the (clean) cascade of ``occupied`` fills, all rounds together."""
    counts, forced = base
    counts = dict(counts)
    occ = set(occupied)
    filled: set[Cell] = set()
    current = set(forced) - aside
    while current:
        filled |= current
        new: set[Cell] = set()
        for c in current:
            new |= _occupy(c, occ, counts)
        current = new - aside
    return filled


def controlled_cells(board: Board, counts: dict[Cell, int] | None = None) -> list[Cell]:
    """Empty cells with 1 or 2 tile neighbours where a free move is forbidden by restraint 3.

    Empty when the bag is empty (restraints lifted).  Sorted.  ``counts`` =
    :func:`~referee.gobbles.neighbour_counts` of the board's occupied cells
    (:meth:`~referee.board.Board.occupied`), if the caller has it.
    """
    if board.bag_empty or not board.tiles:
        return []
    tiles = board.occupied()  # (tiles that could not be read fill their cells too)
    counts = counts if counts is not None else neighbour_counts(tiles)
    base = (counts, {c for c, k in counts.items() if k >= FORCED})
    aside = existing_conflicts(board, base)
    # A move can only change the cascade's course near the cells the board's own cascade
    # fills: a candidate that makes no new forced space and lies more than two steps from
    # all of them leaves the (clean) cascade as it was, so it needs no run of its own.
    near: set[Cell] = set()
    for c in _filled_by_cascade(tiles, aside, base):
        near.add(c)
        near.update(_within_two(c))
    out = []
    for cell, k in counts.items():
        if k > 2:
            continue
        if cell not in near and not _makes_forced(cell, tiles, counts):
            continue
        if cascade(tiles, cell, aside=aside, base=base):
            out.append(cell)
    out.sort()
    return out


def _within_two(cell: Cell) -> list[Cell]:
    q, r = cell
    return [(q + dq, r + dr) for dq in range(-2, 3) for dr in range(-2, 3) if abs(dq + dr) <= 2]


def _makes_forced(cell: Cell, occupied, counts: dict[Cell, int]) -> bool:
    """True when occupying ``cell`` gives some empty neighbour three occupied neighbours."""
    q, r = cell
    for dq, dr in DIRECTIONS:
        n = (q + dq, r + dr)
        if n not in occupied and counts.get(n, 0) + 1 >= FORCED:
            return True
    return False


@dataclass(frozen=True, slots=True)
class Violation:
    """A restraint the position shows broken: ``rule`` 1, 2 or 3 and the cells that show it."""

    rule: int
    cells: tuple[Cell, ...]
    reason: str


def restraint_violations(board: Board, spaces: list[ForcedSpace] | None = None) -> list[Violation]:
    """Restraint breaches visible on one photo of a mid-game board (bag not empty).

    Rule 1: a same-colour forced space; rule 2: a double gobble; rule 3: two adjacent
    forced spaces (a controlled side was played).  Sorted by rule, then cells.
    """
    if board.bag_empty:
        return []
    out = []
    spaces = forced_spaces(board) if spaces is None else spaces
    forced = {s.cell for s in spaces}
    for s in spaces:
        if s.same_colour:
            out.append(Violation(1, (s.cell,), f"same-colour forced space at {s.cell}: it can never be filled"))
        if s.double:
            out.append(Violation(2, (s.cell,), f"double gobble at {s.cell}: {s.neighbours} tiles around an empty cell"))
    for c in sorted(forced):
        q, r = c
        for dq, dr in DIRECTIONS[:3]:
            n = (q + dq, r + dr)
            if n in forced:
                a, b = sorted((c, n))
                out.append(Violation(3, (a, b), f"adjacent forced spaces at {a} and {b}: a controlled side was played"))
    out.sort(key=lambda v: (v.rule, v.cells))
    return out
