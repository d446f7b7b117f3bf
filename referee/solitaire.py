"""Tantrix Solitaire and Solitaire Quest (RULES.md).

Fourteen tiles of one colour triple are placed one at a time, matching, no restraints; but
once a forced space exists, a new tile must go into a forced space if it fits one (the
player chooses among those it fits).  The score is one chosen colour's: 1 per tile of the
longest line or 2 per tile of the longest loop, 28 at most.
"""
from __future__ import annotations

from typing import Any

from .board import Board
from .errors import BadInput
from .gobbles import FORCED
from .hexgrid import Cell, neighbours
from .matching import facing_colours, fits
from .paths import colour_paths
from .tiles import COLOURS, TILES, rotated_edges, tiles_with_colours


def solitaire_sets() -> dict[str, list[int]]:
    """The four 14-tile sets, keyed by their colours joined with '-' (e.g. 'red-yellow-blue')."""
    out = {}
    for missing in reversed(COLOURS):
        colours = [c for c in COLOURS if c != missing]
        out["-".join(colours)] = tiles_with_colours(set(colours))
    return out


def forced_fits(board: Board, number: int) -> list[tuple[Cell, int]]:
    """``(cell, rotation)`` of every forced space that tile ``number`` fits (matching only)."""
    out = []
    counts: dict[Cell, int] = {}
    for c in board.tiles:
        for n in neighbours(c):
            if n not in board.tiles:
                counts[n] = counts.get(n, 0) + 1
    for cell in sorted(c for c, k in counts.items() if k >= FORCED):
        facing = facing_colours(board, cell)
        for k in range(6):
            if fits(rotated_edges(number, k), facing) is None:
                out.append((cell, k))
    return out


def check_solitaire_move(board: Board, number: int, cell: Cell, rotation: int) -> dict[str, Any]:
    """Judge one Solitaire placement: ``{"legal", "reason", "forced": [[q, r], ...]}``.

    ``forced`` lists the forced spaces the tile fits (where it had to go, if any).
    """
    if number not in TILES:
        raise BadInput(f"tile number {number} is not 1..56")
    if board.cell_of(number) is not None:
        raise BadInput(f"tile {number} is already on the board at {board.cell_of(number)}")
    cell = (int(cell[0]), int(cell[1]))
    edges = rotated_edges(number, rotation % 6)
    options = forced_fits(board, number)
    forced_cells = sorted({c for c, _ in options})
    out = {"tile": number, "cell": list(cell), "rotation": rotation % 6,
           "forced": [list(c) for c in forced_cells]}
    if cell in board.tiles:
        return {**out, "legal": False, "reason": f"cell {cell} already holds a tile"}
    if board.tiles:
        if board.tile_neighbours(cell) == 0:
            return {**out, "legal": False, "reason": f"cell {cell} touches no tile"}
        facing = facing_colours(board, cell)
        bad = fits(edges, facing)
        if bad is not None:
            return {**out, "legal": False,
                    "reason": f"edge {bad}: tile shows {edges[bad]}, neighbour shows {facing[bad]}"}
    if forced_cells and cell not in forced_cells:
        spots = ", ".join(f"({c[0]},{c[1]})" for c in forced_cells)
        return {**out, "legal": False,
                "reason": f"tile {number} fits the forced space at {spots}: it must go there"}
    return {**out, "legal": True, "reason": "legal"}


def solitaire_score(board: Board, colour: str) -> dict[str, Any]:
    """The chosen colour's score: max(longest line, 2 × longest loop); 28 is the maximum."""
    if colour not in COLOURS:
        raise BadInput(f"unknown colour {colour!r} (one of {', '.join(COLOURS)})")
    cp = colour_paths(board, colour)
    return {"colour": colour, "longest_line": cp.longest_line, "longest_loop": cp.longest_loop,
            "score": cp.score, "quest_done": cp.longest_loop == 14 and len(board) == 14}

