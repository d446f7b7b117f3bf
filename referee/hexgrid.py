"""Axial hex coordinates for a flat-topped lattice (CONTRACT.md).

A cell is a ``(q, r)`` tuple of ints; ``r`` grows downwards (south).
"""
from __future__ import annotations

from typing import Iterable

Cell = tuple[int, int]

DIRECTIONS: tuple[Cell, ...] = ((0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0))
"""Offset to the neighbour across edge 0..5 (N, NE, SE, S, SW, NW)."""


def opposite(edge: int) -> int:
    """The edge of the neighbour that touches ``edge`` of this cell."""
    return (edge + 3) % 6


def neighbour(cell: Cell, edge: int) -> Cell:
    """The cell across ``edge`` (0..5) of ``cell``."""
    dq, dr = DIRECTIONS[edge]
    return (cell[0] + dq, cell[1] + dr)


def neighbours(cell: Cell) -> list[Cell]:
    """The six neighbours of ``cell``, index = edge."""
    q, r = cell
    return [(q + dq, r + dr) for dq, dr in DIRECTIONS]


def edge_between(a: Cell, b: Cell) -> int | None:
    """The edge of ``a`` that touches ``b``, or ``None`` if they are not neighbours."""
    d = (b[0] - a[0], b[1] - a[1])
    try:
        return DIRECTIONS.index(d)
    except ValueError:
        return None


def distance(a: Cell, b: Cell) -> int:
    """Number of steps between two cells."""
    dq, dr = a[0] - b[0], a[1] - b[1]
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def rotate_cell(cell: Cell, steps: int) -> Cell:
    """Turn ``cell`` clockwise about the origin by ``steps`` × 60°."""
    q, r = cell
    for _ in range(steps % 6):
        # cube (x, y, z) = (q, -q-r, r) turns clockwise to (-z, -x, -y)
        q, r = -r, q + r
    return (q, r)


def ring(centre: Cell, radius: int) -> list[Cell]:
    """The cells at exactly ``radius`` steps from ``centre``, clockwise from the north."""
    if radius == 0:
        return [centre]
    q, r = centre[0], centre[1] - radius
    out = []
    for edge in range(6):
        dq, dr = DIRECTIONS[(edge + 2) % 6]
        for _ in range(radius):
            out.append((q, r))
            q, r = q + dq, r + dr
    return out


def frontier(cells: Iterable[Cell]) -> set[Cell]:
    """Cells that are not in ``cells`` but touch at least one of them."""
    occupied = set(cells)
    out: set[Cell] = set()
    for c in occupied:
        for n in neighbours(c):
            if n not in occupied:
                out.add(n)
    return out


def components(cells: Iterable[Cell]) -> list[set[Cell]]:
    """Groups of ``cells`` connected through shared edges, largest first."""
    todo = set(cells)
    out = []
    while todo:
        start = todo.pop()
        group = {start}
        stack = [start]
        while stack:
            for n in neighbours(stack.pop()):
                if n in todo:
                    todo.remove(n)
                    group.add(n)
                    stack.append(n)
        out.append(group)
    out.sort(key=lambda g: (-len(g), min(g)))
    return out


def to_pixel(cell: Cell, size: float = 1.0) -> tuple[float, float]:
    """Centre of ``cell`` in a frame with x east, y south; ``size`` = centre-to-corner."""
    q, r = cell
    return (1.5 * size * q, size * 3 ** 0.5 * (r + q / 2))
