"""The check, solve, replay and score commands, run as a user would."""
from __future__ import annotations

import contextlib
import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from referee.board import load, loads
from referee.replay import Player, play_game
from tantrix.cli import main

DATA = Path(__file__).parent / "data" / "puzzles"


def tantrix(*args: str) -> subprocess.CompletedProcess:
    """Run the CLI in this process (fast); same exit code and streams as the console script."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())


def test_check_list_console_script():
    r = subprocess.run([sys.executable, "-m", "tantrix", "check", "--list"], capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0
    names = r.stdout.split()
    assert names[0] == "discovery-3" and "tangle-crop-circles" in names and len(names) == 45


def test_check_solved_and_not_solved(tmp_path):
    r = tantrix("check", "discovery-10", str(DATA / "discovery-10.json"))
    assert r.returncode == 0, r.stderr
    verdict = json.loads(r.stdout)
    assert verdict["puzzle"] == "discovery-10" and verdict["solved"] is True
    r = tantrix("check", "discovery-11", str(DATA / "discovery-10.json"))
    assert r.returncode == 1
    verdict = json.loads(r.stdout)
    assert verdict["solved"] is False and "tile 11 missing" in verdict["reasons"]
    r = tantrix("check", "discovery-11", str(DATA / "discovery-10.json"), "--format", "text")
    assert r.returncode == 1 and "not solved" in r.stdout and "tile 11 missing" in r.stdout


def test_check_hint(tmp_path):
    board = load(DATA / "discovery-10.json")
    for c in sorted(board.tiles)[5:]:
        board.remove(c)
    path = tmp_path / "partial.json"
    path.write_text(board.dumps())
    r = tantrix("check", "discovery-10", str(path), "--hint")
    assert r.returncode == 1
    out = json.loads(r.stdout)
    assert out["hint"]["completable"] is True


@pytest.mark.parametrize("args", [
    ["check", "discovery-99", "tests/data/puzzles/discovery-10.json"],
    ["check", "discovery-10", "no/such/file.json"],
    ["check", "discovery-10"],
    ["solve", "nope"],
    ["replay", "tests/data/puzzles/discovery-10.json"],
    ["replay", "tests/data/puzzles/discovery-10.json", "tests/data/puzzles/discovery-10.json",
     "--players", "a:pink", "b:red"],
    ["score", "no/such/file.json"],
])
def test_bad_input_exit_2(args):
    r = tantrix(*args)
    assert r.returncode == 2, (args, r.stdout, r.stderr)
    assert r.stderr.count("\n") == 1 and "Traceback" not in r.stderr


def test_malformed_board(tmp_path):
    bad = tmp_path / "bad.json"
    bad.write_text('{"tiles": [{"q": 0, "r": 0, "tile": 99, "rotation": 0}]}')
    r = tantrix("check", "discovery-3", str(bad))
    assert r.returncode == 2 and "99" in r.stderr


def test_solve_prints_a_solution(tmp_path):
    r = tantrix("solve", "discovery-8", "--time-limit", "20")
    assert r.returncode == 0, r.stderr
    path = tmp_path / "d8.json"
    path.write_text(r.stdout)
    assert len(loads(r.stdout).tiles) == 8
    assert tantrix("check", "discovery-8", str(path)).returncode == 0


def test_solve_gives_up_within_time_limit():
    r = tantrix("solve", "discovery-30", "--time-limit", "0.2")
    assert r.returncode in (0, 1)
    if r.returncode == 1:
        assert "time limit" in r.stderr


def test_replay_json_and_text(tmp_path):
    players = [Player("ann", "red"), Player("bob", "yellow")]
    positions = play_game(players, 6, seed=2)
    paths = []
    for i, b in enumerate(positions):
        p = tmp_path / f"pos{i}.json"
        p.write_text(b.dumps())
        paths.append(str(p))
    r = tantrix("replay", *paths, "--players", "ann:red", "bob:yellow")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert len(report["turns"]) == 6 and report["violations"] == 0
    assert set(report["final_scores"]) == {"ann", "bob"}
    r = tantrix("replay", *paths, "--players", "ann:red", "bob:yellow", "--format", "text")
    assert r.returncode == 0 and r.stdout.startswith("Turn 1: ann (red)")


def test_score_pattern(tmp_path):
    from referee.hexgrid import ring
    from referee.solver import arrange, loop_links

    br = ring((0, 0), 1)
    board = arrange(br + [(0, 0)], loop_links(br, "blue"))
    path = tmp_path / "mandala.json"
    path.write_text(board.dumps())
    r = tantrix("score", str(path))
    assert r.returncode == 0
    out = json.loads(r.stdout)
    assert out["mandala"] is True and out["score"] >= 22
    r = tantrix("score", str(path), "--format", "text")
    assert "snowflake +7, mandala +2" in r.stdout


def test_check_a_discovery_photo_over_exposed(tmp_path):
    """A user checks a real photo of the Discovery puzzle of 12 tiles taken over-exposed
    (carpet13 brightened 1.6 times: its pale blue links come out nearer green's hue).
    The reader names them by the puzzle's numbers, and the verdict is the board's."""
    photos = Path(__file__).resolve().parents[1].parent / "shared" / "real_photos"
    if not (photos / "carpet13.jpg").exists():
        pytest.skip("real photos missing")
    import cv2

    from bench.real_photo_bench import VARIANTS
    path = tmp_path / "carpet13-over-exposed.png"
    cv2.imwrite(str(path), VARIANTS["over-exposed"](cv2.imread(str(photos / "carpet13.jpg"))))
    r = tantrix("check", "discovery-12", str(path))
    assert r.returncode == 0, r.stdout + r.stderr
    verdict = json.loads(r.stdout)
    assert verdict["solved"] is True, verdict
