"""Random but legal Strategy positions, for tests, benchmarks and synthetic photos."""
from __future__ import annotations

import random
from itertools import chain

from .board import Board
from .gobbles import FORCED
from .moves import MoveContext


def random_position(n_tiles: int, seed: int = 0, *, max_tries: int = 20) -> Board:
    """A position of ``n_tiles`` tiles reached by legal play from an empty table.

    Tiles come from a shuffled bag; each turn fills forced spaces while some tile of the
    bag fits one (restraints respected while the bag is not empty), then makes one free
    move.  The bag counts as empty once every remaining tile is in players' hands (the
    last 24 tiles, as with four hands of six).  Deterministic for a given ``seed``; if a
    run gets stuck before ``n_tiles`` it is restarted with a derived seed.
    """
    if not 0 <= n_tiles <= 56:
        raise ValueError("n_tiles must be 0..56")
    for attempt in range(max_tries):
        board = _play(n_tiles, random.Random(seed * 1009 + attempt))
        if board is not None:
            return board
    raise RuntimeError(f"no legal {n_tiles}-tile position found from seed {seed}")


def _play(n_tiles: int, rng: random.Random) -> Board | None:
    bag = list(range(1, 57))
    rng.shuffle(bag)
    board = Board()
    while len(board) < n_tiles:
        board.bag_empty = 56 - len(board) <= 24
        ctx = MoveContext(board)
        forced = sorted(c for c, k in ctx.counts.items() if k >= FORCED)
        # forced spaces first (the first one some bag tile fills), else one free move
        fills = ([(n, cell, rot) for n in bag for rot in range(6) if ctx.check(n, cell, rot).legal]
                 for cell in forced)
        free = ([(n, c, rot) for c in ctx.candidate_cells() for rot in range(6)
                 if ctx.check(n, c, rot).legal] for n in bag)
        options = next((opts for opts in chain(fills, free) if opts), None)
        if options is None:
            return None
        n, cell, rot = rng.choice(options)
        board.place(cell, n, rot)
        bag.remove(n)
    board.bag_empty = 56 - len(board) <= 24
    return board
