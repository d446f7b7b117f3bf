"""Holes in a photographed board are empty cells, not covered tiles (``vision.table``).

A hole's edge midpoints show its neighbours' link ends, so the reader's occupancy test
takes it for a tile; it then reads as no tile.  Reported ``unreadable``, the referee would
count it occupied and miss the forced space there.
"""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from conftest import SAMPLES
from referee.analysis import analyze
from referee.board import board_from_json
from referee.compare import best_alignment, same_position
from vision import read_photo, table
from vision.lattice import CORNERS


def occupancy(report: dict) -> tuple:
    """Counts of the findings that depend on which cells are empty."""
    return (len(report["forced_spaces"]), len(report["double_gobbles"]),
            len(report["same_colour_forced"]), len(report["holes"]), report["unread_cells"])


@pytest.mark.parametrize("name", ["same_colour_gobble", "gobble_game", "double_gobble"])
def test_forced_spaces_read_from_the_photo_are_the_truths(name):
    truth = board_from_json(json.loads((SAMPLES / f"{name}.json").read_text()))
    read = read_photo(SAMPLES / f"{name}.jpg")
    assert same_position(truth, read)
    assert occupancy(analyze(read)) == occupancy(analyze(truth))
    assert not read.meta.get("unreadable")


def test_same_colour_forced_space_is_seen_from_the_photo():
    report = analyze(read_photo(SAMPLES / "same_colour_gobble.jpg"))
    assert len(report["same_colour_forced"]) == 1
    assert any(v["rule"] == 1 for v in report["restraint_violations"])


def test_tiles_under_a_hand_stay_unreadable():
    # the hand hides most of one tile (62 %) and a finger one edge of another (37 %):
    # the first stays unreadable, the second is read from the five edges that show
    read = read_photo(SAMPLES / "hand_over_board.jpg")
    truth = json.loads((SAMPLES / "hand_over_board.json").read_text())
    expected = board_from_json({"tiles": [{k: t[k] for k in ("q", "r", "tile", "rotation")}
                                          for t in truth["tiles"]]})
    assert len(read.meta.get("unreadable") or []) == 1
    assert best_alignment(expected, read)[2] == len(read) == len(expected) - 1
    assert 27 in {p.tile for p in read.tiles.values()}


def _scene(size: float = 30.0) -> tuple[np.ndarray, np.ndarray, dict]:
    """A green felt with a dark tile (a yellow link across it), a hole of felt, and a tile
    whose middle a hand covers (skin colour, off the tile mask); the tile mask made the
    way the reader's is (dark or link-coloured)."""
    img = np.full((240, 320, 3), (40, 110, 30), np.uint8)  # BGR green felt
    where = {"tile": (80.0, 120.0), "hole": (160.0, 120.0), "hand": (240.0, 120.0)}
    for x in (80.0, 240.0):  # a tile left of the hole, one right of it under the hand
        cv2.fillConvexPoly(img, np.round(CORNERS * size + (x, 120.0)).astype(np.int32), (25, 25, 25))
    cv2.line(img, (60, 120), (100, 120), (0, 200, 230), 5)  # a link on the first tile
    cv2.circle(img, (240, 120), int(0.6 * size), (120, 160, 215), -1)  # the hand
    mask = np.zeros(img.shape[:2], np.uint8)
    grey = img.max(-1).astype(int) - img.min(-1)
    mask[(img.max(-1) < 60) & (grey < 20)] = 255
    mask[(img[..., 2] > 200) & (img[..., 0] < 20)] = 255  # link colour
    return img, mask, where


def test_bare_table_tells_a_hole_from_a_tile_and_a_hand():
    img, mask, where = _scene()
    centres = np.array([where["tile"], where["hole"], where["hand"]])
    assert table.bare_table(img, mask, centres, 30.0).tolist() == [False, True, False]
