"""Tiles partly under a hand or an object: which corners and edges it hides, and reading a
tile from the edges that still show.

A Tantrix tile carries each of its three colours on two edges, so the five edges left
when a finger hides one always name the sixth, and the tile.  A covered tile is given
only when the edges that show leave one tile it can be; otherwise it stays unreadable, as
the referee wants rather than a guess.
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from . import colours, faces, identify
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

LEAST_EDGES_SHOWN = 4
"""... and at least this many of its edges show: a hidden edge a neighbour faces is
inferred from the game's rules, but most of the tile must be seen.  (Without it, hard-118
met a cell with every edge hidden; hard-92 gave two tiles wrong, read mostly from their
neighbours.)"""

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
    chroma = colours.scaled_chroma(corners, model)
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

LIKE_END_SHARE = 0.5
"""... or lies within :data:`LIKE_END` of the line from the bodies' colour to the link
end's, at least this share of the way to the end: a finger's blurred side across the
flank mixes its skin with the body (real-texture-46's tile 20: a flank of L 136 beside a
skin-lit end of L 188, same hue, two-thirds of the way from the body's colour).  A
link's own colour does not spill so far past its width.  Asked for only on cells that
read no tile without it (``covered_edges(mixed=True)``, see
``reader._read_through_cover``): it also flags edges beside a cover that the cell reads
well without."""

FLANK_TINT = 8.0
"""Chroma (Lab a/b distance from the bodies' hue) a flank needs to be taken for a hand or
an object rather than glare."""


def covered_edges(ends: np.ndarray, flanks: np.ndarray, body: np.ndarray,
                  mixed: bool = False) -> np.ndarray:
    """Edges a hand or an object lies over, (N, 6) bool.

    ``ends``: (N, 6, 3) Lab of each edge's link end; ``flanks``: (N, 6, 2, 3) Lab on
    either side of it (``sampling.flank_cells``); ``body``: Lab (3,) of the tile bodies.
    On a tile a link's flanks are body whatever its colour; a skin-coloured finger or an
    orange pen over the edge reads as a confident link colour, but its colour runs on
    past the link's width into a flank.  ``mixed``: a flank that mixes the end's colour
    with the body's (:data:`LIKE_END_SHARE`) counts too."""
    off_body = np.linalg.norm(flanks - body, axis=-1) > NOT_BODY
    # glare is the lamp's colour, near the body's hue: a veiled edge is no cover (it is
    # cleared elsewhere); a light grey object over an edge shows no link anyway
    tinted = np.linalg.norm(flanks[..., 1:] - body[1:], axis=-1) > FLANK_TINT
    like_end = np.linalg.norm(flanks - ends[..., None, :], axis=-1) < LIKE_END
    if not mixed:
        return (off_body & tinted & like_end).any(-1)
    d = (ends - body)[..., None, :]
    f = flanks - body
    share = (f * d).sum(-1) / np.maximum((d * d).sum(-1), 1e-6)
    mix = (share >= LIKE_END_SHARE) & (np.linalg.norm(f - np.clip(share, 0.0, 1.0)[..., None] * d,
                                                      axis=-1) < LIKE_END)
    return (off_body & tinted & (like_end | mix)).any(-1)


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


def shown_posteriors(logp: np.ndarray, hidden: np.ndarray, taken: set[int],
                     facing: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Posterior (N, 56 * 6) of each (tile index, rotation) candidate given a cell's shown
    edges only, among the free numbers and the colours neighbours bring to its hidden
    edges, and the number of hidden edges no neighbour faces (N,); arguments as
    :func:`read_shown`.  A cell no candidate explains gets zeros."""
    n = len(logp)
    if facing is None:
        facing = np.full((n, 6), -1)
    inferred = hidden & (facing >= 0)
    # a hidden edge says nothing: every colour explains it alike
    shown_logp = np.where(hidden[..., None], 0.0, logp)
    sc = identify.candidate_scores(shown_logp)                        # (N, 56, 6)
    free = np.array([int(t) not in taken for t in NUMBERS])
    # (an inferred edge allows only the candidates with the neighbour's colour there)
    agree = ((identify.CANDIDATES[None] == facing[:, None, None, :])
             | ~inferred[:, None, None, :]).all(-1)                   # (N, 56, 6)
    flat = np.where(free[None, :, None] & agree, sc, -np.inf).reshape(n, -1)
    lse = identify.log_sum_exp(flat)
    with np.errstate(invalid="ignore"):  # (every candidate ruled out: -inf - -inf)
        post = np.nan_to_num(np.exp(flat - lse[:, None]))
    return post, (hidden & ~inferred).sum(1)


def _shown_edge_probs(logp: np.ndarray, hidden: np.ndarray, t: int, k: int) -> np.ndarray:
    """Probability of each shown edge's colour under candidate (tile index ``t``, rotation
    ``k``) for one cell: ``logp`` (6, 5), ``hidden`` (6,) bool."""
    return np.exp(logp[np.arange(6), identify.CANDIDATES[t, k]])[~hidden]


def read_shown(logp: np.ndarray, hidden: np.ndarray, taken: set[int],
               facing: np.ndarray | None = None) -> list[Reading | None]:
    """Read cells from their shown edges only.

    ``logp``: (N, 6, 5); ``hidden``: (N, 6) bool; ``taken``: tile numbers other cells hold;
    ``facing``: (N, 6) int, the colour (index into ``colours.CLASSES``) of the link a tile
    read beside each edge brings to it, -1 where none does.  A hidden edge that a
    neighbour faces is taken to carry that neighbour's colour, as a finished Tantrix's
    edges do; a shown edge is judged by the photo alone, so a real mismatch still shows.
    A cell gets a :class:`Reading` (``fit``: the mean probability of its shown edges) when
    no more than :data:`MOST_HIDDEN` edges are hidden with no neighbour facing them, every
    shown edge shows its link, and one tile among the free numbers explains them with
    :data:`SURE_OF_COVERED`; else ``None``.  Cells are given numbers most confident first,
    each number once.
    """
    n = len(logp)
    if n == 0:
        return []
    post, unknown = shown_posteriors(logp, hidden, taken, facing)
    best = post.argmax(1)
    conf = post[np.arange(n), best]
    ok = ((unknown <= MOST_HIDDEN) & ((~hidden).sum(1) >= LEAST_EDGES_SHOWN)
          & (conf >= SURE_OF_COVERED))
    out: list[Reading | None] = [None] * n
    given = set(taken)
    for i in np.argsort(-conf):
        if not ok[i]:
            continue
        t, k = divmod(int(best[i]), 6)
        tile = int(NUMBERS[t])
        p = _shown_edge_probs(logp[i], hidden[i], t, k)
        if tile in given or p.min() < SHOWN:
            continue
        given.add(tile)
        out[i] = Reading(tile, k, float(conf[i]), float(p.mean()), covered=True)
    return out


RIVAL = 0.02
"""A candidate whose shown-edge posterior is below this is no rival (:func:`settle_by_paths`)."""

MOST_RIVALS = 3
"""Most tiles the shown edges may leave for the paths to choose among (hard-92: four left,
the paths favoured a wrong one)."""

PATH_MARGIN = 0.15
"""The share of its link paths (``faces.link_shares``, mean of three) by which the tile a
covered cell's paths favour must beat each rival the edges leave."""


def settle_by_paths(logp: np.ndarray, hidden: np.ndarray, taken: set[int], facing: np.ndarray,
                    under_cover: np.ndarray,
                    shares: Callable[[int, list[tuple[int, int]]], np.ndarray]
                    ) -> list[Reading | None]:
    """Cells whose shown edges leave two to :data:`MOST_RIVALS` tiles, told apart by
    the paths their links take across the face.

    Two tiles whose edges differ only where a cover hides them, or where a link end reads
    halfway between two colours, still differ in where their links run: a sharp curve, a
    gentle one or a straight line.  ``shares(i, placements)`` gives the share of each of
    the three paths of each (tile number, rotation) placed on cell ``i`` that shows its
    link's colour surely (len(placements), 3): a point a colour explains only weakly may be
    a hand's skin, which reads as a faint yellow or red, and would lend a rival the link
    the hand hides (the rendered hand scene of ``test_covered_tile_is_not_guessed``: tile
    24's green link under the hand, its rival 2's yellow one "shown" by the skin).  A
    cell is read when its rivals hold :data:`SURE_OF_COVERED` of the posterior together,
    no more than ``MOST_HIDDEN + 1`` edges are hidden with no neighbour facing them (the
    one more only when a cover lies over it, ``under_cover`` (N, 6) bool: an edge merely
    faint may be a patch of cloth, real-texture-145), and one rival's paths show at least
    :data:`PATH_MARGIN` more than each other's, every one of its paths showing
    (``faces.LEAST_SHOWN``) and its shown edges showing their links; its confidence is
    the rivals' joint posterior.  Other arguments as :func:`read_shown`.
    """
    out: list[Reading | None] = [None] * len(logp)
    if len(logp) == 0:
        return out
    post, unknown = shown_posteriors(logp, hidden, taken, facing)
    faint = (hidden & (facing < 0) & ~under_cover).sum(1)
    for i in range(len(logp)):
        order = np.argsort(-post[i])[:MOST_RIVALS]
        rivals = [int(c) for c in order if post[i, c] >= RIVAL]
        held = float(post[i, rivals].sum())
        if (len(rivals) < 2 or held < SURE_OF_COVERED or unknown[i] > MOST_HIDDEN + 1
                or faint[i] > MOST_HIDDEN or (~hidden[i]).sum() < LEAST_EDGES_SHOWN):
            continue
        placed = [(int(NUMBERS[c // 6]), c % 6) for c in rivals]
        sh = np.asarray(shares(i, placed))
        score = sh.mean(1)
        b = int(score.argmax())
        p = _shown_edge_probs(logp[i], hidden[i], *divmod(rivals[b], 6))
        if (np.delete(score, b) > score[b] - PATH_MARGIN).any() or sh[b].min() < faces.LEAST_SHOWN \
                or p.min() < SHOWN:
            continue
        out[i] = Reading(placed[b][0], placed[b][1], held, float(p.mean()), covered=True)
    return out
