"""The lattice search: the true lattice reads better than its multiples, small groups of
tiles are found, and a known tile pitch is used."""
import cv2
import numpy as np
import pytest

from referee.board import board_from_json
from referee.compare import best_alignment
from referee.randomgame import random_position
from vision import colours, read_photo, reader, search
from vision.lattice import BASIS, Lattice

scenegen = pytest.importorskip("scenegen")


def _scene(n_tiles: int, seed: int, **changes):
    board = random_position(n_tiles, seed=seed)
    return scenegen.render(board, scenegen.default_params(**changes), seed=seed)


def _truth_lattice(truth: dict, scale: float) -> Lattice:
    cells = np.array([[t["q"], t["r"]] for t in truth["tiles"]], np.float64)
    px = np.array([t["pixel"] for t in truth["tiles"]]) * scale
    A, _ = cv2.estimateAffinePartial2D(cells @ BASIS.T, px)
    return Lattice(np.vstack([A, [0, 0, 1]]))


def _prepared(image):
    photo = reader.load_photo(image)
    work, ws = reader._working_copy(photo)
    lab = colours.to_lab(work)
    model, link, mask = reader.link_and_mask(lab)
    return work, ws, model, link, mask


def test_true_lattice_reads_better_than_its_multiples():
    image, truth = _scene(7, seed=4, table={"kind": "wood"}, tile_px=60.0)
    work, ws, model, link, _mask = _prepared(image)
    true = _truth_lattice(truth, ws)
    r_true = search.readability(work, link, true, model)
    assert r_true >= 5.0  # most of the 7 tiles read cleanly on their own lattice
    centre = true.centres(np.array([[t["q"], t["r"]] for t in truth["tiles"]])).mean(0)
    for f in (3.0, 2.0, 0.5):
        T = np.array([[f, 0, (1 - f) * centre[0]], [0, f, (1 - f) * centre[1]], [0, 0, 1.0]])
        assert search.readability(work, link, Lattice(T @ true.H), model) < 0.5 * r_true


@pytest.mark.parametrize("n_tiles,seed,table", [(3, 2, "wood"), (5, 8, "light"), (9, 5, "carpet")])
def test_small_groups_are_found(n_tiles, seed, table):
    """A few tiles: the autocorrelation is weak and one big hexagon round the group has
    link colour on its midpoints; the cells that read as tiles decide."""
    image, truth = _scene(n_tiles, seed=seed, table={"kind": table}, tile_px=70.0, roll_deg=25.0)
    read = read_photo(image)
    expected = board_from_json({"tiles": [{k: t[k] for k in ("q", "r", "tile", "rotation")}
                                          for t in truth["tiles"]]})
    assert best_alignment(expected, read)[2] == len(expected)


def test_known_pitch_is_used():
    image, truth = _scene(12, seed=6, table={"kind": "felt"}, tile_px=55.0)
    work, ws, model, link, mask = _prepared(image)
    true = _truth_lattice(truth, ws)
    cells = np.array([[t["q"], t["r"]] for t in truth["tiles"]])
    pitch = float(np.median(true.cell_size(cells))) * 3 ** 0.5  # neighbour distance, work px
    maps = search.hypotheses(link, search.single_tiles(mask), pitch_px=pitch)
    sizes = np.array([np.sqrt(abs(np.linalg.det(M))) for M, _offset in maps])
    assert (np.abs(sizes - pitch / 3 ** 0.5) < 0.01).sum() >= 10  # a turn sweep at that size
    lat = search.find_lattice(work, link, mask, model, pitch_px=pitch)
    assert lat is not None
    # cell sizes where the tiles are (perspective changes them across the photo)
    px = true.centres(cells)
    at = lat.cell_at(px)
    got = lat.cell_size(at)
    assert np.allclose(lat.centres(at), px, atol=0.15 * pitch)
    # (the truth lattice here is a similarity, the found one follows the 10° tilt)
    assert abs(got.mean() / true.cell_size(cells).mean() - 1) < 0.05
