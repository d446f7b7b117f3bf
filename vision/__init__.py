"""Photo → board: find every tile on a table photo, its cell, rotation and number.

Public entry point: :func:`read_photo`.  Stages live in one module each: ``image_io``
(decoding), ``colours`` (per-photo colour models), ``bodies`` (tile pixels, single-tile
hexagons), ``lattice`` (hex lattice homography), ``identify`` (joint identification),
``reader`` (the pipeline), ``overlay`` (drawing the result).
"""
from .reader import read_photo

__all__ = ["read_photo"]
