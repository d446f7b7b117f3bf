"""Tantrix Solitaire: forced placement rule and the chosen colour's score."""
from __future__ import annotations

import pytest

from referee.board import Board
from referee.errors import BadInput
from referee.matching import facing_colours, fits
from referee.solitaire import check_solitaire_move, forced_fits, solitaire_score, solitaire_sets
from referee.solver import solve
from referee.tiles import rotated_edges


def test_four_sets_of_fourteen():
    sets = solitaire_sets()
    assert len(sets) == 4 and all(len(v) == 14 for v in sets.values())
    assert sorted(t for v in sets.values() for t in v) == list(range(1, 57))


def _add_matching(board: Board, cell, tiles, used) -> bool:
    """Put the first unused tile of ``tiles`` that matches on ``cell``."""
    for n in tiles:
        if n in used:
            continue
        k = next((k for k in range(6)
                  if fits(rotated_edges(n, k), facing_colours(board, cell)) is None), None)
        if k is not None:
            board.place(cell, n, k)
            used.add(n)
            return True
    return False


def _board_with_forced_space():
    """Tiles of the red-yellow-blue set round an empty cell with three neighbours."""
    tiles = solitaire_sets()["red-yellow-blue"]
    board = Board.from_placements([((0, 0), tiles[0], 0)])
    used = {tiles[0]}
    for cell in [(1, -1), (2, -1)]:
        assert _add_matching(board, cell, tiles, used)
    for cell in [(2, 0), (1, 1), (0, 1)]:  # a third neighbour for (1, 0)
        if _add_matching(board, cell, tiles, used):
            return board, [t for t in tiles if t not in used]
    pytest.fail("could not build the position")


def test_tile_that_fits_a_forced_space_must_go_there():
    board, rest = _board_with_forced_space()
    assert board.tile_neighbours((1, 0)) >= 3
    fitter = next(n for n in rest if forced_fits(board, n))
    cell, k = forced_fits(board, fitter)[0]
    ok = check_solitaire_move(board, fitter, cell, k)
    assert ok["legal"] and ok["forced"] == [list(cell)]
    # the same tile elsewhere (matching, touching) is refused
    for c in [(-1, 0), (0, -1), (-1, 1), (3, -1), (3, -2)]:
        for r in range(6):
            v = check_solitaire_move(board, fitter, c, r)
            if board.tile_neighbours(c) and fits(rotated_edges(fitter, r), facing_colours(board, c)) is None:
                assert not v["legal"] and "must go there" in v["reason"]
                return
    pytest.fail("no other matching cell found")


def test_tile_that_fits_no_forced_space_goes_anywhere_matching():
    board, rest = _board_with_forced_space()
    free = [n for n in rest if not forced_fits(board, n)]
    if not free:
        pytest.skip("every tile fits the forced space")
    n = free[0]
    for c in sorted({(q + dq, r + dr) for q, r in board.tiles for dq, dr in
                     [(0, -1), (1, -1), (1, 0), (0, 1), (-1, 1), (-1, 0)]} - set(board.tiles)):
        for k in range(6):
            if fits(rotated_edges(n, k), facing_colours(board, c)) is None:
                assert check_solitaire_move(board, n, c, k)["legal"]
                return


def test_quest_loop_scores_28():
    board = solve("solitaire-quest", time_limit=20).board
    scores = {c: solitaire_score(board, c) for c in ("red", "yellow", "green", "blue")}
    best = max(s["score"] for s in scores.values())
    assert best == 28
    assert any(s["quest_done"] for s in scores.values())


def test_line_score_and_bad_colour():
    board = Board.from_placements([((0, 0), 1, 0)])
    assert solitaire_score(board, "blue")["score"] == 1
    assert solitaire_score(board, "green")["score"] == 0
    with pytest.raises(BadInput):
        solitaire_score(board, "purple")
