"""Loose tiles: tiles off the lattice, beside the Tantrix, each turned its own way.

A loose tile lies on the table's plane, so it has the size and perspective of the
lattice's cells where it lies, turned its own way.  It is found as a single-hexagon blob
of the tile mask, as a tile-sized place in a bigger blob, or as a tile-sized patch of link
colour (:func:`off_lattice_hexagons`); each is given a one-cell lattice
(:func:`hexagons_at`), sampled (:func:`hexagon_samples`), tried in other poses when it
reads poorly (:func:`repose`), and given as a loose tile when it reads as one
(:func:`read_off_lattice`).  The reader (``vision.reader``) reads the board's cells and
these places together, so one global assignment gives each tile number once.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import cv2
import numpy as np

from referee.hexgrid import components, frontier

from . import acceptance, bodies, colours, faces, frames, identify, lattice, sampling, search
from .lattice import BASIS, Lattice

LOOSE_SIZE = (0.7, 1.35)
"""A single-tile blob off the lattice is a loose tile if its size is within this range of
the cells' (two touching tiles fitted as one hexagon come out about 1.5 times a cell)."""


CLEAN_LOOSE = (1.6, 0.9)
"""... or up to the first times a cell when the blob is this clean a hexagon (IoU): two
touching tiles are no clean hexagon, but a tile nearer the camera than the board, or
blurred with its shadow, is bigger (hard 0-119: eight loose tiles 1.37 to 1.49 times a
cell, IoU 0.79 to 0.95).  Its hexagon is then the lattice's cell (:func:`hexagons_at`)."""


LOCAL_SIZE = (0.5, 1.4)
"""The size of the lattice's cell where a blob lies, bounded to these shares of the cells'
median size, may stand for the median in :data:`LOOSE_SIZE`'s bounds: a loose tile
farther from the camera than the board is smaller than the board's cells, one nearer
bigger (hard-107's two tiles on a white table beyond the board were 0.62 and 0.69 of the
board's cells; they read at fit 0.96).  The bounds are there because, far from the
board, the lattice's perspective is extrapolated."""


MIN_BLOB = 0.4
"""Blobs smaller than this share of the cells' median size (centre to corner) are not
fitted as loose tiles at all (0.6 before :data:`LOCAL_SIZE`, whose lower size bound
falls to 0.35 of the median far from the camera; 0.4 is the floor measured on hard and
real-texture 0-119, where the smallest loose tile it gained was 0.62)."""


@dataclass
class LooseHex:
    H: np.ndarray        # plane → working image, cell (0, 0) is the tile
    shift: np.ndarray
    centre: np.ndarray   # working-image pixel
    spot: bool = False   # found as a tile-sized place in a blob, not as a hexagon blob
    reposed: bool = False  # turned or resized since first placed (repose)
    own: np.ndarray | None = None  # the hexagon fitted to the tile's blob, if one was
    twin: int | None = None  # a place that may be the same tile's, placed otherwise (TWIN)


TANTRIX_TILES = 3
"""Read cells in a group this large or larger are a Tantrix (the board); smaller groups
may be loose tiles that happen to sit on the lattice's cells."""


def tantrix(cells: Any) -> set[tuple[int, int]]:
    """The Tantrix among read cells (an iterable of (q, r)): their largest touching group
    when it holds :data:`TANTRIX_TILES` or more, else the empty set."""
    groups = components(cells)
    return groups[0] if groups and len(groups[0]) >= TANTRIX_TILES else set()


def off_lattice_hexagons(mask: np.ndarray, link: np.ndarray, lat: Lattice, occ: np.ndarray,
                          shifts: np.ndarray, strong: np.ndarray, dark: np.ndarray | None = None
                          ) -> tuple[list[LooseHex], np.ndarray]:
    """Single-tile blobs that do not sit on the lattice, as one-cell lattices.

    The blobs are the tile mask's and, with ``dark`` (the grey bodies, bool H×W), those of
    the bodies alone (``bodies.body_hexagons``) that the mask's do not already give.

    Returns the loose hexagons and a bool mask of the occupied cells to keep: a cell that
    only "found" a loose tile (the tile's own hexagon is turned against the lattice or
    off the cell's centre) is dropped in favour of the hexagon.
    """
    keep = np.ones(len(occ), bool)
    if len(occ) == 0:
        return [], keep
    centres = lat.to_image(occ.astype(np.float64) @ BASIS.T + shifts)
    size = lattice.median_cell_size(lat, occ)
    main = tantrix(tuple(int(v) for v in c) for c in occ[strong])
    blobs: list[bodies.Hexagon] = []
    single = bodies.single_hexagons(mask, min_size=max(4.0, MIN_BLOB * size))
    if dark is not None:
        top = CLEAN_LOOSE[0] * LOCAL_SIZE[1] * size  # (the largest loose tile taken below)
        single += [hx for hx in bodies.body_hexagons(dark, size, max(4.0, MIN_BLOB * size), top)
                   if all(np.linalg.norm(hx.centre - o.centre) >= 0.5 * size for o in single)]
    def local(points: np.ndarray) -> np.ndarray:
        return np.clip(lat.size_at(points), LOCAL_SIZE[0] * size, LOCAL_SIZE[1] * size)

    for hx, here in zip(single, local(np.array([hx.centre for hx in single]).reshape(-1, 2))):
        top = CLEAN_LOOSE[0] if hx.iou >= CLEAN_LOOSE[1] else LOOSE_SIZE[1]
        if not LOOSE_SIZE[0] * min(here, size) < hx.size < top * max(here, size):
            continue
        d = np.linalg.norm(centres - hx.centre, axis=1)
        i = int(np.argmin(d))
        if d[i] < 1.2 * size:
            # compare the blob's corner directions with the lattice's there
            turn = lat.turn_against(occ[i].astype(np.float64) @ BASIS.T + shifts[i], hx.M)
            if turn < 8 and d[i] < 0.3 * size:
                continue  # the blob is that cell's tile
            if tuple(int(v) for v in occ[i]) in main:
                continue  # part of the Tantrix
            keep[d < 1.2 * size] = False
        blobs.append(hx)
    # tiles whose blob is no clean hexagon (touching a face-down tile, a cloth's print):
    # tile-sized places in such blobs, and tile-sized patches of links (a tile the mask
    # misses), away from the Tantrix and the loose ones found.  A place off a cell's
    # centre that is not the Tantrix's may be a loose tile turned against the lattice,
    # which reads as no tile in the cell's turn: it is read too (which of the two is
    # given: see read_off_lattice)
    # The links of the Tantrix's cells are left out of the patches (closed with them, a
    # loose tile a few pixels off the board joins the board's patch), and so are those
    # of the cells held beside them (a board tile under a hand or read weakly leaves
    # scraps of links that are no loose tile's).  More than MAX_LINK_SPOTS patches: a
    # print of the cloth's.
    rim = main | frontier(main)
    on_board = [i for i, c in enumerate(occ) if tuple(int(v) for v in c) in rim]
    board = list(lat.hexagons(occ[on_board], shifts[on_board])) if on_board else None
    links = bodies.link_spots(link, size, MAX_LINK_SPOTS, board=board, local=local)
    found = [hx.centre for hx in blobs]
    places: list[np.ndarray] = []
    spots = bodies.tile_spots(mask, size)
    # (per entry of ``found``: found as a place in the mask, and its twin's index)
    in_mask, twin = [False] * len(found), [None] * len(found)
    for j, c in enumerate(spots + links):
        if found:
            d = np.linalg.norm(np.asarray(found) - c, axis=1)
            k = int(np.argmin(d))
            if d[k] < size:
                if j >= len(spots) and in_mask[k] and twin[k] is None and d[k] >= TWIN * size:
                    # a patch of links off a tile-sized place: one of the two is the
                    # tile's middle (the place may take in its shadow, the patch lose a
                    # link to glare), so both are read and the better kept
                    twin[k] = len(found)
                    places.append(c)
                    found.append(c)
                    in_mask.append(False)
                    twin.append(k)
                continue
        d = np.linalg.norm(centres - c, axis=1)
        i = int(np.argmin(d))
        if d[i] < 1.2 * size and tuple(int(v) for v in occ[i]) in main:
            continue
        places.append(c)
        found.append(c)
        in_mask.append(j < len(spots))
        twin.append(None)
    out = []
    if found:
        owns = [hx.M for hx in blobs] + [None] * len(places)
        ones = frames.upright(hexagons_at(link, lat, np.array(found), owns)[0])
        own_up = frames.upright(np.array([lattice.affine(M, found[k]) for k, M in enumerate(owns[:len(blobs)])]))
        for k, H in enumerate(ones):
            own = own_up[k] if k < len(blobs) else None
            out.append(LooseHex(H, np.zeros(2), found[k], spot=k >= len(blobs), own=own,
                                twin=twin[k]))
    return out, keep


TWIN = 0.3
"""A patch of link colour (``bodies.link_spots``) within a cell's size of a tile-sized place
in the tile mask (``bodies.tile_spots``) but this many sizes or more from it is read as
well, as its twin (``LooseHex.twin``), and the twin that reads better is kept
(:func:`read_off_lattice`): the place's blob may take in the tile's shadow on a light
table (real-texture-28's tile 20, its place 0.5 tiles off), the patch lose a link's end
to glare or take in a neighbour's (real-texture-17's tile 33, its patch 0.4 tiles off)."""


MAX_LINK_SPOTS = 16
"""More tile-sized patches of link colour than this are a cloth's print, not loose tiles
(hard-171's flowered cloth made 50 to 250 of them, and a board's cells misread among
them; the photos whose loose tiles they found had up to 14, session 51's count on hard
and real-texture 0-119).  24 until session 67: video-720p-13's flowered cloth makes 20,
and 8 of them became places, each read in 21 turns (3-6 ms of the 720p median frame's
~62-80 ms, timed in one process); over hard and real-texture 0-199 and video-720p 0-14,
20 photos make 17-24 in some look, and with 16 every read gives the same tiles, loose
tiles and unreadable cells (one unreadable cell's confidence moved: 0.03 → 0.12)."""


LOOSE_TURNS = np.arange(0.0, 60.0, 3.0)
"""Turns (degrees) at which a loose tile's hexagon is tried in the lattice's own shape."""


_LOOSE_ROTATIONS = np.array([search.turn(a) for a in LOOSE_TURNS])


_LOOSE_TURNS3 = np.array([np.block([[R, np.zeros((2, 1))], [np.zeros((1, 2)), np.ones((1, 1))]])
                          for R in _LOOSE_ROTATIONS])


def hexagons_at(link: np.ndarray, lat: Lattice, centres: np.ndarray,
                    owns: list | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The 3x3 maps (unit plane hexagon → working image), (N, 3, 3), of loose tiles at
    ``centres`` (N, 2) (working px), and their hexagon contrast (N,).

    A loose tile lies on the table's plane, so it has the lattice's cells' size and
    perspective there, turned its own way: of the lattice's cell there at each of
    :data:`LOOSE_TURNS` and the hexagon fitted to the tile's blob, ``owns[i]`` (2x2, or
    None; a blurred tile's shadow or thick side makes it too big), the one whose
    midpoints show links and corners none, settled on the links, is taken."""
    centres = np.asarray(centres, np.float64).reshape(-1, 2)
    n, k = len(centres), len(LOOSE_TURNS)
    A = np.zeros((n, k + 1, 3, 3))
    A[:, :k, :2, :2] = _LOOSE_ROTATIONS
    A[:, :k, :2, 2] = lat.to_plane(centres)[:, None]
    A[:, :k, 2, 2] = 1.0
    Hs = lat.H @ A
    for i in range(n):
        own = None if owns is None else owns[i]
        Hs[i, k] = Hs[i, 0] if own is None else lattice.affine(own, centres[i])
    # (all at once: one at a time cost a 720p frame with a cloth's print 11 ms)
    contrast = lattice.hexagon_contrast(link, Hs.reshape(-1, 3, 3)).reshape(n, k + 1)
    best = contrast.argmax(1)
    return Hs[np.arange(n), best], contrast[np.arange(n), best]


def hexagon_samples(link: np.ndarray, full: np.ndarray, S: np.ndarray, hexes: list[LooseHex]
                   ) -> tuple[np.ndarray, np.ndarray]:
    """Edge (N, 6, 3) and corner (N, 6, 3) samples of the loose hexagons on the decoded
    image ``full`` (``S``: working → decoded pixels), all at once; sets each ``shift``,
    and moves the ``H`` and ``centre`` of a place searched again (see below).

    The blob's hexagon is rough: it is settled on its links like any lattice cell."""
    Hs = np.array([hx.H for hx in hexes]).reshape(-1, 3, 3)
    shifts = lattice.hexagon_shifts(link, Hs)
    # a place (not a blob's hexagon) whose links settle as far as the search reaches lies
    # farther off the tile's middle (a patch of links is centred on where the links are,
    # not on the tile): searched again from there, once (video-720p-5: read from a place
    # a third of a cell off, a loose tile was given as tile 55, wrongly).  A blob's
    # hexagon is centred on its body: moved so, real-texture-58's tile 33 went astray
    far = np.nonzero((np.abs(shifts) >= lattice.SEARCH_REACH - 1e-9).any(1)
                     & np.array([hx.spot for hx in hexes], bool))[0]
    if len(far):
        T = np.tile(np.eye(3), (len(far), 1, 1))
        T[:, :2, 2] = shifts[far]
        Hs[far] = Hs[far] @ T
        shifts[far] = lattice.hexagon_shifts(link, Hs[far])
        for k in far:
            hexes[k].H = Hs[k]
            hexes[k].centre = Hs[k][:2, 2] / Hs[k][2, 2]
    for hx, sh in zip(hexes, shifts):
        hx.shift = sh
    return sampling.sample_hexagons(full, S @ Hs, shifts)


REPOSE_SCALES = (0.85, 0.92, 1.0)
"""Sizes, as shares of its first hexagon, at which a loose tile read poorly is tried again
(:func:`repose`): a cell of the lattice holds a tile and the gap round it, so a
loose tile given the cells' shape is most often a little smaller than its hexagon."""


REPOSED_READ = (0.85, 0.99)
"""The fit and confidence a pose tried for a loose tile (:func:`repose`) must read
at to replace its first hexagon: the best of some seventy poses of a patch of cloth, or of
a face-down tile's number, fits some tile better than one pose does.  (Hard and
real-texture 0-119, with the plain bar of a loose tile: 20 tiles more found, 5 places
invented, 5 face-down tiles read as tiles; with this bar: 14, 3 and 2.)"""


CROWDED_READ = (0.9, 0.999)
"""... and among more than :data:`MAX_REPOSED` places read poorly, where only the hexagon
blobs are tried again (:func:`repose`), the fit and confidence a blob's new pose
must read at: a floral cloth's blobs reposed read other tiles at confidence 0.993-0.995
(hard-82), the loose tiles beside a wooden table's two dozen places at 0.9994 (hard-12)."""


SHAPED_BY = 3
"""Board cells read clearly that show the lattice's cells have the table's shape (size and
slant): a loose place with no blob of its own is tried again only in that shape
(:func:`repose`); a lattice laid on an empty table has any shape, and the best of
sixty poses of its hexagon over real-texture-168's lone tiles read other tiles surely."""


MAX_REPOSED = 6
"""More loose places read poorly than this are mostly a cloth's print (a 720p frame on a
dotted cloth had 24): none is tried again (:func:`repose`).  Each costs some 4 ms;
at 8, video-720p frame 9's 7 places took 29 ms, and the 720p median frame 0.063 s (the
loose tiles found on hard and real-texture 0-199 lay among up to 8 such places; at 6, 3
of them are not)."""


def repose(link: np.ndarray, full: np.ndarray, S: np.ndarray, hexes: list[LooseHex],
                  edges: np.ndarray, corners: np.ndarray, model: colours.ColourModel,
                  readings: list, shaped: bool) -> np.ndarray:
    """Loose hexagons whose ``readings`` are not clear (:func:`acceptance.clear`), tried again: at
    every :data:`LOOSE_TURNS` turn and :data:`REPOSE_SCALES` size of their first hexagon,
    and near the turn of their blob's own hexagon (``LooseHex.own``) at those sizes,
    each pose settled on its links.  The pose that reads one tile surely
    (:data:`REPOSED_READ`) and fits best replaces the first hexagon when it fits
    :data:`acceptance.CLEARLY_BETTER`: the hexagon's ``H``, ``shift`` and ``reposed``, and its rows
    of ``edges`` and ``corners`` (N, 6, 3), sampled on ``full`` (``S``: working → ``full``
    pixels), change in place.  Places with no blob of their own are tried only when the
    lattice's cells have the table's shape (``shaped``, see :data:`SHAPED_BY`).  A blob's
    poses are also settled on its colours (:func:`settle_by_colours`).  Returns which
    hexagons moved, (N,) bool.

    A loose tile's first hexagon is the one whose midpoints show the most link colour; a
    link that runs along an edge, or a tile smaller than the cells, turns or slides it off
    the tile: real-texture-10's lone tile, 119 px across on a plain brown table, read at
    fit 0.15 as first placed and at 0.89 (right, confidence 1.0) turned and a tenth
    smaller."""
    moved = np.zeros(len(hexes), bool)
    # (a patch of links read as a place's twin is not tried again: each costs some 4 ms,
    # and more places would go over MAX_REPOSED)
    poor = [k for k, rd in enumerate(readings)
            if not acceptance.clear(rd) and (shaped or hexes[k].own is not None)
            and not (hexes[k].twin is not None and hexes[k].twin < k)]
    bar = REPOSED_READ
    if len(poor) > MAX_REPOSED:
        # many places (a cloth's print, a wooden table's grain): the hexagon blobs among
        # them are still tried, and must read surer (CROWDED_READ)
        poor, bar = [k for k in poor if hexes[k].own is not None], CROWDED_READ
    if not poor or len(poor) > MAX_REPOSED:
        return moved
    poses = np.array([np.diag([s, s, 1.0]) @ A for s in REPOSE_SCALES for A in _LOOSE_TURNS3])
    # about the first hexagon, every turn; about the blob's own (its shape holds the
    # view's slant where the lattice's does not: a lone tile on an empty table, read on a
    # lattice of one cell), near its own turn
    near = np.array([np.diag([s, s, 1.0]) @ A for s in REPOSE_SCALES
                     for A in _LOOSE_TURNS3[np.r_[-2:3]]])
    own = [hexes[k].own if hexes[k].own is not None else hexes[k].H for k in poor]
    Hs = np.concatenate([np.array([hexes[k].H for k in poor])[:, None] @ poses[None],
                         np.array(own)[:, None] @ near[None]], axis=1)
    # each pose settled on the link image; a blob's poses, again, on its links as the
    # photo's learnt colours see them (settle_by_colours, COLOUR_REACH)
    per = Hs.shape[1]
    shifts = lattice.hexagon_shifts(link, Hs.reshape(-1, 3, 3)).reshape(len(poor), per, 2)
    blobs = [j for j, k in enumerate(poor) if hexes[k].own is not None]
    if blobs:
        by_colours = settle_by_colours(full, S, model, Hs[blobs], link.shape)
        Hs = np.concatenate([Hs, Hs[blobs]])
        shifts = np.concatenate([shifts, by_colours])
    rows = poor + [poor[j] for j in blobs]   # (the hexagon each row of poses is for)
    Hs, shifts = Hs.reshape(-1, 3, 3), shifts.reshape(-1, 2)
    e, c = sampling.sample_hexagons(full, S @ Hs, shifts)
    read = identify.identify(colours.log_probs(e, model), unique=False)
    fit = np.array([r.fit for r in read]).reshape(len(rows), per)
    sure = np.array([r.confidence >= bar[1] for r in read]).reshape(fit.shape)
    close = np.linalg.norm(shifts, axis=1).reshape(fit.shape) <= COLOUR_REACH
    close[:len(poor)] = True
    fit = np.where(sure & close, fit, 0.0)   # (the poses that read one tile surely)
    for k in poor:
        j = max((j for j, row in enumerate(rows) if row == k), key=lambda j: fit[j].max())
        b = int(np.argmax(fit[j]))
        if fit[j, b] >= max(bar[0], readings[k].fit + acceptance.CLEARLY_BETTER):
            i = j * per + b
            hexes[k].H, hexes[k].shift, hexes[k].reposed = Hs[i], shifts[i], True
            edges[k], corners[k] = e[i], c[i]
            moved[k] = True
    return moved


def settle_by_colours(full: np.ndarray, S: np.ndarray, model: colours.ColourModel,
                      Hs: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
    """Shifts (N, K, 2) (plane units) settling K poses ``Hs`` (N, K, 3, 3) of each of N loose
    places (maps unit plane hexagon → working image, of ``shape``) on their links, as the
    learnt colour ``model`` sees them (``colours.link_chance``) on a crop of ``full``
    round each place (``S``: working → ``full`` pixels, affine).

    The link image the poses are first settled on is made before any tile is read: a
    dim tile's dark blue and green links hardly show in it, and its one yellow link
    pulls the hexagon off the tile's middle (hard-12's loose tile 50, on a wooden
    table: settled 16 px off on a 28 px hexagon, where its links read only within
    5 px of it; settled on its colours, 5 px off, and read right at fit 0.97).

    The crops are resampled from ``full`` rather than cut from the working image the link
    image was made from: that copy is shrunk by area averaging, which blurs a small
    tile's links into its body (hard-16's loose tile 29, 20 px across, read right from
    ``full``'s crop and not from the working copy's)."""
    out = np.zeros((*Hs.shape[:2], 2))
    # (the crop holds every pose's hexagon slid as far as the search goes, and a margin
    # for the sampling round its corners; a crop cut to nothing by the image's edge
    # leaves its poses unsettled)
    reach = (1.0 + lattice.SEARCH_REACH) * 1.1
    to_work = np.linalg.inv(S)
    for j, poses in enumerate(Hs):
        corners = poses @ np.c_[reach * lattice.CORNERS, np.ones(6)].T   # (K, 3, 6)
        xy = (corners[:, :2] / corners[:, 2:]).transpose(0, 2, 1).reshape(-1, 2)
        x0, y0 = np.maximum(np.floor(xy.min(0)).astype(int), 0)
        x1, y1 = np.minimum(np.ceil(xy.max(0)).astype(int) + 1, (shape[1], shape[0]))
        if x1 - x0 < 4 or y1 - y0 < 4:
            continue
        T = np.array([[1.0, 0.0, -x0], [0.0, 1.0, -y0], [0.0, 0.0, 1.0]])
        crop = cv2.warpAffine(full, (T @ to_work)[:2], (int(x1 - x0), int(y1 - y0)),
                              flags=cv2.INTER_LINEAR)
        out[j] = lattice.hexagon_shifts(colours.link_chance(crop, model), T @ poses)
    return out


COLOUR_REACH = 0.25
"""Farthest (plane units, a hexagon's centre-to-corner size) a loose blob's pose settled
on its colours (:func:`settle_by_colours`) may slide and still be read (:func:`repose`).
The learnt colours see a cloth's coloured print and a face-down tile's number as links
too, and poses slid onto them read tiles surely: on hard 60-119, three face-down tiles
(hard-61, -93) and a loose tile read as another (hard-84), slid 0.31 to 0.45.  The tiles
read right slid 0.10 to 0.22 (hard-12's 50 and 30, and hard-113's 1, a place): a
blob's hexagon, fitted to the tile's body, lies within a fifth of a tile of its middle.
A tile-sized place with no blob of its own is not settled so: hard-93's face-down 50, as
such a place, read as tile 24 at confidence 0.995 slid 0.2."""


CLEANER_SPOT = 0.1
"""A tile-sized place whose own hexagon reads another tile this much more cleanly (fit)
than the clear cell there is read as that tile; the cell gives way.  Tiles scattered on
a table sit anywhere between the cells of whatever lattice is fitted to them: a cell
half on a wooden table read the wood as red links (real tile 51 as tile 2 at fit 0.84,
confidence 0.996, where the tile's own hexagon read 51 at 0.98)."""


def read_off_lattice(hexes: list[LooseHex], readings: list, body: np.ndarray, keep: list,
                       bad: list, size: float, ws: float
                       ) -> tuple[list[tuple[LooseHex, dict]], list, list]:
    """The loose tiles read off the lattice (``hexes`` and their ``readings``, ``body``
    their corners' body share), as (hexagon, loose item) pairs; and the cells ``keep``
    and ``bad`` left.

    A tile-sized place (``LooseHex.spot``) has less to show it is a tile than a hexagon
    blob: it must read as clearly as a lone tile.  When it lies on a cell (within 0.8
    ``size``, photo px) that reads clearly, it is that cell's tile, unless it reads another
    tile much more cleanly (:data:`CLEANER_SPOT`); otherwise the cell there is the same
    tile, read in the lattice's turn instead of its own, and gives way.
    """
    out = []
    for k, (hx, rd, b) in enumerate(zip(hexes, readings, body)):
        if hx.twin is not None and (readings[hx.twin].fit, -hx.twin) > (rd.fit, -k):
            continue  # its twin reads better, or as well and comes first (see TWIN)
        # (a round coloured dot on a cloth fits a hexagon too: a tile has a grey body,
        # though a small blurred one's links bleed into its corners: SPOTLESS_LOOSE)
        if (not acceptance.readable_loose(rd, b) or rd.pushed or (hx.spot and not acceptance.clear(rd))
                or (hx.reposed and (rd.fit < REPOSED_READ[0] or rd.confidence < REPOSED_READ[1]))):
            continue
        at = hx.centre / ws
        if hx.spot:
            def here(it):
                return np.linalg.norm(it[2] - at) < 0.8 * size
            if any(here(it) and acceptance.clear(it[1]) and not it[1].pushed
                   and (it[1].tile == rd.tile or it[1].fit > rd.fit - CLEANER_SPOT) for it in keep):
                continue
            keep = [it for it in keep if not here(it)]
            bad = [it for it in bad if not here(it)]
        out.append((hx, loose_item(rd, at)))
    return out, keep, bad


OWN_SHOWN = 0.5
"""Least share of every link's path a loose tile's face shows on the hexagon fitted to
its blob (``LooseHex.own``), when the hexagon it was read on shows less than
:data:`faces.LEAST_SHOWN` of some path (:func:`face_up_items`).  The hexagon read on
has the lattice's cell shape there, turned and settled on the links; away from the
board the lattice's slant may not be the table's, and real-texture-18's lone tile 55
(128 px, blurred, on a light table), read right on a hexagon a fifth too small and
a few degrees turned, showed none of its green bend there and 5 of 6 points on its
blob's hexagon.  A second pose is a second chance for a face-down tile's back too, so
it must show more: on hard and real-texture 0-99 (the whole photo's looks), two
off-lattice hexagons missed a path and showed a quarter of every path on their blob's
hexagon, that tile and a back on hard-51, which showed no more than a third."""


def face_up_items(full: np.ndarray, S: np.ndarray, lat_full: Lattice, model: colours.ColourModel,
                  isolated: list, shifts: dict, found: list[tuple[LooseHex, dict]]) -> list[dict[str, Any]]:
    """The loose tiles to report: the ``isolated`` lattice cells ((q, r), reading, pixel;
    their plane ``shifts`` by cell) and the hexagons ``found`` off the lattice, as loose
    items, keeping only those whose faces show every link their reading claims
    (:func:`faces.face_up`, sampled on ``full``; ``S``: working → ``full`` pixels).

    The six link ends alone let a face-down tile pass: its back's one-coloured number,
    with the cloth round it, reads as some tile at confidence up to 0.9994
    (real-texture-26); the links' paths are not there.  A tile read with doubt (under
    ``acceptance.CHECK_CONFIDENCE``) must also show black body between its links
    (:data:`UNSURE_BODY`): a flower of a cloth's print can show six ends and paths."""
    cells = [(c, rd, px) for c, rd, px in isolated if not rd.pushed]
    items = [loose_item(rd, px) for _c, rd, px in cells] + [item for _hx, item in found]
    if not items:
        return items
    Hs = np.concatenate([np.repeat(lat_full.H[None], len(cells), axis=0),
                         np.array([S @ hx.H for hx, _item in found]).reshape(-1, 3, 3)])
    centres = np.concatenate([
        np.array([np.asarray(c, np.float64) @ BASIS.T + shifts[c] for c, _rd, _px in cells]).reshape(-1, 2),
        np.array([np.asarray(hx.shift, np.float64) for hx, _item in found]).reshape(-1, 2)])
    placements = [(it["tile"], it["rotation"]) for it in items]
    up = faces.face_up(full, Hs, centres, placements, model)
    # a hexagon found off the lattice that misses its paths is looked at once more, on the
    # hexagon fitted to its blob (see OWN_SHOWN)
    again = [(k, hx) for k, (hx, _item) in enumerate(found, start=len(cells))
             if not up[k] and hx.own is not None]
    if again:
        rows = [k for k, _hx in again]
        up[rows] = faces.face_up(full, np.array([S @ hx.own for _k, hx in again]),
                                 np.zeros((len(rows), 2)), [placements[k] for k in rows],
                                 model, least=OWN_SHOWN)
    unsure = np.array([it["confidence"] < acceptance.CHECK_CONFIDENCE for it in items])
    if unsure.any():
        rows = np.nonzero(unsure)[0]
        shown = faces.body_shares(full, Hs[rows], centres[rows], [placements[k] for k in rows], model)
        up[rows] &= shown >= UNSURE_BODY
    return [it for it, ok in zip(items, up) if ok]


UNSURE_BODY = 0.45
"""Least share of its body points (``faces.body_shares``) a loose tile read under
``acceptance.CHECK_CONFIDENCE`` must show as grey body (:func:`face_up_items`).  On hard
and real-texture 0-119 and the 40 scattered tables (session 118), the loose tiles given
under that confidence were 6 right, showing 0.52 to 1.0, and 6 wrong, showing 0.11 and
0.37 (a flower of scattered scene 13's cloth read as tile 26, scene 11's 54) and 0.58 to
1.0 (wrong numbers on real tiles, which keep their bodies)."""


def loose_item(rd: identify.Reading, px: np.ndarray) -> dict[str, Any]:
    return {"tile": rd.tile, "rotation": rd.rotation, "confidence": round(rd.confidence, 4),
            "pixel": [round(float(px[0]), 1), round(float(px[1]), 1)]}
