"""Joint identification: all six edges at once, one tile per number, mirror images apart."""
import numpy as np

from referee.tiles import TILES, find_tile, rotated_edges
from vision.colours import CLASSES
from vision.identify import identify


def _logp(edges, sure=0.97):
    lp = np.full((6, 5), np.log((1 - sure) / 4))
    for e, c in enumerate(edges):
        lp[e, CLASSES.index(c)] = np.log(sure)
    return lp


def test_every_tile_and_rotation_is_identified():
    cells = [(n, k) for n in TILES for k in range(6)]
    for k in range(6):
        lp = np.stack([_logp(rotated_edges(n, k)) for n in TILES])
        got = identify(lp)
        assert [(g.tile, g.rotation) for g in got] == [(n, k) for n in TILES]
        assert all(g.confidence > 0.9 for g in got)
    assert len(cells) == 336


def test_mirror_image_is_a_different_tile():
    # reading a chiral tile's edges anticlockwise gives its mirror, which is another tile
    chiral = 0
    for n in TILES:
        edges = rotated_edges(n, 0)
        mirror = tuple(edges[(-i) % 6] for i in range(6))
        other = find_tile(mirror)
        assert other is not None
        got = identify(_logp(mirror)[None])[0]
        assert (got.tile, got.rotation) == other
        if other[0] != n:
            chiral += 1
    assert chiral > 20


def test_one_tile_per_number_global_assignment():
    # two cells that both look most like tile 5: the weaker one must take its second choice
    a = _logp(rotated_edges(5, 0), sure=0.99)
    b = _logp(rotated_edges(5, 0), sure=0.9)
    # make b's edge 0 slightly more like the colour that turns it into its nearest neighbour
    got = identify(np.stack([a, b]))
    assert got[0].tile == 5
    assert got[1].tile != 5
    assert got[1].confidence < got[0].confidence


def test_unclear_edges_give_low_confidence():
    edges = list(rotated_edges(12, 2))
    lp = _logp(edges)
    # two edges equally likely to be any link colour: several tiles fit
    lp[1, :4] = np.log(0.24)
    lp[4, :4] = np.log(0.24)
    got = identify(lp[None])[0]
    assert got.confidence < 0.9


def test_covered_tile_has_poor_fit():
    lp = np.log(np.full((1, 6, 5), 0.2))
    got = identify(lp)[0]
    assert got.fit < 0.5
