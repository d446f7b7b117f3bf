"""Boards without green or without blue links.

Puzzles are often laid with tiles of three colours (the Discovery puzzles' tiles carry red,
yellow and blue only).  Learning four link colours from such a photo can split its one
blue cluster between green and blue: the real blue links of one of the two real editions
are light and pale, and glare or a warm lamp leaves them halfway between the two
prototypes, so the lighter half was read green and a tile's blue pair gave another valid
tile (carpet13 under a glare spot: 4 of 12 tiles wrong, none flagged; under a strong warm
cast, 8 of 12).

When the learnt green and blue sit on one cluster (:func:`one_cluster`), the photo is
also read as if it lacked green and as if it lacked blue, and :func:`best` keeps the
model that explains the cells' colours best.  Green and blue only: red and yellow are
far apart in hue and lightness from every other link colour.

The opposite happens too: under a warm lamp the camera did not balance, blue links come
out nearly grey, nearer green's hue than blue's prototype.  Green then takes them all and
blue names nothing (:func:`unused`); the green cluster is split in two by hue
(:func:`split`) and kept split when its cells' tiles explain their colours clearly better
(:func:`split_wins`).

A third colour nearer green's hue than blue's may still be blue: over-exposed, or under a
tungsten lamp, the pale blue links of carpet13 (a Discovery puzzle of tiles 1 to 12) sit
27° from green's prototype and 119° from blue's, and every tile was read as its green
twin (15 to 35), confidently.  The colours cannot tell; the tile numbers can.  Tiles 1 to
14 are the set's only tiles without green, and a Discovery puzzle of up to 14 tiles uses
exactly tiles 1 to N (``RULES.md``): when the model that names the third colour green
reads the cells as no such run, and the model without green reads them as tiles 1 to N
(N ≥ :data:`DISCOVERY_MIN`, one of them perhaps missing),
the third colour is named blue instead (:func:`as_blue`, :func:`discovery_run`).  The
numbers tell only where a run could have failed: any 13 of the 14 tiles without blue,
read as their twins, are tiles 1 to 14 but for one, so a finished Tantrix Solitaire game
in red, yellow and green was read as a Discovery puzzle, every tile wrong.  A run of more
than :data:`CHANCE_RUN` numbers renames the colour only when its hue leans from green's
towards blue's (:func:`blue_run`).  Blue
links over-exposed in part split the same way into two clusters, the bright one named
green (discovery10 brightened 1.6 times: tiles 5 and 9 read as 15 and 34): when the
cells read mostly as tiles without green, the model without green reads them as a
Discovery puzzle, and the four-colour model does not make them likelier by its price
(:func:`needless`), the photo is read without green.  A tile with real green links
among a Discovery puzzle's (a wrong tile laid) keeps the fourth colour: without it, its
two green edges are explained by nothing, unless they are as light as the yellow links,
which no green link is (:func:`washed_green`: one tile's blue pair under glare).  A
Discovery puzzle whose clear cells show no green at all is read without green to the end
(:func:`green_unnamed`), so that a doubtful cell read later (a tile under glare, read
among the tiles that match its neighbours) cannot take a green twin.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from referee.tiles import TILES

from . import colours, identify

YELLOW = colours.CLASSES.index("yellow")
GREEN = colours.CLASSES.index("green")
BLUE = colours.CLASSES.index("blue")

ONE_CLUSTER = 30.0
"""Learnt green and blue means closer than this in a/b (feature units, see
``colours.features``) describe one cluster (the prototypes are 74 apart).  Four-colour
boards come this close on a few photos (8 of the first 116 hard photos, 3 of 200
real-texture ones, at 12-29, mostly on looks that read a cloth), where the four-colour
model then kept its lead."""

FEWER_COLOURS = 1.5
"""The four-colour model must explain the cells better by this many times the log of the
number of edge samples (log-likelihood): the Bayesian information criterion's price of
the three numbers (a, b, L) the extra colour's mean adds.  (A fixed lead of 3 left
carpet13 under a strong warm cast split, 3 of 12 right: its pale blue links lie as far in
hue from the blue prototype as from the green one.)"""


def _price(edges: np.ndarray) -> float:
    """The lead (log-likelihood) a fourth colour must win on edge samples ``edges``
    (N, 6, 3): :data:`FEWER_COLOURS` times the log of their number."""
    return FEWER_COLOURS * float(np.log(max(edges.shape[0] * edges.shape[1], 1)))


def one_cluster(model: colours.ColourModel) -> bool:
    """Do the learnt green and blue of ``model`` describe one colour cluster?"""
    return model.absent is None and bool(
        np.hypot(*(model.means[GREEN, :2] - model.means[BLUE, :2])) < ONE_CLUSTER)


UNUSED = 0.03
"""Green or blue is unused when it is the likeliest colour of fewer than this share of the
cells' edge samples while the other is of at least :data:`COMMON` (a board carries each
link colour on about a quarter of its edges)."""

COMMON = 0.15
"""... (see :data:`UNUSED`)."""


def unused(model: colours.ColourModel, edges: np.ndarray) -> int | None:
    """Green or blue (class index) if ``model`` names almost none of ``edges`` (N, 6, 3)
    Lab that colour while it names many the other, else ``None``.

    Under a warm lamp the camera did not balance, blue links can come out nearly grey
    (hard-196: a/b about (-7, 0) against green's (-16, 17)): the learnt blue mean never
    reaches them, green takes them all, and no cell reads (:func:`split`)."""
    if model.absent is not None:
        return None
    return _unused(colours.log_probs(edges, model))


def _unused(logp: np.ndarray) -> int | None:
    """:func:`unused` of edge log-probabilities ``logp`` (..., 5)."""
    if logp.size == 0:
        return None
    best = logp.argmax(-1).ravel()
    share = np.bincount(best, minlength=len(colours.CLASSES))[:4] / best.size
    for c, other in ((GREEN, BLUE), (BLUE, GREEN)):
        if share[c] < UNUSED and share[other] >= COMMON:
            return c
    return None


SPLIT_MIN = 6
"""Fewest edge samples on each side of a split."""

SPLIT_ROUNDS = 5
"""2-means rounds of a split (two clusters of a few dozen samples settle in two or three)."""


def split(model: colours.ColourModel, edges: np.ndarray, colour: int) -> colours.ColourModel | None:
    """``model`` with the samples of ``edges`` (N, 6, 3) Lab it names green or blue (the
    one of the two that is not ``colour``) split in two by hue (2-means in a/b), the half
    nearer ``colour``'s prototype hue taken as ``colour``; ``None`` when too few."""
    other = BLUE if colour == GREEN else GREEN
    f = colours.features(edges, model).reshape(-1, 3)
    mine = f[colours.log_probs(edges, model).argmax(-1).ravel() == other]
    if len(mine) < 2 * SPLIT_MIN:
        return None
    ab = mine[:, :2]
    u = colours.PROTOTYPE_HUES[colour] - colours.PROTOTYPE_HUES[other]
    t = ab @ u
    near = t > np.median(t)                      # start: the half towards ``colour``'s hue
    for _ in range(SPLIT_ROUNDS):
        if near.sum() < SPLIT_MIN or (~near).sum() < SPLIT_MIN:
            return None
        c1, c0 = ab[near].mean(0), ab[~near].mean(0)
        near = np.linalg.norm(ab - c1, axis=1) < np.linalg.norm(ab - c0, axis=1)
    if near.sum() < SPLIT_MIN or (~near).sum() < SPLIT_MIN:
        return None
    means = model.means.copy()
    means[colour] = np.median(mine[near], axis=0)
    means[other] = np.median(mine[~near], axis=0)
    return replace(model, means=means)


def without(model: colours.ColourModel, colour: int) -> colours.ColourModel:
    """``model`` for a photo taken to lack link colour ``colour`` (class index)."""
    return replace(model, absent=colour)


def _hue_agreement(best: np.ndarray, start: colours.ColourModel, edges: np.ndarray) -> float:
    """How well the edge colours of the cells' best (tile, turn) candidates ``best`` (N,)
    agree in hue with the link colours' prototypes, for edge samples ``edges`` (N, 6, 3)
    Lab taken in the photo's first model ``start`` (before learning: a learnt model fits
    any naming of a cluster equally well; the prototypes say which name it bears)."""
    labels = identify.CANDIDATES.reshape(-1, 6)[best]                 # (N, 6) edge colours
    f = colours.features(edges, start)
    unit = colours.PROTOTYPE_HUES
    chroma = np.hypot(f[..., 0], f[..., 1])
    cos = (f[..., 0] * unit[labels, 0] + f[..., 1] * unit[labels, 1]) / np.maximum(chroma, 1e-6)
    hue = colours.HUE_WEIGHT * (cos - 1.0)
    return float(hue[chroma > start.chroma0].sum())


def _likelihood(model: colours.ColourModel, edges: np.ndarray) -> tuple[float, np.ndarray]:
    """Log-likelihood of each cell's best (tile, turn) under ``model``, summed, and those
    candidates (N,) (tile index * 6 + turn), for edge samples ``edges`` (N, 6, 3) Lab."""
    scores = identify.candidate_scores(colours.log_probs(edges, model)).reshape(len(edges), -1)
    best = scores.argmax(1)
    return float(scores[np.arange(len(edges)), best].sum()), best


def split_wins(model: colours.ColourModel, halves: colours.ColourModel, edges: np.ndarray) -> bool:
    """Does the model with a colour split off (:func:`split`) explain the cells' edge
    samples ``edges`` (N, 6, 3) Lab clearly better than ``model``: its cells' best tiles
    likelier by :data:`FEWER_COLOURS` times the log of the number of samples?

    Only the likelihood counts here, not the prototypes' hues as in :func:`best`:
    the split half is named by its hue already, and its hue is far from the prototype's
    by nature (hard-196's grey-blue: the hue term alone cost it 120, where the tiles it
    let read gained 95).  A colour that is really absent gains nothing: halving a real
    cluster gives its tiles' two edges of that colour two names."""
    return _likelihood(halves, edges)[0] > _likelihood(model, edges)[0] + _price(edges)


def best(models: Sequence[colours.ColourModel], start: colours.ColourModel, edges: np.ndarray
         ) -> colours.ColourModel:
    """The model of ``models`` (the four-colour model first, then ones without a colour)
    that explains ``edges`` (N, 6, 3) best, the four-colour one needing a clear lead
    (:data:`FEWER_COLOURS`).

    A model explains the cells by the log-likelihood of each cell's best tile
    (:func:`_likelihood`) plus how well those tiles' edge colours agree in hue with the
    prototypes (:func:`_hue_agreement`).  A four-colour model that does not even make the
    cells likelier (before its price) than some model without a colour gives way to
    those: the prototypes' hues name a cluster, they cannot tell one cluster from two,
    and a cluster halfway between green and blue always agrees better with the two
    prototypes when split (carpet13 under a strong warm cast, dimmed: 3 of 12 read right
    with four colours, its blue links read green on 8 tiles)."""
    fits = [_likelihood(m, edges) for m in models]
    scores = [likelihood + _hue_agreement(cells, start, edges) for likelihood, cells in fits]
    scores[0] -= _price(edges)
    if len(models) > 1 and max(likelihood for likelihood, _ in fits[1:]) >= fits[0][0]:
        return models[1 + int(np.argmax(scores[1:]))]
    return models[int(np.argmax(scores))]


DISCOVERY_MIN = 3
"""Fewest tiles whose numbers, read as 1 to N exactly, make a photo a Discovery puzzle
(the smallest Discovery puzzle has three tiles)."""


def discovery_run(numbers: Sequence[int]) -> bool:
    """Are tile ``numbers`` (read on distinct cells) 1 to N, but for one at most, with at
    least :data:`DISCOVERY_MIN` of them: a Discovery puzzle's tiles, one perhaps read too
    faintly to count (carpet13 over-exposed: tile 1 fits 0.5)?  Three numbers of the 14
    tiles without green fall so by chance once in 91 draws, six once in 429."""
    return (len(numbers) >= DISCOVERY_MIN and len(set(numbers)) == len(numbers)
            and min(numbers) >= 1 and max(numbers) <= len(numbers) + 1)


FULL_TRIPLE = 13
"""Numbers from this many cells up make a Discovery run whatever tiles lie there: each
tile without blue has a twin without green, so any 13 or 14 tiles of a red-yellow-green
Tantrix Solitaire set read with green named blue are tiles 1 to 14 but for one at most
(:func:`blue_run`)."""

CHANCE_RUN = 10
"""Up to this many numbers, the twins of tiles without blue fall into a Discovery run by
chance at most once in 90 (10 of the 14: 11 of 1001 draws; 11: 12 of 364; 12: 13 of 91)."""

PALE_LEAN = 14.0
"""Degrees the cluster named green must lie off green's prototype hue towards blue's
before a run of more than :data:`CHANCE_RUN` numbers renames it blue (carpet13
over-exposed 1.6 times: 18 to 27°).  The greens of red-yellow-green boards rendered for
the check lean up to 23° (5 to 14 tiles, 82 boards; at 11 or 12 numbers read, 2°), so
a board must also fall into a run by chance to be renamed."""

SURE_LEAN = 34.0
"""... and before a run of :data:`FULL_TRIPLE` or more does, where the run itself tells
nothing: above every green seen (up to 23°, as above).  carpet13's 12 tiles lean 30 to
53° under a tungsten lamp or a cold cast, so a Discovery puzzle of 13 or 14 such tiles
is renamed under the stronger of those casts only (tungsten, cold: 45 and 53°)."""


def green_lean(model: colours.ColourModel) -> float:
    """Degrees (-180..180) the hue of ``model``'s green mean lies off green's prototype
    hue, positive towards blue's (through cyan: a pale blue link's side)."""
    g, p = model.means[GREEN, :2], colours.PROTOTYPES[GREEN, :2]
    d = np.degrees(np.arctan2(g[1], g[0]) - np.arctan2(p[1], p[0]))
    return float((d + 180.0) % 360.0 - 180.0)


def blue_run(model: colours.ColourModel, numbers: Sequence[int]) -> bool:
    """Should ``model``'s green, naming the third colour of a board without blue, be named
    blue (:func:`as_blue`), the cells then reading as tile ``numbers``?  Only when those
    make a :func:`discovery_run` that chance would hardly make from a red-yellow-green
    board's twins, or whose colour leans towards blue enough (:data:`PALE_LEAN`,
    :data:`SURE_LEAN`): a finished Tantrix Solitaire game in red, yellow and green, 14
    tiles, was read as tiles 1 to 14, every tile its twin."""
    if not discovery_run(numbers):
        return False
    if len(numbers) <= CHANCE_RUN:
        return True
    return green_lean(model) >= (SURE_LEAN if len(numbers) >= FULL_TRIPLE else PALE_LEAN)


def blue_unnamed(model: colours.ColourModel, logp: np.ndarray) -> bool:
    """Does ``model`` name no link blue, green taking the third colour (the photo read as
    lacking blue, or blue :func:`unused`)?  ``logp``: the cells' edge log-probabilities
    under ``model`` (N, 6, 5)."""
    return model.absent == BLUE or (model.absent is None and _unused(logp) == BLUE)


def green_unnamed(model: colours.ColourModel, logp: np.ndarray) -> bool:
    """Does ``model``, with four colours, name almost no link green where it names many
    blue (:func:`unused`)?  ``logp``: the cells' edge log-probabilities under ``model``
    (N, 6, 5)."""
    return model.absent is None and _unused(logp) == GREEN


def as_blue(model: colours.ColourModel) -> colours.ColourModel:
    """``model`` with its green cluster named blue and green taken as absent: the same
    colours, the other name (each tile without blue has a twin without green whose green
    edges are blue; the likelihoods are the same, the tile numbers are the twins')."""
    means = model.means.copy()
    means[BLUE] = model.means[GREEN]
    return replace(model, means=means, absent=GREEN)


WITHOUT_GREEN = frozenset(n for n, t in TILES.items() if "green" not in t.edges)
"""The tile numbers that carry no green link (1 to 14)."""

MOSTLY_WITHOUT_GREEN = 0.5
"""A reading of which at least this share are tiles without green may be a Discovery
puzzle's (a four-colour board's tiles are a quarter so)."""


WITHOUT_BLUE = frozenset(n for n, t in TILES.items() if "blue" not in t.edges)
"""The tile numbers that carry no blue link (the twins of :data:`WITHOUT_GREEN`)."""


def _twins() -> dict[int, int]:
    swap = {"green": "blue", "blue": "green"}
    by_edges = {tuple(t.edges): n for n, t in TILES.items()}
    return {n: by_edges[tuple(swap.get(c, c) for c in t.edges)]
            for n, t in TILES.items() if n in WITHOUT_GREEN or n in WITHOUT_BLUE}


TWINS = _twins()
"""Tile number → its twin's, both ways between the tiles without green and those without
blue: the same links, blue where the other has green (what :func:`as_blue` reads)."""


def _without(numbers: Sequence[int], among: frozenset[int]) -> int | None:
    """How many of tile ``numbers`` are ``among``; ``None`` when they are fewer than
    :data:`DISCOVERY_MIN` or not mostly (:data:`MOSTLY_WITHOUT_GREEN`) so."""
    low = sum(n in among for n in numbers)
    ok = len(numbers) >= DISCOVERY_MIN and low >= MOSTLY_WITHOUT_GREEN * len(numbers)
    return low if ok else None


def mostly_without_blue(numbers: Sequence[int]) -> bool:
    """Are tile ``numbers`` at least :data:`DISCOVERY_MIN` and mostly
    (:data:`MOSTLY_WITHOUT_GREEN`) tiles without blue: perhaps a Discovery puzzle's twins?"""
    return _without(numbers, WITHOUT_BLUE) is not None


def mostly_without_green(numbers: Sequence[int]) -> bool:
    """Are tile ``numbers`` at least :data:`DISCOVERY_MIN`, some of them with green, and
    mostly (:data:`MOSTLY_WITHOUT_GREEN`) tiles without green (:data:`WITHOUT_GREEN`)?"""
    low = _without(numbers, WITHOUT_GREEN)
    return low is not None and low < len(numbers)


def needless(four: colours.ColourModel, three: colours.ColourModel, edges: np.ndarray) -> bool:
    """Does the four-colour model ``four`` make the cells' edge samples ``edges`` (N, 6, 3)
    Lab likelier than the model ``three`` without a colour by less than its price (the
    :data:`FEWER_COLOURS` lead :func:`best` asks of it)?"""
    return _likelihood(four, edges)[0] < _likelihood(three, edges)[0] + _price(edges)


WASHED = 0.85
"""Edge samples named green whose median lightness is at least this share of the learnt
yellow links' are taken as washed out (:func:`washed_green`).  Green links are about half
as light as yellow ones (the prototypes' L 80 and 160, measured on ``real_tiles``), and
light that lifts one lifts the other."""


def washed_green(model: colours.ColourModel, edges: np.ndarray, logp: np.ndarray) -> bool:
    """Are the edge samples of ``edges`` (N, 6, 3) Lab that ``model`` names green (their
    log-probabilities under it ``logp``, (N, 6, 5)) as light as its yellow links
    (:data:`WASHED`)?

    No green link is: such samples are another colour washed out.  A glare spot over one
    tile of a Discovery puzzle leaves its pale blue links light and nearly grey, their hue
    nearer green's prototype than the learnt blue's (discovery10 under a cold cast,
    dimmed: tile 8's blue pair at L 170-174 where the yellow links are at 154, read as
    its green twin 31, the four-colour model likelier by 9.9 where its price is 6.1)."""
    if model.absent is not None or edges.size == 0:
        return False
    named = logp.argmax(-1) == GREEN
    if not named.any():
        return False
    return float(np.median(edges[named][:, 0])) >= WASHED * model.means[YELLOW, 2]
