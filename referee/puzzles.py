"""Puzzle checkers: does a board solve a named puzzle of RULES.md, and if not, why not.

Every verdict is a JSON-ready dict ``{"puzzle", "solved", "reasons", "goal"}``; ``reasons``
name tiles, cells and edges ("tile 7 missing", "edge (2,-1)→(3,-1) red/blue",
"red loop closes through 9 of 10 tiles", "hole at (1,1)") and is empty exactly when the
puzzle is solved.  Loose tiles (a reader's ``loose``) are not part of the position.

Choices where RULES.md is silent (also in the README):

* Pyramids (Rainbow blue/red) accept one line of the colour through every tile, or a loop
  through every tile (both are one continuous path).
* Rainbow white is checked in blue, the one colour RULES.md says works.
* Solitaire Quest: the 14 tiles of any one colour triple, one loop of any of its three
  colours through all 14.
* Tangle: the named loops are counted exactly (no further loops of the named colours, and
  none of other colours unless the text gives a total); "entangled" = the loops form one
  group when two loops are joined if they share a tile or one lies inside the other; a
  loop that shares no tile and is inside no other loop is an isolated outer loop.
"""
from __future__ import annotations

from typing import Any

from .board import Board
from .hexgrid import Cell
from .holes import holes
from .matching import mismatches
from .paths import all_colour_paths, colour_paths
from .puzzle_defs import PUZZLES, Puzzle, TangleGoal, get_puzzle, puzzle_names
from .shapes import congruent, enclosed_by, is_circle, is_triangle, pyramid_rows
from .tiles import COLOURS

__all__ = ["check_puzzle", "puzzle_names", "PUZZLES", "puzzle_tiles", "fmt_cell"]


def fmt_cell(c: Cell) -> str:
    """A cell as ``(q,r)`` in reasons."""
    return f"({c[0]},{c[1]})"


def puzzle_tiles(puzzle: Puzzle, board: Board | None = None) -> tuple[int, ...]:
    """The tile set a board should use: for Solitaire Quest the triple closest to ``board``."""
    if not puzzle.alternatives:
        return puzzle.tiles
    on = board.numbers() if board is not None else set()
    return max(puzzle.alternatives, key=lambda t: (len(on & set(t)), -t[0]))


def check_puzzle(name: str, board: Board) -> dict[str, Any]:
    """Verdict on ``board`` as a solution of puzzle ``name``; ``BadInput`` for an unknown name."""
    puzzle = get_puzzle(name)
    reasons = common_reasons(puzzle, board)
    if puzzle.kind == "loop":
        reasons += _loop_reasons(puzzle, board)
    elif puzzle.kind == "pyramid":
        reasons += _pyramid_reasons(puzzle, board)
    else:
        reasons += _tangle_reasons(puzzle.tangle, board)
    return {"puzzle": name, "solved": not reasons, "reasons": reasons, "goal": puzzle.text}


def common_reasons(puzzle: Puzzle, board: Board) -> list[str]:
    """Tile set, matching, connectedness and holes: what every puzzle asks."""
    reasons = []
    want = set(puzzle_tiles(puzzle, board))
    on = board.numbers()
    for n in sorted(want - on):
        reasons.append(f"tile {n} missing")
    for n in sorted(on - want):
        reasons.append(f"tile {n} at {fmt_cell(board.cell_of(n))} is not part of this puzzle")
    for m in mismatches(board):
        reasons.append(f"edge {fmt_cell(m.cell)}→{fmt_cell(m.neighbour)} "
                       f"{m.colours[0]}/{m.colours[1]}")
    groups = board.groups()
    if len(groups) > 1:
        reasons.append(f"tiles form {len(groups)} separate groups "
                       f"(sizes {', '.join(str(len(g)) for g in groups)})")
    for h in holes(board):
        reasons.append(f"hole at {fmt_cell(h)}")
    return reasons


def _loop_reasons(puzzle: Puzzle, board: Board) -> list[str]:
    n = len(puzzle_tiles(puzzle, board))
    if not board.tiles:
        return ["no tiles on the board"]
    colours = [puzzle.colour] if puzzle.colour else sorted(
        set.intersection(*(set(p.edges) for p in board.tiles.values())), key=COLOURS.index)
    best = []
    for colour in colours:
        cp = colour_paths(board, colour)
        if cp.longest_loop == n and len(board) == n:
            return []
        best.append(_path_summary(cp, colour, n))
    return best[:1] if puzzle.colour else [" or ".join(best) if best else "no colour common to all tiles"]


def _path_summary(cp, colour: str, n: int) -> str:
    if cp.longest_loop:
        loops = cp.loops
        text = f"{colour} loop closes through {len(loops[0])} of {n} tiles"
        if len(loops) > 1:
            text += f" ({len(loops)} {colour} loops)"
        return text
    if cp.longest_line:
        line = cp.lines[0]
        return (f"no {colour} loop: longest {colour} line runs through {len(line)} of {n} tiles, "
                f"open at {fmt_cell(line[0])} and {fmt_cell(line[-1])}")
    return f"no {colour} link on the board"


def _pyramid_reasons(puzzle: Puzzle, board: Board) -> list[str]:
    reasons = []
    n = len(puzzle.tiles)
    rows = pyramid_rows(board.tiles)
    if rows != puzzle.rows:
        reasons.append(f"the tiles do not form a pyramid of {puzzle.rows} rows "
                       f"(1..{puzzle.rows} tiles per row)")
    cp = colour_paths(board, puzzle.colour)
    if not (cp.longest_line == n or cp.longest_loop == n) or len(board) != n:
        if cp.longest_line:
            line = cp.lines[0]
            reasons.append(f"longest {puzzle.colour} line runs through {len(line)} of {n} tiles "
                           f"({fmt_cell(line[0])} to {fmt_cell(line[-1])}); "
                           f"{len(cp.lines)} {puzzle.colour} lines")
        else:
            reasons.append(f"no {puzzle.colour} line through the tiles")
    return reasons


def _loop_label(colour: str, loop: tuple[Cell, ...]) -> str:
    return f"{colour} loop of {len(loop)} tiles at {fmt_cell(loop[0])}"


def _tangle_reasons(goal: TangleGoal, board: Board) -> list[str]:
    reasons: list[str] = []
    paths = all_colour_paths(board)
    loops = [(c, lp) for c in COLOURS for lp in paths[c].loops]
    by_colour = {c: [lp for col, lp in loops if col == c] for c in COLOURS}
    for colour, k in goal.loops.items():
        got = len(by_colour[colour])
        if got != k:
            reasons.append(f"{k} {colour} loop{'s' if k > 1 else ''} wanted, {got} found")
    if goal.total is not None:
        if len(loops) != goal.total:
            reasons.append(f"{goal.total} loops wanted, {len(loops)} found")
    elif goal.loops:
        for c in COLOURS:
            if c not in goal.loops and by_colour[c]:
                reasons.append(f"unexpected {_loop_label(c, by_colour[c][0])}")
    if not loops:
        if not reasons:
            reasons.append("no loop on the board")
        return reasons
    for colour, shape in goal.shapes.items():
        for lp in by_colour[colour]:
            ok = (is_circle(lp) if shape == "circle" else
                  is_triangle(lp, 6) if shape == "triangle6" else is_triangle(lp))
            if not ok:
                word = {"circle": "a 6-tile circle", "triangle": "a triangle",
                        "triangle6": "a 6-tile triangle"}[shape]
                reasons.append(f"{_loop_label(colour, lp)} is not {word}")
    if goal.hub and len(by_colour[goal.hub]) == 1:
        hub = set(by_colour[goal.hub][0])
        for colour in goal.spokes:
            for lp in by_colour[colour]:
                if not hub & set(lp):
                    reasons.append(f"{_loop_label(colour, lp)} shares no tile with the {goal.hub} loop")
    if goal.identical:
        shapes = [lp for c in goal.identical for lp in by_colour[c]]
        if len(shapes) == len(goal.identical) and not all(congruent(shapes[0], s) for s in shapes[1:]):
            reasons.append(f"the {', '.join(goal.identical)} loops are not identical in shape")
    if goal.inner:
        for lp in by_colour[goal.inner]:
            inside = any(enclosed_by(other, lp) for c, other in loops if other is not lp)
            shares = any(set(other) & set(lp) for c, other in loops if other is not lp)
            if not inside and not shares:
                reasons.append(f"{_loop_label(goal.inner, lp)} is not inside another loop")
    reasons += _entanglement_reasons(loops)
    if goal.every_tile_on_loop:
        on_loop = {c for _, lp in loops for c in lp}
        for c in sorted(set(board.tiles) - on_loop):
            reasons.append(f"tile {board.tiles[c].tile} at {fmt_cell(c)} is on no loop")
    return reasons


def _entanglement_reasons(loops: list[tuple[str, tuple[Cell, ...]]]) -> list[str]:
    """Isolated outer loops and loops split into unconnected groups."""
    k = len(loops)
    sets = [set(lp) for _, lp in loops]
    share = [[i != j and bool(sets[i] & sets[j]) for j in range(k)] for i in range(k)]
    inside = [[i != j and enclosed_by(sets[j], sets[i]) for j in range(k)] for i in range(k)]
    reasons = []
    for i, (colour, lp) in enumerate(loops):
        if k > 1 and not any(share[i]) and not any(inside[i]):
            reasons.append(f"{_loop_label(colour, lp)} is isolated: it shares no tile with "
                           f"another loop and lies inside none")
    # one group: joined by sharing or nesting
    seen = {0}
    stack = [0]
    while stack:
        i = stack.pop()
        for j in range(k):
            if j not in seen and (share[i][j] or inside[i][j] or inside[j][i]):
                seen.add(j)
                stack.append(j)
    if len(seen) < k and not reasons:
        reasons.append(f"the loops are not all entangled: {len(seen)} of {k} form one group")
    return reasons
