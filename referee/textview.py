"""A readable text view of a board and its report, for people at a terminal."""
from __future__ import annotations

from typing import Any

from .board import Board
from .hexgrid import Cell

_INITIAL = {"red": "R", "yellow": "Y", "green": "G", "blue": "B", None: "."}
_CELL_W = 6  # characters per hex column; rows are half a hex tall


def draw_board(board: Board, report: dict[str, Any] | None = None) -> str:
    """The board as text: each tile as ``number:rotation``, marked empty cells around it.

    Flat-topped columns are staggered by half a row, as on the table.  Marks on empty
    cells: ``!3``/``!4``.. forced space with that many neighbours (``!!`` same colour),
    ``ctl`` controlled cell, ``( )`` hole; ``?`` a tile that could not be read.
    """
    if not board.tiles:
        return "(empty board)\n"
    marks: dict[Cell, str] = {}
    if report:
        for c in report.get("controlled_cells", []):
            marks[tuple(c)] = "ctl"
        for s in report.get("forced_spaces", []):
            marks[tuple(s["cell"])] = f"!{s['neighbours']}"
        for c in report.get("same_colour_forced", []):
            marks[tuple(c)] = "!!"
        for c in report.get("holes", []):
            marks[tuple(c)] = "( )"
    for c in board.unread_cells():
        marks[c] = "?"
    bad = set()
    if report:
        for m in report.get("mismatches", []):
            bad.add(tuple(m["cell"]))
            bad.add(tuple(m["neighbour"]))
    cells = set(board.tiles) | set(marks)
    qs = [c[0] for c in cells]
    ys = [2 * c[1] + c[0] for c in cells]
    q0, y0 = min(qs), min(ys)
    width = (max(qs) - q0 + 1) * _CELL_W + 2
    rows = [[" "] * width for _ in range(max(ys) - y0 + 1)]
    for cell in cells:
        p = board.tiles.get(cell)
        if p is not None:
            label = f"{p.tile}:{p.rotation}" + ("*" if cell in bad else "")
        else:
            label = marks[cell]
        x = (cell[0] - q0) * _CELL_W
        y = 2 * cell[1] + cell[0] - y0
        for i, ch in enumerate(label.center(_CELL_W - 1)):
            rows[y][x + i] = ch
    return "\n".join("".join(r).rstrip() for r in rows) + "\n"


def findings(report: dict[str, Any]) -> list[tuple[str, str]]:
    """The report's findings as ``(kind, sentence)`` pairs, one per finding.

    Kinds: ``mismatch``, ``forced``, ``double``, ``same``, ``controlled``, ``hole``,
    ``violation``, or ``ok`` (the single sentence of a board with no findings), and
    ``unread`` (tiles that could not be read: findings beside them may be missing).
    """
    out = []
    for m in report["mismatches"]:
        a, b = m["colours"]
        out.append(("mismatch", f"mismatch: {tuple(m['cell'])} edge {m['edge']} shows {a}, "
                                f"{tuple(m['neighbour'])} shows {b}"))
    for s in report["forced_spaces"]:
        cols = ", ".join(c for c in s["colours"] if c)
        out.append(("forced", f"forced space at {tuple(s['cell'])}: {s['neighbours']} neighbours ({cols})"))
    for c in report["double_gobbles"]:
        out.append(("double", f"double gobble at {tuple(c)}"))
    for c in report["same_colour_forced"]:
        out.append(("same", f"same-colour forced space at {tuple(c)}: no tile can fill it"))
    if report["controlled_cells"]:
        cells = " ".join(str(tuple(c)) for c in report["controlled_cells"])
        out.append(("controlled", f"controlled cells (no free move there): {cells}"))
    if report["holes"]:
        out.append(("hole", "holes: " + " ".join(str(tuple(c)) for c in report["holes"])))
    for v in report.get("restraint_violations", []):
        out.append(("violation", f"restraint {v['rule']} broken: {v['reason']}"))
    if not out:
        out.append(("ok", "no findings: every touching edge matches, no forced spaces, no holes"))
    unread = report.get("unread_cells") or []
    if unread:
        cells = " ".join(str(tuple(c)) for c in unread)
        out.insert(0, ("unread", f"{len(unread)} tile(s) could not be read, at {cells}: their "
                                 "cells count as occupied, but mismatches and lines through "
                                 "them are not judged (scores are lower bounds)"))
    return out


def describe(report: dict[str, Any]) -> list[str]:
    """The report's findings in words, one line each."""
    return [text for _kind, text in findings(report)]


def score_table(report: dict[str, Any]) -> str:
    """Per colour: longest line, longest loop and score, as aligned text."""
    lines = ["colour   line  loop  score"]
    for colour, c in report["colours"].items():
        lines.append(f"{colour:<8} {c['longest_line']:>4}  {c['longest_loop']:>4}  {c['score']:>5}")
    return "\n".join(lines) + "\n"


def render_text(board: Board, report: dict[str, Any]) -> str:
    """Board drawing, findings and score table together."""
    head = f"{report['tiles']} tiles" + (" (bag empty: restraints lifted)" if board.bag_empty else "")
    return (head + "\n\n" + draw_board(board, report) + "\n"
            + "\n".join("- " + line for line in describe(report)) + "\n\n" + score_table(report))
