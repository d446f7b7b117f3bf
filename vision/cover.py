"""Tiles partly under a hand or an object: which corners and edges it hides, and reading a
tile from the edges that still show.

A Tantrix tile carries each of its three colours on two edges, so the five edges left
when a finger hides one always name the sixth, and the tile.  A covered tile is given
only when the edges that show leave one tile it can be; otherwise it stays unreadable, as
the referee wants rather than a guess.
"""
from __future__ import annotations

import numpy as np

from . import colours, identify
from .identify import NUMBERS, Reading
from .order_stats import median

BODY_CHROMA = 10.0
"""Chroma (Lab, against the photo's neutral point) below which a corner sample is body."""

SHOWN = 0.8
"""An edge shows its link when one colour explains its sample at least this well; a
weaker edge may be a finger's skin or an object's rim and says nothing of the tile."""

MOST_HIDDEN = 1
"""A covered tile is read from what shows only when at most this many edges are hidden:
with one hidden, the five that show always name the tile (each of its three colours is
on two edges).  (With two, hard and real-texture 0-119 gave 2 more tiles and one tile
where there was none.)"""

SURE_OF_COVERED = 0.95
"""... and the one tile its shown edges leave (among the numbers free) has at least this
posterior."""


def body_corners(corners: np.ndarray, model: colours.ColourModel,
                 cleared: np.ndarray | None = None, typical: int | None = None) -> np.ndarray:
    """Which corner samples look like the grey tile body, (N, 6) bool.

    Every Tantrix corner is body; a hand or an object over the tile shows its own colour
    there.  ``corners``: (N, 6, 3) Lab samples; ``cleared``: the same corners cleared of
    glare (``sampling.unveil``), where glare may tint them; a corner counts if either is
    body.  ``typical``: how many of the first cells are the board's, whose corners give
    the body's chroma (default all).
    """
    f = colours.features(corners, model)
    chroma = np.hypot(f[..., 0], f[..., 1])
    # most corners on a board are body: their median chroma is the body's under this
    # light (not the blobs' off the board: on a dark table most of them are table, and
    # warm-tinted bodies then looked coloured: easy-40)
    ref = chroma[:typical] if typical else chroma
    limit = max(BODY_CHROMA, 2.5 * float(median(ref))) if ref.size else BODY_CHROMA
    body = chroma < limit
    if cleared is not None:
        fc = colours.features(cleared, model)
        body |= np.hypot(fc[..., 0], fc[..., 1]) < limit
    return body


def hidden_edges(logp: np.ndarray) -> np.ndarray:
    """Edges that may be hidden, (N, 6) bool: no colour explains the sample well
    (:data:`SHOWN`).  ``logp``: (N, 6, 5) edge log-probabilities.

    (Also counting an edge hidden when a corner at either end of it is not body was
    tried: it hid edges that showed their links, and fewer covered tiles were read.)"""
    return np.exp(logp[..., :4]).max(-1) < SHOWN


NOT_BODY = 15.0
"""Lab distance from the tile bodies' colour beyond which a flank sample is not body."""

LIKE_END = 15.0
"""Lab distance within which a flank sample has the colour of the link end beside it:
one colour over both, wider than a link, is a hand's or an object's."""

FLANK_TINT = 8.0
"""Chroma (Lab a/b distance from the bodies' hue) a flank needs to be taken for a hand or
an object rather than glare."""


def covered_edges(ends: np.ndarray, flanks: np.ndarray, body: np.ndarray) -> np.ndarray:
    """Edges a hand or an object lies over, (N, 6) bool.

    ``ends``: (N, 6, 3) Lab of each edge's link end; ``flanks``: (N, 6, 2, 3) Lab on
    either side of it (``sampling.flank_cells``); ``body``: Lab (3,) of the tile bodies.
    On a tile a link's flanks are body whatever its colour; a skin-coloured finger or an
    orange pen over the edge reads as a confident link colour, but its colour runs on
    past the link's width into a flank."""
    off_body = np.linalg.norm(flanks - body, axis=-1) > NOT_BODY
    # glare is the lamp's colour, near the body's hue: a veiled edge is no cover (it is
    # cleared elsewhere); a light grey object over an edge shows no link anyway
    tinted = np.linalg.norm(flanks[..., 1:] - body[1:], axis=-1) > FLANK_TINT
    like_end = np.linalg.norm(flanks - ends[..., None, :], axis=-1) < LIKE_END
    return (off_body & tinted & like_end).any(-1)


UNSEEN = 0.15
"""An edge shows no link at all when no link colour explains its sample with this
probability (a tile's body, or an object, lies there)."""


def guessed_link(logp: np.ndarray, readings: list[tuple[int, int]]) -> np.ndarray:
    """Which readings guess a link's colour, (N,) bool.

    ``logp``: (N, 6, 5) edge log-probabilities; ``readings``: (tile, rotation) of each cell.
    A reading guesses when one of its links shows at neither end (:data:`UNSEEN`) and a
    tile with the same two other links and another colour there is free (not read by
    another cell): the colour of that link decides between the two, and nothing shows it.
    A mug's grey rim over a tile's blue corner link passed for a faint yellow one, and tile
    38 was read as 18 at 0.997 (real-texture-27).  When the other tile is read elsewhere,
    the one-of-each rule decides, and the reading stands.
    """
    out = np.zeros(len(readings), bool)
    if not readings:
        return out
    unseen = np.exp(logp[..., :4]).max(-1) < UNSEEN                       # (N, 6)
    held = np.array([tile for tile, _k in readings])
    for i, ((tile, k), u) in enumerate(zip(readings, unseen)):
        if u.sum() < 2:
            continue
        colours = identify.CANDIDATES[int(np.searchsorted(NUMBERS, tile)), k]
        others = ~np.isin(NUMBERS, held[held != tile]) & (NUMBERS != tile)
        for c in set(colours[u].tolist()):
            ends = colours == c
            # (another free tile, in any turn, that shows what this cell shows elsewhere)
            if u[ends].all() and (identify.CANDIDATES[others][:, :, ~ends] == colours[~ends]).all(-1).any():
                out[i] = True
                break
    return out


def read_shown(logp: np.ndarray, hidden: np.ndarray, taken: set[int]) -> list[Reading | None]:
    """Read cells from their shown edges only.

    ``logp``: (N, 6, 5); ``hidden``: (N, 6) bool; ``taken``: tile numbers other cells hold.
    A cell gets a :class:`Reading` (``fit``: the mean probability of its shown edges) when
    no more than :data:`MOST_HIDDEN` edges are hidden, every shown edge shows its link, and
    one tile among the free numbers explains them with :data:`SURE_OF_COVERED`; else
    ``None``.  Cells are given numbers most confident first, each number once.
    """
    n = len(logp)
    if n == 0:
        return []
    # a hidden edge says nothing: every colour explains it alike
    shown_logp = np.where(hidden[..., None], 0.0, logp)
    sc = identify.candidate_scores(shown_logp)                        # (N, 56, 6)
    free = np.array([int(t) not in taken for t in NUMBERS])
    sc = np.where(free[None, :, None], sc, -np.inf)
    flat = sc.reshape(n, -1)
    lse = identify.log_sum_exp(flat)
    best = flat.argmax(1)
    with np.errstate(invalid="ignore"):  # (every number taken: -inf - -inf, not ok below)
        conf = np.exp(flat[np.arange(n), best] - lse)
    ok = (hidden.sum(1) <= MOST_HIDDEN) & (conf >= SURE_OF_COVERED) & np.isfinite(lse)
    out: list[Reading | None] = [None] * n
    given = set(taken)
    for i in np.argsort(-conf):
        if not ok[i]:
            continue
        t, k = divmod(int(best[i]), 6)
        tile = int(NUMBERS[t])
        edges = identify.CANDIDATES[t, k]
        p = np.exp(logp[i, np.arange(6), edges])[~hidden[i]]
        if tile in given or p.min() < SHOWN:
            continue
        given.add(tile)
        out[i] = Reading(tile, k, float(conf[i]), float(p.mean()))
    return out
