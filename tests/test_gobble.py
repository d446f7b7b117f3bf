"""Tantrix Gobble: two-touch rule, gobbles, double gobbles, no restraints."""
from __future__ import annotations

import pytest

from referee.board import Board
from referee.errors import BadInput
from referee.gobble import check_gobble_move, gobble_moves, gobble_spaces, penalty_tiles
from referee.gobbles import forced_spaces
from referee.matching import facing_colours, fits
from referee.moves import check_move
from referee.randomgame import random_position
from referee.tiles import rotated_edges


def fitting(board: Board, cell, pool=range(1, 57)):
    """(tile, rotation) from the tiles off the board that match every neighbour of cell."""
    facing = facing_colours(board, cell)
    on = board.numbers()
    for n in pool:
        if n in on:
            continue
        for k in range(6):
            if fits(rotated_edges(n, k), facing) is None:
                return n, k
    return None


def two_tiles() -> Board:
    board = Board.from_placements([((0, 0), 1, 0)])
    n, k = fitting(board, (1, 0))
    board.place((1, 0), n, k)
    return board


def test_first_tiles_need_one_touch_then_two():
    board = Board.from_placements([((0, 0), 1, 0)])
    n, k = fitting(board, (1, 0))
    assert check_gobble_move(board, n, (1, 0), k).legal  # the second tile touches one
    board = two_tiles()
    # a cell touching only one tile: illegal in Gobble even though it matches
    n, k = fitting(board, (2, 0))
    m = check_gobble_move(board, n, (2, 0), k)
    assert not m.legal and "needs 2" in m.reason
    assert check_move(board, n, (2, 0), k).legal  # Strategy would allow it
    # a cell touching both: legal when it matches
    n, k = fitting(board, (1, -1))
    m = check_gobble_move(board, n, (1, -1), k)
    assert m.legal and not m.gobble and m.give == 0


def test_mismatch_is_illegal():
    board = two_tiles()
    n, k = fitting(board, (1, -1))
    bad = next(r for r in range(6) if fits(rotated_edges(n, r), facing_colours(board, (1, -1))) is not None)
    m = check_gobble_move(board, n, (1, -1), bad)
    assert not m.legal and "edge" in m.reason


def _space(min_n: int):
    for seed in range(40):
        board = random_position(20, seed)
        for s in forced_spaces(board):
            if s.neighbours >= min_n and not s.same_colour:
                f = fitting(board, s.cell)
                if f:
                    return board, s, f
    pytest.fail("no suitable forced space in 40 random positions")


def test_gobble_hands_over_one_tile():
    board, space, (n, k) = _space(3)
    m = check_gobble_move(board, n, space.cell, k)
    assert m.legal and m.gobble
    assert m.give == (2 if space.neighbours >= 4 else 1)
    assert any(tuple(g["cell"]) == space.cell for g in gobble_spaces(board))


def test_double_gobble_gives_two_and_is_allowed():
    # take a tile with four or more neighbours off a real position: its cell is a double
    for seed in range(20):
        board = random_position(30, seed)
        for cell in sorted(board.tiles):
            if board.tile_neighbours(cell) >= 4:
                p = board.remove(cell)
                m = check_gobble_move(board, p.tile, cell, p.rotation)
                assert m.legal and m.double and m.give == 2
                assert check_gobble_move(board, p.tile, cell, p.rotation,
                                         double_gives_two=False).give == 1
                return
    pytest.fail("no tile with four neighbours in 20 random positions")


def test_no_restraints_in_gobble():
    # a move Strategy forbids by a restraint is legal in Gobble when it touches two tiles
    for seed in range(40):
        board = random_position(18, seed)
        for n in range(1, 57):
            if n in board.numbers():
                continue
            for m in gobble_moves(board, n):
                verdict = check_move(board, n, m.cell, m.rotation, bag_empty=False)
                if verdict.code and verdict.code.startswith("restraint"):
                    assert m.legal
                    return
    pytest.fail("no restraint-breaking move found")


def test_moves_sorted_gobbles_first_and_penalty():
    board, space, (n, _) = _space(3)
    moves = gobble_moves(board, n)
    assert moves and moves[0].gobble
    assert all(m.legal for m in moves)
    assert n not in penalty_tiles(board, [n])


def test_tile_already_down_is_bad_input():
    board = two_tiles()
    with pytest.raises(BadInput):
        check_gobble_move(board, 1, (5, 5), 0)
