"""Every real tile photo (../shared/real_tiles), read as a one-tile picture, gives its number
and rotation: 56/56, on a light and on a wooden-brown table."""
import csv
from pathlib import Path

import numpy as np
import cv2
import pytest

from referee.tiles import find_tile
from vision import read_photo

REAL = Path(__file__).resolve().parents[1].parent / "shared" / "real_tiles"
_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}

pytestmark = pytest.mark.skipif(not (REAL / "labels.csv").exists(), reason="../shared/real_tiles missing")


def _labels() -> dict[int, tuple[int, int]]:
    with open(REAL / "labels.csv") as f:
        rows = list(csv.DictReader(f))
    out = {}
    for row in rows:
        edges = tuple(_NAMES[c] for c in row["edge_colours_in_photo"])
        out[int(row["tile"])] = find_tile(edges)
    return out


def _one_tile_picture(number: int, table: tuple[int, int, int], turn: int = 0) -> np.ndarray:
    tile = cv2.imread(str(REAL / f"tile_{number:02d}.png"), cv2.IMREAD_UNCHANGED)
    canvas = np.zeros((300, 300, 3), np.float32) + np.array(table, np.float32)
    a = tile[:, :, 3:4].astype(np.float32) / 255.0
    y, x = 90, 85
    canvas[y:y + 120, x:x + 130] = tile[:, :, :3] * a + canvas[y:y + 120, x:x + 130] * (1 - a)
    img = np.clip(canvas, 0, 255).astype(np.uint8)
    if turn:
        M = cv2.getRotationMatrix2D((150, 150), -60 * turn, 1.0)  # clockwise in the image
        img = cv2.warpAffine(img, M, (300, 300), borderMode=cv2.BORDER_REPLICATE)
    return img


@pytest.mark.parametrize("table", [(225, 225, 225), (60, 110, 150)], ids=["light", "wood"])
def test_all_56_real_tiles(table):
    expected = _labels()
    assert len(expected) == 56
    wrong = []
    for number, (tile, rotation) in expected.items():
        board = read_photo(_one_tile_picture(number, table))
        got = [(p.tile, p.rotation) for p in board.tiles.values()]
        if got != [(tile, rotation)]:
            wrong.append((number, got))
    assert wrong == []


def test_turned_real_tiles_keep_their_number():
    # a tile photographed turned by 60° is the same tile, one rotation step further
    expected = _labels()
    for number in (3, 17, 29, 44, 56):
        tile, rotation = expected[number]
        board = read_photo(_one_tile_picture(number, (225, 225, 225), turn=1))
        (p,) = board.tiles.values()
        assert (p.tile, (p.rotation - rotation) % 6) == (tile, 1)
