"""A log of the looks one read of a photo took: which look, on the whole photo or a crop
of it, how long it took and what it found.

The reader (``vision.reader``) reads a poor photo again and again, each time another way
(``second_look.LOOKS``, the region's crop, the last resorts), and keeps the best read.
Why a photo took seconds, or which look gave its tiles, is otherwise invisible; this log
says.  Logging is off unless a caller asks for it (:func:`recording`); a read then pays
one clock reading and one context-variable lookup per look.

    with looklog.recording() as looks:
        scene, board = reader.read("photo.jpg")
    print(looklog.describe(looks, scene))
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from typing import Any


@dataclass(frozen=True)
class Look:
    """One look's read: ``look`` (its name, ``second_look.LOOKS``, or "body-grey": the
    kept look read again with its bodies' grey), ``where`` (what it read: "whole", or see
    :func:`within`), ``seconds`` (wall time of the look), and what it
    gave: board ``tiles``, ``unreadable`` cells and ``loose`` tiles, counted when noted (the
    read kept is cleaned afterwards; all 0 when the look did not apply or found no
    lattice).  ``scene`` is the read itself (to tell which look's read was kept), ``None``
    when there was none."""

    look: str
    where: str
    seconds: float
    tiles: int
    unreadable: int
    loose: int
    scene: Any = None

    @property
    def found(self) -> bool:
        """Did the look give a read?"""
        return self.scene is not None


_LOG: ContextVar[list[Look] | None] = ContextVar("looklog", default=None)
_WHERE: ContextVar[str] = ContextVar("looklog_where", default="whole")


@contextmanager
def recording() -> Iterator[list[Look]]:
    """Log the looks of the reads made inside the ``with`` block into the list yielded.
    Each entry holds its read (``Look.scene``, with its working images) for as long as
    the list is kept."""
    looks: list[Look] = []
    token = _LOG.set(looks)
    try:
        yield looks
    finally:
        _LOG.reset(token)


@contextmanager
def within(where: str) -> Iterator[None]:
    """The looks noted inside the ``with`` block were made on ``where`` ("crop": the
    tiles' region cut out; "framed": the photo with a margin round it), within any
    picture the enclosing block names ("crop/crop": a crop of a crop)."""
    outer = _WHERE.get()
    token = _WHERE.set(where if outer == "whole" else f"{outer}/{where}")
    try:
        yield
    finally:
        _WHERE.reset(token)


def where() -> str:
    """What the reads made now are made on ("whole", "crop", "framed", ...: see
    :func:`within`)."""
    return _WHERE.get()


def note(look: str, seconds: float, scene: Any) -> None:
    """Add a look's read (``scene``: a ``reader.Scene``, or ``None``) to the log, if one
    is kept."""
    log = _LOG.get()
    if log is None:
        return
    log.append(Look(look, _WHERE.get(), seconds,
                    0 if scene is None else len(scene.readings),
                    0 if scene is None else len(scene.unreadable),
                    0 if scene is None else len(scene.loose), scene))


def moved(old: Any, new: Any) -> None:
    """The read ``old`` is now given as ``new`` (a crop's read mapped into the whole
    photo's frame): the log's entry follows it, so the kept read is still found."""
    log = _LOG.get()
    if log is None:
        return
    for i, lk in enumerate(log):
        if lk.scene is old:
            log[i] = replace(lk, scene=new)


def describe(looks: list[Look], kept: Any = None) -> str:
    """The log as text, one line per look, e.g.
    ``look 2  ungated      whole       0.127 s  41 tiles, 3 unreadable, 0 loose``
    (a look that did not apply, or found no lattice, reads "nothing"),
    the look whose read was kept (``kept``: the final ``reader.Scene``) marked ``kept``,
    and a last line with the looks' total time."""
    lines = []
    for i, lk in enumerate(looks, 1):
        what = (f"{_count(lk.tiles, 'tile')}, {lk.unreadable} unreadable, {lk.loose} loose"
                if lk.found else "nothing (look not applicable or no lattice)")
        mark = "  kept" if kept is not None and lk.scene is kept else ""
        lines.append(f"look {i:<2} {lk.look:<12} {lk.where:<10} {lk.seconds:6.3f} s  {what}{mark}")
    total = sum(lk.seconds for lk in looks)
    if kept is not None and looks and not any(lk.scene is kept for lk in looks):
        lines.append("kept: a read none of these looks gave")
    lines.append(f"{_count(len(looks), 'look')}, {total:.3f} s in all")
    return "\n".join(lines)


def _count(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"
