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
    # two cells that both look most like tile 5: the weaker one cannot have it too; no
    # other number explains its colours (each under 1 %), so it is left without one
    # (fit 0: not given as a tile) rather than forced onto some number
    a = _logp(rotated_edges(5, 0), sure=0.99)
    b = _logp(rotated_edges(5, 0), sure=0.9)
    got = identify(np.stack([a, b]))
    assert got[0].tile == 5 and got[0].fit > 0.9
    assert got[1].fit == 0.0
    assert got[1].confidence <= 1.0
    # a cell that a second number explains well enough takes that one
    (x, kx), (y, ky), diff = _ambiguous_pair()
    c = _halfway((x, kx), (y, ky), diff)
    got = identify(np.stack([_logp(rotated_edges(x, kx), sure=0.99), c]))
    assert got[0].tile == x
    assert got[1].tile == y and got[1].fit > 0.5


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


def _ambiguous_pair():
    """Two (tile, rotation) whose edges differ on exactly two edges, and a reading of one
    with one of those edges seen as "no link" (it fits both equally)."""
    for a in TILES:
        for b in TILES:
            if b <= a:
                continue
            for k in range(6):
                ea, eb = rotated_edges(a, 0), rotated_edges(b, k)
                diff = [e for e in range(6) if ea[e] != eb[e]]
                if len(diff) == 2:
                    return (a, 0), (b, k), diff
    raise AssertionError("no pair of tiles differing on two edges")


def _halfway(first: tuple[int, int], second: tuple[int, int], diff: list[int]) -> np.ndarray:
    """Log-probs (6, 5) of tile ``first`` (number, rotation) with the two edges telling it
    from ``second`` seen so that it fits both equally: edge diff[0] unseen (black), edge
    diff[1] halfway between the two tiles' colours."""
    lp = _logp(rotated_edges(*first))
    lp[diff[0]] = np.log(np.array([0.01, 0.01, 0.01, 0.01, 0.96]))
    mixed = np.full(5, 0.02)
    mixed[CLASSES.index(rotated_edges(*first)[diff[1]])] = 0.46
    mixed[CLASSES.index(rotated_edges(*second)[diff[1]])] = 0.46
    lp[diff[1]] = np.log(mixed)
    return lp


def test_a_number_read_surely_elsewhere_is_no_rival():
    (a, ka), (b, kb), diff = _ambiguous_pair()
    lp = _halfway((a, ka), (b, kb), diff)
    alone = identify(lp[None])[0]
    assert alone.confidence < 0.6          # two tiles fit: unsure on its own
    # tile b lies clearly elsewhere on the table: this cell can only be a
    sure_b = _logp(rotated_edges(b, kb))
    got = identify(np.stack([lp, sure_b]))
    assert (got[0].tile, got[1].tile) in ((a, b), (b, a))
    cell = got[0]
    assert cell.tile == a and cell.confidence > 0.9
    assert got[1].tile == b and got[1].confidence > 0.9


def test_faint_cell_cannot_outbid_a_clear_one_for_its_number():
    # a faint cell beside the board (a red cloth seen between links) whose scores spread
    # far wider than a real tile's: without an order it outbids the clear cell for the
    # number both fit; given first, the clear cell keeps its number
    n = sorted(TILES)[0]
    clear = _logp(rotated_edges(n, 0))
    faint = 8.0 * _logp(rotated_edges(n, 0), sure=0.6)
    lp = np.stack([clear, faint])
    assert identify(lp)[1].tile == n  # the bid that the order guards against
    ordered = identify(lp, first=np.array([True, False]))
    assert (ordered[0].tile, ordered[0].rotation) == (n, 0)
    assert ordered[0].confidence > 0.9
    assert ordered[1].tile != n or ordered[1].fit == 0.0   # (no number for it: fit 0)


def test_cells_claim_numbers_round_by_round():
    # first as int rounds: a cell of a later round gets a number only if one is left, and
    # takes none it fits under 1 % (a cloth cell is not forced onto a faint tile's number)
    numbers = sorted(TILES)
    clear = [_logp(rotated_edges(n, 0)) for n in numbers[:55]]
    cloth = _logp(rotated_edges(numbers[55], 0), sure=0.4)  # fits the 56th tile, poorly
    faint = 0.5 * _logp(rotated_edges(numbers[55], 0))   # the 56th tile, read faintly
    lp = np.stack(clear + [cloth, faint])
    rounds = np.r_[np.zeros(55, int), 0, 1]
    got = identify(lp, first=rounds)
    # the cloth cell claiming with the clear ones takes the last number from the faint tile
    assert got[55].tile == numbers[55] and got[56].fit == 0.0
    rounds[55] = 2                                         # cloth claims after the faint tile
    got = identify(lp, first=rounds)
    assert (got[56].tile, got[56].rotation) == (numbers[55], 0) and got[56].confidence > 0.9
    assert got[55].fit == 0.0
    assert [g.tile for g in got[:55]] == numbers[:55]


def test_a_cell_pushed_off_its_best_number_is_judged_among_the_free_ones():
    # hard-46: a blurred yellow link read as green makes a cell fit another tile (held
    # surely by a clear cell) a little better than its own.  The assignment gives it its
    # own; its confidence is taken among the numbers not held elsewhere, and it is flagged
    (a, ka), (b, kb), diff = _ambiguous_pair()
    lp = _halfway((a, ka), (b, kb), diff)
    # tilt the ambiguous edge towards b's colour: b is the cell's best fit (~80 %)
    lp[diff[1], CLASSES.index(rotated_edges(b, kb)[diff[1]])] = np.log(0.8)
    lp[diff[1], CLASSES.index(rotated_edges(a, ka)[diff[1]])] = np.log(0.2)
    alone = identify(lp[None])[0]
    assert alone.tile == b and not alone.pushed
    got = identify(np.stack([_logp(rotated_edges(b, kb)), lp]))
    assert got[0].tile == b and not got[0].pushed
    assert (got[1].tile, got[1].rotation) == (a, ka)
    assert got[1].pushed and got[1].confidence > 0.8   # (among all 336: about 0.2)
    # without the one-number-per-tile rule nothing is pushed
    assert not any(r.pushed for r in identify(np.stack([_logp(rotated_edges(b, kb)), lp]), unique=False))


def test_a_cell_read_poorly_yields_its_number_to_one_read_cleanly():
    # video-720p-13: a lattice cell over a loose tile read it poorly in the lattice's turn
    # (fit 0.59) and, claiming in the board's round, took its number from the loose
    # tile's own hexagon, read cleanly a round later.  With ``yield_if`` the poor holder
    # claims after the clean cell instead; a holder read clearly keeps its number.
    n, other = sorted(TILES)[0], sorted(TILES)[1]
    clean = _logp(rotated_edges(n, 2))                       # the loose tile, clean
    poor = np.log(0.55 * np.exp(_logp(rotated_edges(n, 0), sure=0.9))
                  + 0.45 * np.exp(_logp(rotated_edges(other, 3), sure=0.9)))
    lp = np.stack([poor, clean])
    first = np.array([0, 1])
    plain = identify(lp, first=first)
    assert plain[0].tile == n and plain[0].fit < 0.75 and plain[1].fit == 0.0
    got = identify(lp, first=first, yield_if=(0.75, 0.9))
    assert (got[1].tile, got[1].rotation) == (n, 2) and got[1].fit > 0.9
    assert got[0].tile != n
    # a holder that reads its number clearly does not yield
    sure = identify(np.stack([_logp(rotated_edges(n, 0)), clean]), first=first,
                    yield_if=(0.75, 0.9))
    assert (sure[0].tile, sure[0].rotation) == (n, 0) and sure[1].fit == 0.0


def test_a_cell_reading_a_number_nearly_cleanly_and_better_than_its_holder_takes_it():
    # hard-48 (20 px tiles): a faint cell read tile 28 at fit 0.898, confidence 0.988 (just
    # short of clean); the clear cell beside it, whose tile is 29, read 28 as its best at
    # 0.84 / 0.77 and, claiming first, kept it: one tile wrong and one unreadable.
    n, other = sorted(TILES)[0], sorted(TILES)[1]
    near = _logp(rotated_edges(n, 2), sure=0.88)             # fit 0.88: not clean
    holder = np.log(0.8 * np.exp(_logp(rotated_edges(n, 0), sure=0.95))
                    + 0.2 * np.exp(_logp(rotated_edges(other, 3), sure=0.95)))
    first = np.array([0, 1])
    alone = identify(holder[None])[0]
    assert alone.tile == n and alone.fit < 0.88 and alone.confidence < 0.9
    got = identify(np.stack([holder, near]), first=first, yield_if=(0.75, 0.9))
    assert (got[1].tile, got[1].rotation) == (n, 2) and got[1].fit == 0.88
    assert got[0].tile != n
    # a cell reading it less well than nearly cleanly does not take it
    weak = _logp(rotated_edges(n, 2), sure=0.8)
    got = identify(np.stack([holder, weak]), first=first, yield_if=(0.75, 0.9))
    assert got[0].tile == n and got[1].fit == 0.0
    # nor does it take a number its holder was pushed to (its own best read surely elsewhere)
    m = sorted(TILES)[10]
    pushed = np.log(0.55 * np.exp(_logp(rotated_edges(m, 2), sure=0.95))
                    + 0.45 * np.exp(_logp(rotated_edges(n, 0), sure=0.95)))
    rounds = np.array([0, 0, 1])
    got = identify(np.stack([_logp(rotated_edges(m, 4)), pushed, near]), first=rounds,
                   yield_if=(0.75, 0.9))
    assert got[0].tile == m and got[1].tile == n and got[1].pushed
    assert got[1].fit < 0.88 and got[1].confidence < 0.9 and got[2].fit == 0.0
    # (a cell reading it cleanly does)
    got = identify(np.stack([_logp(rotated_edges(m, 4)), pushed, _logp(rotated_edges(n, 2))]),
                   first=rounds, yield_if=(0.75, 0.9))
    assert (got[2].tile, got[2].rotation) == (n, 2) and got[1].tile != n
