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
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from . import colours, identify

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


def one_cluster(model: colours.ColourModel) -> bool:
    """Do the learnt green and blue of ``model`` describe one colour cluster?"""
    return model.absent is None and bool(
        np.hypot(*(model.means[GREEN, :2] - model.means[BLUE, :2])) < ONE_CLUSTER)


def without(model: colours.ColourModel, colour: int) -> colours.ColourModel:
    """``model`` for a photo taken to lack link colour ``colour`` (class index)."""
    return replace(model, absent=colour)


def explained(model: colours.ColourModel, start: colours.ColourModel, edges: np.ndarray) -> float:
    """How well ``model`` explains the cells' edge samples ``edges`` (N, 6, 3) Lab.

    The log-likelihood of each cell's best tile under ``model``, plus how well the colours
    of those tiles' edges agree in hue with the link colours' prototypes, taken in the
    photo's first model ``start`` (before learning: a learnt model fits any naming of a
    cluster equally well; the prototypes say which name it bears).
    """
    scores = identify.candidate_scores(colours.log_probs(edges, model)).reshape(len(edges), -1)
    best = scores.argmax(1)                                           # tile index * 6 + turn
    likelihood = float(scores[np.arange(len(edges)), best].sum())
    labels = identify.CANDIDATES.reshape(-1, 6)[best]                 # (N, 6) edge colours
    f = colours.features(edges, start)
    unit = colours.PROTOTYPE_HUES
    chroma = np.hypot(f[..., 0], f[..., 1])
    cos = (f[..., 0] * unit[labels, 0] + f[..., 1] * unit[labels, 1]) / np.maximum(chroma, 1e-6)
    hue = colours.HUE_WEIGHT * (cos - 1.0)
    return likelihood + float(hue[chroma > start.chroma0].sum())


def best(models: Sequence[colours.ColourModel], start: colours.ColourModel, edges: np.ndarray
         ) -> colours.ColourModel:
    """The model of ``models`` (the four-colour model first, then ones without a colour)
    that explains ``edges`` (N, 6, 3) best, the four-colour one needing a clear lead
    (:data:`FEWER_COLOURS`)."""
    scores = [explained(m, start, edges) for m in models]
    scores[0] -= FEWER_COLOURS * np.log(max(edges.shape[0] * edges.shape[1], 1))
    return models[int(np.argmax(scores))]
