"""What a referee says about a position: the report of CONTRACT.md."""
from __future__ import annotations

from typing import Any

from .board import Board
from .gobbles import forced_spaces, neighbour_counts
from .holes import holes
from .matching import mismatches
from .paths import all_colour_paths
from .restraints import controlled_cells, restraint_violations


def _cell(c) -> list[int]:
    return [c[0], c[1]]


def analyze(board: Board, *, paths: bool = True) -> dict[str, Any]:
    """The full analysis report of ``board`` as a JSON-ready dict.

    Fields as CONTRACT.md (``tiles``, ``mismatches``, ``forced_spaces``, ``double_gobbles``,
    ``same_colour_forced``, ``controlled_cells``, ``holes``, ``colours``) plus
    ``restraint_violations`` (``{"rule", "cells", "reason"}``) and, per colour, ``lines``
    and ``loops`` as lists of cell sequences (omitted with ``paths=False``), and
    ``unread_cells``: cells where a tile lies that could not be read (the board JSON's
    ``unreadable`` list, as ``tantrix read`` gives it).  Those cells count as occupied
    (never a forced space, hole or controlled cell, and they count as neighbours), but
    their edges are unknown: no mismatch or same-colour finding rests on them, and every
    line through them is cut there, so scores are then lower bounds.
    Loose tiles are not part of the position and are ignored.
    """
    counts = neighbour_counts(board.occupied())
    spaces = forced_spaces(board, counts)
    colours: dict[str, Any] = {}
    for colour, cp in all_colour_paths(board).items():
        entry: dict[str, Any] = {
            "longest_line": cp.longest_line,
            "longest_loop": cp.longest_loop,
            "score": cp.score,
        }
        if paths:
            entry["lines"] = [[_cell(c) for c in p] for p in cp.lines]
            entry["loops"] = [[_cell(c) for c in p] for p in cp.loops]
        colours[colour] = entry
    return {
        "tiles": len(board.tiles),
        "mismatches": [
            {"cell": _cell(m.cell), "neighbour": _cell(m.neighbour), "edge": m.edge,
             "colours": list(m.colours)}
            for m in mismatches(board)
        ],
        "forced_spaces": [
            {"cell": _cell(s.cell), "neighbours": s.neighbours, "colours": list(s.colours)}
            for s in spaces
        ],
        "double_gobbles": [_cell(s.cell) for s in spaces if s.double],
        "same_colour_forced": [_cell(s.cell) for s in spaces if s.same_colour],
        "controlled_cells": [_cell(c) for c in controlled_cells(board, counts)],
        "holes": [_cell(c) for c in holes(board)],
        "restraint_violations": [
            {"rule": v.rule, "cells": [_cell(c) for c in v.cells], "reason": v.reason}
            for v in restraint_violations(board, spaces)
        ],
        "colours": colours,
        "unread_cells": [_cell(c) for c in sorted(board.unread_cells())],
    }
