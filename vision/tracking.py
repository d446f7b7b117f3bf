"""Live camera: read a stream of frames, starting each from the previous frame's lattice.

A camera over a table moves little between frames, so the lattice found on one frame,
refined on the next (each cell may move a third of a cell), usually reads that frame
cleanly: then the search's hypotheses are skipped altogether.  Every frame is still
verified by how well its cells read (:func:`vision.search.find_lattice` with a prior);
a frame that does not read cleanly (the camera jumped, a hand came in, the tiles moved)
is searched from scratch, and the next frame follows whatever that found.
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

    def read(self, frame: Any) -> Board:
        """Read one frame (path, encoded bytes or BGR uint8 array) like
        :func:`vision.read_photo`, trying the previous frame's lattice first."""
        # a followed lattice must keep reading (nearly) as many cells as the last searched
        # one: small slips would otherwise add up from frame to frame
        prior = (None if self.lattice is None
                 else search.Prior(self.lattice, self.shape, int(FOLLOW_SHARE * self.anchor)))
        scene, board = reader.read(frame, self.profile, prior)
        lat = scene.lattice
        tracked = bool(lat is not None and lat.tracked)
        self.lattice = lat
        self.shape = tuple(scene.work.shape[:2])
        if lat is not None and not tracked:
            self.anchor = lat.judged
        self.history.append(tracked)
        return board

    def reset(self) -> None:
        """Forget the previous frame (a new scene: the next frame is searched from scratch)."""
        self.lattice = None
        self.shape = (0, 0)
        self.anchor = 0
