"""Tiles that could not be read (the reader's ``unreadable`` list) in the rules model.

A hand over the table hides tiles; the reader lists their cells as unreadable rather than
guess.  The referee must not then call those cells empty (a forced space, a hole, a cell
to play on), while it cannot judge their edges either.
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.analysis import analyze
from referee.board import Board, board_from_json
from referee.errors import BadInput
from referee.moves import MoveContext, legal_moves
from referee.randomgame import random_position
from referee.textview import render_text

ROOT = Path(__file__).resolve().parents[1]


def hidden(board: Board, cells: list) -> Board:
    """``board`` with the tiles on ``cells`` taken off and listed as unreadable."""
    data = board.to_json()
    data["tiles"] = [t for t in data["tiles"] if (t["q"], t["r"]) not in cells]
    data["unreadable"] = [{"q": q, "r": r, "confidence": 0.2} for q, r in cells]
    return board_from_json(data)


def occupancy_findings(report: dict) -> dict:
    """The findings that depend on which cells hold tiles, not on their colours."""
    return {
        "forced": [(tuple(s["cell"]), s["neighbours"]) for s in report["forced_spaces"]],
        "double": report["double_gobbles"],
        "controlled": report["controlled_cells"],
        "holes": report["holes"],
        "rule2": [v for v in report["restraint_violations"] if v["rule"] == 2],
        "rule3": [v for v in report["restraint_violations"] if v["rule"] == 3],
    }


@pytest.mark.parametrize("seed", range(12))
def test_hiding_tiles_leaves_the_occupancy_findings_as_they_were(seed):
    board = random_position(8 + 3 * seed, seed=seed)
    cells = sorted(board.tiles)[seed % 5::7][:3]
    seen = analyze(hidden(board, cells))
    assert occupancy_findings(seen) == occupancy_findings(analyze(board))
    assert seen["unread_cells"] == [list(c) for c in cells]
    assert seen["tiles"] == len(board) - len(cells)


def test_a_board_with_its_tiles_simply_missing_differs():
    # the same test would fail if unread cells were treated as empty (it can fail)
    board = random_position(30, seed=3)
    cells = sorted(board.tiles)[::7][:3]
    data = board.to_json()
    data["tiles"] = [t for t in data["tiles"] if (t["q"], t["r"]) not in cells]
    assert occupancy_findings(analyze(board_from_json(data))) != occupancy_findings(analyze(board))


def test_no_mismatch_or_line_is_judged_through_an_unread_tile():
    board = random_position(20, seed=5)
    full = analyze(board)
    cell = sorted(board.tiles)[4]
    seen = analyze(hidden(board, [cell]))
    for m in seen["mismatches"]:
        assert tuple(m["cell"]) != cell and tuple(m["neighbour"]) != cell
    for colour, entry in seen["colours"].items():
        # a line cut at the unread tile can only be shorter: scores are lower bounds
        assert entry["score"] <= full["colours"][colour]["score"]
        for path in entry["lines"] + entry["loops"]:
            assert list(cell) not in path
    # a forced space beside it shows no colour on the unread tile's edge
    for s in seen["forced_spaces"]:
        q, r = s["cell"]
        if abs(q - cell[0]) + abs(r - cell[1]) + abs(q + r - cell[0] - cell[1]) == 2:
            assert None in s["colours"]


def test_no_move_onto_an_unread_tile():
    board = random_position(15, seed=2)
    cell = sorted(board.tiles)[0]
    seen = hidden(board, [cell])
    spare = next(n for n in range(1, 57) if n not in board.numbers())
    assert all(c != cell for c, _k in legal_moves(seen, spare))
    check = MoveContext(seen).check(spare, cell, 0)
    assert check.code == "occupied" and "could not be read" in check.reason


def test_text_view_marks_unread_tiles_and_says_so():
    board = random_position(12, seed=1)
    cell = sorted(board.tiles)[3]
    seen = hidden(board, [cell])
    text = render_text(seen, analyze(seen))
    assert "1 tile(s) could not be read, at " + str(cell) in text
    assert " ? " in text or text.rstrip().endswith("?") or "?\n" in text


@pytest.mark.parametrize("bad, message", [
    ("nope", "'unreadable' must be a list"),
    ([{"q": 0}], "integer 'q' and 'r'"),
    ([{"q": 0, "r": 0}], "already holds a tile"),
])
def test_bad_unreadable_lists_are_bad_input(bad, message):
    data = {"tiles": [{"q": 0, "r": 0, "tile": 1, "rotation": 0}], "unreadable": bad}
    with pytest.raises(BadInput, match=message):
        board_from_json(data)


def test_cli_analyze_rejects_a_bad_unreadable_list(tmp_path):
    path = tmp_path / "b.json"
    path.write_text(json.dumps({"tiles": [{"q": 0, "r": 0, "tile": 1, "rotation": 0}],
                                "unreadable": [{"q": 0, "r": 0}]}))
    run = subprocess.run([sys.executable, "-m", "tantrix", "analyze", str(path)],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 2
    assert run.stderr.count("\n") == 1 and "already holds a tile" in run.stderr


def test_photo_with_a_hand_over_the_board():
    """The sample photo with a hand: the covered tiles the reader lists as unreadable are
    occupied cells in the report, never a forced space, hole or controlled cell."""
    run = subprocess.run([sys.executable, "-m", "tantrix", "analyze",
                          str(ROOT / "sample_images" / "hand_over_board.jpg")],
                         capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    unread = {tuple(c) for c in report["unread_cells"]}
    assert unread, "the hand covers tiles the reader cannot read"
    empty_findings = ({tuple(s["cell"]) for s in report["forced_spaces"]}
                      | {tuple(c) for c in report["controlled_cells"] + report["holes"]})
    assert not unread & empty_findings
