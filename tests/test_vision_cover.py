"""Tiles partly covered by a hand: read from the edges that show when those name one tile,
reported unreadable otherwise."""
import numpy as np

from referee.compare import best_alignment
from referee.tiles import rotated_edges
from vision import cover, read_photo
from vision.colours import CLASSES


def _logp(tile: int, rotation: int, hidden: dict[int, str] | None = None, p: float = 0.97
          ) -> np.ndarray:
    """Edge log-probabilities (1, 6, 5) of a tile seen clearly, but for ``hidden`` edges,
    whose samples look weakly like the colour given (a finger read as yellow, say)."""
    out = np.full((6, 5), (1 - p) / 4)
    for e, colour in enumerate(rotated_edges(tile, rotation)):
        out[e, CLASSES.index(colour)] = p
    for e, colour in (hidden or {}).items():
        out[e] = 0.1
        out[e, CLASSES.index(colour)] = 0.6
    return np.log(out)[None]


def _edges_differing(a: int, b: int) -> list[int]:
    return [e for e, (x, y) in enumerate(zip(rotated_edges(a, 0), rotated_edges(b, 0))) if x != y]


def test_one_hidden_edge_leaves_one_tile_for_every_tile_and_turn():
    for tile in range(1, 57):
        for rotation in range(6):
            for e in range(6):
                wrong = next(c for c in CLASSES[:4] if c != rotated_edges(tile, rotation)[e])
                logp = _logp(tile, rotation, {e: wrong})
                hidden = cover.hidden_edges(logp)
                assert hidden[0].tolist() == [i == e for i in range(6)]
                rd = cover.read_shown(logp, hidden, set())[0]
                assert rd is not None and (rd.tile, rd.rotation) == (tile, rotation)


def test_two_hidden_edges_are_not_guessed():
    # a tile that differs from tile 1 on two edges only: with those two hidden, either
    # could lie there
    tile, other = 1, next(t for t in range(2, 57) if len(_edges_differing(1, t)) == 2)
    e1, e2 = _edges_differing(tile, other)
    logp = _logp(tile, 0, {e1: "yellow", e2: "yellow"})
    assert cover.read_shown(logp, cover.hidden_edges(logp), set()) == [None]


def test_a_number_held_elsewhere_is_not_given_to_a_covered_tile():
    logp = _logp(7, 2, {3: "red"})
    assert cover.read_shown(logp, cover.hidden_edges(logp), {7}) == [None]


def test_two_covered_cells_do_not_both_take_one_number():
    logp = np.concatenate([_logp(7, 2, {3: "red"}), _logp(7, 2, {1: "blue"})])
    got = cover.read_shown(logp, cover.hidden_edges(logp), set())
    assert sum(rd is not None for rd in got) == 1


def test_tiles_under_fingers_are_read_from_the_edges_that_show(bench_scene):
    # real-texture-52: nine tiles on a striped cloth, a hand over four of them; tiles 52
    # and 56 show five edges each, a finger over the sixth (before: both unreadable);
    # the two the hand hides more than half of are not given
    path, truth, expected = bench_scene("real-texture", 52)
    read = read_photo(str(path))
    numbers = {p.tile for p in read.tiles.values()}
    assert {52, 56} <= numbers
    assert best_alignment(expected, read)[2] == len(read)       # none given wrong
    hidden = {o["tile"] for o in truth["occluded"] if o["fraction"] > 0.5}
    assert hidden and not hidden & numbers
