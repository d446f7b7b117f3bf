"""Colour matching between touching tiles (the golden rule)."""
from __future__ import annotations

from dataclasses import dataclass

from .board import Board
from .hexgrid import DIRECTIONS, Cell


@dataclass(frozen=True, slots=True)
class Mismatch:
    """Two touching tiles whose shared edge differs in colour.

    ``cell`` is the lexicographically smaller cell, ``edge`` is its edge towards
    ``neighbour``, ``colours`` = (colour of ``cell``'s edge, colour of ``neighbour``'s edge).
    """

    cell: Cell
    neighbour: Cell
    edge: int
    colours: tuple[str, str]


def mismatches(board: Board) -> list[Mismatch]:
    """Every touching pair with differing edge colours, once, sorted by cell then neighbour."""
    tiles = board.tiles
    out = []
    for (q, r), p in tiles.items():
        edges = p.edges
        for e, (dq, dr) in enumerate(DIRECTIONS):
            n = (q + dq, r + dr)
            if n <= (q, r):
                continue
            other = tiles.get(n)
            if other is not None and other.edges[(e + 3) % 6] != edges[e]:
                out.append(Mismatch((q, r), n, e, (edges[e], other.edges[(e + 3) % 6])))
    out.sort(key=lambda m: (m.cell, m.neighbour))
    return out


def facing_colours(board: Board, cell: Cell) -> list[str | None]:
    """For each edge ``i`` of ``cell``, the colour the neighbour across it shows (or None)."""
    tiles = board.tiles
    q, r = cell
    out: list[str | None] = []
    for e, (dq, dr) in enumerate(DIRECTIONS):
        p = tiles.get((q + dq, r + dr))
        out.append(None if p is None else p.edges[(e + 3) % 6])
    return out


def fits(edges: tuple[str, ...], facing: list[str | None]) -> int | None:
    """First edge where a tile showing ``edges`` would clash with ``facing``; None if it fits."""
    for e in range(6):
        f = facing[e]
        if f is not None and f != edges[e]:
            return e
    return None


def touching_edges(board: Board, cell: Cell) -> tuple[int, int]:
    """(edges of the tile on ``cell`` that touch another tile, how many of them match)."""
    edges = board.tiles[cell].edges
    facing = facing_colours(board, cell)
    touching = [e for e in range(6) if facing[e] is not None]
    return len(touching), sum(facing[e] == edges[e] for e in touching)
