"""When a reading is given as a tile: the bars a cell's reading must clear.

A reading (``identify.Reading``) says which tile fits a cell's six edge colours, how well
(``fit``) and how far ahead of the next tile (``confidence``).  The reader gives a tile
only when it clears these bars; a cell that does not is left out, or reported unreadable
rather than guessed.  The reader and the loose-tile search (``vision.loose``) ask the same
questions here.
"""
from __future__ import annotations

from . import identify

BODY_CORNERS = 0.8
"""A tile needs this share of grey corners (5 of 6) to be read; fewer: something covers it."""


CLEARLY_BETTER = 0.05
"""How much better a faint cell must fit where its neighbours put it, cleared of glare,
than as sampled at its own shift, to be read that way."""


UNREADABLE_FIT = 0.55
"""Below this mean edge-colour probability a tile is reported unreadable (covered...)."""


CLEAR_READ_FIT = 0.75
CLEAR_READ_CONFIDENCE = 0.9
"""A reading at least this good stands on its own: a faint cell beside the tiles, or a
lone tile on the table (a real tile read alone fits at 0.8 and more)."""


LOW_CONFIDENCE = 0.5
"""Readings under this confidence are not given as tiles: they are listed as unreadable
(two tiles fit the colours seen about equally well; guessing would mislead the referee)."""


CHECK_CONFIDENCE = 0.9
"""Tiles given under this confidence are worth a check by hand (the companion page marks
them; ``bench.recognition`` counts what the mark catches).  Over hard and real-texture 0-99,
4 of 3242 board readings were wrong, at confidence 0.70, 0.88, 0.91 and 0.9998, and 28
right ones were under 0.9 (session 80)."""


UNFIT = (UNREADABLE_FIT, LOW_CONFIDENCE)
"""Cells whose own best tile fits worse than this (fit, confidence) could not be given as
tiles: they claim tile numbers last (``identify.identify``'s ``last_if``)."""


CLEAR = (CLEAR_READ_FIT, CLEAR_READ_CONFIDENCE)
"""... as a pair: a cell of an earlier claiming round (the board's) that holds a number
under it yields that number to a later cell (a loose tile's place) whose colours fit it
cleanly (``identify.identify``'s ``yield_if``)."""


def fits(rd: identify.Reading) -> bool:
    """Do a reading's edges fit one tile that stands out (:data:`UNFIT`)?  A tile is given
    only if its corners are body too (:func:`readable`)."""
    return rd.fit >= UNFIT[0] and rd.confidence >= UNFIT[1]


def readable(rd: identify.Reading, body: float) -> bool:
    """Is a reading given as a tile?  Its edges fit and one tile stands out, and its
    corners are grey body (``body``: their share); glare can light a corner, so a reading
    this clean needs only half of them.  A reading pushed off its best number by a sure
    holder of it must read clearly (:func:`clear`): the cloth's print beside hard-25's
    board lost its best number to a loose tile and read as another at confidence 0.51."""
    return (fits(rd) and (body >= BODY_CORNERS or (body >= 0.5 and identify.clean(rd)))
            and (not rd.pushed or clear(rd)))


SPOTLESS_LOOSE = (0.95, 0.999)
"""The fit and confidence at which a tile read off the lattice (a loose tile) is given with
a single grey corner (:func:`readable_loose`).  A small blurred tile's links bleed into
its corner samples: scattered scene 16's tile 35, 18 px from centre to corner on a black
cloth, read at fit 0.975 and confidence 0.9996 with 2 of 6 corners grey, and scattered
scene 12's tile 16 at 0.982 with one.  Six link ends fitting one tile this cleanly are no
cloth's print; a face-down tile's back is one colour."""


def readable_loose(rd: identify.Reading, body: float) -> bool:
    """:func:`readable` for a tile read off the lattice, which may also stand with one grey
    corner in six when it reads spotlessly (:data:`SPOTLESS_LOOSE`)."""
    spotless = rd.fit >= SPOTLESS_LOOSE[0] and rd.confidence >= SPOTLESS_LOOSE[1]
    return readable(rd, 1.0 if spotless and body > 0 else body)


def clear(rd: identify.Reading) -> bool:
    """A reading that stands on its own (a faint cell, a lone tile)."""
    return rd.fit >= CLEAR_READ_FIT and rd.confidence >= CLEAR_READ_CONFIDENCE
