"""Holes: empty cells that cannot be reached from outside the tiles through empty cells."""
from __future__ import annotations

from .board import Board
from .hexgrid import DIRECTIONS, Cell


def holes(board: Board) -> list[Cell]:
    """Every cell of every enclosed empty region, sorted.

    The search runs inside the axial bounding parallelogram grown by one cell; its rim is
    empty and connected, so anything the flood from the rim cannot reach is enclosed.
    """
    tiles = board.occupied()  # a tile that could not be read still fills its cell
    if len(tiles) < 6:
        return []  # fewer than six tiles cannot enclose a cell
    qs = [c[0] for c in tiles]
    rs = [c[1] for c in tiles]
    q0, q1, r0, r1 = min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1
    outside: set[Cell] = set()
    stack = [(q0, r0)]
    outside.add((q0, r0))
    while stack:
        q, r = stack.pop()
        for dq, dr in DIRECTIONS:
            n = (q + dq, r + dr)
            if q0 <= n[0] <= q1 and r0 <= n[1] <= r1 and n not in outside and n not in tiles:
                outside.add(n)
                stack.append(n)
    return [
        (q, r)
        for q in range(q0 + 1, q1)
        for r in range(r0 + 1, r1)
        if (q, r) not in tiles and (q, r) not in outside
    ]
