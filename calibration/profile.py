"""One table's calibration: camera, table plane and colours, saved together as JSON.

File format (every section optional, at least one present)::

    {"format": "tantrix-profile", "version": 1,
     "camera":  {...CameraProfile...},
     "table":   {...TableProfile...},
     "colours": {...ColourModel...}}

``tantrix read/analyze/check --profile FILE`` and the web page pass a file like this to
the reader.  :func:`load` turns every malformed file into a one-line ``BadInput``.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from referee.errors import BadInput
from referee.files import parse_json, read_text

from .camera import CameraProfile
from .colours import ColourModel
from .table import TableProfile

FORMAT = "tantrix-profile"
VERSION = 1


@dataclass
class Profile:
    """Calibration of one table setup; any part may be missing."""

    camera: CameraProfile | None = None
    table: TableProfile | None = None
    colours: ColourModel | None = None

    # -- what the reader (vision/reader.py ``link_and_mask``) looks up ------------------
    @property
    def neutral(self) -> np.ndarray | None:
        """Lab (a, b) of grey under the calibrated light (the darkest tile body), or ``None``.

        A fixed lamp fixes the grey: with the reader of 21:55 UTC it raised identity
        accuracy on 20 warm-cast hard shots from 38.5 % to 49.7 % (with ``colour_means``).
        """
        return None if self.colours is None else self.colours.neutral_ab

    @property
    def colour_means(self) -> np.ndarray | None:
        """Link colour means (4, 3) in the reader's feature space, or ``None``."""
        return None if self.colours is None else self.colours.reader_means()

    def colour_log_probs(self, samples: np.ndarray) -> np.ndarray:
        """Log class probabilities (..., 5) of samples in the reader's Lab (``"lab8"``)."""
        if self.colours is None:
            raise ValueError("this profile has no colours section")
        return self.colours.log_probabilities(samples, encoding="lab8")

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "version": VERSION}
        if self.camera is not None:
            out["camera"] = self.camera.to_json()
        if self.table is not None:
            out["table"] = self.table.to_json()
        if self.colours is not None:
            out["colours"] = self.colours.to_json()
        return out

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=1)

    def save(self, path: str | os.PathLike) -> None:
        """Write the profile as JSON (atomically: a crash never leaves half a file)."""
        p = Path(path)
        tmp = p.with_name(p.name + ".tmp")
        tmp.write_text(self.dumps() + "\n")
        os.replace(tmp, p)


def from_json(data: Any) -> Profile:
    """Build a :class:`Profile` from parsed JSON; ``BadInput`` naming the first bad field."""
    if not isinstance(data, dict):
        raise BadInput("profile: must be a JSON object")
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT:
        raise BadInput(f"profile: format is {fmt!r}, expected {FORMAT!r}")
    version = data.get("version", VERSION)
    if isinstance(version, bool) or not isinstance(version, int) or version > VERSION or version < 1:
        raise BadInput(f"profile: unsupported version {version!r} (this build reads version {VERSION})")
    sections = [k for k in ("camera", "table", "colours") if data.get(k) is not None]
    if not sections:
        raise BadInput("profile: has none of the sections camera, table, colours")
    return Profile(
        camera=CameraProfile.from_json(data["camera"]) if "camera" in sections else None,
        table=TableProfile.from_json(data["table"]) if "table" in sections else None,
        colours=ColourModel.from_json(data["colours"]) if "colours" in sections else None,
    )


def loads(text: str) -> Profile:
    """Parse profile JSON text."""
    try:
        data = parse_json(text)
    except BadInput as e:
        raise BadInput(f"profile: {e}") from None
    return from_json(data)


def load(path: str | os.PathLike) -> Profile:
    """Read a profile file; ``BadInput`` if it is missing, unreadable or malformed."""
    p = Path(path)
    try:
        text = read_text(p)
    except BadInput as e:
        raise BadInput(f"profile {e}") from None
    try:
        return loads(text)
    except BadInput as e:
        raise BadInput(f"{p}: {e}") from None


def load_or_empty(path: str | os.PathLike) -> Profile:
    """The profile in ``path`` if the file exists, else an empty one (to add a section to)."""
    return load(path) if Path(path).exists() else Profile()


load_profile = load
"""Alias of :func:`load` (the name ``tantrix/inputs.py`` imports for ``--profile``)."""
