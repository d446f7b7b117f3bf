"""Which tile and rotation each cell holds, from all six edge colours at once.

Each candidate (tile, rotation) is scored by the summed log-probability of its six edge
colours; a photo holds each tile number at most once, so numbers are given to cells by a
global assignment (Hungarian algorithm) on those scores.  Reading is done clockwise in a
frame without reflection, so a chiral tile is never confused with its mirror image by
construction; a confidence per cell says how sure the choice is.  No neighbour
information is used: a real colour mismatch on the table stays visible to the referee.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linear_sum_assignment

from referee.tiles import COLOURS, TILES, rotated_edges

from .colours import CLASSES

NUMBERS = np.array(sorted(TILES))
"""Tile numbers 1..56 in candidate order."""

CANDIDATES = np.array([[CLASSES.index(c) for c in rotated_edges(int(n), k)]
                       for n in NUMBERS for k in range(6)], np.int64).reshape(len(NUMBERS), 6, 6)
"""Class index of edge e for tile i (index into NUMBERS), rotation k: ``[i, k, e]``."""

assert COLOURS == CLASSES[:4]


@dataclass
class Reading:
    """Identification of one cell: tile number, rotation, confidence and fit.

    ``confidence`` is the posterior of the chosen (tile, rotation) among the candidates
    whose numbers no other cell holds surely; ``fit`` the mean probability of the chosen
    edge colours (low when the tile is covered); ``pushed``: the assignment gave the cell
    another number than the one its colours fit best (that one is held elsewhere), so a
    read with many such cells is doubtful (``second_look.wanted``) and such a cell is never
    given as a loose tile; ``covered``: read from the edges a cover leaves showing
    (``cover.read_shown``, ``cover.settle_by_paths``); a read giving such a tile while its
    tile mask lies under fewer cells than it read tiles is read again
    (``second_look.wanted``).
    """

    tile: int
    rotation: int
    confidence: float
    fit: float
    pushed: bool = False
    covered: bool = False


CLEAN_FIT = 0.9
CLEAN_CONFIDENCE = 0.95
"""A reading with this fit and confidence showed every edge clearly (:func:`clean`)."""


NEARLY_CLEAN_FIT = 0.85
"""A cell reading a tile number this well (and :data:`CLEAN_CONFIDENCE`), and better on
both counts than the earlier-round cell holding it as its own best number, also takes it
(:func:`_yielding`): of two cells that both read tile N, the one that reads it better is
it (hard-48, 20 px tiles: a faint cell read tile 28 at fit 0.898 and confidence 0.988;
the clear cell beside it, whose tile is 29, held 28 at 0.84 and 0.77 and was read wrong
while the faint one was left without a number)."""


def clean(rd: Reading) -> bool:
    """Does a reading show every edge clearly?  Such a tile stands even with glare on half
    its corners, and a lone one needs no second look."""
    return bool(_clean(rd.fit, rd.confidence))


def _clean(fit: np.ndarray | float, confidence: np.ndarray | float, least_fit: float = CLEAN_FIT
           ) -> np.ndarray | bool:
    """:func:`clean` of fits and confidences, elementwise (nearly clean with ``least_fit``
    :data:`NEARLY_CLEAN_FIT`)."""
    return (fit >= least_fit) & (confidence >= CLEAN_CONFIDENCE)


_EDGE_CLASS = (np.arange(6)[:, None] * 5 + CANDIDATES.reshape(-1, 6).T)
"""(6, 336): index into a cell's flattened (6 edges x 5 classes) log-probs of edge e's
class for each candidate (tile, rotation)."""


def candidate_scores(logp: np.ndarray) -> np.ndarray:
    """(N, 6, 5) edge log-probs → (N, 56, 6) candidate log-likelihoods."""
    # logp[n, e, CANDIDATES[i, k, e]] summed over e in edge order, as a sum along a last
    # axis of 6 adds (the same values; a third faster than reducing an (N, 56, 6, 6) array)
    g = logp.reshape(len(logp), 30)[:, _EDGE_CLASS]
    out = g[:, 0]
    for e in range(1, 6):
        out = out + g[:, e]
    return out.reshape(len(logp), len(NUMBERS), 6)


CLAIM = 0.01
"""A cell takes a tile number only if that tile explains its colours at least this well
(posterior among the 336): a cell that fits no free number is left without one, not
forced onto some number that a tile read later (a faint cell) would need."""


def log_sum_exp(x: np.ndarray) -> np.ndarray:
    """log(sum(exp(x))) along the last axis, (N, M) → (N,); a row of -inf gives -inf.

    (The largest term taken out first: four times as fast as ``np.logaddexp.reduce`` over
    the 336 candidates, which ran a dozen times a frame; equal to within 1e-14.)
    """
    m = x.max(-1, keepdims=True)
    m[~np.isfinite(m)] = 0.0
    with np.errstate(divide="ignore"):
        return (m + np.log(np.exp(x - m).sum(-1, keepdims=True)))[:, 0]


SURE = 0.9
"""A cell read at least this confidently holds its tile number: no other cell can."""


def _lse_without_taken(flat: np.ndarray, choice: np.ndarray, sure: np.ndarray, spare: np.ndarray
                       ) -> np.ndarray:
    """Per cell, log-sum-exp of its candidate scores over the numbers still free for it.

    A number read surely elsewhere is not a rival for this cell (there is one tile of each
    number), so a cell whose colours fit its tile and a tile already on the table equally
    well is not called unsure.  ``flat``: (N, 56*6) candidate scores.
    """
    n = flat.shape[0]
    taken = np.zeros((n, len(NUMBERS)), bool)
    holders = np.nonzero(sure & ~spare)[0]
    # (holders hold distinct numbers: the assignment gave each number once)
    taken[:, choice[holders]] = True
    taken[holders, choice[holders]] = False
    masked = np.where(np.repeat(taken, 6, axis=1), -np.inf, flat)
    return log_sum_exp(masked)


def identify(logp: np.ndarray, unique: bool = True, first: np.ndarray | None = None,
             last_if: tuple[float, float] | None = None,
             yield_if: tuple[float, float] | None = None) -> list[Reading]:
    """Identify N cells from their edge log-probabilities ``logp`` (N, 6, 5).

    With ``unique`` each tile number goes to at most one cell; with more than 56 cells the
    cells left over get ``fit`` 0 (they cannot all be tiles); and a cell's confidence is
    taken among the numbers not read surely (``SURE``) on another cell.  ``first`` (N,)
    bool: cells given their numbers before the others (clear cells before faint ones
    beside the board: a faint cell on a red cloth fits the tiles with many red edges far
    better than the others, and could otherwise outbid a tile read cleanly for its number);
    or (N,) int: cells claim numbers in rounds, lowest first.  ``last_if`` = (fit,
    confidence): cells whose own best tile fits under that fit or that confidence claim
    after all the others (colours no tile explains: a patch of patterned cloth under the
    lattice; a cloth of coloured dots can put more such cells there than there are
    numbers, and claiming first they left the tiles read faintly without one).
    ``yield_if`` = (fit, confidence): a cell left without the number its colours fit
    cleanly (:func:`clean`; or nearly, read better than its holder reads it as its own
    best) takes it from a cell of an earlier round that holds it read under that fit or
    that confidence, which then claims after it (see :func:`_yielding`).
    """
    n = logp.shape[0]
    if n == 0:
        return []
    sc = candidate_scores(logp)                      # (N, 56, 6)
    best_rot = sc.argmax(-1)                         # (N, 56)
    best = np.take_along_axis(sc, best_rot[..., None], -1)[..., 0]  # (N, 56)
    flat = sc.reshape(n, -1)
    lse = log_sum_exp(flat)
    choice = best.argmax(1)
    own = choice.copy()
    spare = np.zeros(n, bool)
    if unique:
        # more cells than tile numbers: the cells left without a number are not tiles
        spare[:] = True
        floor = lse + np.log(CLAIM)
        rounds = np.zeros(n, int) if first is None else _rounds(first)
        if last_if is not None or yield_if is not None:
            own_rot = best_rot[np.arange(n), own]
            own_conf = np.exp(best[np.arange(n), own] - lse)
            own_fit = edge_fit(logp, own, own_rot)
        if last_if is not None:
            unfit = (own_fit < last_if[0]) | (own_conf < last_if[1])
            rounds = rounds + 2 * unfit
        given = _assign(best, floor, rounds)
        if yield_if is not None:
            later = _yielding(given, logp, best, best_rot, lse, own, own_fit, own_conf,
                              rounds, yield_if)
            if later is not None:
                given = _assign(best, floor, later)
        for rows, cols in given:
            spare[rows] = False
            choice[rows] = cols
    conf_all = np.exp(best[np.arange(n), choice] - lse)
    if unique:
        # (a cell left without a number keeps its posterior among all 336; a cell pushed
        # off its own best number by a sure holder of it is judged among the numbers left,
        # and flagged ``pushed``: hard-46, blurred yellow links read green, where four
        # tiles' best numbers were held by clear cells and the next were right)
        lse = np.where(~spare, _lse_without_taken(flat, choice, conf_all >= SURE, spare), lse)
    # every cell at once (this runs several times a frame; a loop over cells cost ~5 ms)
    rows = np.arange(n)
    rot = best_rot[rows, choice]
    conf = np.exp(sc[rows, choice, rot] - lse)
    fit = edge_fit(logp, choice, rot)
    fit[spare] = 0.0
    tiles = NUMBERS[choice]
    pushed = (choice != own) & ~spare
    return [Reading(int(t), int(k), float(c), float(f), bool(p))
            for t, k, c, f, p in zip(tiles.tolist(), rot.tolist(), conf.tolist(), fit.tolist(),
                                     pushed.tolist())]


def _yielding(given: list, logp: np.ndarray, best: np.ndarray, best_rot: np.ndarray,
              lse: np.ndarray, own: np.ndarray, own_fit: np.ndarray, own_conf: np.ndarray,
              rounds: np.ndarray, bar: tuple[float, float]) -> np.ndarray | None:
    """The claiming rounds (N,) again, when cells that fit a number cleanly (or nearly,
    :data:`NEARLY_CLEAN_FIT`) were left without it by cells of earlier rounds holding it
    under ``bar`` = (fit, confidence); each such holder then claims in the round after the
    clean cell's.  ``None`` when there are none.  ``given``: :func:`_assign`'s answer on
    ``rounds``; ``best``, ``best_rot`` (N, 56), ``lse`` (N,): the cells' best score and
    rotation per number and the log-sum of all their scores; ``own`` (N,) each cell's best
    number (index), ``own_fit`` and ``own_conf`` its reading of it.

    The rounds let the board's clear cells claim before faint cells and loose tiles; but
    a board cell read poorly (a tile under a hand, at fit 0.59) took tile 50's number from
    a loose tile read at fit 0.97 and confidence 0.9999 (video-720p-13), which was then
    given as nothing, while the cell stayed unreadable anyway."""
    n = len(own)
    choice = np.full(n, -1)
    for rows, cols in given:
        choice[rows] = cols
    holder = {int(c): int(r) for r, c in enumerate(choice) if c >= 0}
    later = rounds.copy()
    clean = _clean(own_fit, own_conf)
    # (clean cells are nearly clean too)
    for r in np.nonzero(_clean(own_fit, own_conf, NEARLY_CLEAN_FIT) & (choice != own))[0]:
        h = holder.get(int(own[r]))
        if h is None or rounds[h] >= rounds[r]:
            continue
        c = choice[h]
        fit = edge_fit(logp[h:h + 1], np.array([c]), best_rot[h:h + 1, c])[0]
        conf = np.exp(best[h, c] - lse[h])
        if not clean[r] and not (own[h] == c and own_fit[r] > fit and own_conf[r] > conf):
            # (nearly clean: only against a holder of its own best number, read worse; a
            # holder pushed to this number is no rival reading of it, and a tile-sized
            # spot on hard-11's floral cloth took one's number so, as an invented tile)
            continue
        if fit < bar[0] or conf < bar[1]:
            later[h] = max(later[h], rounds[r] + 1)
    return None if (later == rounds).all() else later


def identify_among(logp: np.ndarray, allowed: np.ndarray) -> tuple[Reading, float] | None:
    """Read one cell among some candidates only: ``logp`` (6, 5) its edge log-probabilities,
    ``allowed`` (56, 6) bool the (tile index, rotation) candidates it may be.

    Returns the best allowed candidate as a :class:`Reading` (``confidence``: its posterior
    among the allowed; ``fit``: the mean probability of its six edge colours) and its
    posterior among all 336 candidates (how much the cell's own colours favour it), or
    ``None`` when nothing is allowed.
    """
    if not allowed.any():
        return None
    sc = candidate_scores(logp[None])[0]                               # (56, 6)
    among = np.where(allowed, sc, -np.inf).reshape(1, -1)
    best = int(among.argmax())
    t, k = divmod(best, 6)
    top = among[0, best]
    confidence = float(np.exp(top - log_sum_exp(among)[0]))
    own = float(np.exp(top - log_sum_exp(sc.reshape(1, -1))[0]))
    fit = float(edge_fit(logp[None], np.array([t]), np.array([k]))[0])
    return Reading(int(NUMBERS[t]), k, confidence, fit), own


def edge_fit(logp: np.ndarray, choice: np.ndarray, rot: np.ndarray) -> np.ndarray:
    """Mean probability (N,) of each cell's edges being the colours of tile index
    ``choice`` turned ``rot``."""
    edges = CANDIDATES[choice, rot]                                   # (N, 6)
    return np.exp(logp[np.arange(len(choice))[:, None], np.arange(6)[None, :], edges]).mean(1)


def _rounds(first: np.ndarray) -> np.ndarray:
    """:func:`identify`'s ``first`` as a round per cell: bool (``True`` first) or int."""
    first = np.asarray(first)
    return (~first).astype(int) if first.dtype == bool else first.astype(int)


def _assign(best: np.ndarray, floor: np.ndarray, rounds: np.ndarray
            ) -> list[tuple[np.ndarray, np.ndarray]]:
    """Global assignment of numbers (columns of ``best``, (N, 56)) to cells, round by round
    (``rounds`` (N,) int, lowest first); [(cell indices, number indices)] per round.  A cell
    takes no number rather than one it scores under its ``floor`` (N,) (see :data:`CLAIM`):
    each cell also has a "none" column worth its floor."""
    out = []
    free = np.arange(best.shape[1])
    for k in np.unique(rounds):
        group = np.nonzero(rounds == k)[0]
        if len(free) == 0:
            continue
        none = np.full((len(group), len(group)), -1e12)
        np.fill_diagonal(none, floor[group])
        rows, cols = linear_sum_assignment(-np.hstack([best[group][:, free], none]))
        real = cols < len(free)
        rows, cols = rows[real], cols[real]
        out.append((group[rows], free[cols]))
        # (the numbers given out are struck from the free ones, which stay in order)
        left = np.ones(len(free), bool)
        left[cols] = False
        free = free[left]
    return out


_INDEX = {int(n): i for i, n in enumerate(NUMBERS)}
"""Tile number → its index in :data:`NUMBERS` (and :data:`CANDIDATES`)."""


def edge_labels(readings: list[Reading]) -> np.ndarray:
    """(N, 6) class index of every edge of the identified tiles."""
    if not readings:
        return np.zeros((0, 6), np.int64)
    return CANDIDATES[[_INDEX[r.tile] for r in readings], [r.rotation for r in readings]]
