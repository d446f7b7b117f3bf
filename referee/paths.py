"""Lines and loops of one colour through the tiles of a board.

A path follows a colour's link through a tile and continues into the neighbour across the
link's end only when that neighbour's touching edge shows the same colour.  Each tile has
one link per colour it carries, so every tile lies on at most one path of each colour.
"""
from __future__ import annotations

from dataclasses import dataclass

from .board import Board
from .hexgrid import DIRECTIONS, Cell
from .tiles import COLOURS, partners


@dataclass(frozen=True, slots=True)
class ColourPaths:
    """Every path of one colour: ``lines`` and ``loops`` as cell sequences in path order."""

    colour: str
    lines: tuple[tuple[Cell, ...], ...]
    loops: tuple[tuple[Cell, ...], ...]

    @property
    def longest_line(self) -> int:
        return max((len(p) for p in self.lines), default=0)

    @property
    def longest_loop(self) -> int:
        return max((len(p) for p in self.loops), default=0)

    @property
    def score(self) -> int:
        """Strategy score: the longer of the longest line or twice the longest loop."""
        return max(self.longest_line, 2 * self.longest_loop)


def _walk(tiles, start: Cell, edge: int, colour: str) -> tuple[list[Cell], bool]:
    """Follow ``colour`` out of ``start`` through ``edge``; returns (cells passed, closed)."""
    seq: list[Cell] = []
    q, r = start
    while True:
        dq, dr = DIRECTIONS[edge]
        q, r = q + dq, r + dr
        p = tiles.get((q, r))
        entry = (edge + 3) % 6
        if p is None or p.edges[entry] != colour:
            return seq, False
        if (q, r) == start:
            return seq, True
        seq.append((q, r))
        edge = partners(p.tile, p.rotation)[entry]


def colour_paths(board: Board, colour: str) -> ColourPaths:
    """All lines and loops of ``colour`` on ``board``.

    Lines run from one open end to the other; loops start at their smallest cell.
    Both lists are sorted longest first, then by first cell, so output is deterministic.
    """
    tiles = board.tiles
    seen: set[Cell] = set()
    lines: list[tuple[Cell, ...]] = []
    loops: list[tuple[Cell, ...]] = []
    for cell in sorted(tiles):
        if cell in seen:
            continue
        p = tiles[cell]
        edges = p.edges
        if colour not in edges:
            continue
        a = edges.index(colour)
        b = partners(p.tile, p.rotation)[a]
        forward, closed = _walk(tiles, cell, a, colour)
        if closed:
            path = [cell] + forward
            seen.update(path)
            i = path.index(min(path))
            loops.append(tuple(path[i:] + path[:i]))
            continue
        backward, _ = _walk(tiles, cell, b, colour)
        path = backward[::-1] + [cell] + forward
        seen.update(path)
        if path[-1] < path[0]:
            path.reverse()
        lines.append(tuple(path))
    key = lambda p: (-len(p), p[0])  # noqa: E731
    return ColourPaths(colour, tuple(sorted(lines, key=key)), tuple(sorted(loops, key=key)))


def all_colour_paths(board: Board) -> dict[str, ColourPaths]:
    """:func:`colour_paths` for each of the four colours."""
    return {c: colour_paths(board, c) for c in COLOURS}
