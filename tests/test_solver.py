"""Solver and hint engine on real tile sets."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.board import Board, Placement, board_from_json, load
from referee.errors import BadInput
from referee.puzzle_defs import get_puzzle
from referee.puzzles import check_puzzle
from referee.solver import can_complete, solve

DATA = Path(__file__).parent / "data" / "puzzles"


@pytest.mark.parametrize("name", [f"discovery-{n}" for n in range(3, 16)]
                         + ["rainbow-green", "rainbow-yellow", "rainbow-white", "rainbow-blue",
                            "solitaire-quest"])
def test_solutions_check_solved(name):
    result = solve(name, time_limit=30)
    assert result.status == "solved", (name, result.status)
    assert check_puzzle(name, result.board)["solved"]
    js = result.to_json()
    assert js["status"] == "solved" and js["board"]["tiles"]


def test_solution_starts_with_the_puzzles_own_tile_unturned():
    board = solve("discovery-9", time_limit=10).board
    assert board.tiles[(0, 0)] == Placement(9, 0)


def test_timeout_is_reported():
    result = solve("discovery-30", time_limit=0.05)
    assert result.status in ("timeout", "solved")
    if result.status == "timeout":
        assert result.board is None


def test_unknown_puzzle():
    with pytest.raises(BadInput):
        solve("discovery-2")


def test_partial_arrangements_of_a_solution_can_be_completed():
    board = load(DATA / "discovery-10.json")
    cells = sorted(board.tiles)
    for part in (cells[:3], cells[2:7], cells[:9]):
        partial = Board({c: board.tiles[c] for c in part})
        hint = can_complete("discovery-10", partial, time_limit=10)
        assert hint["completable"] is True, part
        done = board_from_json(hint["solution"])
        assert check_puzzle("discovery-10", done)["solved"]
        for c in part:  # the tiles on the table stay where they are
            assert done.tiles[c] == board.tiles[c]


def test_mismatching_partial_cannot_be_completed():
    board = Board.from_placements([((0, 0), 1, 0), ((1, 0), 2, 0)])
    hint = can_complete("discovery-4", board)
    assert hint["completable"] is False
    assert any(r.startswith("edge (0,0)→(1,0)") for r in hint["reasons"])


def test_far_apart_tiles_cannot_be_completed():
    board = Board.from_placements([((0, 0), 1, 0), ((9, 0), 2, 0)])
    hint = can_complete("discovery-4", board)
    assert hint["completable"] is False


def test_foreign_tile_cannot_be_completed():
    board = Board.from_placements([((0, 0), 40, 0)])
    hint = can_complete("discovery-10", board)
    assert hint["completable"] is False
    assert "not part" in hint["reasons"][0]


def test_pyramid_partial():
    board = load(DATA / "rainbow-blue.json")
    cells = sorted(board.tiles)[:4]
    hint = can_complete("rainbow-blue", Board({c: board.tiles[c] for c in cells}), time_limit=20)
    assert hint["completable"] is True
    assert check_puzzle("rainbow-blue", board_from_json(hint["solution"]))["solved"]


@pytest.mark.parametrize("name", ["tangle-two", "tangle-chain", "tangle-four", "tangle-necklace",
                                  "tangle-padlock", "tangle-clownface", "tangle-bean-party",
                                  "tangle-crop-circles"])
def test_tangle_solved(name):
    result = solve(name, time_limit=30)
    assert result.status == "solved"
    verdict = check_puzzle(name, result.board)
    assert verdict["solved"], verdict["reasons"]
    assert sorted(p.tile for p in result.board.tiles.values()) == sorted(get_puzzle(name).tiles)


def test_tangle_alien_has_no_six_tile_yellow_circle():
    # a 6-tile ring needs six bends of its colour; the Alien's tiles have two yellow bends
    # (33 and 56), so under RULES.md's "circle = 6-tile ring" the search proves it impossible
    result = solve("tangle-alien", time_limit=30)
    assert result.status == "impossible"
