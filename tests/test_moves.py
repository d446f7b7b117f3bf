"""Legal moves and the reasons for illegal ones, checked against the analysis of the result."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.analysis import analyze
from referee.board import Board
from referee.errors import BadInput
from referee.hexgrid import DIRECTIONS
from referee.moves import MoveContext, all_moves, check_move, forced_fills, hand_moves, legal_moves
from referee.randomgame import random_position


def after(board, cell, n, k):
    b = board.copy()
    b.place(cell, n, k)
    return b


def test_first_tile_goes_anywhere_in_any_rotation():
    assert legal_moves(Board(), 7) == [((0, 0), k) for k in range(6)]


def test_reasons_no_contact_occupied_and_mismatch():
    board = Board.from_placements([((0, 0), 1, 0)])
    assert check_move(board, 2, (3, 3), 0).code == "no_contact"
    assert check_move(board, 2, (0, 0), 0).code == "occupied"
    # find a rotation of tile 2 that clashes on its NW edge with tile 1's SE edge
    shown = board.tiles[(0, 0)].edges[2]
    bad = next(k for k in range(6) if Board.from_placements([((0, 0), 2, k)]).tiles[(0, 0)].edges[5] != shown)
    verdict = check_move(board, 2, (1, 0), bad)
    assert verdict.code == "mismatch" and verdict.edge == 5 and "edge 5" in verdict.reason
    assert not verdict.legal


def test_tile_already_on_the_board_is_bad_input():
    board = Board.from_placements([((0, 0), 1, 0)])
    with pytest.raises(BadInput):
        legal_moves(board, 1)
    with pytest.raises(BadInput):
        legal_moves(board, 99)


def test_restraint_3_forbids_playing_along_a_controlled_side():
    # forced space at (0,1); the cells along the row's south side are controlled
    cells = [(0, 0), (1, 0), (2, 0), (3, 0), (-1, 1)]
    board = Board.from_placements([(c, n, 0) for n, c in enumerate(cells, start=1)])
    ctx = MoveContext(board)
    codes = {ctx.check(n, (3, 1), k).code for n in range(10, 57) for k in range(6)}
    assert "restraint_3" in codes
    assert "restraint_3" not in {ctx.check(n, (4, 0), k).code for n in range(10, 57) for k in range(6)}
    board.bag_empty = True
    assert "restraint_3" not in {MoveContext(board).check(n, (3, 1), k).code
                                 for n in range(10, 57) for k in range(6)}


midgames = st.builds(lambda n, s: random_position(n, s), st.integers(2, 50), st.integers(0, 10**6))


@settings(max_examples=25, deadline=None)
@given(midgames, st.integers(1, 56))
def test_verdicts_agree_with_the_analysis_of_the_result(board, number):
    board.bag_empty = False
    if number in board.numbers():
        return
    before = analyze(board, paths=False)
    controlled = {tuple(c) for c in before["controlled_cells"]}
    for m in all_moves(board, number):
        res = analyze(after(board, m.cell, number, m.rotation), paths=False)
        new_mismatch = len(res["mismatches"]) > len(before["mismatches"])
        assert (m.code == "mismatch") == new_mismatch
        if m.code == "mismatch":
            continue
        same_new = {tuple(c) for c in res["same_colour_forced"]} - {tuple(c) for c in before["same_colour_forced"]}
        double_new = {tuple(c) for c in res["double_gobbles"]} - {tuple(c) for c in before["double_gobbles"]}
        assert (m.code == "restraint_1") == bool(same_new)
        if m.code == "restraint_1":
            continue
        assert (m.code == "restraint_2") == bool(double_new)
        if m.code == "restraint_2":
            continue
        free = board.tile_neighbours(m.cell) <= 2
        assert (m.code == "restraint_3") == (free and m.cell in controlled)


@settings(max_examples=15, deadline=None)
@given(midgames)
def test_hand_moves_and_forced_fills_are_consistent(board):
    hand = [n for n in range(1, 57) if n not in board.numbers()][:6]
    moves = hand_moves(board, hand)
    for n in hand:
        assert moves[n] == [(m.cell, m.rotation) for m in all_moves(board, n) if m.legal]
    fills = forced_fills(board, hand)
    forced = {tuple(s["cell"]) for s in analyze(board)["forced_spaces"]}
    assert set(fills) == forced
    for cell, options in fills.items():
        for n, k in options:
            assert (cell, k) in moves[n]


def test_forced_fill_in_the_endgame_ignores_restraints():
    # a forced space whose every fill would make a double gobble is fillable once the bag is empty
    ring = [(0, -1), (1, -1), (1, 0), (0, 1)]
    board = Board.from_placements([(c, n, 0) for n, c in enumerate(ring, start=1)])
    assert board.tile_neighbours((0, 0)) == 4
    open_ = forced_fills(board, range(5, 57), bag_empty=True)[(0, 0)]
    strict = forced_fills(board, range(5, 57), bag_empty=False)[(0, 0)]
    assert len(open_) >= len(strict)
    for n, k in open_:
        edges = Board.from_placements([((0, 0), n, k)]).tiles[(0, 0)].edges
        for e, (dq, dr) in enumerate(DIRECTIONS):
            t = board.tiles.get((dq, dr))
            assert t is None or t.edges[(e + 3) % 6] == edges[e]
