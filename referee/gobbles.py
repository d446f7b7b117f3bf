"""Forced spaces (gobbles): empty cells with three or more tile neighbours.

This module is the one place that decides what a forced space, a double gobble and a
same-colour forced space are.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from .board import Board
from .hexgrid import DIRECTIONS, Cell
from .matching import facing_colours

FORCED = 3
"""Tile neighbours that make an empty cell a forced space."""
DOUBLE = 4
"""Tile neighbours that make a forced space a double gobble."""


@dataclass(frozen=True, slots=True)
class ForcedSpace:
    """An empty cell with ``neighbours`` ≥ 3 tiles around it; ``colours[i]`` faces edge i."""

    cell: Cell
    neighbours: int
    colours: tuple[str | None, ...]

    @property
    def double(self) -> bool:
        return self.neighbours >= DOUBLE

    @property
    def same_colour(self) -> bool:
        """Three or more neighbours show one colour: no tile can ever fill it."""
        return is_same_colour(self.colours)


def is_same_colour(colours: Iterable[str | None]) -> bool:
    """True when three or more of the facing colours are equal."""
    seen: dict[str, int] = {}
    for c in colours:
        if c is not None:
            k = seen.get(c, 0) + 1
            if k >= 3:
                return True
            seen[c] = k
    return False


def neighbour_counts(occupied: Iterable[Cell] | dict) -> dict[Cell, int]:
    """For every empty cell touching ``occupied``, how many occupied neighbours it has."""
    occ = occupied if isinstance(occupied, (set, dict, frozenset)) else set(occupied)
    counts: dict[Cell, int] = {}
    for q, r in occ:
        for dq, dr in DIRECTIONS:
            n = (q + dq, r + dr)
            if n not in occ:
                counts[n] = counts.get(n, 0) + 1
    return counts


def forced_spaces(board: Board, counts: dict[Cell, int] | None = None) -> list[ForcedSpace]:
    """Every forced space of the board, sorted by cell (``counts`` as :func:`neighbour_counts`)."""
    out = []
    counts = neighbour_counts(board.tiles) if counts is None else counts
    for cell, k in sorted(counts.items()):
        if k >= FORCED:
            out.append(ForcedSpace(cell, k, tuple(facing_colours(board, cell))))
    return out
