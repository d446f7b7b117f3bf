"""Live camera: read a stream of frames, starting each from the previous frame's lattice.

A camera over a table moves little between frames, so the lattice found on one frame,
refined on the next (each cell may move a third of a cell), usually reads that frame
cleanly: then the search's hypotheses are skipped altogether.  When it does not, the
lattice is tried again moved by the shift between the two frames' link images (a phase
correlation, ``search._moved``): a camera that jitters by more than a third of a cell,
or small tiles far away.  A small group far away is read on a crop round it
(``reader._analyse_region``); the next frame is then read on the same crop, following
the crop's lattice, while the tiles' region still lies inside it (``reader._follow_crop``).  Every frame is still
verified by how well its cells read (:func:`vision.search.find_lattice` with a prior);
a frame that does not read cleanly (the camera jumped, a hand came in, the tiles moved)
is searched from scratch, and the next frame follows whatever that found.

The first read of a frame only follows (``search.following_only``): every look of the
reader tries the previous lattice and searches nothing, so a scene that only one look
reads (a dark cloth read with the camera's grey) is followed in that look without paying
for the others' searches.  Once a frame was followed, the next one may miss in as many
looks as it did before one followed; a frame that misses more is searched at once.  A
scene that never reads cleanly (glare, a busy cloth) is followed while its lattice reads
nearly as much as the last search's did.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee.board import Board

from . import reader, search
from .lattice import Lattice


FOLLOW_SHARE = 0.9
"""A followed lattice must read at least this share of the occupied cells that the last
frame searched from scratch read."""

FOLLOW_SCORE = 0.95
"""When the last frame searched from scratch did not read cleanly, a followed lattice that
reads this share of its score (a soft count of cells read) is taken too."""


@dataclass
class Tracker:
    """Reads one camera's frames in order.

    ``profile``: an optional calibration profile (as :func:`vision.read_photo`).
    After each :meth:`read`, ``lattice`` is the frame's lattice (working-image pixels of a
    frame of ``shape`` (h, w)) and ``history`` says, per frame, whether it was tracked.
    """

    profile: Any = None
    lattice: Lattice | None = None
    shape: tuple[int, int] = (0, 0)
    history: list[bool] = field(default_factory=list)
    anchor: int = 0   # occupied cells read on the last frame searched from scratch
    anchor_score: float | None = None  # its score, if it did not read cleanly
    misses: int | None = None  # looks that missed before one followed, last frame followed
    grey: Any = None  # the last frame's bodies' grey (Lab a/b), when it was read with it
    box: tuple | None = None  # the crop (original px) the last frame was read on, if any
    link: Any = None  # the last frame's link image (working px, as ``lattice``)

    def read(self, frame: Any) -> Board:
        """Read one frame (path, encoded bytes or BGR uint8 array) like
        :func:`vision.read_photo`, trying the previous frame's lattice first."""
        if self.lattice is not None:
            # a followed lattice must keep reading (nearly) as many cells as the last
            # searched one: small slips would otherwise add up from frame to frame
            prior = search.Prior(self.lattice, self.shape, int(FOLLOW_SHARE * self.anchor),
                                 None if self.anchor_score is None else FOLLOW_SCORE * self.anchor_score,
                                 self.grey, self.link)
            try:
                with search.following_only(self.misses) as following:
                    scene, board = reader.read(frame, self.profile, prior, self.box)
            except search.NotFollowed:
                scene = None
            if scene is not None and scene.lattice is not None and scene.lattice.tracked:
                # the looks that missed before one followed: as many may miss next frame
                self.misses = following.misses
                return self._keep(scene, board, True)
        self.misses = None
        return self._keep(*reader.read(frame, self.profile), False)

    def _keep(self, scene: Any, board: Board, tracked: bool) -> Board:
        lat = scene.lattice
        self.lattice = lat
        self.shape = tuple(scene.work.shape[:2])
        self.grey = scene.neutral if scene.body_grey else None
        self.box = scene.box
        self.link = scene.link
        if lat is not None and not tracked:
            self.anchor = lat.judged
            self.anchor_score = None if search._clear(lat) else lat.score
        self.history.append(tracked)
        return board

    def reset(self) -> None:
        """Forget the previous frame (a new scene: the next frame is searched from scratch)."""
        self.lattice = None
        self.shape = (0, 0)
        self.anchor = 0
        self.anchor_score = None
        self.misses = None
        self.grey = None
        self.box = None
        self.link = None
