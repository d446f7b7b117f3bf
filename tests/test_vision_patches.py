"""Doubtful cells side by side read together against the board round them
(``vision.patches``)."""
import numpy as np

from referee.hexgrid import neighbours
from referee.randomgame import random_position
from referee.tiles import rotated_edges
from vision import identify, patches
from vision.colours import CLASSES


def _logp(leans: list[tuple[str, float]]) -> np.ndarray:
    """(6, 5) edge log-probabilities: each edge's colour at its probability, the rest
    sharing what is left."""
    p = np.zeros((6, len(CLASSES)))
    for e, (colour, prob) in enumerate(leans):
        p[e] = (1.0 - prob) / (len(CLASSES) - 1)
        p[e, CLASSES.index(colour)] = prob
    return np.log(p)


def _washed(board, cell, prob: float = 0.3) -> np.ndarray:
    """A glare-washed cell: every edge leans only a little towards the tile's colour."""
    held = board.tiles[cell]
    return _logp([(c, prob) for c in rotated_edges(held.tile, held.rotation)])


def _patch(board, size: int):
    """``size`` touching cells of ``board`` in its middle (each with four tiles round it
    or more)."""
    inner = [c for c in board.tiles if sum(n in board.tiles for n in neighbours(c)) >= 4]
    for start in inner:
        patch = [start]
        for c in inner:
            if len(patch) < size and c not in patch and any(n in patch for n in neighbours(c)):
                patch.append(c)
        if len(patch) == size:
            return patch
    raise AssertionError("no patch")


def test_washed_out_cells_side_by_side_are_read_by_the_board_round_them():
    board = random_position(40, 7)
    patch = _patch(board, 3)
    logp = {c: _washed(board, c) for c in patch}
    # (each cell alone is far from sure of any tile)
    for c in patch:
        sc = identify.candidate_scores(logp[c][None]).ravel()
        assert np.exp(sc.max() - identify.log_sum_exp(sc[None])[0]) < 0.5
    rest = board.copy()
    for c in patch:
        rest.remove(c)
    read = patches.read_patches(rest, patch, logp)
    assert {c: (rd.tile, rd.rotation) for c, rd in read.items()} == {
        c: (board.tiles[c].tile, board.tiles[c].rotation) for c in patch}
    assert all(rd.confidence >= patches.PATCH_SURE for rd in read.values())
    assert len(rest) == len(board) - len(patch)  # the board given is not changed


def test_a_cell_whose_colours_clash_with_the_board_is_left_unread():
    # the tile under the glare really mismatches its neighbours: its colours name a tile
    # no joint reading can hold, and it is not "corrected" into one that fits
    board = random_position(40, 7)
    patch = _patch(board, 3)
    odd = patch[1]
    held = board.tiles[odd]
    used = board.numbers()
    other = next(n for n in range(1, 57) if n not in used)
    logp = {c: _washed(board, c) for c in patch}
    logp[odd] = _logp([(c, 0.95) for c in rotated_edges(other, 0)])
    rest = board.copy()
    for c in patch:
        rest.remove(c)
    read = patches.read_patches(rest, patch, logp)
    assert odd not in read
    assert all((rd.tile, rd.rotation) == (board.tiles[c].tile, board.tiles[c].rotation)
               for c, rd in read.items() if c != odd)
    assert held.tile != other


def test_a_cell_that_says_nothing_and_few_neighbours_is_left_unread():
    board = random_position(12, 3)
    rim = next(c for c in board.tiles if sum(n in board.tiles for n in neighbours(c)) == 2)
    flat = np.log(np.full((6, len(CLASSES)), 1.0 / len(CLASSES)))
    rest = board.copy()
    rest.remove(rim)
    assert patches.read_patches(rest, [rim], {rim: flat}) == {}
