"""Tantrix Loops / Speed Loops: the score of a pattern of 3 to 7 tiles (RULES.md).

Each link lying on a loop scores by its shape (corner 1, bend 2, straight 3); each loop adds
1; a Snowflake (six tiles around a seventh) adds 7 and a Mandala (a Snowflake whose ring is a
Bracelet: one loop of six bends round the centre) a further 2.  A pattern is *valid* when it
has 3..7 connected tiles, every touching edge matches, and every tile lies on a loop (the
centre of a Mandala excepted); holes are allowed (a Bracelet encloses one).
"""
from __future__ import annotations

from typing import Any

from .board import Board
from .hexgrid import Cell, neighbours
from .matching import mismatches
from .paths import all_colour_paths
from .shapes import is_circle
from .tiles import COLOURS, TILES

SHAPE_POINTS = {"corner": 1, "bend": 2, "straight": 3}
LOOP_BONUS = 1
SNOWFLAKE_BONUS = 7
MANDALA_BONUS = 2


def link_shape(number: int, colour: str) -> str:
    """Shape (corner, bend, straight) of tile ``number``'s link of ``colour``."""
    for link in TILES[number].links:
        if link.colour == colour:
            return link.shape
    raise ValueError(f"tile {number} has no {colour} link")


def snowflake_centre(board: Board) -> Cell | None:
    """The centre cell when the pattern is seven tiles: one with all six neighbours."""
    if len(board) != 7:
        return None
    for c in board.tiles:
        if all(n in board.tiles for n in neighbours(c)):
            return c
    return None


def score_pattern(board: Board) -> dict[str, Any]:
    """Score the pattern on ``board`` as JSON-ready data.

    Returns ``{"score", "valid", "reasons", "loops": [{"colour", "cells", "links", "points"}],
    "link_points", "loop_points", "snowflake", "mandala"}``.  The score is computed even
    for an invalid pattern (``reasons`` say what is wrong).
    """
    tiles = board.tiles
    reasons: list[str] = []
    if not 3 <= len(tiles) <= 7:
        reasons.append(f"a pattern has 3 to 7 tiles, this one has {len(tiles)}")
    for m in mismatches(board):
        reasons.append(f"edge ({m.cell[0]},{m.cell[1]})→({m.neighbour[0]},{m.neighbour[1]}) "
                       f"{m.colours[0]}/{m.colours[1]}")
    if len(board.groups()) > 1:
        reasons.append("the tiles are not all connected")
    loops = []
    link_points = 0
    on_loop: set[Cell] = set()
    for colour, cp in all_colour_paths(board).items():
        for lp in cp.loops:
            shapes = [link_shape(tiles[c].tile, colour) for c in lp]
            points = sum(SHAPE_POINTS[s] for s in shapes)
            link_points += points
            on_loop.update(lp)
            loops.append({"colour": colour, "cells": [list(c) for c in lp],
                          "links": shapes, "points": points})
    loops.sort(key=lambda d: (COLOURS.index(d["colour"]), d["cells"]))
    centre = snowflake_centre(board)
    mandala = False
    if centre is not None:
        ring = set(neighbours(centre))
        mandala = any(set(map(tuple, lp["cells"])) == ring and is_circle(ring)
                      and all(s == "bend" for s in lp["links"]) for lp in loops)
    for c in sorted(set(tiles) - on_loop):
        if mandala and c == centre:
            continue
        reasons.append(f"tile {tiles[c].tile} at ({c[0]},{c[1]}) is on no loop")
    loop_points = LOOP_BONUS * len(loops)
    score = link_points + loop_points
    if centre is not None:
        score += SNOWFLAKE_BONUS
    if mandala:
        score += MANDALA_BONUS
    return {
        "score": score,
        "valid": not reasons,
        "reasons": reasons,
        "link_points": link_points,
        "loop_points": loop_points,
        "snowflake": centre is not None,
        "mandala": mandala,
        "centre": list(centre) if centre is not None else None,
        "loops": loops,
    }
