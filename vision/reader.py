"""Photo → Board: the reader's pipeline, stage by stage.

decode (image_io) → working copy, Lab, link image (colours) → lattice (lattice, bodies)
→ cells with a tile (link colour on the midpoints, black corners) → edge samples →
per-photo colour model + joint identification, iterated (colours, identify) → frame so
that ``r`` runs down the photo → Board with reader extras; off-lattice tiles → ``loose``.
"""
from __future__ import annotations

import time
from contextlib import nullcontext
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from typing import Any, Callable

import cv2
import numpy as np

from referee.board import Board
from referee.hexgrid import components, distance, neighbours
from referee.matching import facing_colours, fits, touching_edges
from referee.tiles import rotated_edges

from . import (acceptance, balance, bodies, colours, cover, faces, frames, framing, haze, identify,
               lattice, looklog, loose, missing_colour, patches, region, sampling, search, second_look,
               shading, table)
from .identify import NUMBERS, Reading
from .image_io import Photo, load_photo
from .lattice import BASIS, CORNERS, Lattice
from .order_stats import median
from .sampling import sample_cells

WORK_SIDE = 800
"""Longest side of the working image used for finding tiles (px)."""

MANY_CELLS = 84
"""More occupied cells than this (1.5 sets of 56) means the lattice lies over a patterned
table (see :func:`_analyse_once`)."""


SCATTERED_GROUPS = 3
TILE_COVER = 0.7
"""A read in this many groups, none of three cells, keeps only cells whose hexagon the
tile mask covers this much, or half as much for a clean reading (see
:func:`_on_tiles_if_scattered`)."""


BIG_WORK_SIDE = 1200
"""Longest side of the working image for photos larger than 2000 px."""

MAX_WORK_SIDE = 2400
"""Largest working image (px) used when tiles are small."""

SMALL_TILE = 12.0
"""Below this cell size (centre to corner, working px) the photo is looked at again larger."""

POOR_SHARE = 0.5
"""A lattice whose judged cells read this badly (soft count / cells) is looked for again
on a larger working image too."""

DOUBTFUL_SHARE = 0.9
"""A read on a rectified photo whose lattice score (soft count of cells read cleanly) is
under this share of the tiles kept is compared with a read of the photo as taken."""

CAMERA_GREY_APART = 1.0
"""The camera-grey look is tried only when the photo's estimated grey is this far (Lab a/b
units) from the camera's."""

DENSE_FROM, DENSE_RAMP = 0.2, 0.15
"""The dense look's gate: link counts where grey bodies cover this share of the window
round it (a cloth dot with a dark rim is closed over by the plain gate)."""

HELD = 2
"""Clear neighbours a cell needs to be read for a glare-washed tile."""

VEIL_ROUNDS = 3
"""Rounds of reading glare-washed cells: cells read clearly in one round count as clear
neighbours in the next (hard-80: a patch of glare over five tiles at the board's edge)."""

LIFTED = 12.0
"""Lab lightness by which a clear cell's corners must exceed the typical body's to be
read again cleared of glare."""


REGION_DEPTH = 2
"""How many crops deep a poor read looks for the tiles' region: on a large dim photo the
first box holds much of the table round a small group, and its read is poor too; the
region found within that crop is tight round the tiles (hard-21: 0 -> 3 of 3)."""

REGION_SHARE = 0.7
"""A region is read only when its box is clearly smaller than the image it was found in,
and when it could hold more tiles than the read of the whole photo gave
(:func:`_room_for_more`)."""

BRIGHT_KERNEL = 15
"""Top-hat kernel (working px) of the bright look: wider than a small tile's link band,
narrower than its body between links (hard-48's cells are 18 px centre to corner on the
working image enlarged for them)."""

MAX_ENLARGE = 2.0
"""The most a small photo is enlarged for that second look."""

WEAK_CONTRAST = 0.15
"""Faint cells down to this contrast are read if they touch a clear cell and read clearly."""


@dataclass
class Scene:
    """Intermediate results of one read (kept for the overlay and for debugging)."""

    photo: Photo
    work: np.ndarray
    work_scale: float                  # work pixel = original pixel * work_scale
    lattice: Lattice | None = None
    cells: np.ndarray = field(default_factory=lambda: np.zeros((0, 2), int))
    readings: list = field(default_factory=list)
    unreadable: list = field(default_factory=list)
    loose: list = field(default_factory=list)
    frame_steps: int = 0
    shifts: dict = field(default_factory=dict)   # cell -> plane shift found for it
    origin: np.ndarray = field(default_factory=lambda: np.zeros(2))  # original px of work's (0, 0)
    covered: int = 0                   # lattice cells whose middle the tile mask covers
    neutral: np.ndarray | None = None  # the Lab a/b taken as grey
    body_grey: bool = False            # ... taken from the tiles' bodies (see _body_grey)
    link: np.ndarray | None = None     # the link image the lattice was found on (work px)
    mask: np.ndarray | None = None     # the tile mask (work px)
    split_off: list = field(default_factory=list)  # lattice reads given as loose (_split_isolated)
    box: tuple | None = None           # original px (x0, y0, x1, y1) of the crop read, if one was


def _working_copy(photo: Photo, side: int = 0, enlarge: bool = False) -> tuple[np.ndarray, float]:
    img = photo.image
    h, w = img.shape[:2]
    if side <= 0:
        # big photos usually show many (hence smaller) tiles: keep more pixels for them
        side = WORK_SIDE if max(photo.width, photo.height) <= 2000 else BIG_WORK_SIDE
    f = min(MAX_ENLARGE if enlarge else 1.0, side / max(h, w))
    if f < 1.0:
        img = cv2.resize(img, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA)
    elif f > 1.0:
        img = cv2.resize(img, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_CUBIC)
    return img, photo.scale * (img.shape[1] / photo.image.shape[1])


def _with_weak_neighbours(cells: np.ndarray, con: np.ndarray) -> np.ndarray:
    """Cells to read: clear ones, and faint ones (blur, glare, a tile at the photo's
    edge) that touch a clear one; the faint ones must then read clearly to be kept."""
    strong = con > lattice.occupied()
    weak = (con > WEAK_CONTRAST) & ~strong
    if not weak.any():
        return strong
    return strong | (weak & _touching(cells, cells[strong]))


def _touching(cells: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Which of ``cells`` (N, 2) touch a cell of ``others`` (M, 2), (N,) bool."""
    near = {n for c in others.tolist() for n in neighbours((int(c[0]), int(c[1])))}
    return np.array([tuple(c) in near for c in cells.tolist()], bool).reshape(len(cells))


BRIGHT_CELL = 20.0
"""The bright look is tried only for reads of fewer than three tiles or of cells smaller
than this (centre to corner, original px): its kernel suits small tiles (on large ones
it won only by chance: hard-98, two tiles read as loose ones), and it costs a look."""


SMALL_BOARD_TILES = 3
"""The faint and own-bright looks' reads are kept only when they read at least this many
tiles, and cells smaller than :data:`BRIGHT_CELL` (:func:`_small_board`)."""


def _small_board(scene: Scene, current: Scene | None) -> bool:
    """Is the faint look's read (``lattice.faint_links``; or the own-bright look's,
    ``second_look.OWN_BRIGHT_LOOK``) a board of small tiles, reading more of it than
    ``current``, the best read so far?  The faint look's lower bar lets a patterned
    cloth or a large tile's glare pass for links too: on hard and real-texture 0-199 it
    invented tiles on large-tile photos and on an empty table (real-texture-67), read two
    blobs of hard-11's floral cloth as tiles, and a stripe beside hard-8's board as a
    loose tile, whose half point of quality won over the same 40 board tiles.  A read
    failing this is not made at all, so it lends no loose tiles either."""
    return (scene.lattice is not None and len(scene.readings) >= SMALL_BOARD_TILES
            and second_look.cell_size(scene) < BRIGHT_CELL
            and (current is None or len(scene.readings) > len(current.readings)))


def _clean_group(scene: Scene, current: Scene | None) -> bool:
    """Is the faint look's read a clean group of tiles where the best read so far
    (``current``) read fewer than :data:`SMALL_BOARD_TILES`: a Tantrix that reads cleanly
    (``second_look.reads_cleanly``: every tile, and nothing else), on a lattice whose cells
    read cleanly too?  Large tiles' links can be too faint in the other looks for the search to
    fit more than two cells: a rhombus of four real tiles 130 px across on a light table,
    read 2 of 4 by the first look with three unreadable cells, all 4 by the faint look.
    The faint look's inventions (see :func:`_small_board`) were single tiles, blobs and
    stripes of cloths, loose tiles: none such a group."""
    n = len(scene.readings)
    return (current is not None and len(current.readings) < SMALL_BOARD_TILES <= n
            and scene.lattice is not None and scene.lattice.score >= second_look.CLEAN_SHARE * n
            and second_look.reads_cleanly(scene) and second_look.has_tantrix(scene))


def _maybe_small(scene: Scene) -> bool:
    """Could the tiles of a poor read be small ones the bright look would see?"""
    return (len(scene.readings) < 3 or scene.lattice is None
            or second_look.cell_size(scene) < BRIGHT_CELL)


def link_and_mask(lab: np.ndarray, profile: Any = None, look: str = "gated",
                  neutral: np.ndarray | None = None
                  ) -> tuple[colours.ColourModel, np.ndarray, np.ndarray] | None:
    """Initial colour model, link image (0..1) and tile mask of a working-scale Lab image.

    Links lie inside grey bodies, so the link image is gated by the bodies closed over the
    links' width (a band is about a quarter of a tile size wide; tiles on a working image
    are at most ~100 px in size).  (Remaking the gate to the measured tile size was tried
    and lost accuracy on every tier.)  ``look`` (see ``second_look.LOOKS``) says how;
    ``None`` when that look would see nothing the others do not.
    """
    dark = bodies.dark_mask(lab)
    # the grey: one given (the body-grey look, the grey beside the links, a live camera's
    # frames after a body-grey frame), else the profile's, else the photo's own (measured
    # only then)
    if neutral is None:
        neutral = getattr(profile, "neutral", None)
    model = _profile_means(colours.initial_model(lab, dark, neutral), profile)
    if look == "camera-grey":
        # the darkest grey pixels may be a dark cloth, not the tile bodies: take the
        # camera's own white balance for grey instead
        if profile is not None and getattr(profile, "neutral", None) is not None:
            return None
        if np.hypot(*model.neutral) < CAMERA_GREY_APART:
            return None
        model.neutral = np.zeros(2, np.float32)
    radius = max(10, round(max(lab.shape) / 50))
    gate = bodies.body_region(dark, radius) if look != "ungated" else None
    if look == "dense":
        k = 2 * radius + 1
        dens = cv2.boxFilter(dark.astype(np.float32), -1, (k, k))
        gate = gate * np.clip((dens - DENSE_FROM) / DENSE_RAMP, 0.0, 1.0)
    if look == second_look.LAST_LOOK:
        link = colours.bright_image(lab, gate, BRIGHT_KERNEL)
    elif look == second_look.OWN_BRIGHT_LOOK:
        # (scaled by the links over the first look's tile mask, and gated by it)
        first = _smoothed_and_mask(lab, colours.link_image(lab, model.neutral, gate))[1] > 0
        link = colours.bright_image(lab, first, BRIGHT_KERNEL, within=first)
    else:
        link = colours.link_image(lab, model.neutral, gate)
    if look == "diverse":
        link = link * colours.diversity_gate(lab, model.neutral, link, max(lab.shape) / 10)
    return (model, *_smoothed_and_mask(lab, link))


def _smoothed_and_mask(lab: np.ndarray, link: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """A look's link image smoothed a little, and the tile mask made with it."""
    link = cv2.GaussianBlur(link, (0, 0), 1.0)
    return link, bodies.tile_mask(lab, link)


def analyse(source: Any, profile: Any = None, pitch_px: float | None = None,
            prior: search.Prior | None = None, box: tuple | None = None) -> Scene:
    """Run the whole pipeline and keep the intermediate results.

    When the read of the whole photo looks poor, the tiles' region
    (:func:`region.board_region`) is read again on a full-resolution crop (a small group
    on a large photo: more pixels per tile, and colour statistics of the tiles, not of
    the table), and the better read is kept.  (Reading the crop first was tried: the
    region misses some tiles on a third of the photos.)  ``pitch_px``: the expected
    centre distance of touching tiles in ``source``'s pixels, when a table profile knows
    it (a hint to the search); ``prior``: a live camera's previous frame, tried first.
    A read still poor after all that, whose tiles may be small, is made once more by the
    links' lightness, then with a lower bar for a cell to hold a tile, then by the links'
    lightness scaled by the tiles' own (``second_look.LAST_LOOKS``).
    ``box``: within ``search.following_only``, the crop (original px, ``Scene.box``) the
    previous frame was read on: only that crop is read (:func:`_follow_crop`).
    """
    photo = load_photo(source)
    if box is not None:
        scene = _follow_crop(photo, source, profile, pitch_px, prior, box)
    else:
        scene = _analyse_with_region(photo, source, profile, pitch_px, prior, REGION_DEPTH)
        for look in second_look.LAST_LOOKS:
            if not (second_look.wanted(scene) and _maybe_small(scene)):
                break
            # (the last resorts, after every look and the region's: see LAST_LOOKS)
            other = _analyse_once(photo, source, profile, look, pitch_px, prior, current=scene)
            if other is not None and second_look.better(other, scene):
                scene, other = other, scene
            if other is not None:
                _borrow(scene, [other])
    _drop_bare_table(scene)
    _report_hidden(scene)
    _rejoin_split(scene)
    _drop_stray_unreadable(scene)
    return scene


def _split_loose(scene: Scene) -> list[tuple]:
    """The loose tiles of ``scene`` that were read on a lattice cell and split off the
    board (:func:`_split_isolated`): (cell, reading, pixel, loose item)."""
    by_tile = {it["tile"]: it for it in scene.loose}
    return [(c, rd, px, by_tile[rd.tile]) for c, rd, px in scene.split_off
            if rd.tile in by_tile and np.allclose(by_tile[rd.tile]["pixel"], px, atol=0.5)]


def _rejoin_split(scene: Scene) -> None:
    """Give back to the board the tiles split off it as loose (read on a lattice cell,
    touching no tile read) that touch an unreadable cell joined to the board.

    A hand over the board hides a row of its cells; a tile beyond them touches no tile
    read, so :func:`_split_isolated` gave it as loose, but the cells between are reported
    unreadable (:func:`_report_hidden`, which counts such tiles among the tiles round a
    cell) and join it to the board: it lies on the board's lattice, in its turn, as a board
    tile does (hard-10's tile 53 beyond three cells under a hand).  An unreadable cell the
    look itself left (a board tile read poorly) joins the same way; a tile split off beyond
    a cell nobody reported stays loose.  Done on the read finally kept, after
    :func:`_report_hidden`."""
    split = _split_loose(scene)
    if not split or not scene.readings or not scene.unreadable:
        return
    given = []
    unread = {c for c, _rd, _px in scene.unreadable}
    while True:
        # (a tile given back may join the next one, through an unreadable cell beside it)
        have = {c for c, _rd, _px in scene.readings}
        joined = _joined_to_board(scene) & unread
        join = [it for it in split if it[0] not in have and it[0] not in unread
                and any(n in joined for n in neighbours(it[0]))]
        if not join:
            break
        for c, rd, px, item in join:
            scene.readings.append((c, rd, px))
            given.append(item["tile"])
    scene.loose = [it for it in scene.loose if it["tile"] not in given]


def _drop_stray_unreadable(scene: Scene) -> None:
    """Take off the unreadable cells that no chain of cells (tiles read or unreadable
    cells) joins to a tile of the board read.

    A game's tiles all touch, so a board cell unread (under a hand, washed out) joins the
    board; a cell apart from it is something else tile-like on the table: a face-down
    tile, a loose tile too poor to read, a dot or a stripe of the cloth.  The referee counts
    an unreadable cell as occupied, so such a cell would make forced spaces and holes
    where none are.  (Hard and real-texture 0-99: of the 26 such cells, 20 lay where no
    tile lies, 5 on face-down tiles and 1 on a loose tile; none on a board tile.)  With no
    tile read, the unreadable cells are all the read has and stay.

    Done on the read finally kept, like :func:`_drop_bare_table`."""
    if not scene.readings or not scene.unreadable:
        return
    joined = _joined_to_board(scene)
    scene.unreadable = [it for it in scene.unreadable if it[0] in joined]


def _joined_to_board(scene: Scene) -> set:
    """The cells (tiles read and unreadable cells) that a chain of such cells joins to a
    tile read."""
    have = {c for c, _rd, _px in scene.readings}
    cells = list(have | {c for c, _rd, _px in scene.unreadable})
    return set().union(*(g for g in components(cells) if not g.isdisjoint(have)))


def _tight_rim(scene: Scene) -> tuple[float, float, float] | None:
    """The table's BGR colour at the photo's rim when the tile mask of the first look's
    read of the photo reaches the rim (:func:`framing.tight`), else ``None``."""
    if scene.mask is None or not framing.tight(scene.mask):
        return None
    return framing.table_colour(scene.work, scene.mask)


def _reaches_rim(framed: Scene, pad: float, photo: Photo) -> bool:
    """Does a cell of a read of ``photo`` framed with a margin ``pad`` (original px) wide,
    read or unreadable, reach the photo's rim (a corner of it within
    :data:`framing.RIM_SLACK` cell sizes of the rim, or past it)?"""
    cells = np.array([c for c, _rd, _px in framed.readings + framed.unreadable]).reshape(-1, 2)
    if framed.lattice is None or not len(cells):
        return False
    corners = framed.lattice.hexagons(cells) / framed.work_scale - pad    # the photo's own px
    size = lattice.median_cell_size(framed.lattice, cells) / framed.work_scale
    return framing.reaches_rim(corners.reshape(-1, 2), photo.width, photo.height, size)


def _analyse_framed(photo: Photo, profile: Any, pitch_px: float | None,
                    colour: tuple[float, float, float]) -> Scene | None:
    """A read of the decoded photo with a margin of the table's ``colour`` round it
    (:func:`framing.with_margin`), given in the photo's own frame (``origin`` = the
    photo's corner in the framed image, made negative); ``None`` unless a cell its first
    look found, read or not, reaches the photo's rim (:func:`_reaches_rim`).

    When the first look reads poorly the other looks follow (:func:`_analyse_looks`), as
    for any photo (real tile 21's crop: unreadable at the first look, read by a later one).
    Only a close-up is read on: on a cloth of stripes reaching the rim (hard-9) the
    framed first look read 2 tiles of 4 in the photo's middle, wrong, and its poor read
    went on to beat the looks that read all 4.  A framed photo whose first look finds no
    cell at the rim is tried once more shrunk (:func:`framing.close_up_shrink`)."""
    image, m = framing.with_margin(photo.image, colour)
    pad = m / photo.scale                      # the margin in original px
    shrink = framing.close_up_shrink(*photo.image.shape[:2])
    for f in (1.0,) if shrink is None else (1.0, shrink):
        # (the framed photo keeps the decoded photo's scale, times any shrink: ``pitch_px``
        # stays in original px; the full-resolution photo is not reloaded for it, which a
        # close-up does not need)
        if f != 1.0:
            image = cv2.resize(image, None, fx=f, fy=f, interpolation=cv2.INTER_AREA)
        framed = Photo(image, round(photo.width + 2 * pad), round(photo.height + 2 * pad), photo.scale * f)
        sub = _analyse_once(framed, image, profile, second_look.LOOKS[0], pitch_px)
        if sub is not None and _reaches_rim(sub, pad, photo):
            break
    else:
        return None
    if second_look.wanted(sub):
        sub = _analyse_looks(framed, image, profile, pitch_px, first=sub, close_up=False)
    return _in_photo(sub, photo, np.array([-pad, -pad]), 1.0)


BARE_FIT = 0.9
"""A board tile read at a fit under this, clashing with a tile beside it, whose middle
shows the bare table is taken off with the unreadable cells there
(:func:`_drop_bare_table`)."""

TABLE_FIT = 0.7
"""A board tile read at a fit under this that touches the board on at most
:data:`FEW_EDGES` edges (which it matches) goes when every pixel of it has the table's
colours, even if its middle is not bare: a dark stripe of a striped cloth lies across it
(hard-130, a cell of navy and salmon stripes read as tile 36 at fit 0.66 beside the
board, touching one tile).  One or two matching edges are easily matched by chance; five
are not (hard-48's tile 42, read right at fit 0.68 on a dark table whose colours its
blurred cell shows throughout, stays)."""

FEW_EDGES = 2
"""... see :data:`TABLE_FIT`."""

CLASH_SIZE = 16.0
"""A board tile read at a fit under :data:`BARE_FIT` that clashes with a tile beside it
goes, bare middle or not, when every pixel of it has the table's colours and the board's cells
are at least this size (centre to corner, in the photo's own pixels: an enlarged working
copy adds none): hard-42's cell of yellow and navy stripes beside the board, read as tile
48 at fit 0.86 (cells of 23 px).  On smaller tiles blur mixes a tile's colours into the
table's, and three true tiles of 10-12 px cells (hard-93, hard-178) showed the table's
colours throughout."""


def _drop_bare_table(scene: Scene) -> None:
    """Take off the scene's unreadable cells whose middle shows the bare table
    (:func:`table.bare_table`): holes in the board, or table the lattice strays over; and
    the tiles read there at a fit under :data:`BARE_FIT` that clash with a tile beside
    them: a dot of a confetti cloth at the board's rim (hard-11's cell read as tile 5 at
    fit 0.87), or, on tiles large enough (:data:`CLASH_SIZE`), that show the table's
    colours throughout.  A tile that matches every tile it touches goes only when every
    pixel of it has the table's colours too (:func:`_like_around`): on hard and real-texture 0-119,
    five tiles read right under glare or blur showed a middle like the table, while
    hard-11's tile 13, read at confidence 0.94 where no tile lies, showed the table's
    colours throughout.  A tile read at a fit under :data:`TABLE_FIT` touching the board on
    few edges (:data:`FEW_EDGES`) goes on that test alone, bare middle or not.

    Done on the read finally kept: while reads are compared, unreadable cells count as
    doubt, and that doubt makes the reader look again (taking them off in every read lost
    tiles: hard and real-texture 0-119, 3 of 4092)."""
    if scene.mask is None or scene.lattice is None:
        return
    unread = [c for c, _rd, _px in scene.unreadable]
    clashing, matching, loosely = [], [], set()
    poor = [(c, rd.fit) for c, rd, _px in scene.readings if rd.fit < BARE_FIT]
    if poor:
        # (the position is built only then: this runs on every live frame)
        board = _board_of(scene.readings)
        for c, fit in poor:
            touching, agreeing = touching_edges(board, c)
            if agreeing < touching:
                clashing.append(c)
                continue
            matching.append(c)
            if fit < TABLE_FIT and touching <= FEW_EDGES:
                loosely.add(c)      # (see TABLE_FIT: goes on the colour test alone)
    cells = unread + clashing + matching
    if not cells:
        return
    size = _cell_size(scene, np.array(cells))
    bare = dict(zip(cells, _bare(scene, np.array(cells), size)))
    gone = {c for c in unread + clashing if bare[c]}
    # (a patterned cloth's stray cells, and poor tiles that match their neighbours: each
    # goes when it shows only the colours round it)
    rest = [c for c in unread if c not in gone] + [c for c in matching
                                                   if bare[c] or c in loosely]
    clashing = [c for c in clashing if c not in gone]
    if clashing and size >= CLASH_SIZE * max(scene.work_scale, 1.0):
        rest += clashing
    if rest:
        share = _like_around(scene, np.array(rest))
        gone |= {c for c, s in zip(rest, share) if s >= table.LIKE_AROUND}
    scene.unreadable = [it for it in scene.unreadable if it[0] not in gone]
    scene.readings = [it for it in scene.readings if it[0] not in gone]


def _bare(scene: Scene, cells: np.ndarray, size: float) -> np.ndarray:
    """(N,) bool: which lattice ``cells`` (N, 2) of a read, of ``size`` (:func:`_cell_size`),
    show the bare table in their middle (:func:`table.bare_table`)."""
    return table.bare_table(scene.work, scene.mask, scene.lattice.centres(cells), size)


def _cell_size(scene: Scene, cells: np.ndarray) -> float:
    """Centre-to-corner size (work px) of a read's cells: where its tiles were read, or
    ``cells`` (N, 2) when none was."""
    read = np.array([c for c, _rd, _px in scene.readings]).reshape(-1, 2)
    return lattice.median_cell_size(scene.lattice, read if len(read) else cells)


def _loose_spots(scene: Scene) -> np.ndarray:
    """(M, 2) work pixels of a read's loose tiles."""
    return second_look.to_work(scene, np.reshape([it["pixel"] for it in scene.loose], (-1, 2)))


def _like_around(scene: Scene, cells: np.ndarray) -> np.ndarray:
    """(N,) share of each of ``cells``' pixels whose colours the empty cells round it show
    (:func:`table.like_around`; cells read, reported or under a loose tile are no table)."""
    busy = {c for c, _rd, _px in scene.readings + scene.unreadable}
    return table.like_around(scene.work, scene.lattice, cells, busy, _loose_spots(scene))


HIDDEN_HUGGED = 3
"""An empty cell touching at least this many tiles read is looked at for a hidden tile
(:func:`_report_hidden`) ..."""

HIDDEN_RIM = 2
"""... and one touching this many, at the board's rim, when the colour over it also runs
onto those tiles' faces (:data:`ONTO_TILES`)."""

ONTO_TILES = 0.03
"""Share of the faces of the tiles beside a rim cell that the colour over the cell must
cover, joined to it (``table.runs_onto``), for the cell to be reported as hidden: a hand
over a board's rim lies over the tiles beside the one it hides, while a printed cloth's
colour stops at their rims.  Without this test, reporting rim cells beside two tiles
reported 14 hidden tiles on hard and real-texture 0-119 and 20 empty cells of printed
cloths; with it, 11 and 1 (hard-11, an object on a flowered cloth)."""

SHOWN_SHARE = 0.5 * ONTO_TILES
"""The share of those faces that must show the cell's colour at all (sampled, not joined:
``table.shown_on_faces``) before the test of :data:`ONTO_TILES` is made.  That sample is
coarser than the test's pixels, so it asks for half as much (hard-41's hidden tile read
0.030 on the sample)."""


def _report_hidden(scene: Scene) -> None:
    """Report as unreadable the empty cells hugged by the board (:data:`HIDDEN_HUGGED`
    tiles read round them) whose middle shows neither the table (:func:`_bare`) nor the
    table's colours (:func:`_like_around`), in a colour that runs on past the cell
    (`table.runs_onto`): a hand or an object over a tile hides its body and links, so
    no reading reaches it and it would be left out, and the referee would then see a hole
    or a forced space there.  (Without the last test, 9 of 36 such cells on hard and
    real-texture 0-199 were holes holding a dot of a printed cloth.)  Cells at the rim,
    beside :data:`HIDDEN_RIM` tiles read, are reported when that colour also runs onto
    those tiles' faces (:data:`ONTO_TILES`).  Cells under a loose tile are skipped.

    Done on the read finally kept, after :func:`_drop_bare_table` (as unreadable cells,
    they would count as doubt while reads are compared)."""
    if scene.mask is None or scene.lattice is None or len(scene.readings) < HIDDEN_HUGGED:
        return
    # (tiles split off the board as loose count as tiles round a cell: a hand may hide
    # the cells that join them to it, see _rejoin_split)
    have = [c for c, _rd, _px in scene.readings] + [c for c, *_ in _split_loose(scene)]
    skip = have + [c for c, _rd, _px in scene.unreadable]
    if scene.loose:
        skip += [tuple(int(v) for v in c) for c in scene.lattice.cell_at(_loose_spots(scene))]
    cells = _held_cells(scene.work, scene.lattice, np.array(have), np.array(skip), HIDDEN_RIM)
    if len(cells) == 0:
        return
    read = set(have)
    beside = [[n for n in neighbours(tuple(int(v) for v in c)) if n in read] for c in cells]
    rim = np.array([len(b) < HIDDEN_HUGGED for b in beside], bool)
    # (cheapest first: a board's rim has many cells beside two tiles, and the tests that
    # look three cells round a cell cost a live frame about a millisecond each)
    keep = ~rim
    keep[rim] = table.shown_on_faces(scene.work, scene.lattice, cells[rim],
                                     [b for b, r in zip(beside, rim) if r], SHOWN_SHARE)
    cells, beside, rim = cells[keep], [b for b, k in zip(beside, keep) if k], rim[keep]
    if len(cells) == 0:
        return
    size = _cell_size(scene, cells)
    bare = _bare(scene, cells, size)
    cells, beside, rim = cells[~bare], [b for b, k in zip(beside, bare) if not k], rim[~bare]
    if len(cells) == 0:
        return
    spread, onto = table.runs_onto(scene.work, scene.lattice, cells, beside, size)
    cells = cells[spread & (~rim | (onto >= ONTO_TILES))]
    if len(cells) == 0:
        return
    cells = cells[_like_around(scene, cells) < table.LIKE_AROUND]
    xy = scene.lattice.centres(cells)
    for c, at in zip(cells, xy):
        px = at / scene.work_scale + scene.origin
        scene.unreadable.append((tuple(int(v) for v in c), Reading(0, 0, 0.0, 0.0), px))


def _analyse_with_region(photo: Photo, source: Any, profile: Any, pitch_px: float | None,
                         prior: search.Prior | None, depth: int, whole: bool = True) -> Scene:
    """Read a photo; while the read looks poor, read the tiles' region again on a crop, up
    to ``depth`` crops deep.  ``whole``: the photo is the one given, not a crop of it (a
    crop is cut tight round the tiles on purpose: it is not taken for a close-up)."""
    scene = _analyse_looks(photo, source, profile, pitch_px, prior, close_up=whole)
    # (not while a live camera only follows: a crop is read without a prior, see
    # _analyse_region, so each of its looks could only miss)
    if depth > 0 and not search.only_following() and second_look.wanted(scene):
        box = region.board_region(photo.image)
        h, w = photo.image.shape[:2]
        if (box is not None and (box[2] - box[0]) * (box[3] - box[1]) < REGION_SHARE * w * h
                and _room_for_more(scene, box, photo)):
            other = _analyse_region(photo, source, box, profile, pitch_px, depth - 1)
            if second_look.better(other, scene):
                scene, other = other, scene
            _borrow(scene, [other])
    return scene


def _room_for_more(scene: Scene, box: tuple[int, int, int, int], photo: Photo) -> bool:
    """Does the crop ``box`` (decoded-photo px) hold more cells of the read ``scene``'s
    lattice than ``scene`` read tiles?  A crop that does not is not read: it could give no
    more tiles than the read it would have to beat (hard and real-texture 0-199 read the
    same without such crops).

    The region is the body holding the most link colour, and a dark check cloth can make
    that a few squares of it: video-720p-0 read 47 tiles of 48 in the whole frame (poor
    only because the cloth lies under the tile mask), and then spent 5 s of its 9 on a
    crop holding 41 of its cells."""
    n = len(scene.readings)
    if n < 3 or scene.lattice is None:
        return True
    # decoded px -> the read's working px
    x0, y0, x1, y1 = ((np.asarray(box, np.float64).reshape(2, 2) / photo.scale - scene.origin)
                      * scene.work_scale).ravel()
    h, w = scene.work.shape[:2]
    return len(scene.lattice.cells_in(w, h, window=(x0, y0, x1, y1))) > n


_CANDIDATES: ContextVar[list | None] = ContextVar("reader_candidates", default=None)
"""While :func:`_analyse_looks` runs: every read its looks made on the way (each lattice
tried, each refit), as (``looklog.where()``, read) pairs (:func:`_note_candidate`)."""


def _note_candidate(scene: Scene) -> None:
    """Add ``scene``, a read just made, to the reads :func:`_analyse_looks` made on the
    way, when it gives loose tiles (the only thing taken from them)."""
    seen = _CANDIDATES.get()
    if seen is not None and scene.loose:
        seen.append((looklog.where(), scene))


def _analyse_looks(photo: Photo, source: Any, profile: Any, pitch_px: float | None,
                   prior: search.Prior | None = None, first: Scene | None = None,
                   close_up: bool = True) -> Scene:
    """Read a photo (:func:`_looks`); then loose tiles that reads made on the way give
    surely join the kept read, as another look's would (:func:`_borrow_loose`).

    Each look keeps one of the reads it makes (one per lattice tried, and per refit of
    it): a read that loses on the board may have read a loose tile the kept one did not
    (scattered tiles on a table, where each lattice reads its own share of them).  Only
    the reads of this picture lend (not those of a crop or a framed copy: their pixels
    are another picture's), and only to a read holding no Tantrix: beside a board they
    gained no tile on hard and real-texture 0-119 and invented two (hard-93,
    real-texture-82)."""
    seen: list = []
    token = _CANDIDATES.set(seen)
    try:
        scene = _looks(photo, source, profile, pitch_px, prior, first, close_up)
    finally:
        _CANDIDATES.reset(token)
    if not second_look.has_tantrix(scene):
        here = looklog.where()
        _borrow_loose(scene, [s for where, s in seen if where == here and s is not scene])
    return scene


def _looks(photo: Photo, source: Any, profile: Any, pitch_px: float | None,
           prior: search.Prior | None = None, first: Scene | None = None,
           close_up: bool = True) -> Scene:
    """Read a photo; look again in other ways while the read looks poor.

    The link image is first gated by the grey tile bodies (a coloured table is not a
    link); when that read looks poor (see :func:`second_look.wanted`) the photo is read
    again without the gate (bodies lighter than a black cloth, warm light tinting them)
    and the better read is kept.  Last, a read whose tile bodies are far from the grey it
    was made with, and light up the link image, is made again with the bodies' own grey
    (:func:`_body_grey`).  Before all those, a poor first read whose tile mask reaches the
    photo's rim (a close-up) is made again with a margin round the photo
    (:func:`_analyse_framed`): a good framed read, every tile read confidently, that beats
    the first is the read; any other has to beat the other looks' too.  ``first``: the
    first look's read, made already; ``close_up``: whether the photo may be a close-up
    (not a crop of one, nor a photo already framed).
    """
    scene = first or _analyse_once(photo, source, profile, second_look.LOOKS[0], pitch_px, prior)
    others = []
    rim = _tight_rim(scene) if close_up and prior is None and second_look.wanted(scene) else None
    framed = None
    if rim is not None:
        with looklog.within("framed"):
            framed = _analyse_framed(photo, profile, pitch_px, rim)
    if (framed is not None and not second_look.wanted(framed) and second_look.better(framed, scene)
            and all(rd.confidence >= second_look.CONFIDENT for _c, rd, _px in framed.readings)):
        # (the other looks cost a close-up of one tile 2 s, and read nothing more; a
        # framed read less sure of a tile may be a look's blind spot, real-texture-79: a
        # dark board on a black cloth, 3 tiles of 9 read framed, one at 0.58)
        _borrow(framed, [scene])
        return framed
    for look in second_look.LOOKS[1:]:
        # (a board read well but veiled in part, its bodies grey: the veiled tiles are
        # missing from the read, and only the unveiled look finds them)
        wanted = second_look.wanted(scene)
        veil_beside = look == "unveiled" and not wanted and _veiled_beside(photo, scene)
        # (glare on the tiles showing a lamp's cast: the balanced look, by the glare's
        # colour, after any read; not while a live camera follows)
        lamp = _glare_gains(photo, scene) if look == "balanced" and prior is None else None
        # (a good read that seems to have missed a tile beside the board: the balanced
        # look, not every look)
        missed = (look == "balanced" and not wanted and prior is None and lamp is None
                  and _missed_beside(photo, scene))
        if not (wanted or veil_beside or missed or lamp is not None):
            continue
        other = _analyse_once(photo, source, profile, look, pitch_px, prior,
                              beside=scene if veil_beside else None, current=scene,
                              gains=lamp)
        if other is not None and (second_look.balanced_wins(other, scene, lamp is not None)
                                  if look == "balanced" else second_look.better(other, scene)):
            scene, other = other, scene
        if other is not None:
            others.append(other)
    # (not while a live camera follows its last frame: a frame that does not follow is
    # searched afresh, and read with the bodies' grey then)
    grey = None if prior is not None else _body_grey(scene, profile)
    if grey is not None:
        # (the lattice found is tried first: most often it holds under the new grey too)
        start = search.Prior(scene.lattice, scene.work.shape[:2])
        began = time.perf_counter()
        other = _read_look(photo, source, profile, "gated", pitch_px, start, neutral=grey)
        looklog.note("body-grey", time.perf_counter() - began, other)
        if other is not None and second_look.better(other, scene):
            scene, other = other, scene
        if other is not None:
            others.append(other)
    if framed is not None and second_look.better(framed, scene):
        # (a framed read that loses lends no loose tile: hard-2's read a back as tile 2)
        scene, framed = framed, scene
        others.append(framed)
    _borrow(scene, others)
    return scene


BORROWED_CONFIDENCE = 0.99
"""A loose tile of a read not kept joins the kept read only when read this confidently ..."""
AGREEING = 0.8
"""... by a read whose board numbers and the kept read's share at least this share of the
smaller board (of three or more): another look's colour model gone astray on a blue
check cloth read a square of it as a loose tile with 0.999 (real-texture-9)."""


def _borrow_loose(scene: Scene, others: list) -> None:
    """Loose tiles that other reads of the photo (``others``: other looks, or the crop or
    the whole photo) read confidently, where the kept read ``scene`` has nothing and of
    numbers it does not give, join it.

    Each look finds the loose tiles its own link image shows: a tile beside a face-down
    one, or small on a check cloth, may stand out in one look only, while another look
    reads the board better (real-texture-9: the crop read the board and one loose tile,
    the whole photo the board and another; hard and real-texture 0-119: 7 loose tiles
    more, none invented).  A read lends its loose tiles only when it agrees with the kept
    read (:func:`_lenders`); such a read also overrules a loose tile the kept read gave
    unsurely (:func:`_overrule_unsure`).  A loose tile read so surely also replaces an
    unreadable cell of the kept read that touches none of its board tiles: that cell was
    the tile, too poor to read in the kept look (hard-25's tile 14)."""
    if not others or scene.lattice is None:
        return
    size = _place_size(scene)
    lenders = _lenders(scene, others, size)
    if not lenders:
        return
    _overrule_unsure(scene, lenders, others, size)
    taken = [np.asarray(px, np.float64) for _c, _rd, px in scene.readings]
    taken += [np.asarray(it["pixel"], np.float64) for it in scene.loose]
    on_board = {c for c, _rd, _px in scene.readings}
    numbers = _numbers(scene)
    for other in lenders:
        for it in other.loose:
            at = np.asarray(it["pixel"], np.float64)
            if (it["confidence"] < BORROWED_CONFIDENCE or it["tile"] in numbers
                    or any(np.linalg.norm(at - t) < 1.2 * size for t in taken)
                    or _named_otherwise(it, others, size)):
                continue
            under = [np.linalg.norm(at - np.asarray(px, np.float64)) < 1.2 * size
                     for _c, _rd, px in scene.unreadable]
            if any(u and not on_board.isdisjoint(neighbours(cell))
                   for u, (cell, _rd, _px) in zip(under, scene.unreadable)):
                continue  # (an unreadable cell of the board's is no loose tile)
            scene.unreadable = [u for u, near in zip(scene.unreadable, under) if not near]
            scene.loose = [*scene.loose, it]  # (a new list, as in _overrule_unsure)
            taken.append(at)
            numbers.add(it["tile"])


LOOSE_AGREEING = 2
"""A read with no board tile lends its loose tiles to a kept read with none either only
when at least this many of its loose tiles lie where the kept read's lie and name the
same numbers (see :func:`_lenders`)."""

SAME_PLACE = 0.6
"""Two reads' loose tiles lie at one place when their centres are within this share of a
cell's size (centre to corner) of each other."""


BORROWED_TILE = (0.99, 0.9)
"""The confidence and fit at which a board tile another read gives joins the kept read
(:func:`_borrow_board`)."""

BORROW_SHARED = 2
"""Least board tiles the kept read and a lender must share, at cells and turns that one
shift and one turn of the lattice carry into each other (``second_look.board_turn``)."""


def _borrow_board(scene: Scene, others: list) -> None:
    """Board tiles that other reads of the photo (``others``) give surely
    (:data:`BORROWED_TILE`) where the kept read ``scene`` has no tile, of numbers it does
    not give, touching its board and matching every edge they touch, join it (an
    unreadable cell there gives way).

    Reads are ranked by what they explain as a whole (``second_look.better``), and one
    that reads a tile more can lose for the unreadable cells its look leaves about the
    table: real-texture-53's three-tile board on a striped cloth was read whole in two
    looks, each with 5 or more unread cells of stripes, and kept from a look that read two
    of its tiles.  A read lends only when it agrees with the kept read on the board
    (``second_look.board_turn``)."""
    if scene.lattice is None or not scene.readings or not others:
        return
    board = _board_of(scene.readings)
    numbers = _numbers(scene)
    size = _place_size(scene)
    for other in others:
        turn = second_look.board_turn(scene, other, BORROW_SHARED)
        if turn is None:
            continue
        for _c, rd, px in other.readings:
            if (rd.tile in numbers or rd.confidence < BORROWED_TILE[0] or rd.fit < BORROWED_TILE[1]
                    or rd.covered or rd.pushed
                    or any(np.hypot(*np.subtract(it["pixel"], px)) < size for it in scene.loose)):
                continue
            work = second_look.to_work(scene, px)
            cell = tuple(int(v) for v in scene.lattice.cell_at(work)[0])
            if cell in board.tiles or board.tiles.keys().isdisjoint(neighbours(cell)):
                continue
            rotation = (rd.rotation + turn) % 6
            if fits(rotated_edges(rd.tile, rotation), facing_colours(board, cell)) is not None:
                continue
            board.place(cell, rd.tile, rotation)
            numbers.add(rd.tile)
            # (new list and dict: a read's lists may be shared with the look it came from)
            scene.readings = [*scene.readings, (cell, replace(rd, rotation=rotation),
                                                np.asarray(px, np.float64))]
            scene.shifts = {**scene.shifts,
                            cell: scene.lattice.to_plane(work[None])[0] - np.asarray(cell) @ BASIS.T}
            scene.unreadable = [u for u in scene.unreadable if u[0] != cell]


def _borrow(scene: Scene, others: list) -> None:
    """What other reads of the photo give surely and the kept read ``scene`` lacks joins
    it: board tiles (:func:`_borrow_board`), then loose tiles (:func:`_borrow_loose`)."""
    _borrow_board(scene, others)
    _borrow_loose(scene, others)


def _numbers(scene: Scene) -> set[int]:
    """The tile numbers a read gives, on the board and loose."""
    return {rd.tile for _c, rd, _px in scene.readings} | {it["tile"] for it in scene.loose}


def _place_size(scene: Scene) -> float:
    """Centre-to-corner size (original px) of a read's cells: where its board tiles lie,
    or, with none, where its loose tiles lie (0 with neither)."""
    if scene.readings:
        return second_look.cell_size(scene)
    if not scene.loose:
        return 0.0
    return float(np.median(scene.lattice.size_at(_loose_spots(scene)))) / scene.work_scale


def _same_place(a: dict, b: dict, size: float) -> bool:
    """Do loose items ``a`` and ``b`` lie at one place (:data:`SAME_PLACE` of ``size``)?"""
    return bool(np.hypot(*np.subtract(a["pixel"], b["pixel"])) < SAME_PLACE * size)


def _lenders(scene: Scene, others: list, size: float) -> list:
    """The reads of ``others`` that may lend ``scene`` loose tiles (``size``: its
    :func:`_place_size`).

    With a board of three or more in the kept read, a read lends when the board numbers
    the two share are :data:`AGREEING` of the smaller board (a read of part of the board
    agrees as well as one of all of it: hard-94's crop read 16 of its 44 tiles and a
    loose tile at 1.0).  Tiles scattered with no Tantrix (a board of two tiles at most, in
    either read: a game's first tile, or scattered tiles two of which a lattice took for a
    pair, scattered scene 19) agree by their loose tiles instead
    (:data:`LOOSE_AGREEING`, none of them naming another number where the kept read has
    a tile read surely, :data:`BORROWED_CONFIDENCE`): each look reads its own share of
    scattered tiles (scattered scene 36, seven tiles on a check cloth: the crop's kept look
    read six, another of its looks, agreeing on five of those, read the seventh surely).
    The check against other numbers applies to the board's lenders too
    (:func:`_named_otherwise`)."""
    board = {rd.tile for _c, rd, _px in scene.readings}
    if len(board) >= 3:
        lenders = []
        for other in others:
            theirs = {rd.tile for _c, rd, _px in other.readings}
            if len(theirs) >= 3 and len(board & theirs) >= AGREEING * min(len(board), len(theirs)):
                lenders.append(other)
        return lenders
    if len(scene.loose) < LOOSE_AGREEING:
        return []
    lenders = []
    for other in others:
        if second_look.has_tantrix(other):
            continue  # (a read holding a Tantrix is no table of scattered tiles)
        # (a tile the kept read gave unsurely is no evidence either way: the lender may
        # overrule it, :func:`_overrule_unsure`)
        # (nor is one it gave far less surely than the lender gives another number there:
        # :func:`_far_surer`, the lender may overrule it too)
        met = [(mine["tile"] == it["tile"]) for it in other.loose for mine in scene.loose
               if mine["confidence"] >= BORROWED_CONFIDENCE and _same_place(it, mine, size)
               and (mine["tile"] == it["tile"] or not _far_surer(it, mine))]
        if all(met) and len(met) >= LOOSE_AGREEING:
            lenders.append(other)
    return lenders


def _overrule_unsure(scene: Scene, lenders: list, others: list, size: float) -> None:
    """Replace each loose tile of the kept read ``scene`` read under
    :data:`BORROWED_CONFIDENCE` (or far less surely than the lenders there, see below) by
    the tile a read of ``lenders`` gives at its place at that confidence or more, when the
    lenders give one such number there, it is not in the kept read yet, and no read of
    ``others`` gives the kept number there as surely.

    The kept read is the best read of the board, not of every loose tile: scattered scene
    18's gave tile 26, half hidden in a floral print, as 29 at 0.6, where four looks gave 26
    at 1.0.  A read that is not a lender does not overrule (real-texture-17: a look reading
    two loose tiles alone gave the kept read's tile 34, read at 0.52, as 23 at 0.999).
    A loose tile read surely is overruled too when every read giving a number there surely
    gives it far more surely (:func:`_far_surer`): scattered scene 3's kept read gave tile 9
    as 2 at 0.9952, where other looks gave 9 at 0.9994-0.9998."""
    numbers = _numbers(scene)
    for k, mine in enumerate(scene.loose):
        there = _sure_at(others, mine, size)
        # (a sure tile only where every read giving a number there surely gives it far
        # more surely)
        if mine["confidence"] >= BORROWED_CONFIDENCE and not all(_far_surer(it, mine) for it in there):
            continue
        sure = _sure_at(lenders, mine, size)
        if (len({it["tile"] for it in sure}) != 1 or sure[0]["tile"] in numbers
                or any(it["tile"] == mine["tile"] for it in there)):
            continue
        numbers.discard(mine["tile"])
        best = max(sure, key=lambda it: it["confidence"])
        # (a new list: a read's lists may be shared with the look it came from)
        scene.loose = [*scene.loose[:k], best, *scene.loose[k + 1:]]
        numbers.add(best["tile"])


FAR_SURER = 5.0
"""A loose tile read with this many times less doubt (1 - confidence) than another read's
at its place is read far more surely (:func:`_far_surer`).  Between reads of one photo,
confidences of 0.9992 against 0.9993, or 0.9996 against 0.9998, name the right tile
either way round (scattered scenes 26 and 13); 0.9952 against 0.9998 did not (scene 3)."""


def _far_surer(item: dict, mine: dict) -> bool:
    """Is loose item ``item`` read far more surely than ``mine`` (:data:`FAR_SURER`)?"""
    return (1.0 - item["confidence"]) * FAR_SURER < 1.0 - mine["confidence"]


def _sure_at(reads: list, item: dict, size: float) -> list[dict]:
    """The loose tiles ``reads`` give at ``item``'s place (:func:`_same_place`) at
    :data:`BORROWED_CONFIDENCE` or more."""
    return [it for other in reads for it in other.loose
            if it["confidence"] >= BORROWED_CONFIDENCE and _same_place(it, item, size)]


def _named_otherwise(item: dict, reads: list, size: float) -> bool:
    """Does any of ``reads`` give a loose tile of another number where ``item`` lies
    (:func:`_same_place`)?  Looks that disagree on a loose tile lend neither."""
    return any(it["tile"] != item["tile"] and _same_place(it, item, size)
               for other in reads for it in other.loose)


BODY_APART = 7.0
"""Lab a/b distance between the grey a read was made with and the bodies of the tiles it
read beyond which the photo may be read again with the bodies' own colour as grey.  (At 6,
a 720p frame of ten tiles read whole, 6.3 apart, was read twice for nothing: its 34 ms
became 98; hard and real-texture 0-119 read the same at 6 and 7 but for one tile.)"""

LIT_CORNERS = 0.2
"""... when the read tiles' corners light up the link image this much (median, 0..1): a
grey that misses by as much leaves dark bodies clear of link colour on most photos."""

CORNERS_IN = 0.85 * CORNERS
"""Where a tile's corners are looked at in the link image (a little inside the hexagon)."""


def _body_grey(scene: Scene, profile: Any) -> np.ndarray | None:
    """The Lab a/b (2,) of the tile bodies a read found, when the read's grey missed them
    (:data:`BODY_APART`) so far that their corners look like links (:data:`LIT_CORNERS`);
    else ``None``.

    The grey is taken from the photo's darkest grey pixels, and a dark table can be those.
    Bodies tinted by warm light then stand out from that grey as link colour: the link
    image shows whole tiles, cells lose their contrast, and the lattice is fitted to a part
    of the board only (real-texture-113, a warm-lit board on dark felt: 34 tiles of 53
    read, 52 with the bodies' grey)."""
    if (scene.lattice is None or scene.link is None or len(scene.readings) < 3
            or scene.neutral is None or getattr(profile, "neutral", None) is not None):
        return None
    cells = np.array([c for c, _rd, _px in scene.readings], np.float64)
    shifts = np.array([scene.shifts.get(c, np.zeros(2)) for c, _rd, _px in scene.readings])
    at = cells @ BASIS.T + shifts
    lit = median(lattice.sample(scene.link, scene.lattice.to_image((at[:, None, :] + CORNERS_IN[None]).reshape(-1, 2))))
    if lit < LIT_CORNERS:
        return None
    ab = sampling.body_lab(scene.work, scene.lattice, cells, shifts)[1:]
    if np.hypot(*(ab - scene.neutral)) < BODY_APART:
        return None
    return ab.astype(np.float32)


def _analyse_region(photo: Photo, source: Any, box: tuple[int, int, int, int], profile: Any,
                    pitch_px: float | None, depth: int = 0, prior: search.Prior | None = None
                    ) -> Scene:
    """Read the crop ``box`` (decoded-photo px) of a photo at full resolution (and, when
    that read too looks poor, the region within it, ``depth`` more crops deep); the scene
    is given in the whole photo's frame (``origin`` = the crop's corner, ``box`` = the
    crop read, original px).  ``prior``: a live camera's read of the same crop of its last
    frame (:func:`_follow_crop`)."""
    full = photo
    if photo.scale < 1.0 and not isinstance(source, np.ndarray):
        full = load_photo(source, reduce=False)
    k = full.scale / photo.scale
    x0, y0, x1, y1 = (int(round(v * k)) for v in box)
    crop = load_photo(np.ascontiguousarray(full.image[y0:y1, x0:x1]))
    pitch = None if pitch_px is None else pitch_px * full.scale
    with looklog.within("crop"):
        sub = _analyse_with_region(crop, crop.image, profile, pitch, prior, depth, whole=False)
    # (original px of the crop's corner; the crop's own px are the full photo's)
    scene = _in_photo(sub, photo, np.array([x0, y0], np.float64) / full.scale, full.scale)
    # (the picture read is the innermost crop: the one the work image was made from)
    (h, w), (cx, cy) = scene.work.shape[:2], scene.origin
    return replace(scene, box=(float(cx), float(cy), cx + w / scene.work_scale, cy + h / scene.work_scale))


def _follow_crop(photo: Photo, source: Any, profile: Any, pitch_px: float | None,
                 prior: search.Prior | None, box: tuple) -> Scene:
    """Within ``search.following_only``: read the crop ``box`` (original px) that a live
    camera's last frame was read on (``Scene.box``), following that read's lattice, which
    fits the crop and not the whole frame.  A small group far from the camera is read on
    a crop every frame (the whole frame's link image shows too little of it): without
    this, no frame of it followed and each was searched afresh, 2-6 s a frame.

    Raises ``search.NotFollowed`` (the frame is then read from scratch) when the tiles'
    region (:func:`region.board_region`) no longer lies inside the crop: a tile laid
    beside the group, or the camera moved."""
    inside = np.asarray(box, np.float64) * photo.scale
    now = region.board_region(photo.image)
    tiles = None if now is None else np.asarray(region.core(now, photo.image.shape[:2]))
    if tiles is None or (tiles[:2] < inside[:2]).any() or (tiles[2:] > inside[2:]).any():
        raise search.NotFollowed
    return _analyse_region(photo, source, tuple(inside), profile, pitch_px, 0, prior)


def _in_photo(sub: Scene, photo: Photo, corner: np.ndarray, scale: float) -> Scene:
    """A read ``sub`` of another picture made from ``photo`` (a crop of it, or the photo
    with a margin round it), given in ``photo``'s frame: the other picture's pixel (x, y)
    is ``(x, y) / scale + corner`` in the original photo's px (``corner`` may be negative)."""

    def moved(px: np.ndarray) -> np.ndarray:
        return np.asarray(px, np.float64) / scale + corner

    mapped = replace(
        # (a crop within the crop has its own corner: the work image starts there)
        sub, photo=photo, work_scale=sub.work_scale * scale,
        origin=corner + sub.origin / scale,
        readings=[(c, rd, moved(px)) for c, rd, px in sub.readings],
        unreadable=[(c, rd, moved(px)) for c, rd, px in sub.unreadable],
        loose=[{**it, "pixel": [round(float(v), 1) for v in moved(it["pixel"])]} for it in sub.loose],
        split_off=[(c, rd, moved(px)) for c, rd, px in sub.split_off])
    looklog.moved(sub, mapped)
    return mapped


def _analyse_once(photo: Photo, source: Any, profile: Any, look: str, pitch_px: float | None = None,
                  prior: search.Prior | None = None, beside: Scene | None = None,
                  current: Scene | None = None, gains: np.ndarray | None = None
                  ) -> Scene | None:
    """:func:`_one_look`, noted in the look log when one is kept (``vision.looklog``)."""
    start = time.perf_counter()
    scene = _one_look(photo, source, profile, look, pitch_px, prior, beside, current, gains)
    looklog.note(look, time.perf_counter() - start, scene)
    return scene


def _one_look(photo: Photo, source: Any, profile: Any, look: str, pitch_px: float | None = None,
              prior: search.Prior | None = None, beside: Scene | None = None,
              current: Scene | None = None, gains: np.ndarray | None = None
              ) -> Scene | None:
    """One read of the photo the way ``look`` says; ``None`` if that look does not apply.

    ``beside``: for the unveiled look, a good read beside whose tiles a veiled cell was
    seen (:func:`_veiled_beside`); the veil may then lie over part of the board only.
    ``current``: the best read so far; the unveiled look's read of a photo whose bodies
    show no veil is kept only if it reads far more (``second_look.far_more``), the faint
    and own-bright looks' only if they read more tiles (:func:`_small_board`), or
    the faint look's when it is a clean group (:func:`_clean_group`).
    ``gains``: for the balanced look, the channel gains that take the cast off (default:
    the bodies', or a white surface's when the bodies are too dark, ``balance.cast_gains``)."""
    if look == "balanced":
        # a lamp's cast taken off by the channel gains of the glare or of the bodies
        by_glare = gains is not None
        if gains is None:
            gains = balance.cast_gains(photo.image)
        if gains is None:
            return None
        cast_off = balance.balanced(photo.image, gains)
        scene = _read_as_first(photo, cast_off, profile, pitch_px, prior)
        if by_glare and (scene is None or second_look.wanted(scene)):
            # (bodies balanced by a glare's colour can fall out of the grey gate: real
            # tile 24 under the warm glare, its lattice found only ungated; balanced by the
            # bodies' coarse gains, hard-108's floral cloth read ungated as 2 tiles wrong)
            other = _read_as_first(photo, cast_off, profile, pitch_px, prior, "ungated")
            if other is not None and (scene is None or second_look.better(other, scene)):
                scene = other
        # (the gains are coarse, measured on dark bodies: a read that gives any tile
        # doubtfully is more likely guessing than seeing through a cast; hard-194, a tile
        # under a hand read as another at 0.63)
        if scene is None or any(rd.confidence < second_look.CONFIDENT
                                for _c, rd, _px in scene.readings):
            return None
        return scene
    if look in (second_look.FAINT_LOOK, second_look.OWN_BRIGHT_LOOK):
        faint = look == second_look.FAINT_LOOK
        with lattice.faint_links() if faint else nullcontext():
            scene = _read_look(photo, source, profile, "gated" if faint else look, pitch_px, prior)
        return scene if scene is not None and (_small_board(scene, current) or faint
                                               and _clean_group(scene, current)) else None
    if look != "unveiled":
        return _read_look(photo, source, profile, look, pitch_px, prior)
    # a glare veil over the whole board: read the photo cleared of it, as it would be
    # read without one
    scene = _read_as_first(photo, haze.clear_veil(photo.image), profile, pitch_px, prior)
    if scene is None or not (_veiled_bodies(photo, scene)
                             or beside is not None and _veiled_additions(photo, scene, beside)
                             or current is not None and second_look.far_more(scene, current)):
        return None
    return scene


def _read_as_first(photo: Photo, image: np.ndarray, profile: Any, pitch_px: float | None,
                   prior: search.Prior | None, look: str = "gated") -> Scene | None:
    """The first look's read (or ``look``'s) of ``photo`` with its pixels replaced by
    ``image`` (BGR, the same size: cleared of a veil, a cast taken off); the scene keeps
    the photo as taken, for the overlay and for the checks that compare the two."""
    scene = _read_look(replace(photo, image=image), image, profile, look, pitch_px, prior)
    if scene is not None:
        scene.photo = photo
    return scene


PASTEL = 6.0
"""Chroma (Lab) by which each edge of a veiled tile stands out from its grey corners (five
of six at least: every edge of a tile carries a link end, and the links show through the
veil, pale); a light table's cell is as grey at its edges as at its corners, and a flower
of a printed cloth colours some edges only."""


def _veiled_beside(photo: Photo, scene: Scene) -> bool:
    """Does a cell beside the tiles read look like a tile under a glare veil that the read
    missed: grey, lifted corners (:func:`haze.veiled`) and pale links (:data:`PASTEL`)?"""
    read = {c for c, _rd, _px in scene.readings}
    if scene.lattice is None or not read:
        return False
    taken = read | {c for c, _rd, _px in scene.unreadable}
    cells = np.array(sorted({n for c in read for n in neighbours(c)} - taken), int).reshape(-1, 2)
    if len(cells) == 0:
        return False
    # (the read cells' median shift will do for a yes/no: a cell's own shift is a
    # fraction of a cell, and this runs on every good read of a live camera)
    shifts = np.repeat(median(np.array([scene.shifts[c] for c in read]), axis=0)[None], len(cells), 0)
    lat = _on_photo(scene, photo)
    h, w = photo.image.shape[:2]
    xy = lat.to_image(cells.astype(np.float64) @ BASIS.T + shifts)
    inside = (xy[:, 0] >= 0) & (xy[:, 0] < w) & (xy[:, 1] >= 0) & (xy[:, 1] < h)
    if not inside.any():
        return False
    cells, shifts = cells[inside], shifts[inside]
    # (bodies first: on most tables no cell beside the tiles is grey and lifted, and the
    # edges need not be sampled; this runs on every good read of a live camera)
    veiled = haze.veiled(sampling.corner_colours(photo.image, lat, cells, shifts))
    if not veiled.any():
        return False
    # the edges where the neighbours put the cell: at a board's rim the lattice can be a
    # few tenths of a cell off, enough to miss a link end
    known = np.array(sorted(read), int)
    held = _neighbours_shift(cells[veiled], known, np.array([scene.shifts[tuple(c)] for c in known]))
    edges, corners = sample_cells(photo.image, lat, cells[veiled], held)
    pale = (_edge_colour(edges, corners) >= PASTEL).sum(1) >= LINKED_EDGES
    return bool(pale.any())


LINK_CHROMA = 12.0
"""Lab a/b distance by which an edge of a tile stands out from the median of its corners
(its body): every edge of a tile carries a link end (see :func:`_missed_beside`)."""

LINKED_EDGES = 5
"""... on at least this many of its six edges, for a cell beside the board to look like a
tile that a read missed (or, by :data:`PASTEL`, a tile under a glare veil)."""


def _missed_beside(photo: Photo, scene: Scene) -> bool:
    """Does a cell beside two or more tiles read look like a tile the read missed, link
    colour standing out from its corners (:data:`LINK_CHROMA`) on :data:`LINKED_EDGES` of
    its edges?  Then the balanced look is tried after a good read too.

    A read that looks good can miss a tile whose links a lamp's cast took out of its link
    image: carpet13 under ``tungsten`` and discovery10 under ``warm-strong-dim`` each lost
    one tile at the board's rim, which the balanced look reads.  A bare table beside a
    board seldom shows such edges (the real photos as taken: none; hard and real-texture
    0-59: 6 of the 58 good first reads)."""
    if scene.lattice is None or len(scene.readings) < HELD:
        return False
    known = np.array(sorted(c for c, _rd, _px in scene.readings), int)
    taken = np.array([c for c, _rd, _px in scene.readings + scene.unreadable], int)
    cells = _held_cells(scene.link, scene.lattice, known, taken)
    if len(cells) == 0:
        return False
    held = _neighbours_shift(cells, known, np.array([scene.shifts[tuple(c)] for c in known]))
    edges, corners = sample_cells(photo.image, _on_photo(scene, photo), cells, held)
    return bool(((_edge_colour(edges, corners) > LINK_CHROMA).sum(1) >= LINKED_EDGES).any())


def _edge_colour(edges: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """Lab a/b distance (M, 6) of each edge sample from the median of its cell's corners
    (its body, if a tile lies there): every edge of a tile carries a link end.  ``edges``,
    ``corners``: (M, 6, 3) Lab (``sample_cells``)."""
    body = median(corners[..., 1:], axis=1)
    return np.linalg.norm(edges[..., 1:] - body[:, None, :], axis=-1)


GLARED_CORNERS = 2
"""Veiled corners (of six) that show a glare spot on a tile read cleanly (see
:func:`_veiled_bodies`)."""


def _read_corners(photo: Photo, scene: Scene, cells: list | None = None) -> np.ndarray | None:
    """BGR (N, 6, 3) at the corners of the tiles a read gave (or of its ``cells``) in the
    photo as taken; ``None`` when there are none or no lattice."""
    if cells is None:
        cells = [c for c, _rd, _px in scene.readings]
    if scene.lattice is None or not cells:
        return None
    shifts = np.array([scene.shifts.get(c, np.zeros(2)) for c in cells])
    return sampling.corner_samples(photo.image, _on_photo(scene, photo), np.array(cells), shifts)


def _glare_gains(photo: Photo, scene: Scene) -> np.ndarray | None:
    """The channel gains that take a lamp's cast off, measured on glare over the corners
    of the tiles read (``balance.glare_gains``), or ``None``."""
    corners = _read_corners(photo, scene)
    return None if corners is None else balance.glare_gains(corners.reshape(-1, 3))


def _veiled_bodies(photo: Photo, scene: Scene) -> bool:
    """Do the tiles a read found show grey, lifted bodies in the photo as taken (a veil)?

    Cleared of a veil, a wooden or light table can read as tiles too; a board that was
    really veiled shows it on its bodies (:data:`haze.VEILED`): on most of their corners,
    or, for tiles that all read cleanly (``identify.clean``), on :data:`GLARED_CORNERS` of
    each one's corners at least (a glare spot smaller than a tile: real tile 15 under the
    real-photo benchmark's glare spot, two corners lifted, read as nothing before)."""
    corners = _read_corners(photo, scene)
    if corners is None:
        return False
    if haze.veiled(median(corners.reshape(-1, 3), axis=0)):
        return True
    return (all(identify.clean(rd) for _c, rd, _px in scene.readings)
            and bool((haze.veiled(corners).sum(1) >= GLARED_CORNERS).all()))


def _veiled_additions(photo: Photo, scene: Scene, beside: Scene) -> bool:
    """Do all the tiles that read ``scene`` adds to read ``beside`` (more than a cell from
    any of its tiles, in the photo) show grey, lifted bodies in the photo as taken?  A
    veil over part of a board lifts only the bodies of the tiles under it, so the bodies
    of all the tiles read, mostly black, do not show it (real-texture-96, hard-57); a
    cloth cleared of a veil it never had reads as tiles too, and their bodies are not all
    lifted (real-texture-44, a floral cloth: two tiles invented when any addition would do)."""
    if scene.lattice is None or not scene.readings or not beside.readings:
        return False
    had = np.array([px for _c, _rd, px in beside.readings])
    cell = second_look.cell_size(scene)
    new = [c for c, _rd, px in scene.readings if np.hypot(*(had - px).T).min() > cell]
    if not new:
        return False
    body = median(_read_corners(photo, scene, new), axis=1).astype(np.float64)
    return bool(haze.veiled(body).all())


def _on_photo(scene: Scene, photo: Photo) -> Lattice:
    """The scene's lattice mapping the plane to ``photo``'s decoded pixels (not the
    working copy's)."""
    f = photo.image.shape[1] / scene.work.shape[1]
    return replace(scene.lattice, H=np.diag([f, f, 1.0]) @ scene.lattice.H)


def _read_look(photo: Photo, source: Any, profile: Any, look: str, pitch_px: float | None = None,
               prior: search.Prior | None = None, neutral: np.ndarray | None = None) -> Scene | None:
    """:func:`_analyse_once` of the looks that differ only in the link image and mask."""
    work, ws = _working_copy(photo)
    lab = colours.to_lab(work)
    if neutral is None and prior is not None and prior.grey is not None and look == "gated":
        # a live camera's last frame was read with its bodies' grey: so is this one
        neutral = prior.grey
    looked = link_and_mask(lab, profile, look, neutral)
    if looked is None:
        return None
    model, link, mask = looked
    pitch = None if pitch_px is None else pitch_px * ws
    if (look == "gated" and neutral is None and prior is None and not search.only_following()
            and getattr(profile, "neutral", None) is None):
        lat, regreyed = _search_regreyed(work, lab, profile, model, link, mask, pitch)
        if regreyed is not None:
            neutral, (model, link, mask) = regreyed
    else:
        lat = search.find_lattice(work, link, mask, model, pitch, prior, peak=look == "dense",
                                  own_ring=look == second_look.LAST_LOOK)
    size = None if lat is None else lattice.median_cell_size(lat, lat.cells_in(*link.shape[::-1]))
    poor = lat is None or lat.score < POOR_SHARE * lat.judged
    if (size is None or size < SMALL_TILE or poor) and not search.read_at_size(prior, work.shape[:2]):
        # small tiles, or a poor read (small tiles the first look mistook for a coarser
        # pattern): look again with more pixels (costs time only on such photos; not
        # while a live camera only follows a lattice found at this size)
        first = max(work.shape[:2])
        small = size is not None and size < SMALL_TILE
        side = int(min(MAX_WORK_SIDE, first * min(3.0, 24.0 / size) if small else 2 * first))
        if photo.scale < 1.0 and side > max(photo.image.shape[:2]) and not isinstance(source, np.ndarray):
            photo = load_photo(source, reduce=False)
        if max(photo.image.shape[:2]) > 1.3 * max(work.shape[:2]) or side >= 1.3 * first:
            # (a small photo is enlarged: the search's blur and gates are made for
            # tiles of 20 px and more)
            work2, ws2 = _working_copy(photo, side, enlarge=True)
            lab2 = colours.to_lab(work2)
            looked2 = link_and_mask(lab2, profile, look, neutral)
            if looked2 is not None:
                model2, link2, mask2 = looked2
                lat2 = search.find_lattice(work2, link2, mask2, model2,
                                           None if pitch is None else pitch * ws2 / ws, prior,
                                           peak=look == "dense",
                                           own_ring=look == second_look.LAST_LOOK)
                if lat2 is not None and search.beats(lat2, lat):
                    work, ws, lab, model, link, mask, lat = work2, ws2, lab2, model2, link2, mask2, lat2
    if lat is None and not search.only_following():
        # (while a live camera only follows its last frame, a frame that does not
        # follow is read afresh, not from a spot)
        lat = _lattice_at_a_spot(link)
    dark = bodies.dark_mask(lab)  # (the one link_and_mask made, kept)
    scene = _read_cells(photo, work, ws, model, link, mask, lat, dark=dark)
    scene = _refit_to_tiles(scene, lambda fit: _read_cells(photo, work, ws, model, link, mask, fit,
                                                           dark=dark))
    scene.body_grey = neutral is not None
    return scene


LIT_BESIDE = 0.25
"""The pixels beside clear links (``colours.beside_links``) must light the link image this
much (median, 0..1) for their grey to be tried in place of the photo's (:func:`_search_regreyed`):
the photo's grey then misses the bodies.  Less lit, their grey is no surer than the
photo's: the bodies read afterwards (:func:`_body_grey`) tell better (hard-80, glare on a
green felt: its bodies read 16 tiles with their own grey, 14 with that beside the links)."""


def _search_regreyed(work: np.ndarray, lab: np.ndarray, profile: Any, model: colours.ColourModel,
                     link: np.ndarray, mask: np.ndarray, pitch: float | None
                     ) -> tuple[Lattice | None, tuple[np.ndarray, tuple] | None]:
    """The gated look's lattice search, trying the grey beside the links (where they light
    the link image, :data:`LIT_BESIDE`) when the usually right hypotheses find nothing
    with the photo's darkest grey.

    Returns the lattice and, when it was found with that grey, ``(grey, (model, link,
    mask))`` of it.  A dark table greyer than the bodies takes the grey, the bodies then
    look coloured, light up the link image and hide the lattice's ring, and the whole
    search is made for nothing before :func:`_body_grey` reads the photo again with the
    bodies' grey (video-720p-2, 55 tiles on dark green felt: 0.24 s, 0.084 s this way)."""
    lat = search.find_lattice(work, link, mask, model, pitch, stage="early")
    if lat is not None:
        return lat, None
    beside = colours.beside_links(link, bodies.dark_mask(lab))
    grey = None
    if beside is not None and median(link[beside]) >= LIT_BESIDE:
        grey = median(lab[..., 1:][beside], axis=0).astype(np.float32)
    if grey is not None and np.hypot(*(grey - model.neutral)) >= BODY_APART:
        looked = link_and_mask(lab, profile, "gated", grey)
        if looked is not None:
            model2, link2, mask2 = looked
            lat = search.find_lattice(work, link2, mask2, model2, pitch, stage="early", flat=True)
            if lat is not None:
                return lat, (grey, looked)
    return search.find_lattice(work, link, mask, model, pitch, stage="rest"), None


REFIT_TILES = 8
"""A read of at least this many clear tiles has its lattice refitted to where they were
found (:func:`_refit_to_tiles`; a homography is fixed by four cells, so eight fix it twice
over) ..."""

REFIT_MOVED = 0.1
"""... and is read again on the refitted lattice only when that moves those tiles' centres
this share of a cell or more (median): less, and the read again differs by chance, not by
a better lattice (ungated, hard and real-texture 0-199 gave 6 more tiles read wrong) ..."""

REFIT_FAR = 0.3
"""... or moves any one of them this share of a cell or more: on a steep view of a small
board the near side's cells grow faster than the lattice grown from the middle follows,
and the tiles there are read off their centres while the others hold the median down
(carpet13 with its far side pulled in to half its near side: the refit moved one tile
0.49 of a cell and the median 0.08)."""

REFIT_FIT_GAIN = 0.02
"""A read again on the refitted lattice that reads as many tiles (and no more unreadable
cells) is taken when the mean fit of its tiles is higher by this much: a cell read off its
centre on a steep view can give a wrong tile at confidence 1.0, which the read again gives
right (carpet13 with its far side at the bottom: tile 2 read as 24 at fit 0.83, then as 2
at 0.98; the mean fit 0.89 → 0.97)."""

REFITS = 2
"""Most times a read is refitted."""


def _refit_to_tiles(scene: Scene, read_on: Any) -> Scene:
    """The read again on its lattice refitted to the tiles it read clearly (with their own
    shifts), while that loses none of its numbers but to a better fit
    (:func:`_keeps_numbers`) and reads more tiles and is :func:`second_look.better`, or
    reads as many at a better fit (:func:`_fits_better`); ``read_on(lattice)`` makes the
    cell stage's read.

    The lattice is grown from the board's middle outwards, each step refitted to cells
    placed by their links alone; on a steep view its far side can stay off by a fifth of a
    cell, where tiles then read poorly or not at all.  The tiles read clearly say where the
    lattice is better (hard-177: 20 of 26 read, then 24, the true lattice's 24).  Last,
    the lattice settled over the whole board is tried (:func:`_read_settled`): its rows
    that no tile was read on yet say where the lattice is better too.
    """
    for _ in range(REFITS):
        if scene.lattice is None:
            break
        clear = [c for c, rd, _px in scene.readings if acceptance.clear(rd)]
        if len(clear) < REFIT_TILES:
            break
        cells = np.array(clear)
        fit = lattice.fitted_to(scene.lattice, cells, np.array([scene.shifts[c] for c in clear]))
        if fit is None:
            break
        moved = _moved(scene.lattice, fit, cells)
        if median(moved) < REFIT_MOVED and moved.max() < REFIT_FAR:
            break
        other = read_on(fit)
        if not _refit_wins(other, scene):
            break
        scene = other
    return _read_settled(scene, read_on)


def _refit_wins(other: Scene, scene: Scene) -> bool:
    """Is ``other``, a read again of ``scene`` on a refitted lattice, kept: it loses none
    of ``scene``'s numbers but to a better fit (:func:`_keeps_numbers`) and reads more
    tiles and is :func:`second_look.better`, or reads as many at a better fit
    (:func:`_fits_better`)?"""
    if not _keeps_numbers(scene, other):
        return False
    more = len(other.readings) > len(scene.readings) and second_look.better(other, scene)
    return more or _fits_better(other, scene)


SETTLE_MOVED = 0.25
"""A read of :data:`REFIT_TILES` tiles or more is read again on its lattice settled
(``lattice.settle``) when that moves one of its tiles, or a cell beside them, this share
of a cell or more (the cell's own shift search reaches 0.3).  At 0.1 the live frames of
video-720p were read again for nothing (a 45 ms frame took 65 ms), and a checked cloth's
cell beside real-texture-8's board became a tile."""


def _read_settled(scene: Scene, read_on: Any) -> Scene:
    """``scene``, or its read again on its lattice settled over the whole board
    (``lattice.settle``) when that moves its cells (:data:`SETTLE_MOVED`) and the read
    again wins as a refit does (:func:`_refit_wins`).  A tile the settled read gains that
    clashes with every tile it touches is made an unreadable cell first: a cloth's cell
    at the board's rim, brought onto a patch of colour (hard-32, a blue and an orange dot
    read as tile 25 at confidence 0.999, its two touching edges clashing).

    Hard and real-texture 0-199: 11 tiles more read right (real-texture-96 23 → 27 of 30,
    hard-93 24 → 31 of 42) and 2 loose tiles more (hard-94), none invented; one tile a
    third under a mug is then read wrong (real-texture-96's 51 as 56 at confidence 0.70,
    a reading the cell's two neighbours match), where it was not read before."""
    if scene.lattice is None or scene.link is None or len(scene.readings) < REFIT_TILES:
        return scene
    fit = lattice.settle(scene.link, scene.lattice)
    if fit is None:
        return scene
    read = {c for c, _rd, _px in scene.readings}
    cells = np.array(sorted(read | {n for c in read for n in neighbours(c)}))
    if _moved(scene.lattice, fit, cells).max() < SETTLE_MOVED:
        return scene
    other = read_on(fit)
    board = _board_of(other.readings)
    odd = {c for c, _rd, _px in other.readings if c not in read and _clashes_all_round(board, c)}
    if odd:
        other.unreadable = other.unreadable + [it for it in other.readings if it[0] in odd]
        other.readings = [it for it in other.readings if it[0] not in odd]
    return other if _refit_wins(other, scene) else scene


def _moved(old: Lattice, new: Lattice, cells: np.ndarray) -> np.ndarray:
    """How far lattice ``new`` puts each of ``cells`` (N, 2) from where ``old`` does, in
    shares of their median cell size under ``old``, (N,)."""
    size = lattice.median_cell_size(old, cells)
    return np.linalg.norm(new.centres(cells) - old.centres(cells), axis=1) / size


def _fits_better(other: Scene, scene: Scene) -> bool:
    """Does read ``other`` read as many tiles as ``scene``, with no more unreadable cells,
    at a mean fit higher by :data:`REFIT_FIT_GAIN`?"""
    return (len(other.readings) >= len(scene.readings) > 0
            and len(other.unreadable) <= len(scene.unreadable)
            and second_look.mean_fit(other) >= second_look.mean_fit(scene) + REFIT_FIT_GAIN)


def _keeps_numbers(scene: Scene, other: Scene) -> bool:
    """Does read ``other`` read every number ``scene`` reads, but those whose cell it reads
    as another tile at a better fit (a cell read off its centre gives a valid wrong tile;
    read on its centre, the right one fits better)?"""
    now = {rd.tile for _c, rd, _px in other.readings}
    fits = {c: rd.fit for c, rd, _px in other.readings}
    return all(fits.get(c, -1.0) > rd.fit
               for c, rd, _px in scene.readings if rd.tile not in now)


SPOT_SIZES = (8.0, 11.0, 16.0, 23.0, 32.0, 45.0)
"""Cell sizes (centre to corner, working px) at which :func:`_lattice_at_a_spot` looks for
tile-sized patches of link colour."""


def _lattice_at_a_spot(link: np.ndarray) -> Lattice | None:
    """A lattice of one cell on the clearest tile-sized patch of link colour, for a look
    whose search found no lattice at all, or ``None``.

    Tiles standing apart on a cloth as dark as their bodies, with no board (real-texture-103:
    three loose tiles and three face-down ones) make no hexagon blob and no lattice ring,
    but their links show (:func:`bodies.link_spots`).  At each of :data:`SPOT_SIZES` and
    :data:`LOOSE_TURNS`, the hexagon whose edge midpoints show links and corners none
    (:func:`lattice.hexagon_contrast`) best is taken, if it clears
    ``lattice.occupied()``; the cell stage then reads it, and the other patches as
    tiles off its lattice."""
    best, contrast = None, lattice.occupied()
    for size in SPOT_SIZES:
        spots = bodies.link_spots(link, size, loose.MAX_LINK_SPOTS)
        if not spots:
            continue
        # (a square-on lattice of that size: no perspective is known yet)
        Hs, con = loose.hexagons_at(link, Lattice(np.diag([size, size, 1.0])), np.array(spots))
        i = int(np.argmax(con))
        if con[i] > contrast:
            best, contrast = Hs[i], float(con[i])
    return None if best is None else Lattice(best)


def _read_cells(photo: Photo, work: np.ndarray, ws: float, model: colours.ColourModel,
                link: np.ndarray, mask: np.ndarray, lat: Lattice | None,
                own_hexagon: bool = True, dark: np.ndarray | None = None) -> Scene:
    """The cell stage of a read: which cells of ``lat`` hold tiles, their colours, their
    identities, loose tiles beside them.  ``own_hexagon``: whether a read with no tile on
    the lattice and one off it is made again on that tile's own hexagon.  ``dark``: the
    working image's grey bodies (``bodies.dark_mask``), whose own single-tile blobs are
    looked at for loose tiles too (``loose.off_lattice_hexagons``)."""
    scene = Scene(photo, work, ws, neutral=model.neutral, link=link, mask=mask)
    if lat is None:
        return scene
    h, w = link.shape
    cells = lat.cells_in(w, h)
    if len(cells) == 0:
        return scene
    bar = lattice.occupied()
    con = lattice.cell_contrast(link, lat, cells)[:, 0]
    occ = cells[con > bar]
    if len(occ) == 0:
        return scene
    lat, steps = frames.choose_frame(lat, occ)
    # the turned lattice relabels cells: recompute them in the new frame
    cells, _ = lattice._supported(lat, lattice.support_map(link, lattice.median_cell_size(lat, occ)))
    shifts, con = lattice.local_shifts(link, lat, cells)
    cloth = (con > bar).sum() > MANY_CELLS
    if cloth:
        # more "tiles" than a set holds: shifted cells find link colour anywhere on a
        # patterned cloth; only cells clear where the lattice itself puts them count
        con = np.where(lattice.cell_contrast(link, lat, cells)[:, 0] > bar, con, 0.0)
    keep_cells = _with_weak_neighbours(cells, con)
    # (faint cells not read yet: one beside a cell that reads clearly is read next round)
    faint_left = cells[~keep_cells & (con > WEAK_CONTRAST)]
    occ, shifts, strong = cells[keep_cells], shifts[keep_cells], con[keep_cells] > bar
    scene.lattice, scene.frame_steps = lat, steps
    scene.covered = lattice.cells_on_mask(mask, lat, cells)
    if len(occ) == 0:
        return scene
    # tiles off the lattice (loose, beside the Tantrix): single hexagons far from any cell
    # (the bodies alone give loose tiles only where the links' paths can tell a face from
    # a face-down tile's back: hard-93's backs, 10 px in size, read as tiles 24 and 29)
    seen = lattice.median_cell_size(lat, occ) * photo.image.shape[1] / w >= faces.PATH_LEAST_SIZE
    hexes, on_lattice = loose.off_lattice_hexagons(mask, link, lat, occ, shifts, strong,
                                                    dark if seen else None)
    occ, shifts, strong = occ[on_lattice], shifts[on_lattice], strong[on_lattice]
    if len(occ) == 0 and not hexes:
        return scene
    # sample colours on the decoded image (more detail than the working copy)
    full = photo.image
    f = full.shape[1] / w
    S = np.diag([f, f, 1.0])
    lat_full = replace(lat, H=S @ lat.H)
    # cells in or beside the board whose links glare has washed out: faint cells and
    # unread cells held by clear ones are read cleared of the veil, and kept only if
    # they then read clearly
    occ0, shifts0, strong0, model0 = occ, shifts, strong, model
    loose_edges, loose_corners = loose.hexagon_samples(link, full, S, hexes)
    extra = _held_cells(link, lat, occ0[strong0], occ0)
    known, known_shifts = occ0[strong0], shifts0[strong0]
    for _round in range(VEIL_ROUNDS):
        # (a washed-out cell's own links are too faint to settle it: it sits where its
        # neighbours do)
        shifts = np.concatenate([shifts0, _neighbours_shift(extra, known, known_shifts)])
        occ = np.concatenate([occ0, extra])
        strong = np.r_[strong0, np.zeros(len(extra), bool)]
        model, won = model0, []
        edges, corners = sample_cells(full, lat_full, occ, shifts)
        # (a shadow over part of the board: its cells' links lifted to the board's light)
        light = shading.cell_gains(occ, edges, strong, model0.neutral)
        edges = shading.lifted(edges, light, model0.neutral)
        cleared = corners.copy()
        unveiled = np.zeros(len(occ), bool)
        corner_light = median(corners[..., 0], axis=1)
        lifted = (corner_light > median(corner_light[strong]) + LIFTED) if strong.any() else strong
        redo = ~strong | lifted
        redo = np.nonzero(redo)[0]
        if len(redo):
            # faint cells and cells whose corners glare lifts are also sampled cleared of the
            # veil (a faint cell where its clear neighbours put it); see below
            # (no clear cell: no body colour, and nothing is cleared)
            body = sampling.body_colour(full, lat_full, occ[strong], shifts[strong])
            held = shifts[redo].copy()
            faint = ~strong[redo]
            held[faint] = _neighbours_shift(occ[redo[faint]], occ[strong], shifts[strong])
            e2, c2 = sample_cells(full, lat_full, occ[redo], held, body)
            e2 = shading.lifted(e2, light[redo], model0.neutral)
        all_edges = np.concatenate([edges, loose_edges])
        # the colour model learns only from clear cells: not from faint ones, nor from blobs
        # off the lattice, which on a patterned cloth are mostly its print (held-out hard
        # and real-texture 120-199: learning from them gave 3 more tiles read wrong)
        # numbers go to clear cells first, then to faint ones and loose hexagons, and
        # last to tile-sized places (the least sure of being tiles: hard-64's faint
        # board cell lost its number to one)
        rounds = np.r_[np.where(strong, 0, 1), [2 if hx.spot else 1 for hx in hexes]].astype(int)
        learn = rounds == 0
        model = learn_colours(colours.adapt_scale(model, edges[strong].reshape(-1, 3)), all_edges, learn)
        if len(redo):
            # with the photo's colours learnt, a cell sampled both ways is read the way that
            # explains its colours clearly better
            fit = [np.array([r.fit for r in identify.identify(colours.log_probs(e, model), unique=False)])
                   for e in (edges[redo], e2)]
            better = fit[1] > fit[0] + acceptance.CLEARLY_BETTER
            i = redo[better]
            edges[i], cleared[i], shifts[i] = e2[better], c2[better], held[better]
            all_edges[i] = e2[better]
            unveiled[i] = True
        # (a cell glare lifts is read by hue alone when only that reads it clearly)
        glared_rows = np.r_[lifted, np.zeros(len(hexes), bool)]
        logp = _log_probs_under_glare(all_edges, model, glared_rows)  # with the last model
        readings = _claim_numbers(logp, rounds)
        # (loose tiles read poorly as first placed are tried in other poses, once the
        # photo's colours are learnt)
        if _round == 0 and loose.repose(
                link, full, S, hexes, loose_edges, loose_corners, model, readings[len(occ):],
                shaped=sum(acceptance.clear(rd) for rd in readings[:len(occ)]) >= loose.SHAPED_BY).any():
            all_edges = np.concatenate([edges, loose_edges])
            logp = _log_probs_under_glare(all_edges, model, glared_rows)
            readings = _claim_numbers(logp, rounds)
        good, poor = _poor_cells(occ, strong, readings, unveiled)
        moved = _reread_poor(full, lat_full, model, occ, shifts, strong, good, poor, logp,
                             all_edges, corners, cleared, unveiled, light)
        moved |= _reread_turned(full, link, lat, f, model, occ, shifts, good, poor, moved, logp,
                                all_edges, corners, cleared, light)
        if moved.any():
            edges = all_edges[:len(occ)]
            logp = _log_probs_under_glare(all_edges, model, glared_rows)
            readings = _claim_numbers(logp, rounds)
        loose_readings = readings[len(occ):]
        readings = readings[:len(occ)]
        keep, bad, nearly, glared = [], [], [], []
        centres = lat.to_image(occ.astype(np.float64) @ BASIS.T + shifts) / ws
        body = cover.body_corners(np.concatenate([corners, loose_corners]), model,
                                  np.concatenate([cleared, loose_corners]), len(occ)).mean(-1)
        loose_body, body = body[len(occ):], body[:len(occ)]
        for i, (cell, rd) in enumerate(zip(occ, readings)):
            item = (tuple(int(v) for v in cell), rd, centres[i])
            readable = acceptance.readable(rd, body[i])
            if moved[i]:
                # (a clear cell read again where its neighbours put it: still doubt if it
                # does not then read clearly, or only as its next-best number)
                (keep if readable and acceptance.clear(rd) and not rd.pushed else bad).append(item)
                if readable and not acceptance.clear(rd):
                    nearly.append(item)
                continue
            if not strong[i] or unveiled[i]:
                # a faint cell beside the tiles (or one read cleared of glare) counts only if
                # it reads as a tile clearly
                if readable and acceptance.clear(rd):
                    keep.append(item)
                    won.append(i)
                elif readable:
                    nearly.append(item)
                elif body[i] >= acceptance.BODY_CORNERS:
                    # (a tile's body round it: read on among the neighbours if glare
                    # spoils it, else reported unreadable when one tile stands out)
                    if unveiled[i]:
                        glared.append(item)
                    elif rd.confidence >= FAINT_DOUBT:
                        bad.append(item)
                continue
            (keep if readable else bad).append(item)
        body_of = {tuple(int(v) for v in c): b for c, b in zip(occ, body)}
        glare_lit = {tuple(int(v) for v in c) for c in occ[lifted & unveiled]}
        keep, unheld = _held_by_neighbours(keep, nearly, body_of, NEARLY)
        held = {cell for cell, _rd, _px in keep}
        keep, bad = _held_by_neighbours(keep, [it for it in bad if it[0] not in held], body_of)
        keep, bad = _read_through_cover(
            keep, bad, occ, logp[:len(occ)],
            lambda rows: _flank_covered(full, lat_full, occ[rows], shifts[rows],
                                        occ[strong], shifts[strong]),
            lambda rows, pl: faces.link_shares(full, lat_full.H, occ[rows] @ BASIS.T + shifts[rows],
                                               pl, model, least_sure=cover.SHOWN),
            lambda: lattice.median_cell_size(lat_full, occ))
        keep, bad = _doubt_unseen_link(keep, bad, occ, logp[:len(occ)])
        # a glare patch over several tiles is read from its edge inwards: a cell read
        # clearly only once cleared of the veil holds its neighbours as a clear cell does
        known = np.concatenate([occ0[strong0], occ[won]])
        known_shifts = np.concatenate([shifts0[strong0], shifts[won]])
        more = _held_cells(link, lat, known, occ)
        more = np.concatenate([more, _beside(faint_left, occ[won], np.concatenate([occ, more]))])
        if len(more) == 0 or not won:
            break
        extra = np.concatenate([extra, more])
    scene.shifts = {tuple(int(v) for v in c): s for c, s in zip(occ, shifts)}
    keep = _on_tiles_if_scattered(keep, mask, lat, scene.shifts)
    found, keep, bad = loose.read_off_lattice(hexes, loose_readings, loose_body, keep, bad,
                                          lattice.median_cell_size(lat, occ) / ws, ws)
    # (tiles off the lattice: hexagon blobs, read or not, and tile-sized places read)
    others = sum(not hx.spot for hx in hexes) + sum(hx.spot for hx, _item in found)
    keep, isolated = _split_isolated(keep, others, bad)
    # (the board's tiles only: two loose tiles side by side match each other no more
    # than a cloth's patch does)
    keep, odd = _matching_none(keep)
    # (unread cells, and cells that read nearly clearly but were not held by neighbours)
    taken = _matching_all(keep, bad + unheld)
    # (the cells still doubtful, each read among the tiles that match the board around it;
    # both steps pass over cells already given)
    taken += _matching_neighbours(keep + taken, bad + unheld, occ, logp, body_of,
                                  NEIGHBOUR_READING[2], glare_lit)
    # (and cells read cleared of glare, whose fit the glare spoils: see GLARED_READING;
    # then read among the tiles that match the board around them, as doubtful cells are)
    taken += _matching_all(keep + taken, glared, GLARED_READING)
    taken += _matching_neighbours(keep + taken, glared, occ, logp, body_of, GLARED_TOUCHING,
                                  glare_lit)
    # (glared cells side by side that none of that settles, read together; see
    # GLARED_HELD for those still unread)
    given = {cell for cell, _rd, _px in taken}
    left = [it for it in glared if it[0] not in given]
    if left:
        row = {tuple(int(v) for v in c): i for i, c in enumerate(occ)}
        jointly = patches.read_patches(_board_of(keep + taken), [c for c, _rd, _px in left],
                                       {c: logp[row[c]] for c, _rd, _px in left})
        taken += [(c, jointly[c], px) for c, _rd, px in left if c in jointly]
        have = {cell for cell, _rd, _px in keep + taken}
        bad += [it for it in left if it[0] not in jointly
                and sum(n in have for n in neighbours(it[0])) >= GLARED_HELD]
    given = {cell for cell, _rd, _px in taken}
    keep, bad = keep + taken, [it for it in bad if it[0] not in given] + odd
    if cloth and not keep:
        # a lattice over a patterned cloth that reads no two touching tiles found the
        # cloth, not a Tantrix: its cells read alone are dots of the print
        isolated = []
    if len(keep) == 1 and not isolated and not others and not acceptance.clear(keep[0][1]):
        # a lone tile is a board only if it reads clearly: a face-down tile or a
        # coaster on an empty table reads as some tile, poorly
        bad, keep = bad + keep, []
    scene.cells = occ
    scene.readings = keep
    scene.unreadable = _plausible_unreadable(bad, keep)
    # (a tile standing alone whose colours fit a tile read on the board better than any
    # free one is more likely a patch of cloth than a tile: it is not given as loose)
    scene.loose = loose.face_up_items(full, S, lat_full, model, isolated, scene.shifts, found)
    scene.split_off = isolated
    if (own_hexagon and not keep and not scene.unreadable and len(found) == 1
            and scene.loose == [found[0][1]]):
        # no tile on the lattice, one standing off it: the lattice is not the tiles' (a
        # close-up's tile, cut by the frame's rim, placed a smaller lattice beside it) and
        # that tile is the board, read on its own hexagon (kept only if the tile reads
        # there: a lone board tile must read clearly, a loose one need not)
        hx = found[0][0]
        on_tile = hx.H @ lattice.affine(np.eye(2), hx.shift)   # cell (0, 0) on the tile
        again = _read_cells(photo, work, ws, model0, link, mask, Lattice(on_tile), own_hexagon=False,
                            dark=dark)
        if again.readings:
            return again
    _dedupe_numbers(scene)
    _note_candidate(scene)
    return scene


MOVED_SHARE = 0.25
"""Poor clear cells are read again where their neighbours put them (:func:`_reread_poor`)
only while they are at most this share of the well-read ones."""


ASTRAY = 0.15
"""A clear cell whose own shift lies this far (plane units, cell centre to corner = 1)
from its neighbours' is read where they put it too (:func:`_reread_poor`)."""


def _claim_numbers(logp: np.ndarray, rounds: np.ndarray) -> list:
    """The readings of a read's cells and loose places, ``logp`` (N, 6, 5), their numbers
    claimed in ``rounds`` (N,): cells that fit no tile claim last (``acceptance.UNFIT``),
    and a cell holding a number under ``acceptance.CLEAR`` yields it to a later one that
    fits it cleanly (``identify.identify``'s ``last_if`` and ``yield_if``)."""
    return identify.identify(logp, first=rounds, last_if=acceptance.UNFIT,
                             yield_if=acceptance.CLEAR)


def _reread_poor(full: np.ndarray, lat: Lattice, model: colours.ColourModel, occ: np.ndarray,
                 shifts: np.ndarray, strong: np.ndarray, good: np.ndarray,
                 poor: np.ndarray | None, logp: np.ndarray,
                 edges: np.ndarray, corners: np.ndarray, cleared: np.ndarray,
                 unveiled: np.ndarray, light: np.ndarray) -> np.ndarray:
    """Read clear cells again where their well-read neighbours put them (at least
    :data:`HELD` of them), as sampled and cleared of glare: cells that read poorly
    (``poor``, of :func:`_poor_cells`, which also gives the cells read well, ``good``;
    ``logp``: the log-probabilities of ``edges``, whose first N rows are the cells') where
    their own links put them, and cells whose own shift strays :data:`ASTRAY` or more from
    the neighbours'.  A way that fits clearly better (:data:`acceptance.CLEARLY_BETTER`) replaces the
    cell's samples, shift and corners in place.  Returns which cells were moved so, (N,) bool: such a
    cell is given only if it then reads clearly and not as its next-best number, and is
    unreadable otherwise.

    A glare spot or a neighbour's link end can pull a cell's own shift off
    (real-texture-8: fit 0.66, confidence 0.31 at its own shift; 0.98, 1.00 where its
    neighbours put it).  Nothing moves while poor cells outnumber :data:`MOVED_SHARE` of
    the good ones: the lattice itself is off then (hard-171).
    """
    moved = np.zeros(len(occ), bool)
    if poor is None:
        return moved
    # cells read well but far from where their neighbours put them are read there too
    at_good = _neighbours_shift(occ[good], occ[good], shifts[good])
    astray = np.nonzero(good)[0][np.hypot(*(shifts[good] - at_good).T) > ASTRAY]
    poor = np.r_[poor, astray[~unveiled[astray]]]
    # where the well-read neighbours put the cell (held by HELD of them at least)
    poor = _held_by(occ, good, poor)
    if len(poor) == 0:
        return moved
    fit = np.array([r.fit for r in identify.identify(logp[poor], unique=False)])
    at = _neighbours_shift(occ[poor], occ[good], shifts[good])
    body = sampling.body_colour(full, lat, occ[strong], shifts[strong])
    for veil in (None,) if body is None else (None, body):
        e, c = sample_cells(full, lat, occ[poor], at, veil)
        e = shading.lifted(e, light[poor], model.neutral)
        f = np.array([r.fit for r in identify.identify(colours.log_probs(e, model), unique=False)])
        better = f > fit + acceptance.CLEARLY_BETTER
        i = poor[better]
        edges[i], shifts[i], cleared[i] = e[better], at[better], c[better]
        if veil is None:
            corners[i] = c[better]
        moved[i] = True
        fit = np.where(better, f, fit)
    return moved


def _log_probs_under_glare(edges: np.ndarray, model: colours.ColourModel, glared: np.ndarray
                           ) -> np.ndarray:
    """Log-probabilities (N, 6, 5) of cells' edge colours, ``edges`` (N, 6, 3) Lab, under
    ``model``; a cell whose corners glare lifts (``glared``, (N,) bool) is read by hue
    alone (``colours.hue_model``) when only that reads it clearly, and it fits no tile
    as it is (``acceptance.UNREADABLE_FIT``) or its hues name another tile or turn.

    Glare washes a patch of links towards white: real-texture-5's tile 39 under a glare
    spot read as tile 6 at fit 0.61 in one look and fitted no tile (fit 0.2) in others,
    though its hues read it at fit 0.97, confidence 0.999.  A cell read as the same tile
    either way keeps its plain read: hue alone names a cell whose lightness misleads, it
    does not make a read surer (hard-1: two cells read surer by hue turned which look's
    read was kept, and two tiles only the other look read were lost)."""
    logp = colours.log_probs(edges, model)
    rows = np.nonzero(glared)[0]
    if len(rows) == 0:
        return logp
    hue = colours.log_probs(edges[rows], colours.hue_model(model))
    plain = identify.identify(logp[rows], unique=False)
    by_hue = identify.identify(hue, unique=False)
    swap = np.array([acceptance.clear(b) and not acceptance.clear(a)
                     and (a.fit < acceptance.UNREADABLE_FIT
                          or (a.tile, a.rotation) != (b.tile, b.rotation))
                     for a, b in zip(plain, by_hue)], bool)
    logp[rows[swap]] = hue[swap]
    return logp


def _poor_cells(occ: np.ndarray, strong: np.ndarray, readings: list, unveiled: np.ndarray
                ) -> tuple[np.ndarray, np.ndarray | None]:
    """Which of the cells ``occ`` (N, 2) read well (clear and :func:`acceptance.fits`),
    (N,) bool, and the indices of the clear cells not ``unveiled`` that read poorly, or
    ``None`` when those outnumber :data:`MOVED_SHARE` of the good ones: the lattice
    itself is off then, not a cell (hard-171)."""
    good = strong & np.array([acceptance.fits(r) for r in readings[:len(occ)]], bool)
    poor = np.nonzero(strong & ~unveiled & ~good)[0]
    return good, (None if len(poor) > MOVED_SHARE * good.sum() else poor)


def _held_by(occ: np.ndarray, good: np.ndarray, idx: np.ndarray) -> np.ndarray:
    """The indices ``idx`` of cells of ``occ`` (N, 2) that touch at least :data:`HELD`
    cells read well (``good``, (N,) bool)."""
    well = {tuple(c) for c in occ[good].tolist()}
    return np.array([i for i in idx
                     if sum(n in well for n in neighbours(tuple(occ[i].tolist()))) >= HELD], int)


TURNS = np.radians([-10.0, -5.0, 5.0, 10.0])
"""Turns (radians) about its centre at which a poorly read clear cell is read again
(:func:`_reread_turned`): a tile set down by hand sits a few degrees off the board's turn,
and at 7-12° its edge samples fall on its links' flanks."""

TURN_GAIN = 0.15
"""How much better a cell must fit turned than as the lattice holds it to be read turned.
Three times :data:`acceptance.CLEARLY_BETTER`: the best of four turns, each with its shift
searched again, gains a little by chance (real-texture-3's tile 22, 1° off: 0.76 → 0.84 at
-10°); the tiles turned 7-12° gained 0.16-0.48 (easy-27 placed sloppily: 0.49 → 0.96)."""


def _reread_turned(full: np.ndarray, link: np.ndarray, lat: Lattice, f: float,
                   model: colours.ColourModel, occ: np.ndarray, shifts: np.ndarray,
                   good: np.ndarray, poor: np.ndarray | None, done: np.ndarray,
                   logp: np.ndarray, edges: np.ndarray, corners: np.ndarray,
                   cleared: np.ndarray, light: np.ndarray) -> np.ndarray:
    """Read clear cells that read poorly, held by :data:`HELD` well-read neighbours,
    again turned by each of :data:`TURNS` about their centres, each turn's shift searched
    again on the link image ``link`` (``lat``'s pixels; ``f``: ``full``'s pixels per link
    pixel).  A turn that fits :data:`TURN_GAIN` better and reads clearly
    (:func:`acceptance.fits`) replaces the cell's samples, shift and corners in place, as
    :func:`_reread_poor` does, whose arguments these are (``done``: the cells it moved,
    left alone).  Returns which cells were read turned, (N,) bool."""
    moved = np.zeros(len(occ), bool)
    if poor is None:
        return moved
    poor = _held_by(occ, good, poor[~done[poor]])
    if len(poor) == 0:
        return moved
    fit0 = np.array([r.fit for r in identify.identify(logp[poor], unique=False)])
    k = len(TURNS)
    Hs = lattice.turned_cells(lat.H, occ[poor], TURNS)
    sh = lattice.hexagon_shifts(link, Hs)
    e, c = sampling.sample_hexagons(full, np.diag([f, f, 1.0]) @ Hs, sh)
    e = shading.lifted(e, np.repeat(light[poor], k, 0), model.neutral)
    rds = identify.identify(colours.log_probs(e, model), unique=False)
    fits = np.array([r.fit for r in rds]).reshape(len(poor), k)
    best = fits.argmax(1)
    for a in np.nonzero(fits[np.arange(len(poor)), best] > fit0 + TURN_GAIN)[0]:
        row = a * k + best[a]
        if not acceptance.fits(rds[row]):
            continue
        i, t = poor[a], TURNS[best[a]]
        edges[i], corners[i], cleared[i] = e[row], c[row], c[row]
        # (the shift was searched in the turned cell's frame: back into the lattice's)
        shifts[i] = np.array([[np.cos(t), -np.sin(t)], [np.sin(t), np.cos(t)]]) @ sh[row]
        moved[i] = True
    return moved


def _beside(faint: np.ndarray, read: np.ndarray, taken: np.ndarray) -> np.ndarray:
    """The cells of ``faint`` (M, 2) not in ``taken`` that touch a cell of ``read`` (K, 2),
    (L, 2): a faint cell beside a tile read only once its own faint link showed clearly
    (a board's rim fading into blur or shadow, cell by cell: hard-148's far edge)."""
    have = {tuple(c) for c in taken.tolist()}
    free = np.array([tuple(c) not in have for c in faint.tolist()], bool).reshape(len(faint))
    return faint[free & _touching(faint, read)].reshape(-1, 2)


def _held_cells(image: np.ndarray, lat: Lattice, clear: np.ndarray, occ: np.ndarray,
                least: int = HELD) -> np.ndarray:
    """Cells not in ``occ`` that touch at least ``least`` cells of ``clear`` (a hole or a
    notch in the board, where glare may have washed out a tile's links, or a lamp's cast
    taken them out of the link image), inside ``image`` (the link image or the working
    copy: ``lat``'s pixels), (M, 2)."""
    have = {tuple(c) for c in np.asarray(clear).reshape(-1, 2).tolist()}
    taken = {tuple(c) for c in np.asarray(occ).reshape(-1, 2).tolist()}
    count: dict[tuple[int, int], int] = {}
    for cell in have:
        for c in neighbours(cell):
            if c not in taken:
                count[c] = count.get(c, 0) + 1
    cells = np.array([c for c, k in count.items() if k >= least], int).reshape(-1, 2)
    if len(cells) == 0:
        return cells
    h, w = image.shape[:2]
    xy = lat.centres(cells)
    return cells[(xy[:, 0] >= 0) & (xy[:, 0] < w) & (xy[:, 1] >= 0) & (xy[:, 1] < h)]


def _neighbours_shift(cells: np.ndarray, known: np.ndarray, shifts: np.ndarray) -> np.ndarray:
    """Per cell, the mean plane shift of its neighbours among ``known`` cells (N, 2)."""
    at = {tuple(c): s for c, s in zip(known.tolist(), shifts)}
    out = np.zeros((len(cells), 2))
    for i, cell in enumerate(cells.tolist()):
        near = [at[c] for c in neighbours(tuple(cell)) if c in at]
        if near:
            out[i] = np.mean(near, axis=0)
    return out


def _on_tiles_if_scattered(items: list, mask: np.ndarray, lat: Lattice, shifts: dict) -> list:
    """Readings of a scattered read, kept only where the tile mask covers the cell.

    Cells read in ones and twos all over the photo (no group of three) are what a lattice
    laid over a busy cloth gives: dots of link colour read as tiles.  A real tile standing
    apart is a dark hexagon in the tile mask; a cell on the cloth is not.
    """
    groups = components([c for c, _rd, _px in items])
    if not groups or len(groups[0]) >= loose.TANTRIX_TILES or len(groups) < SCATTERED_GROUPS:
        return items
    cells = np.array([c for c, _rd, _px in items], np.float64)
    sh = np.array([shifts.get(c, np.zeros(2)) for c, _rd, _px in items])
    # the centre and six points halfway to the corners of each cell
    pts = (cells @ BASIS.T + sh)[:, None, :] + np.vstack([np.zeros((1, 2)), 0.5 * CORNERS])[None]
    xy = np.round(lat.to_image(pts.reshape(-1, 2))).astype(int)
    h, w = mask.shape
    inside = (xy[:, 0] >= 0) & (xy[:, 0] < w) & (xy[:, 1] >= 0) & (xy[:, 1] < h)
    on = np.zeros(len(xy), bool)
    on[inside] = mask[xy[inside, 1], xy[inside, 0]] > 0
    cover = on.reshape(len(items), -1).mean(1)
    # (the mask misses some tiles on a black cloth: a reading as clean as a real tile's
    # needs only part of its hexagon covered)
    return [(c, rd, px) for (c, rd, px), v in zip(items, cover)
            if v >= TILE_COVER or (v >= TILE_COVER / 2 and identify.clean(rd))]


COLOUR_ROUNDS = 3
"""Rounds of reading the cells and refitting the link colours to what they were read as."""


def learn_colours(model: colours.ColourModel, edges: np.ndarray, learn: np.ndarray
                  ) -> colours.ColourModel:
    """The photo's link colours learnt from its cells: read the cells' edge samples
    ``edges`` (N, 6, 3) Lab, refit the colour means to the colours read on the cells
    ``learn`` (N,) bool, weighted by confidence, :data:`COLOUR_ROUNDS` times.  The cells
    ``learn`` claim tile numbers first (``identify``'s ``first``).  When green and blue
    end up on one cluster, the photo may lack one of them; when one of them names no
    edge, the other's cluster may hold both (``missing_colour``); last, a naming under
    which the cells read as a Discovery puzzle may be taken (:func:`_as_discovery`)."""
    learnt = _refit_colours(model, edges, learn)
    if missing_colour.one_cluster(learnt) and learn.any():
        tries = [learnt] + [_refit_colours(missing_colour.without(model, c), edges, learn)
                            for c in (missing_colour.GREEN, missing_colour.BLUE)]
        learnt = missing_colour.best(tries, model, edges[learn])
    elif learn.any() and (gone := missing_colour.unused(learnt, edges[learn])) is not None:
        halves = missing_colour.split(learnt, edges[learn], gone)
        if halves is not None:
            halves = _refit_colours(halves, edges, learn)
            if missing_colour.split_wins(learnt, halves, edges[learn]):
                learnt = halves
    return _as_discovery(learnt, model, edges, learn)


def _as_discovery(learnt: colours.ColourModel, model: colours.ColourModel, edges: np.ndarray,
                  learn: np.ndarray) -> colours.ColourModel:
    """``learnt``, or another naming of the photo's colours under which its cells read as
    a Discovery puzzle, tiles 1 to N (``missing_colour.discovery_run``), where ``learnt``
    reads them as no such run: ``learnt`` with its green named blue when it names no link
    blue (``missing_colour.as_blue``: pale blue links that light or a lamp's cast moved
    nearer green's hue; taken on ``missing_colour.blue_run``'s terms, which ask a long run
    for a hue leaning towards blue), or so named when it names a few links blue but the
    cells read mostly as tiles without blue and, named blue, give as many tiles
    (``missing_colour.mostly_without_blue``: blue links doubly over-exposed), or the
    colours learnt without green from ``model`` when the cells ``learn`` (N,) bool read
    mostly as tiles without green and the fourth colour is needless
    (``missing_colour.needless``: blue links over-exposed in part) or what it names green
    is as light as yellow (``missing_colour.washed_green``: a blue pair under
    glare).  When ``learnt`` names no link green and reads the cells as such a run, it is
    kept without green (``missing_colour.green_unnamed``).  The numbers
    counted are those read on ``edges`` (N, 6, 3) that could be given as tiles
    (:data:`acceptance.UNFIT`), the cells ``learn`` claiming numbers first."""
    if learn.sum() < missing_colour.DISCOVERY_MIN or learnt.absent == missing_colour.GREEN:
        return learnt
    # (this runs on every read: each cell's own best tile, with no numbers given out, is
    # enough to tell a four-colour board, whose tiles are mostly with green, from one that
    # may be a Discovery puzzle)
    logp = colours.log_probs(edges[learn], learnt)
    if missing_colour.blue_unnamed(learnt, logp):
        # (a board whose third colour is named green reads as tiles with green: no run)
        return _named_blue(learnt, edges, learn) or learnt
    if (missing_colour.green_unnamed(learnt, logp)
            and missing_colour.discovery_run(_numbers_read(learnt, edges, learn))):
        # (a Discovery puzzle whose clear cells show no green is read without green to
        # the end: the doubtful cells read later cannot take a green twin)
        return missing_colour.without(learnt, missing_colour.GREEN)
    scores = identify.candidate_scores(logp).reshape(len(logp), -1)
    own = identify.NUMBERS[scores.argmax(1) // 6].tolist()
    if learnt.absent is None and missing_colour.mostly_without_blue(own):
        # (a few edges named blue, the rest of the pale blue named green: carpet13 doubly
        # over-exposed read its tiles as their twins without blue; named blue, the cells
        # must give as many tiles: a cloth's cells read as 19 tiles gave a run of 9)
        blue = _named_blue(learnt, edges, learn, as_many=True)
        if blue is not None:
            return blue
    if learnt.absent is not None or not missing_colour.mostly_without_green(own):
        return learnt
    if missing_colour.discovery_run(_numbers_read(learnt, edges, learn)):
        return learnt
    three = _refit_colours(missing_colour.without(model, missing_colour.GREEN), edges, learn)
    if (missing_colour.discovery_run(_numbers_read(three, edges, learn))
            and (missing_colour.needless(learnt, three, edges[learn])
                 or missing_colour.washed_green(learnt, edges[learn], logp))):
        return three
    return learnt


def _named_blue(learnt: colours.ColourModel, edges: np.ndarray, learn: np.ndarray,
                as_many: bool = False) -> colours.ColourModel | None:
    """``learnt`` with its green named blue (``missing_colour.as_blue``) when the cells of
    ``edges`` then read as ``missing_colour.blue_run`` asks, and with ``as_many``, as
    many tiles as under ``learnt``; else ``None``."""
    blue = missing_colour.as_blue(learnt)
    named = _numbers_read(blue, edges, learn)
    if not missing_colour.blue_run(learnt, named):
        return None
    if as_many and len(named) < len(_numbers_read(learnt, edges, learn)):
        return None
    return blue


def _numbers_read(model: colours.ColourModel, edges: np.ndarray, learn: np.ndarray) -> list[int]:
    """The tile numbers ``model`` reads on the cells of ``edges`` that could be tiles."""
    readings = identify.identify(colours.log_probs(edges, model), first=learn, last_if=acceptance.UNFIT)
    return [rd.tile for rd in readings if acceptance.fits(rd)]


def _refit_colours(model: colours.ColourModel, edges: np.ndarray, learn: np.ndarray
                   ) -> colours.ColourModel:
    for _ in range(COLOUR_ROUNDS):
        readings = identify.identify(colours.log_probs(edges, model), first=learn, last_if=acceptance.UNFIT)
        labels = identify.edge_labels(readings)[learn].ravel()
        weights = np.repeat([r.confidence for r, ok in zip(readings, learn) if ok], 6)
        model = colours.calibrate(model, edges[learn].reshape(-1, 3), labels, weights)
    return model


HELD_READING = (0.8, 0.95, 0.6)
HELD_BY = 2
"""A cell read this well (fit, confidence) with this share of body corners is a tile when
at least ``HELD_BY`` of its neighbours are (:func:`_held_by_neighbours`)."""

NEARLY = (0.7, 0.99, acceptance.BODY_CORNERS)
"""... and so is a faint cell (or a clear one read again where its neighbours put it),
which must otherwise read clearly (:func:`acceptance.clear`, fit 0.75), when it reads this well:
hard-102's corner tile, 174 px across on a red check cloth, read right at fit 0.74 and
confidence 0.996, and so did a cell at real-texture-113's board's rim (hard and
real-texture 0-119: 2 tiles more and 2 perfect boards, none wrong; 120-199 the same)."""

FAINT_DOUBT = 0.9
"""A faint cell (see :func:`_with_weak_neighbours`) that does not read as a tile, but whose
corners are grey body (five of six, ``acceptance.BODY_CORNERS``) and whose colours favour
one tile this clearly among the 336 candidates, is reported unreadable, not left out as
table: a tile lies there (discovery10 over-exposed: tile 8's body at the board's rim
washes out of the tile mask; read where its neighbours put it, it fits at 0.49 and names
8 at 0.92).  Hard and real-texture 0-199: 3 more tiles reported unreadable, no more
unreadable cells where no tile lies; 2 tiles more read right and 1 more wrong (hard-98,
where the look kept changed)."""


def _held_by_neighbours(keep: list, bad: list, body: dict,
                        least: tuple[float, float, float] = HELD_READING) -> tuple[list, list]:
    """Cells of ``bad`` that read confidently but show two body corners too few (a tile
    at the board's edge whose corner samples catch the table, hard-46) are given when
    tiles were read beside them; alone, such a reading may be a hand's or a cloth's.
    ``body``: cell → share of body corners; ``least``: the fit, confidence and body
    share a cell needs (:data:`HELD_READING`, :data:`NEARLY`).  Returns (keep, bad)."""
    keep, still = list(keep), []
    kept = {cell for cell, _rd, _px in keep}
    fit, confidence, body_share = least
    for item in bad:
        cell, rd, _px = item
        if (rd.fit >= fit and rd.confidence >= confidence and body[cell] >= body_share
                and sum(n in kept for n in neighbours(cell)) >= HELD_BY):
            keep.append(item)
        else:
            still.append(item)
    return keep, still


def _read_through_cover(keep: list, bad: list, occ: np.ndarray, logp: np.ndarray,
                        covered: Callable[[np.ndarray], tuple[np.ndarray, np.ndarray]],
                        shares: Callable[[np.ndarray, list], np.ndarray],
                        size: Callable[[], float]) -> tuple[list, list]:
    """Cells of ``bad`` beside a tile read that a hand or an object covers in part, read
    from the edges that still show (:func:`cover.read_shown`) when those leave one tile.
    ``logp`` (N, 6, 5) are the edge log-probabilities of the cells of ``occ``;
    ``covered(rows)``: two (len(rows), 6) bool, the edges of those cells of ``occ`` whose
    flanks show a cover, and those whose flanks show one or a finger's blurred side
    (:func:`_flank_covered`; the second is used only on cells the first leaves unread),
    hidden too.  hard and real-texture
    0-199 with those: 3 tiles more read right and 3 fewer read wrong; three tiles read
    before through a finger taken for a link are now unreadable (hard-119, -147,
    real-texture-52).  A hidden edge under a cover that a tile read beside the cell faces
    takes that tile's colour (``facing``), and rivals the shown edges leave are told apart
    by their link paths (:func:`cover.settle_by_paths`, ``shares(rows, placed)``: the share
    of each placed tile's three paths the photo shows surely, on cells of ``size()`` at
    least ``faces.PATH_LEAST_SIZE``; ``covered``, ``shares`` and ``size`` are called only
    when a cell needs them, as this runs on every look of every frame); both only beside a
    tile that touches another tile read.
    hard and real-texture 0-199 with those: 4 tiles more read right, none wrong or
    invented, and hard-196's loose tile 6 lost (the balanced look, which lent it, reads
    tile 43 through a cover there, and then its tile 45 at confidence 0.76, below
    ``second_look.CONFIDENT``, so the look is dropped).  Returns (keep, bad)."""
    kept = {cell for cell, _rd, _px in keep}
    near = [it for it in bad if any(n in kept for n in neighbours(it[0]))]
    if not near:
        return keep, bad
    row = {tuple(int(v) for v in c): i for i, c in enumerate(occ)}
    rows = np.array([row[it[0]] for it in near])
    # (a finger or a coloured object can read as a confident link colour: its colour
    # running on over the link's flanks gives it away)
    strict, mixed = covered(rows)
    read = _shown_reads(keep, near, logp[rows], strict,
                        lambda i, pl: shares(np.full(len(pl), rows[i]), pl), size)
    # (a finger's side blurred across a flank, counted as a cover only for cells still
    # unread: it also flags edges beside a cover that the cell reads well without, and
    # one more edge hidden may leave more than one tile, real-texture-78's tile 10)
    again = [j for j, it in enumerate(near) if it[0] not in read and (mixed[j] != strict[j]).any()]
    if again:
        more = _shown_reads(keep + list(read.values()), [near[j] for j in again], logp[rows[again]],
                            mixed[again], lambda i, pl: shares(np.full(len(pl), rows[again[i]]), pl),
                            size)
        read.update(more)
    return keep + list(read.values()), [it for it in bad if it[0] not in read]


def _shown_reads(keep: list, near: list, logp: np.ndarray, flanked: np.ndarray,
                 shares: Callable[[int, list], np.ndarray], size: Callable[[], float]) -> dict:
    """:func:`_read_through_cover`'s reading of the cells ``near`` (items beside a tile of
    ``keep``), with edge log-probabilities ``logp`` (M, 6, 5) and the edges ``flanked``
    (M, 6) bool whose flanks show a cover; ``shares(i, placed)``: the path shares of the
    placed tiles on cell ``near[i]``.  Returns {cell: item} of the cells read."""
    hidden = cover.hidden_edges(logp) | flanked
    kept = {cell for cell, _rd, _px in keep}
    # (a neighbour's colour is taken only across an edge a cover lies over: an edge that
    # is merely faint may belong to no tile, as on a patch of cloth beside the board)
    # (the neighbours' colours and the link paths read a cell only beside a tile that
    # touches another tile read: tiles read apart, each alone, are loose or a cloth's
    # print until something else joins them; hard-108, a floral cloth's look read three
    # tiles apart, two of them wrong, and a fourth read between two of them made them a
    # board)
    joined = {c for c in kept if any(n in kept for n in neighbours(c))}
    anchored = np.array([any(n in joined for n in neighbours(it[0])) for it in near])
    facing = np.full(hidden.shape, -1)
    if (flanked & anchored[:, None]).any():
        board = _board_of(keep)
        facing = np.array([[-1 if f is None else colours.CLASSES.index(f)
                            for f in facing_colours(board, it[0])] for it in near])
        facing = np.where(flanked & anchored[:, None], facing, -1)
    shown = cover.read_shown(logp, hidden, {rd.tile for _c, rd, _px in keep}, facing)
    read = {it[0]: (it[0], rd, it[2]) for it, rd in zip(near, shown) if rd is not None}
    left = [j for j, rd in enumerate(shown) if rd is None and anchored[j]]
    if left and size() >= faces.PATH_LEAST_SIZE:
        taken = {rd.tile for _c, rd, _px in keep} | {it[1].tile for it in read.values()}
        picks = cover.settle_by_paths(logp[left], hidden[left], taken, facing[left], flanked[left],
                                      lambda i, pl: shares(left[i], pl))
        for j, rd in zip(left, picks):
            if rd is not None and rd.tile not in taken:
                taken.add(rd.tile)
                read[near[j][0]] = (near[j][0], rd, near[j][2])
    return read


def _doubt_unseen_link(keep: list, bad: list, occ: np.ndarray, logp: np.ndarray
                       ) -> tuple[list, list]:
    """Tiles of ``keep`` whose reading guesses a link's colour (:func:`cover.guessed_link`)
    moved to ``bad`` (unreadable).  ``logp``: (N, 6, 5) edge log-probabilities of the cells
    of ``occ``."""
    if not keep:
        return keep, bad
    row = {tuple(int(v) for v in c): i for i, c in enumerate(occ)}
    rows = np.array([row[it[0]] for it in keep])
    guessed = cover.guessed_link(logp[rows], [(rd.tile, rd.rotation) for _c, rd, _px in keep])
    if not guessed.any():
        return keep, bad
    return ([it for it, g in zip(keep, guessed) if not g],
            bad + [it for it, g in zip(keep, guessed) if g])


def _flank_covered(full: np.ndarray, lat: Lattice, cells: np.ndarray, shifts: np.ndarray,
                   clear: np.ndarray, clear_shifts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Two (N, 6) bool: edges of ``cells`` (N, 2) at plane ``shifts`` whose flanks show a
    hand or an object (:func:`cover.covered_edges`) on the photo ``full`` that ``lat``
    maps, and those whose flanks show one or mix the link end's colour with the body's
    (``mixed=True``), judged on the same samples; the ``clear`` cells at
    ``clear_shifts`` give the tile bodies' colour (none: no edge)."""
    if len(clear) == 0:
        none = np.zeros((len(cells), 6), bool)
        return none, none
    ends, flanks = sampling.flank_cells(full, lat, cells, shifts)
    body = sampling.body_lab(full, lat, clear, clear_shifts)
    return (cover.covered_edges(ends, flanks, body),
            cover.covered_edges(ends, flanks, body, mixed=True))


def _plausible_unreadable(bad: list, good: list) -> list:
    """Unreadable cells worth reporting: a table holds at most 56 tiles, so when there are
    more, the lattice has wandered over the table; then only those touching a tile read
    are kept (up to the 56)."""
    room = len(NUMBERS) - len(good)
    if len(bad) <= room:
        return bad
    have = {c for c, _rd, _px in good}
    near = [it for it in bad if any(n in have for n in neighbours(it[0]))]
    return near[:max(room, 0)]


def _board_of(items: list) -> Board:
    """The position of read cells ``items`` (cell, reading, px), for the golden rule's
    tests (``referee.matching``)."""
    board = Board()
    for cell, rd, _px in items:
        board.place(cell, rd.tile, rd.rotation)
    return board


ODD_FIT = 0.8
"""A tile read with a fit under this that matches none of the tiles it touches is reported
unreadable (:func:`_matching_none`)."""


def _matching_none(items: list) -> tuple[list, list]:
    """The cells ``items`` (cell, reading, px) less those that read poorly (fit under
    :data:`ODD_FIT`) and match none of the tiles read beside them; and those.

    Every touching edge matches in a legal position, and a board that breaks the rule
    breaks it on an edge or two: a poor reading whose every touching edge clashes is more
    likely a patch of cloth at the board's rim, or a misread, than a tile (hard and
    real-texture 0-199: 6 cloth cells and 1 misread, no tile read right).  The cell is
    reported unreadable, not read otherwise: a real clash stays for the referee to see
    wherever the tiles read well."""
    poor = [cell for cell, rd, _px in items if rd.fit < ODD_FIT]
    if not poor:
        return items, []
    board = _board_of(items)
    odd = {cell for cell in poor if _clashes_all_round(board, cell)}
    return [it for it in items if it[0] not in odd], [it for it in items if it[0] in odd]


def _clashes_all_round(board: Board, cell: tuple[int, int]) -> bool:
    """Does the tile on ``cell`` of ``board`` touch other tiles and match none of them?"""
    touching, matching = touching_edges(board, cell)
    return bool(touching) and not matching


MATCHED_READING = (0.5, 0.8, 3)
"""(fit, confidence, touching edges) at and above which an unreadable cell whose reading
matches every tile it touches is a tile (:func:`_matching_all`)."""


GLARED_READING = (0.2, 0.9, 3)
"""The same bar (:func:`_matching_all`) for a cell read cleared of glare that shows five
body corners of six but reads short of :func:`acceptance.fits`: a glare spot over the
middle of a board lifts every colour towards white, so a tile under it fits poorly
(hard-148's three tiles under a spot, read right at fit 0.26-0.46 and confidence 0.96-1.0)
while one number still stands out.  hard and real-texture 0-199: 4 tiles so given, all
right; at confidence 0.8, two touching edges and half the corners body, 2 more right and
3 invented (hard-8, -77, real-texture-173), each matching its one or two neighbours."""


def _matching_all(keep: list, doubtful: list,
                  bar: tuple[float, float, int] = MATCHED_READING) -> list:
    """The cells of ``doubtful`` (unreadable ones, and ones that read nearly clearly but
    not beside two tiles) whose reading matches every tile of the board ``keep`` beside
    them, on ``bar``'s number of edges or more, at its fit and confidence
    (:data:`MATCHED_READING`, :data:`GLARED_READING`).

    A reading a little short of clear, whose number is free, that agrees with three or
    more neighbours on every touching edge is more likely the tile than a chance (a wrong
    tile differs from the right one on two edges at least, which often face a neighbour).
    hard and real-texture 0-199: of the cells reported unreadable, 5 such, all read right
    (at confidence 0.5, 7 and a wrong one); of the nearly clear ones, 4 more, all right.
    Most confident first, each against the board as it grows."""
    fit, confidence, least = bar
    sure = [it for it in doubtful if it[1].fit >= fit and it[1].confidence >= confidence]
    if not sure:
        return []
    board = _board_of(keep)
    taken = []
    for item in sorted(sure, key=lambda it: -it[1].confidence):
        cell, rd, _px = item
        if cell in board.tiles or board.cell_of(rd.tile) is not None:
            continue
        board.place(cell, rd.tile, rd.rotation)
        touching, matching = touching_edges(board, cell)
        if touching >= least and matching == touching:
            taken.append(item)
        else:
            board.remove(cell)
    return taken


NEIGHBOUR_READING = (0.62, 0.9, 3)
"""(fit, confidence among the matching tiles, touching edges) at and above which a doubtful
cell read among the tiles that match its neighbours is given that tile
(:func:`_matching_neighbours`)."""

NEIGHBOUR_OWN = 0.1
"""... and the least posterior that tile must have among all 336 candidates on the cell's
own colours: the board may only settle between tiles the colours already favour."""


GLARE_LIT_FIT = 0.5
"""The fit (:data:`NEIGHBOUR_READING`'s 0.62 otherwise) a cell whose corners glare lifts
needs when read among the tiles that match its neighbours (:func:`_matching_neighbours`):
glare over a cell lifts its links towards white unevenly, more on the side nearer the
spot, and clearing it by the corners' one veil leaves them off.  hard-80's tile 49 under
a spot: the one free tile matching its neighbours, its own colours give it 0.61 of the
336 candidates, at fit 0.55.  Only cells read cleared of the veil count: an empty cell of
a light cloth has lifted corners too (hard-8: a tile invented at the board's rim when
every lifted cell counted).  hard and real-texture 0-199: 2 tiles more, both right."""

GLARED_TOUCHING = 4
"""The touching edges a cell read cleared of glare needs to be read among the tiles that
match its neighbours (:func:`_matching_neighbours`): the glare spoils its own colours
more than a doubtful cell's, so the board must say more.  carpet13 under a warm lamp's
glare: its middle tile, read right at confidence 0.46 and fit 0.65, is the one free tile
matching its six neighbours.  hard and real-texture 0-199, at three edges: two more
tiles, both wrong (hard-11, a floral cloth's glare; real-texture-185, a tile 64 %
under a hand)."""


GLARED_HELD = 4
"""A cell read cleared of glare that is still unread after every reading above is reported
unreadable when it touches this many tiles read (a tile washed out inside the board:
hard-1's tile 13 under a glare spot, six tiles round it), and left out otherwise: glare
over the cloth round the board, a loose or face-down tile beside it (video-720p-13: three
such cells by a floral cloth's edge, reported unreadable, made its read look poor and sent
it through every look), or a hole in a board (hard-183: at three, holes of a six-tile board
were reported in some looks, and another look won with a loose tile invented).  At three
when one tile is favoured at 0.9 (hard and real-texture 0-199): hard-166 went on to a look
that reads its 3 missing tiles, but real-texture-181 to one that reads a tile wrong."""


def _matching_neighbours(keep: list, doubtful: list, occ: np.ndarray, logp: np.ndarray,
                         body_of: dict, least: int = NEIGHBOUR_READING[2],
                         lit: set | frozenset = frozenset()) -> list:
    """The cells of ``doubtful`` that, read among only the free tiles that match every tile
    of the board ``keep`` beside them (``referee.matching.fits``, on
    :data:`NEIGHBOUR_READING`'s number of edges or more), name one at its fit and
    confidence, and that their own colours favour enough (:data:`NEIGHBOUR_OWN`).
    ``logp`` (N, 6, 5) are the edge log-probabilities of the cells of ``occ`` (N, 2);
    ``body_of``: cell → share of its corners that are tile body (at least
    ``acceptance.BODY_CORNERS``: an empty space among tiles is no tile).

    A cell whose colours leave two or three tiles nearly alike (hard-81's tile 52 read at
    confidence 0.32) is often settled by its neighbours: the rivals differ on edges that
    face them.  Unlike :func:`_matching_all`, which asks the cell's own best reading to
    match, this asks which tile among those that match the colours favour.  hard and
    real-texture 0-119: 5 tiles more, all right (at fit 0.5, 3 more right and 2 wrong, hard-8's
    and hard-50's, fitting at 0.58-0.61); 120-199: 4 more, all right.  The cells are taken
    in turn, each against the board as it grows.  ``least``: the touching edges a cell
    needs (:data:`GLARED_TOUCHING` for cells read cleared of glare); ``lit``: cells whose
    corners glare lifts and that read cleared of the veil, which need only
    :data:`GLARE_LIT_FIT`."""
    fit, confidence = NEIGHBOUR_READING[:2]
    if not doubtful:
        return []
    board = _board_of(keep)
    row = None
    taken = []
    for item in doubtful:
        cell, _rd, px = item
        if cell in board.tiles or body_of.get(cell, 0.0) < acceptance.BODY_CORNERS:
            continue
        facing = facing_colours(board, cell)
        if sum(f is not None for f in facing) < least:
            continue
        used = {p.tile for p in board.tiles.values()}
        allowed = np.array([[int(n) not in used and fits(rotated_edges(int(n), k), facing) is None
                             for k in range(6)] for n in NUMBERS])
        if row is None:
            row = {tuple(int(v) for v in c): i for i, c in enumerate(occ)}
        read = identify.identify_among(logp[row[cell]], allowed)
        if read is None:
            continue
        rd, own = read
        if (rd.fit >= (GLARE_LIT_FIT if cell in lit else fit) and rd.confidence >= confidence
                and own >= NEIGHBOUR_OWN):
            board.place(cell, rd.tile, rd.rotation)
            taken.append((cell, rd, px))
    return taken


FAR_GROUP = 3
"""Hex distance from the Tantrix (its tiles and unreadable cells) at which a separate group
of touching tiles is reported loose (see :func:`_split_isolated`)."""


def _split_isolated(items: list, others: int = 0, bad: list | tuple = ()) -> tuple[list, list]:
    """Tiles of the Tantrix vs tiles lying away from it (reported as loose).

    A tile touching no other tile while the Tantrix has at least two is taken to be a
    loose tile that happens to sit near a lattice position (a game's tiles all touch; with
    "three", loose tiles beside a two-tile Tantrix were read into it: hard and
    real-texture 0-119 boards of up to 6 tiles, tiles read but not right 22 -> 14, tiles
    right 151 -> 152 of 183).  When no two tiles touch at
    all and there are several (``others`` counts the loose tiles found off the lattice),
    there is no Tantrix yet: every tile is loose.  A single tile alone is kept as the board
    (the first tile of a game), unless an unreadable cell lies :data:`FAR_GROUP` cells or
    more from it (real-texture-168: three face-up tiles apart on an empty table, one read,
    one unreadable, one missed; the one read had been given as a board).

    A group of touching tiles at least :data:`FAR_GROUP` cells from the Tantrix is loose
    too: a missed tile leaves a gap of one cell, not two.  ``bad`` (the unreadable cells)
    bridge gaps: a hand over the board may hide a whole row of it.
    """
    if not items:
        return items, []
    groups = components([c for c, _rd, _px in items])
    main = groups[0]
    if len(main) == 1:
        # (an unreadable cell far from a lone tile is something else tile-like on the
        # table, a tile too poor to read: the lone tile is then one of several apart)
        far = any(distance(c, items[0][0]) >= FAR_GROUP for c, _rd, _px in bad)
        if len(items) + others + far >= 2:
            return [], list(items)
        return items, []
    anchor = next(iter(main))
    board = next(g for g in components([c for c, _rd, _px in list(items) + list(bad)])
                 if anchor in g)
    alone = set()
    for g in groups[1:]:
        if len(g) == 1 or (not g <= board and
                           min(distance(a, b) for a in g for b in board) >= FAR_GROUP):
            alone |= g
    return [it for it in items if it[0] not in alone], [it for it in items if it[0] in alone]


def _dedupe_numbers(scene: Scene) -> None:
    """A number read twice (board and loose): keep the more confident, flag the other."""
    seen = {rd.tile: rd.confidence for _c, rd, _px in scene.readings}
    kept = []
    for item in scene.loose:
        if item["tile"] in seen:
            continue
        seen[item["tile"]] = item["confidence"]
        kept.append(item)
    scene.loose = kept


def _profile_means(model: colours.ColourModel, profile: Any) -> colours.ColourModel:
    """``model`` with a calibration profile's learnt colour means, when it has them (its
    neutral point is taken by :func:`link_and_mask`)."""
    if profile is None:
        return model
    means = getattr(profile, "colour_means", None)
    if means is not None and np.shape(means) == (4, 3):
        model.means = np.asarray(means, np.float64)
    return model


def to_board(scene: Scene) -> Board:
    """The Board of an analysed scene, with CONTRACT.md's reader extras."""
    board = _board_of(scene.readings)
    for cell, rd, px in scene.readings:
        board.extras[cell] = {"confidence": round(rd.confidence, 4),
                              "pixel": [round(float(px[0]), 1), round(float(px[1]), 1)]}
    board.loose = list(scene.loose)
    board.meta["image"] = {"width": scene.photo.width, "height": scene.photo.height}
    if scene.unreadable:
        board.meta["unreadable"] = [
            {"q": c[0], "r": c[1], "pixel": [round(float(px[0]), 1), round(float(px[1]), 1)],
             "confidence": round(rd.confidence, 4)}
            for c, rd, px in scene.unreadable
        ]
    return board


def read(path_or_image: Any, profile: Any = None, prior: search.Prior | None = None,
         box: tuple | None = None) -> tuple[Scene, Board]:
    """Read a table photo; return the analysed scene (for overlays) and the board.

    With a calibration profile that carries geometry (a camera and/or a table section),
    the photo is first undistorted or rectified by :func:`calibration.prepare.prepare` at
    full resolution, read there, and every ``pixel`` is mapped back to the original photo;
    ``meta["geometry"]`` then lists what was done.  The scene stays in the prepared frame.
    ``prior``: a live camera's previous frame (see ``vision.tracking``), tried first;
    ``box``: the crop that frame was read on, if any (see :func:`analyse`).
    """
    has_geometry = profile is not None and (
        getattr(profile, "camera", None) is not None or getattr(profile, "table", None) is not None)
    if not has_geometry:
        scene = analyse(path_or_image, profile, prior=prior, box=box)
        return scene, to_board(scene)
    from calibration.prepare import prepare

    photo = load_photo(path_or_image, reduce=False)
    prep = prepare(photo.image, profile)
    scene = analyse(prep.image, profile, prep.tile_pitch_px, prior)
    if _doubtful(scene):
        # some tables read worse rectified (stripes made parallel, ...): a doubtful read
        # is checked against the photo as taken, and the better read is kept
        plain = analyse(photo.image, profile)
        if second_look.better(plain, scene):
            return plain, to_board(plain)
    board = to_board(scene)
    _map_pixels(board, prep.to_photo)
    board.meta["image"] = {"width": photo.width, "height": photo.height}
    board.meta["geometry"] = list(prep.steps)
    return scene, board


def _doubtful(scene: Scene) -> bool:
    """A read whose lattice reads clearly fewer tiles than were kept, or hardly any tile."""
    n = len(scene.readings)
    return n < 3 or scene.lattice is None or scene.lattice.score < DOUBTFUL_SHARE * n


def _map_pixels(board: Board, to_photo: Any) -> None:
    """Replace every ``pixel`` of a board read on a prepared image by the photo's pixel."""
    items = list(board.extras.values()) + list(board.loose) + list(board.meta.get("unreadable", []))
    items = [it for it in items if "pixel" in it]
    if not items:
        return
    mapped = to_photo(np.array([it["pixel"] for it in items], np.float64))
    for it, (x, y) in zip(items, mapped):
        it["pixel"] = [round(float(x), 1), round(float(y), 1)]


def read_photo(path_or_image: Any, profile: Any = None) -> Board:
    """Read a table photo: every tile's cell, number and rotation.

    ``path_or_image``: a file path, encoded image bytes, or a BGR uint8 array.
    ``profile``: an optional calibration profile: its colour section tunes the colour
    model, its camera/table sections undistort or rectify the photo first (see :func:`read`).
    Returns a :class:`referee.board.Board` with ``extras[cell] = {"confidence", "pixel"}``,
    ``loose`` tiles, ``meta["image"] = {"width", "height"}`` and, when tiles could not be
    read (covered by a hand...), ``meta["unreadable"]``.  ``BadInput`` if undecodable.
    """
    return read(path_or_image, profile)[1]
