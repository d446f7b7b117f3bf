"""The rules model: tiles, the hex board, and what a referee says about a position.

Pure Python (plus numpy where it helps); no OpenCV.  Everything else builds on it.
"""
from .board import Board, Placement, board_from_json, load, loads
from .errors import BadInput
from .tiles import COLOURS, TILES, Tile, find_tile, rotated_edges

__all__ = [
    "Board", "Placement", "board_from_json", "load", "loads", "BadInput",
    "COLOURS", "TILES", "Tile", "find_tile", "rotated_edges",
]
