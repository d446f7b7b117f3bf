"""Comparing positions up to translation and 60° rotation (CONTRACT.md)."""
from __future__ import annotations

from .board import Board, Placement
from .hexgrid import Cell, rotate_cell


def turned(board: Board, steps: int) -> dict[Cell, Placement]:
    """The board's tiles turned clockwise by ``steps`` × 60° about the origin."""
    return {
        rotate_cell(c, steps): Placement(p.tile, (p.rotation + steps) % 6)
        for c, p in board.tiles.items()
    }


def _normalised(tiles: dict[Cell, Placement]) -> dict[Cell, Placement]:
    if not tiles:
        return {}
    q0, r0 = min(tiles)
    return {(q - q0, r - r0): p for (q, r), p in tiles.items()}


def canonical(board: Board) -> tuple:
    """A key equal for two boards exactly when they are the same position."""
    keys = []
    for steps in range(6):
        norm = _normalised(turned(board, steps))
        keys.append(tuple(sorted((c, p.tile, p.rotation) for c, p in norm.items())))
    return min(keys)


def same_position(a: Board, b: Board) -> bool:
    """True when ``b`` is ``a`` translated and turned by a multiple of 60°."""
    return len(a) == len(b) and canonical(a) == canonical(b)


def best_alignment(reference: Board, candidate: Board) -> tuple[int, Cell, int]:
    """How to lay ``candidate`` onto ``reference`` so the most tiles agree.

    Returns ``(steps, (dq, dr), agreeing)``: turn ``candidate`` clockwise by ``steps``,
    shift it by ``(dq, dr)``; ``agreeing`` counts cells holding the same tile and rotation.
    Tried offsets are those that bring some tile of ``candidate`` onto the cell of the
    same tile number in ``reference`` (or onto any reference cell if none is shared).
    """
    ref = reference.tiles
    ref_cells = {p.tile: c for c, p in ref.items()}
    best = (0, (0, 0), -1)
    for steps in range(6):
        cand = turned(candidate, steps)
        offsets = set()
        for c, p in cand.items():
            rc = ref_cells.get(p.tile)
            if rc is not None:
                offsets.add((rc[0] - c[0], rc[1] - c[1]))
        if not offsets:
            offsets = {(rc[0] - c[0], rc[1] - c[1]) for rc in ref for c in cand} or {(0, 0)}
        for dq, dr in offsets:
            agree = sum(1 for (q, r), p in cand.items() if ref.get((q + dq, r + dr)) == p)
            if agree > best[2]:
                best = (steps, (dq, dr), agree)
    return best
