"""The ``tantrix`` command as a user runs it: real processes, real files, exit codes."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from referee.analysis import analyze
from referee.board import load
from referee.randomgame import random_position


def tantrix(*args, cwd=None):
    return subprocess.run([sys.executable, "-m", "tantrix", *map(str, args)],
                          capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.fixture
def board_file(tmp_path):
    board = random_position(24, 11)
    board.bag_empty = False
    path = tmp_path / "board.json"
    path.write_text(board.dumps())
    return path


def test_analyze_prints_the_contract_report(board_file):
    res = tantrix("analyze", board_file)
    assert res.returncode == 0, res.stderr
    report = json.loads(res.stdout)
    assert report == json.loads(json.dumps(analyze(load(board_file))))
    for key in ("tiles", "mismatches", "forced_spaces", "double_gobbles", "same_colour_forced",
                "controlled_cells", "holes", "colours", "restraint_violations"):
        assert key in report
    assert set(report["colours"]) == {"red", "yellow", "green", "blue"}


def test_text_format_draws_the_board_and_scores(board_file):
    res = tantrix("analyze", "--format", "text", board_file)
    assert res.returncode == 0, res.stderr
    board = load(board_file)
    some = next(iter(board.tiles.values()))
    assert f"{some.tile}:{some.rotation}" in res.stdout
    assert "colour   line  loop  score" in res.stdout
    assert "24 tiles" in res.stdout


def test_moves_lists_legal_placements(board_file):
    board = load(board_file)
    free = [n for n in range(1, 57) if n not in board.numbers()][:3]
    res = tantrix("moves", board_file, *free, "--explain")
    assert res.returncode == 0, res.stderr
    out = json.loads(res.stdout)
    assert set(out["tiles"]) == {str(n) for n in free}
    entry = out["tiles"][str(free[0])]
    assert all(r["reason"] for r in entry["illegal"])


@pytest.mark.parametrize("content, words", [
    ("{", "malformed JSON"),
    ('{"tiles": [{"q": 0, "r": 0, "tile": 60, "rotation": 0}]}', "not 1..56"),
    ('{"tiles": [{"q": 0, "r": 0, "tile": 5, "rotation": 0}, {"q": 0, "r": 0, "tile": 6, "rotation": 0}]}', "two tiles"),
    ('{"tiles": [{"q": "0", "r": 0, "tile": 5, "rotation": 0}]}', "integer"),
])
def test_bad_input_exits_2_with_one_line(tmp_path, content, words):
    path = tmp_path / "bad.json"
    path.write_text(content)
    res = tantrix("analyze", path)
    assert res.returncode == 2
    assert res.stdout == ""
    assert len(res.stderr.strip().splitlines()) == 1 and words in res.stderr
    assert "Traceback" not in res.stderr


def test_missing_file_and_unknown_command_exit_2(tmp_path):
    for args in (("analyze", tmp_path / "nope.json"), ("frobnicate",), ("analyze",), ("analyze", tmp_path)):
        res = tantrix(*args)
        assert res.returncode == 2, args
        assert len(res.stderr.strip().splitlines()) == 1 and "Traceback" not in res.stderr
