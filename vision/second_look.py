"""When a read is poor enough to read the photo again another way, and which read wins.

The reader's first look gates the link image by the grey tile bodies, which keeps a
coloured table from passing for links; but bodies lighter than a black cloth, or tinted by
warm light, fall out of that gate and the lattice is lost.  A second look without the gate
finds those; it is paid only when the first read looks poor, and the read with more tiles
read confidently wins.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from referee.hexgrid import neighbours

from . import lattice, loose
from .identify import clean

LOOKS = ("gated", "ungated", "diverse", "camera-grey", "dense", "unveiled", "balanced")
"""Link images tried in turn (see ``reader.link_and_mask``): gated by the grey bodies,
ungated, gated by hue variety (a one-colour table pattern is no tile), gated with the
camera's grey (a/b = 0) in place of the photo's darkest grey pixels (a dark cloth), and
gated by the density of grey body round each pixel (a cloth of coloured dots, each with a
dark rim that the plain gate closes over; its search starts at the densest link colour,
not the mean, which the dots pull off the tiles); then the photo cleared of a glare
veil pixel by pixel (``haze.clear_veil``: a veil over the whole board leaves no black body
to gate by, its bodies are grey and its links pastel) and read as the first look, and
the photo with a lamp's colour cast taken off by the bodies' channel gains (``balance``: a
cast scales each channel, so a light link shifts more than a body) and read as the first
look."""

LAST_LOOK = "bright"
"""The look tried after all of :data:`LOOKS`, the read with the bodies' own grey and the
read of the tiles' region (``reader.analyse``), while the read is still poor: the links
by their lightness alone (``colours.bright_image``: small tiles in dim light through a
coarse JPEG, whose links' colour smears into the bodies while their lightness still
stands out; hard-48, 0 -> 44 of 54).  Only when the tiles may be small
(``reader._maybe_small``), and last: on real-texture-123 it read 35 tiles, 2 wrong,
where the region's read has all 49."""

FAINT_LOOK = "faint"
"""The look tried after :data:`LAST_LOOK`, while the read is still poor and its tiles may be
small: the first look again with a lower contrast bar for a cell to hold a tile
(``lattice.faint_links``: small tiles out of focus, their links blurred into the bodies;
hard-138, 0 -> 18 of 21), kept only for a board of small tiles that reads more of it than
the read so far (``reader._small_board``).
Tried among :data:`LOOKS`, before the region's read, it read hard-129's region worse."""

OWN_BRIGHT_LOOK = "own-bright"
"""The look tried after :data:`FAINT_LOOK`, while the read is still poor and its tiles may
be small: the links by their lightness as in :data:`LAST_LOOK`, but scaled by the tiles'
own links, not the photo's (``colours.bright_image`` ``within`` the first look's tile
mask): small tiles blurred on a light cloth printed with bright specks (hard-171, 0 -> 27
of 28).  Kept only as :data:`FAINT_LOOK`'s read is (``reader._small_board``); in place of
:data:`LAST_LOOK`'s scale it lost hard-48, whose dim table the tile mask takes in."""

LAST_LOOKS = (LAST_LOOK, FAINT_LOOK, OWN_BRIGHT_LOOK)
"""The last resorts, in turn (``reader.analyse``)."""

UNEXPLAINED = 2.0
"""A read is poor when the tile mask covers more than this many times the cells it
explains, tiles read on the board or loose and unreadable cells (plus a few: shadows,
face-down tiles).  (Loose tiles count since session 71: video-720p-13, a board under a
hand with four loose tiles beside it, was read again in six more looks once its loose
tile 50 was read where a cell had been unreadable, and a look not kept lent it a cloth's
dot as a loose tile.)"""

CLEAN_SHARE = 0.8
"""A lattice reads cleanly when its score (a soft count of cells read cleanly) is at least
this share of the tiles read on it."""

FAR_MORE = (2.0, 4)
"""A read has far more tiles than another when it has this many times as many, and this
many more at least (see :func:`far_more`)."""

CONFIDENT = 0.9
"""Readings at least this confident count fully towards a read's quality."""


LOOSE_WEIGHT = (0.5, 0.9)
"""What a loose tile counts towards a read's quality (see :func:`quality`): in general,
and when neither of the two reads compared holds a Tantrix (a group of three tiles or
more).  Not a full tile even then: a lone tile read as a board tile by one look and as a
loose tile by another is a one-tile board (real tile 46 seen steeply under a glare spot).
And not when either read holds a Tantrix: hard-113's crop read its three tiles on their
own lattice, and the whole photo's read of two cells and a few loose tiles must not beat
it."""


def quality(scene: Any, loose_weight: float = LOOSE_WEIGHT[0], board_weight: float = 1.0
            ) -> float:
    """How much a read explains: confident readings count ``board_weight``, others that
    times their confidence; loose tiles ``loose_weight`` (see :data:`LOOSE_WEIGHT`).

    Unreadable cells count against it (a lattice off the tiles leaves many of them).
    """
    good = board_weight * sum(1.0 if rd.confidence >= CONFIDENT else rd.confidence
                              for _c, rd, _px in scene.readings)
    good += loose_weight * len(scene.loose)
    return good - 0.5 * len(scene.unreadable)


def _qualities(other: Any, scene: Any) -> tuple[float, float]:
    """:func:`quality` of two reads compared.  Tiles scattered on a table are all loose: a
    look that laid a lattice over two of them and read them as a pair of board tiles
    counted more than a look that read all of them loose (scattered scenes 18 and 37),
    so with no Tantrix in either read loose tiles count nearly as much as board tiles."""
    if not _scattered(other, scene):
        return quality(other), quality(scene)
    w = LOOSE_WEIGHT[1]
    return quality(other, w, _board_weight(other)), quality(scene, w, _board_weight(scene))


def _board_weight(scene: Any) -> float:
    """What a board tile counts in a read with no Tantrix, compared with another such read:
    a loose tile's worth (:data:`LOOSE_WEIGHT`) when the read holds two tiles or more, a
    full tile when it is one tile alone.  Two tiles side by side on a table of scattered
    tiles are no game's board: a look that read two of scattered scene 31's six tiles as
    a pair on its lattice and the other four loose outweighed a look reading all six
    loose.  A lone tile read as a board tile still outweighs its read as a loose tile (see
    :data:`LOOSE_WEIGHT`), and so do two neighbouring board tiles with nothing else read
    (:func:`_lone_pair`): a real upright pair on grey, read as a board and as two loose
    tiles, tied and was given loose."""
    if len(scene.readings) + len(scene.loose) < 2 or _lone_pair(scene):
        return 1.0
    return LOOSE_WEIGHT[1]


def _lone_pair(scene: Any) -> bool:
    """Is a read two neighbouring board tiles and nothing else: a game's first two tiles?"""
    if len(scene.readings) != 2 or scene.loose:
        return False
    (a, _ra, _pa), (b, _rb, _pb) = scene.readings
    return tuple(int(v) for v in b) in neighbours(tuple(int(v) for v in a))


def has_tantrix(scene: Any) -> bool:
    """Does a read hold a Tantrix (``loose.tantrix``)?"""
    return bool(loose.tantrix(c for c, _rd, _px in scene.readings))


def _scattered(a: Any, b: Any) -> bool:
    """Do two reads compared both hold no Tantrix?  Their tiles are then scattered ones,
    and loose tiles count as tiles (:func:`_qualities`, :func:`far_more`)."""
    return not (has_tantrix(a) or has_tantrix(b))


def better(other: Any, scene: Any) -> bool:
    """Does read ``other`` beat ``scene``?  More tiles read, on a lattice whose cells read
    at least as well (the search's own score, for ``scene`` only as far as it kept tiles:
    :func:`earned`): a wrong lattice can still land a few cells on link colour that read
    as confident, wrong tiles.  Whichever read splits the other's tiles into smaller
    cells (:func:`splits`) loses, whatever it explains."""
    if splits(other, scene):
        return False
    if splits(scene, other):
        return True
    q_other, q_scene = _qualities(other, scene)
    return q_other > q_scene and _lattice_holds(other, scene)


SPLIT_SIZE = 0.75
"""A read's cells are finer than another's when at most this share of their size ..."""

SPLIT_REACH = 1.2
"""... and its tiles lie within the other's tiles when within this many times the other's
cell size (centre to corner) of one of them (cell sizes of one tile read in different
looks differ by a fifth: a hexagon's size read off a tilted lattice)."""


def cell_size(scene: Any) -> float:
    """Centre-to-corner size (original px) of the cells a read with a lattice read."""
    cells = np.array([c for c, _rd, _px in scene.readings]).reshape(-1, 2)
    return lattice.median_cell_size(scene.lattice, cells) / scene.work_scale


def splits(fine: Any, coarse: Any) -> bool:
    """Does read ``fine`` split ``coarse``'s tiles: its cells clearly smaller
    (:data:`SPLIT_SIZE`), every tile it read inside a tile ``coarse`` read
    (:data:`SPLIT_REACH`), and its tiles' edges explained no better (mean fit) than
    ``coarse``'s, which left no cell unread?

    A lattice finer than the tiles lays several cells over one tile, and the pieces of its
    links read as confident tiles of their own; counting tiles then prefers the pieces.
    Lone real tiles under a warm glare or a tungsten lamp: tile 49 read as 4 tiles at fit
    0.78-0.82 on cells 0.34 of its size, where the lamp's cast taken off read it alone at
    0.91.  (A lattice off the tile, its cells 1.5 times the true lattice's, read one
    piece of real tile 40 as tile 23 at fit 0.97 and left the rest unread.)"""
    if (fine.lattice is None or coarse.lattice is None or not fine.readings
            or not coarse.readings or coarse.unreadable):
        return False
    size = cell_size(coarse)
    if cell_size(fine) > SPLIT_SIZE * size:
        return False
    inside = np.array([px for _c, _rd, px in fine.readings], np.float64)
    tiles = np.array([px for _c, _rd, px in coarse.readings], np.float64)
    reach = np.linalg.norm(inside[:, None, :] - tiles[None, :, :], axis=2).min(axis=1)
    return bool((reach <= SPLIT_REACH * size).all()) and mean_fit(coarse) >= mean_fit(fine)


def as_good(other: Any, scene: Any) -> bool:
    """Does read ``other`` explain at least as much as ``scene`` (:func:`quality`), on a
    lattice scoring at least what ``scene``'s earned (:func:`earned`)?  The bar for a look
    whose reason was seen in the photo."""
    q_other, q_scene = _qualities(other, scene)
    return q_other >= q_scene and _lattice_holds(other, scene)


FITS_FAR_BETTER = 0.2
"""A read whose tiles fit this much better on average (and which reads as many tiles) ..."""

HOLDS_SHARE = 0.8
"""... holds its lattice against another's when it scores at least this share of what the
other earned (see :func:`_lattice_holds`)."""


def _lattice_holds(other: Any, scene: Any) -> bool:
    """Does read ``other``'s lattice score at least what ``scene``'s earned (``scene``
    without a lattice: yes; ``other`` without one: only when ``scene`` read no tiles;
    ``other`` reading loose tiles only, against a read of no board tile or with no
    Tantrix in either: yes, its tiles were not read on its lattice)?
    Or nearly as much (:data:`HOLDS_SHARE`), when ``other``
    reads as many tiles or more and they fit far better (:data:`FITS_FAR_BETTER`), or
    gives ``scene``'s tiles and more (:func:`reads_more_of_the_same`)?

    The search scores a lattice on its cells' first reading, before the photo's colours
    are learnt; on a small board that score says little.  hard-113 (three tiles ~98 px
    across, 48° tilt): a lattice about 1/√3 of the tiles' pitch read 2 cells at fit
    0.72-0.74, one wrong, and scored 2.18; the crop's look found the true lattice, read
    all three tiles at fit 0.91-0.98, and scored 2.03.  (hard and real-texture 0-199:
    that board alone changes, 1 → 3 of 3 right.)"""
    if other.lattice is None:
        # (a look that found no lattice read nothing: it cannot outrank tiles read, however
        # many unreadable cells beside them count against that read; hard-9, four tiles on a
        # striped cloth read right beside 9 cells of stripes, lost to a look that found nothing)
        return not scene.readings
    if scene.lattice is None or not other.readings and (
            not scene.readings or other.loose and _scattered(other, scene)):
        # (two reads of loose tiles only, tiles scattered with no board: neither lattice
        # holds a tile, so neither score says which read is the truer; scattered scene 7,
        # a crop reading 9 of 11 tiles right lost to a look reading 5, one wrong.  Nor
        # does it when ``other`` reads loose tiles only and neither read holds a Tantrix:
        # its tiles were read on their own hexagons; real-texture-31, two tiles apart, a
        # crop's cells half their size read one as a lone board tile, wrong, and outranked
        # the bright look's read of both, loose and right)
        return True
    bar = earned(scene)
    if other.lattice.score >= bar:
        return True
    if other.lattice.score < HOLDS_SHARE * bar:
        return False
    # (``scene`` reads some tiles, so ``other``, reading as many, does too: both mean fits exist)
    return reads_more_of_the_same(other, scene) or (
        bool(scene.readings) and len(other.readings) >= len(scene.readings)
        and mean_fit(other) >= mean_fit(scene) + FITS_FAR_BETTER)


def to_work(scene: Any, px: Any) -> np.ndarray:
    """Original-photo pixels ``px`` (..., 2) as pixels of the read's work image."""
    return (np.asarray(px, np.float64) - scene.origin) * scene.work_scale


def board_turn(scene: Any, other: Any, least: int) -> int | None:
    """The turn (0..5) that carries read ``other``'s tile rotations into ``scene``'s, when
    ``other`` agrees with ``scene`` on the board: at least ``least`` (and one) tiles of the
    same numbers, each lying in ``scene``'s cell of that number and turned alike
    (lattices found in different looks may number their cells from another corner);
    else ``None``."""
    if other is scene or other.lattice is None or scene.lattice is None:
        return None
    mine = {rd.tile: (c, rd.rotation) for c, rd, _px in scene.readings}
    shared = [(mine[rd.tile], rd.rotation, px) for _c, rd, px in other.readings if rd.tile in mine]
    if len(shared) < max(least, 1):
        return None
    turns = {(rot - theirs) % 6 for (_c, rot), theirs, _px in shared}
    at = [tuple(int(v) for v in c)
          for c in scene.lattice.cell_at(to_work(scene, [px for _m, _r, px in shared]))]
    if len(turns) != 1 or any(a != c for a, ((c, _rot), _t, _px) in zip(at, shared)):
        return None
    return turns.pop()


def reads_more_of_the_same(other: Any, scene: Any) -> bool:
    """Does read ``other`` give every board tile ``scene`` gives, in its cell and turned
    alike (:func:`board_turn`), and more board tiles besides, leaving no more cells
    unread, the tiles it adds fitting on average nearly as well as ``scene``'s tiles
    (within :data:`FITS_BETTER`)?

    Its lattice then lies on ``scene``'s tiles as ``scene``'s does, so it needs only
    nearly the score ``scene``'s lattice earned (:data:`HOLDS_SHARE`): the search's score
    is its cells' first reading, before the photo's colours are learnt, and says little
    between two lattices on the same tiles.  hard-10, seven tiles on a black cloth, three
    of them a third covered: the crop's body-grey look read all seven right on a lattice
    scoring 5.10 against the 5.27 the whole photo's read of four earned; the tiles added
    fit 0.92 on average, against 0.97.  (hard-59, a board on a confetti cloth: a read
    adding a cell of the cloth's dots as tile 22, at fit 0.73 against 0.98, scored 30.5
    against 31.03, and must not win.)"""
    if (not scene.readings or len(other.readings) <= len(scene.readings)
            or len(other.unreadable) > len(scene.unreadable)
            or board_turn(scene, other, len(scene.readings)) is None):
        return False
    # (every number of ``scene``'s is ``other``'s too, and ``other`` reads more: some are added)
    mine = {rd.tile for _c, rd, _px in scene.readings}
    added = [rd.fit for _c, rd, _px in other.readings if rd.tile not in mine]
    return sum(added) / len(added) >= mean_fit(scene) - FITS_BETTER


FITS_BETTER = 0.1
"""A read explains its tiles' edges clearly better than another when their mean fit is
higher by this much (see :func:`fits_better`)."""


def fits_better(other: Any, scene: Any) -> bool:
    """Is read ``other`` :func:`as_good` as ``scene`` and its tiles' edges explained clearly
    better (mean fit higher by :data:`FITS_BETTER`)?  The balanced look's bar against a
    read of as many tiles: under a tungsten lamp, real tile 44 read as tile 42 at fit 0.76
    as taken (on a cell smaller than the tile, before :data:`search.SAME_BLOB_SIZE`), and
    as itself at 0.95 with the cast taken off."""
    if not other.readings or not scene.readings or not as_good(other, scene):
        return False
    return mean_fit(other) >= mean_fit(scene) + FITS_BETTER


def balanced_wins(other: Any, scene: Any, cast_seen: bool) -> bool:
    """Does the balanced look's read ``other`` replace ``scene``?  When it reads better
    (:func:`better`), when it is as good and the cast was seen in the glare (``cast_seen``:
    the photo with it taken off is the truer one), or when its tiles fit clearly better
    (:func:`fits_better`)."""
    return (better(other, scene) or cast_seen and as_good(other, scene)
            or fits_better(other, scene))


def mean_fit(scene: Any) -> float:
    """The mean fit of a read's tiles (it has some)."""
    return sum(rd.fit for _c, rd, _px in scene.readings) / len(scene.readings)


def far_more(scene: Any, other: Any) -> bool:
    """Does ``scene`` read far more tiles than ``other`` (:data:`FAR_MORE`), on a lattice
    whose cells read cleanly (its score at least :data:`CLEAN_SHARE` of the board tiles)?
    Board tiles are counted, and loose tiles too when neither read holds a Tantrix.  The
    bar a look's read must clear when the reason for that look is not seen (the unveiled
    look on a photo whose bodies show no veil): a photo cleared of a veil it never had
    can read better, a light table darkened and only the tiles keeping their colours
    (hard-130, a light striped cloth: 6 tiles of 16 read as taken, 16 cleared)."""
    n, m = len(scene.readings), len(other.readings)
    clean = scene.lattice is not None and scene.lattice.score >= CLEAN_SHARE * n
    if _scattered(scene, other):
        # (scattered scene 16, a black cloth, read 8 of 11 loose tiles cleared of a veil
        # it never had, against 2 as taken)
        n, m = n + len(scene.loose), m + len(other.loose)
    return clean and n >= max(FAR_MORE[0] * m, m + FAR_MORE[1])


def earned(scene: Any) -> float:
    """A read's lattice score, capped by the tiles the read kept: a lattice laid over a
    patterned cloth can score well in the search (its cells' colours fit tiles) and yet
    keep no tile once the reader's checks have run (hard-69: such a lattice scored 25 and
    read nothing, and outranked a look that read 9 tiles of 10).  Unreadable cells count
    only as far as tiles read (on the board or loose beside it) vouch for the lattice: a
    lattice over a dim confetti cloth that read none of 24 cells outranked the read of
    the board's crop, 14 tiles right of 19 (hard-11)."""
    n = len(scene.readings) + len(scene.loose)
    return min(scene.lattice.score, n + min(len(scene.unreadable), n))


def wanted(scene: Any) -> bool:
    """Is the first read poor enough to look again (few tiles, or many cells unread or
    read only as the next best tile, their best held by another cell: ``Reading.pushed``;
    rt-116's first look read 37 tiles of 54, four of them such cells, beside 3 unread; the
    second read 54)?  Also a read that gives a tile through a cover
    (``Reading.covered``) while the tile mask lies under fewer cells than it read tiles:
    the mask missed bodies, maybe whole tiles, and the covered cell read may stand where
    an unreadable one would have asked for another look (real-texture-145, ten tiles in
    dim light: the first look read 7, the mask under 4 cells; hard and real-texture 0-199,
    with any cover read counted as doubtful instead, hard-80 and real-texture-126 each got
    a tile wrong in the looks it sent them to)."""
    n = len(scene.readings)
    if 1 <= n < 3 and reads_cleanly(scene):
        return False
    doubtful = len(scene.unreadable) + sum(rd.pushed for _c, rd, _px in scene.readings)
    # (many more dark tile bodies under the lattice than tiles read, on the board or loose
    # beside it: the links were lost)
    explained = n + len(scene.unreadable) + len(scene.loose)
    covered = getattr(scene, "covered", n)
    return (n < 3 or doubtful > 0.15 * n or covered > UNEXPLAINED * explained + 3
            or (covered < n and any(rd.covered for _c, rd, _px in scene.readings)))


def reads_cleanly(scene: Any) -> bool:
    """Every tile read cleanly (:func:`identify.clean`), and nothing else on the table:
    no unreadable cell, no loose tile, the tile mask under no more cells than were read.
    One or two tiles so read need no other look (:func:`wanted`: a real tile photographed
    alone took 1.0 s with all six looks, 0.44 s with one; hard and real-texture 0-119 read
    the same tiles); see also ``reader._clean_group``."""
    return (not scene.unreadable and not scene.loose
            and getattr(scene, "covered", 0) <= len(scene.readings)
            and all(clean(rd) and not rd.pushed for _c, rd, _px in scene.readings))
