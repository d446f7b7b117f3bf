"""Doubtful cells read among the tiles that match the board around them
(``reader._matching_neighbours``, ``identify.identify_among``)."""
import numpy as np
import pytest

from referee.compare import best_alignment
from referee.hexgrid import neighbours
from referee.matching import facing_colours
from referee.randomgame import random_position
from referee.tiles import rotated_edges
from vision import read_photo, reader
from vision.colours import CLASSES
from vision.identify import NUMBERS, Reading, identify_among


def _logp(colours: list[dict[str, float]]) -> np.ndarray:
    """(6, 5) edge log-probabilities: each edge's listed colours at their probabilities, the
    rest sharing what is left."""
    p = np.zeros((6, len(CLASSES)))
    for e, probs in enumerate(colours):
        rest = (1.0 - sum(probs.values())) / (len(CLASSES) - len(probs))
        p[e] = [probs.get(c, rest) for c in CLASSES]
    return np.log(p)


def _sure(edges) -> list[dict[str, float]]:
    return [{c: 0.9} for c in edges]


def _board_and_rival():
    """A random board, a cell of it touching three tiles or more, the tile held there, and
    a free tile turned so that it differs from it on few edges, one of them touching."""
    board = random_position(20, 4)
    for cell, held in board.tiles.items():
        if sum(n in board.tiles for n in neighbours(cell)) < 3:
            continue
        facing = facing_colours(board, cell)
        used = {p.tile for p in board.tiles.values()}
        mine = rotated_edges(held.tile, held.rotation)
        rivals = []
        for tile in NUMBERS:
            if int(tile) in used:
                continue
            for k in range(6):
                theirs = rotated_edges(int(tile), k)
                differ = [e for e in range(6) if theirs[e] != mine[e]]
                if any(facing[e] is not None for e in differ):
                    rivals.append((len(differ), int(tile), k))
        if rivals:
            _n, tile, k = min(rivals)
            return board, cell, held, (tile, k)
    raise AssertionError("no cell with a rival")


def _item(cell, tile, rotation, fit=0.95, confidence=0.99):
    return (cell, Reading(tile, rotation, confidence=confidence, fit=fit), np.zeros(2))


def test_identify_among_reads_the_best_allowed_candidate():
    edges = rotated_edges(5, 2)
    logp = _logp(_sure(edges))
    allowed = np.ones((56, 6), bool)
    rd, own = identify_among(logp, allowed)
    assert (rd.tile, rd.rotation) == (5, 2) and rd.fit == pytest.approx(0.9)
    assert rd.confidence == pytest.approx(own)          # everything allowed: the same posterior
    # tile 5 not allowed: the best of the rest, whose own posterior is small
    allowed[list(NUMBERS).index(5)] = False
    rd, own = identify_among(logp, allowed)
    assert rd.tile != 5 and own < 0.01 and rd.fit < 0.9
    assert identify_among(logp, np.zeros((56, 6), bool)) is None


def test_a_cell_torn_between_two_tiles_is_given_the_one_its_neighbours_match():
    board, cell, held, (tile, k) = _board_and_rival()
    mine, theirs = rotated_edges(held.tile, held.rotation), rotated_edges(tile, k)
    # its colours fit the held tile and the rival alike: where they differ, half each
    torn = _logp([{a: 0.9} if a == b else {a: 0.45, b: 0.45} for a, b in zip(mine, theirs)])
    keep = [_item(c, p.tile, p.rotation) for c, p in board.tiles.items() if c != cell]
    doubt = _item(cell, held.tile, held.rotation, fit=0.7, confidence=0.5)
    given = reader._matching_neighbours(keep, [doubt], np.array([cell]), torn[None], {cell: 1.0})
    assert [(c, rd.tile, rd.rotation) for c, rd, _px in given] == [(cell, held.tile, held.rotation)]
    assert given[0][1].confidence >= 0.9
    # an empty space among tiles (its corners not tile body) is given nothing
    assert reader._matching_neighbours(keep, [doubt], np.array([cell]), torn[None], {cell: 0.5}) == []
    # nor is a cell beside two tiles only
    near = [n for n in neighbours(cell) if n in board.tiles]
    fewer = [it for it in keep if it[0] not in near[2:]]
    assert reader._matching_neighbours(fewer, [doubt], np.array([cell]), torn[None], {cell: 1.0}) == []
    # nor one whose colours clearly show the rival: the board does not overrule them
    rival = _logp(_sure(theirs))
    assert reader._matching_neighbours(keep, [doubt], np.array([cell]), rival[None], {cell: 1.0}) == []
    # the board itself is left as it was
    assert [c for c, _rd, _px in keep] == [c for c in board.tiles if c != cell]


def test_a_tile_its_colours_leave_in_doubt_is_settled_by_its_neighbours(bench_scene):
    # hard-81: 18 tiles in dim light at 43° tilt; tile 52 reads right at fit 0.72 but
    # confidence 0.32, another tile nearly as likely; among the tiles that match its three
    # neighbours it reads at 0.996 (before: left out, 17 of 18)
    path, _truth, expected = bench_scene("hard", 81)
    read = read_photo(str(path))
    assert best_alignment(expected, read)[2] == len(read) == len(expected)
