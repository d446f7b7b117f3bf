"""A patch of doubtful cells side by side, read together against the board round it.

A glare spot over the middle of a board washes out several touching tiles at once.  Read
one by one (``reader._matching_neighbours``), each has too few clear neighbours to be
settled by them.  Read together, every tile of the patch must be a free number, match the
board round the patch and match its partners on every edge they share (the golden rule),
and each must be one its own colours allow.  When one joint reading explains the patch's
colours far better than every other that fits, it is taken.

Only cells that show a tile's body and that no reading settles come here; a real colour
mismatch on a tile read clearly is never touched.  A patch whose cells admit no joint
reading that fits (a mismatch under the glare, a hole) is left unread.
"""
from __future__ import annotations

import numpy as np

from referee.board import Board
from referee.hexgrid import Cell, components, neighbours
from referee.matching import facing_colours, fits
from referee.tiles import rotated_edges

from . import identify
from .identify import NUMBERS

PATCH_CELLS = 6
"""Largest patch read jointly (more cells: too many joint readings to weigh)."""

PATCH_LEAST = 2
"""Smallest patch read jointly.  A glared cell alone is ``reader._matching_neighbours``'
to settle, which asks more of it (four touching edges, its own colours favouring the
tile at 0.1): read here, single cells beside boards were given tiles where none lay (hard
and real-texture 120-199: hard-121, -161, real-texture-185, a tile each)."""

PATCH_OWN = 1e-3
"""Least posterior (among all 336 candidates, on the cell's own colours) a tile must have
to be tried on a cell of a patch: the board may only choose among tiles the colours allow."""

PATCH_LEAD = 0.015
"""A patch is read only when one of its cells favours a free tile at least this much on its
own colours: cells whose colours favour nothing (video-720p-8: sixteen cells by a dark
table's edges, none over 0.008) are no washed tiles, and weighing their joint readings took
0.27 s.  hard-1's patches: 0.33 and 0.03 at most on a cell; a thin margin."""

PATCH_SURE = 0.9
"""Least posterior of the best joint reading among all joint readings that fit."""

PATCH_TOUCHING = 3
"""Least edges the patch must share with the board round it (a patch alone at the rim is
read by its colours only, which glare spoils)."""

PATCH_NODES = 1000
"""Search steps allowed per patch; a patch that needs more is left unread."""

NEGLIGIBLE = 20.0
"""Joint readings this far (log) below the best found are not followed: together they
weigh nothing against it."""

EDGES = [[rotated_edges(int(n), k) for k in range(6)] for n in NUMBERS]
"""Edge colours of tile index i turned k: ``EDGES[i][k]``."""


def read_patches(board: Board, cells: list[Cell], logp: dict[Cell, np.ndarray]
                 ) -> dict[Cell, identify.Reading]:
    """Joint readings of the patches (connected groups) of ``cells`` beside ``board``.

    ``logp``: cell → its (6, 5) edge log-probabilities.  Returns cell → reading
    (``confidence``: the tile's marginal posterior over the joint readings that fit;
    ``fit``: the mean probability of the cell's own edge colours) for the cells read;
    ``board`` is not changed.
    """
    board = board.copy()
    out: dict[Cell, identify.Reading] = {}
    for patch in components(list(cells)):
        if not PATCH_LEAST <= len(patch) <= PATCH_CELLS:
            continue
        found = _read_patch(board, sorted(patch), logp)
        for cell, (t, k, post) in found.items():
            fit = float(identify.edge_fit(logp[cell][None], np.array([t]), np.array([k]))[0])
            out[cell] = identify.Reading(int(NUMBERS[t]), k, post, fit)
            board.place(cell, int(NUMBERS[t]), k)
    return out


def _candidates(logp: np.ndarray, used: set[int]) -> list[tuple[int, int, float]]:
    """(tile index, rotation, log posterior among 336) a cell may hold, best first."""
    sc = identify.candidate_scores(logp[None])[0]                      # (56, 6)
    post = sc - identify.log_sum_exp(sc.reshape(1, -1))[0]
    floor = np.log(PATCH_OWN)
    ok = np.argwhere(post >= floor)
    out = [(int(t), int(k), float(post[t, k])) for t, k in ok if int(NUMBERS[t]) not in used]
    return sorted(out, key=lambda c: -c[2])


def _read_patch(board: Board, patch: list[Cell], logp: dict[Cell, np.ndarray]
                ) -> dict[Cell, tuple[int, int, float]]:
    """The cells of one patch read jointly, {cell: (tile index, rotation, posterior)}: those
    whose tile in the best joint reading has a marginal posterior of :data:`PATCH_SURE`.

    A cell may also be left unread, at the score of a tile at :data:`PATCH_OWN` that
    matches anything: a tile too washed out to name (or a real mismatch) leaves the rest of
    the patch to be read, and a joint reading must beat that to be believed."""
    used = {p.tile for p in board.tiles.values()}
    cands = {c: _candidates(logp[c], used) for c in patch}
    if not any(v and v[0][2] >= np.log(PATCH_LEAD) for v in cands.values()):
        return {}
    skip = float(np.log(PATCH_OWN))
    found: list[tuple[float, dict]] = []
    nodes = 0
    chosen: dict[Cell, tuple[int, int, float] | None] = {}

    def allowed(cell: Cell) -> list[tuple[int, int, float]]:
        facing = facing_colours(board, cell)
        taken = {board.tiles[c].tile for c, v in chosen.items() if v is not None}
        return [c for c in cands[cell]
                if int(NUMBERS[c[0]]) not in taken and fits(EDGES[c[0]][c[1]], facing) is None]

    # (the most each cell can add: its best tile, never under leaving it unread)
    most = {c: cands[c][0][2] if cands[c] else skip for c in patch}
    top = -np.inf

    def search(total: float) -> bool:
        nonlocal nodes, top
        nodes += 1
        if nodes > PATCH_NODES:
            return False
        left = [c for c in patch if c not in chosen]
        if total + sum(most[c] for c in left) < top - NEGLIGIBLE:
            return True
        if not left:
            found.append((total, dict(chosen)))
            top = max(top, total)
            return True
        # the cell with the fewest tiles allowed next: a dead end shows soonest
        options = {c: allowed(c) for c in left}
        cell = min(left, key=lambda c: (len(options[c]), c))
        for t, k, lp in options[cell]:
            chosen[cell] = (t, k, lp)
            board.place(cell, int(NUMBERS[t]), k)
            go = search(total + lp)
            board.remove(cell)
            del chosen[cell]
            if not go:
                return False
        chosen[cell] = None
        go = search(total + skip)
        del chosen[cell]
        return go

    if not search(0.0):
        return {}
    totals = np.array([t for t, _ in found])
    weights = np.exp(totals - identify.log_sum_exp(totals[None])[0])
    best = found[int(totals.argmax())][1]
    out = {}
    for cell, pick in best.items():
        if pick is None:
            continue
        marginal = float(sum(w for w, (_t, ch) in zip(weights, found)
                             if ch[cell] is not None and ch[cell][:2] == pick[:2]))
        if marginal >= PATCH_SURE:
            out[cell] = (pick[0], pick[1], marginal)
    outside = sum(n in board.tiles for c in out for n in neighbours(c))
    return out if outside >= PATCH_TOUCHING else {}
