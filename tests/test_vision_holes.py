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
from referee.board import Board, board_from_json
from referee.compare import best_alignment, same_position
from referee.hexgrid import neighbours
from referee.matching import touching_edges
from vision import read_photo, reader, table
from vision.identify import Reading
from vision.image_io import Photo
from vision.lattice import BASIS, CORNERS, Lattice
from vision.reader import Scene, _drop_bare_table


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


def test_masked_median_is_numpys_median_of_the_lab_values():
    """The histogram median (``table._masked_median``) gives exactly NumPy's median of the
    float Lab ``table._lab`` gives, odd and even counts, flat and noisy windows alike."""
    rng = np.random.default_rng(5)
    for k in range(200):
        h, w = rng.integers(2, 50, 2)
        img = rng.integers(0, 256, (h, w, 3), dtype=np.uint8)
        if k % 4 == 0:
            img[:] = img[0, 0]                     # one colour throughout
        elif k % 4 == 1:
            img = (img // 64 * 64).astype(np.uint8)  # few levels: ties across the middle
        where = rng.random((h, w)) < rng.uniform(0.05, 1.0)
        if not where.any():
            continue
        want = np.median(table._lab(img)[where], axis=0)
        got = table._masked_median(cv2.cvtColor(img, cv2.COLOR_BGR2Lab), where)
        assert np.array_equal(got, want), (k, got, want)


def test_bare_table_is_the_same_whether_windows_are_converted_together_or_apart():
    """Neighbouring cells' windows are converted to Lab once over the box round them all;
    a cell tested alone (its own window) gets the same answer."""
    img, mask, where = _scene()
    centres = np.array([where["tile"], where["hole"], where["hand"]])
    together = table.bare_table(img, mask, centres, 30.0)
    apart = [table.bare_table(img, mask, c[None], 30.0)[0] for c in centres]
    assert together.tolist() == apart == [False, True, False]


def _striped_scene(size: float = 22.0):
    """A blue-and-sand striped cloth under a square-on lattice of cells ``size`` px
    (centre to corner), with a dark tile (a red and a yellow link) on cell (0, 0), a
    fingertip over cell (3, -1), and cell (-3, 1) showing only the cloth."""
    from vision.lattice import BASIS, Lattice, affine_from_basis

    h, w = 300, 420
    yy, xx = np.mgrid[0:h, 0:w]
    img = np.where((((xx + yy) // 9) % 2 == 0)[..., None], np.uint8([150, 90, 30]),
                   np.uint8([140, 200, 225])).astype(np.uint8)
    lat = Lattice(affine_from_basis(size * BASIS, np.array([210.0, 150.0])))
    tile = lat.centres(np.array([[0, 0]]))[0]
    cv2.fillConvexPoly(img, np.round(CORNERS * size + tile).astype(np.int32), (30, 30, 30))
    cv2.line(img, tuple(int(v) for v in tile - (size * 0.85, 0)),
             tuple(int(v) for v in tile + (size * 0.85, 0)), (30, 30, 210), 5)
    cv2.circle(img, tuple(int(v) for v in tile + (0, size * 0.9)), int(size * 0.5), (0, 210, 230), 4)
    # (a fingertip within the cell: a hand spread over the empty cells round it too would
    # lend them its colours, and the cell would pass for table, as the docstring says)
    tip = lat.centres(np.array([[3, -1]]))[0]
    cv2.circle(img, tuple(int(v) for v in tip), int(size * 0.7), (120, 160, 215), -1)
    return img, lat


def test_like_around_tells_a_patterned_cloth_from_a_tile_and_a_fingertip():
    img, lat = _striped_scene()
    cells = np.array([[0, 0], [3, -1], [-3, 1]])
    share = table.like_around(img, lat, cells, busy={(0, 0), (3, -1), (-3, 1)})
    tile, tip, cloth = share
    assert cloth >= table.LIKE_AROUND
    assert tile < table.LIKE_AROUND and tip < table.LIKE_AROUND
    # the middle test alone cannot say it: the cloth's blue stripes are dark enough for a
    # tile mask, and its median colour is neither stripe
    assert 0.0 <= tile < 0.9


def test_like_around_ignores_the_cells_of_loose_tiles_and_needs_table_round_a_cell():
    img, lat = _striped_scene()
    # a loose tile's cell beside the cloth cell is not table: its colours do not count
    loose_at = lat.centres(np.array([[0, 0]]))
    share = table.like_around(img, lat, np.array([[1, 0]]), busy={(1, 0)}, spots=loose_at)
    assert share[0] >= table.LIKE_AROUND
    # every cell round it busy: nothing says what the table looks like
    ring = {(1 + dq, dr) for dq in range(-3, 4) for dr in range(-3, 4)}
    assert table.like_around(img, lat, np.array([[1, 0]]), busy=ring).tolist() == [0.0]


def _unread_near(read, pixel, size: float) -> bool:
    """Is an unreadable cell of ``read`` within half a tile of ``pixel``?"""
    return any(np.hypot(*(np.asarray(u["pixel"]) - pixel)) < 0.45 * size
               for u in read.meta.get("unreadable") or [])


def test_a_tile_a_hand_hides_inside_the_board_is_reported_unreadable(bench_scene):
    # hard-72: a hand over the board's rim hides 83 % of tile 21, in a cell three tiles
    # read hug; its body and links hidden, no reading reached it and it was left out (the
    # referee then saw an empty cell there).  The hand's empty cells round it stay empty
    path, truth, expected = bench_scene("hard", 72)
    read = read_photo(str(path))
    size = truth["render"]["tile_px"]
    hidden = next(t for t in truth["tiles"] if t["tile"] == 21)
    assert _unread_near(read, hidden["pixel"], size)
    tiles = [np.asarray(t["pixel"]) for t in truth["tiles"]]
    for u in read.meta["unreadable"]:
        assert min(np.hypot(*(np.asarray(u["pixel"]) - t)) for t in tiles) < 0.45 * size
    assert best_alignment(expected, read)[2] == len(read)        # no tile given wrong


def test_a_colour_running_past_the_cell_spreads_and_a_cloths_dot_does_not():
    # a dot of a printed cloth in a hole of the board, a skin-coloured arm reaching in from
    # the photo's edge, and a dark body region (a board's tiles round an unread one), each
    # over one of three cells in a row (plane x 0, 6 and 12: pixels x 80, 200 and 320)
    size = 20.0
    lat = Lattice(H=np.array([[size, 0, 80.0], [0, size, 150.0], [0, 0, 1]]))
    cells = np.array([[0, 0], [4, -2], [8, -4]])
    assert np.allclose(lat.centres(cells), [[80, 150], [200, 150], [320, 150]])
    img = np.full((300, 400, 3), (170, 190, 200), np.uint8)
    cv2.circle(img, (80, 150), 12, (40, 40, 200), -1)                 # red dot, within a cell
    cv2.rectangle(img, (180, 0), (220, 160), (120, 160, 215), -1)     # arm from the top edge
    cv2.rectangle(img, (260, 100), (380, 200), (40, 42, 45), -1)      # dark bodies, 6 x 5 cells
    spread, onto = table.runs_onto(img, lat, cells, [[], [], []], size)
    assert spread.tolist() == [False, True, True]
    assert onto.tolist() == [0.0, 0.0, 0.0]      # (no tiles beside: no faces to run onto)


def test_a_hand_runs_onto_the_tiles_beside_a_rim_cell_and_a_cloths_stripe_does_not():
    # two dark tiles side by side and the empty cell below both (a rim cell beside two
    # tiles): a skin-coloured hand over that cell that also lies over a corner of each
    # tile, and a cloth's red stripe through the cell that stops at the tiles' rims
    lat = Lattice(H=np.array([[30.0, 0, 150], [0, 30.0, 120], [0, 0, 1]]))
    tiles = [(0, 0), (1, 0)]
    rim = np.array([[0, 1]])
    assert set(tiles) <= set(neighbours((0, 1)))

    def photo(cover) -> np.ndarray:
        img = np.full((260, 320, 3), (170, 190, 200), np.uint8)
        cover(img)
        for cell in tiles:
            poly = np.round(lat.to_image(np.array(cell, float) @ BASIS.T + CORNERS)).astype(np.int32)
            cv2.fillConvexPoly(img, poly, (22, 22, 22))
        return img

    middle = lat.centres(rim)[0]
    # (the stripe runs up through the tiles' row, under them: drawn before them)
    stripe = photo(lambda im: cv2.rectangle(im, (int(middle[0]) - 10, 0), (int(middle[0]) + 10, 259),
                                             (40, 40, 200), -1))
    hand = photo(lambda im: None)
    cv2.circle(hand, tuple(int(v) for v in middle), 45, (120, 160, 215), -1)  # over the tiles too
    size = 30.0
    beside = [tiles]
    spread, onto = table.runs_onto(stripe, lat, rim, beside, size)
    assert spread.tolist() == [True]
    assert onto.tolist() == [0.0]
    spread, onto = table.runs_onto(hand, lat, rim, beside, size)
    assert spread.tolist() == [True]
    assert onto[0] >= reader.ONTO_TILES
    # the cheap sampled test before it agrees: the stripe stops at the tiles' rims
    assert table.shown_on_faces(hand, lat, rim, beside, reader.SHOWN_SHARE).tolist() == [True]
    assert table.shown_on_faces(stripe, lat, rim, beside, reader.SHOWN_SHARE).tolist() == [False]
    # and a table as dark as the tiles' faces tells nothing
    dark = photo(lambda im: im.__setitem__(slice(None), (26, 26, 26)))
    assert table.shown_on_faces(dark, lat, rim, beside).tolist() == [False]


def test_tiles_a_hand_hides_at_the_boards_rim_are_reported_unreadable(bench_scene):
    # hard-41: a hand over the rim of a six-tile board hides three tiles; two of them lie
    # in cells beside only two tiles read, and were left out (the referee saw the board
    # end there).  The hand lies over the tiles read beside them too, so they are reported
    # unreadable; every cell reported holds a tile, and no tile is given wrong
    path, truth, expected = bench_scene("hard", 41)
    read = read_photo(str(path))
    size = truth["render"]["tile_px"]
    covered = [t for t in truth["tiles"] if any(
        (o["q"], o["r"]) == (t["q"], t["r"]) and o["fraction"] >= 0.5 for o in truth["occluded"])]
    assert sum(_unread_near(read, t["pixel"], size) for t in covered) >= 2
    tiles = [np.asarray(t["pixel"]) for t in truth["tiles"]]
    for u in read.meta["unreadable"]:
        assert min(np.hypot(*(np.asarray(u["pixel"]) - t)) for t in tiles) < 0.45 * size
    assert best_alignment(expected, read)[2] == len(read)


def _two_tiles_and_a_poor_third(img: np.ndarray, tiled: list, clash: bool, fit: float,
                                work_scale: float = 1.0) -> Scene:
    """A scene of ``img`` (240 x 360 BGR, drawn on in place) with dark tile bodies at
    ``tiled`` cells of a lattice of 30 px cells, tiles read clearly at (0, 0) and (1, 0),
    and a reading at (2, 0) of ``fit`` that clashes with the tile beside it (``clash``) or
    matches it, as a glared cell read among its neighbours is given."""
    lat = Lattice(H=np.array([[30.0, 0, 80], [0, 30.0, 120], [0, 0, 1]]))
    mask = np.zeros(img.shape[:2], np.uint8)
    for cell in tiled:
        poly = np.round(lat.to_image(np.array(cell, float) @ BASIS.T + CORNERS)).astype(np.int32)
        cv2.fillConvexPoly(img, poly, (22, 22, 22))
        cv2.fillConvexPoly(mask, poly, 255)
    for tile in range(3, 57):
        board = Board()
        board.place((0, 0), 1, 0)
        board.place((1, 0), 2, 0)
        board.place((2, 0), tile, 0)
        touching, matching = touching_edges(board, (2, 0))
        if touching and (matching < touching) == clash:
            break
    assert touching and (matching < touching) == clash
    px = lambda c: lat.centres(np.array([c]))[0]
    scene = Scene(Photo(img, 360, 240), img, work_scale, lattice=lat, mask=mask)
    scene.readings = [((0, 0), Reading(1, 0, 1.0, 0.98), px((0, 0))),
                      ((1, 0), Reading(2, 0, 1.0, 0.97), px((1, 0))),
                      ((2, 0), Reading(tile, 0, 0.95, fit), px((2, 0)))]
    return scene


def _read_on_a_grey_table(poor_on_tile: bool) -> Scene:
    """A grey table with two tiles read clearly and a third reading at (2, 0) of fit 0.4
    that matches the tile beside it: on a dark tile body there (``poor_on_tile``), or on
    the bare table."""
    img = np.full((240, 360, 3), (120, 125, 130), np.uint8)
    tiled = [(0, 0), (1, 0)] + ([(2, 0)] if poor_on_tile else [])
    return _two_tiles_and_a_poor_third(img, tiled, clash=False, fit=0.4)


@pytest.mark.parametrize("on_tile", [False, True])
def test_a_poor_tile_that_matches_its_neighbour_goes_only_from_the_bare_table(on_tile):
    # hard-11: tile 13 read at confidence 0.94 on a cell of bare table by the board; a
    # tile under glare or blur that shows a table-like middle but colours of its own stays
    scene = _read_on_a_grey_table(on_tile)
    _drop_bare_table(scene)
    kept = {c for c, _rd, _px in scene.readings}
    assert {(0, 0), (1, 0)} <= kept
    assert ((2, 0) in kept) == on_tile


def _clash_on_stripes(work_scale: float) -> Scene:
    """Two tiles read clearly on a cloth of yellow and navy stripes, and a reading at
    (2, 0), fit 0.86, that clashes with the tile beside it, on the bare stripes; cells of
    30 working px, in a working copy ``work_scale`` times the photo."""
    img = np.zeros((240, 360, 3), np.uint8)
    yy, xx = np.mgrid[:240, :360]
    band = ((xx + yy) // 7) % 2 == 0
    img[band] = (40, 190, 215)
    img[~band] = (90, 40, 30)
    return _two_tiles_and_a_poor_third(img, [(0, 0), (1, 0)], clash=True, fit=0.86,
                                       work_scale=work_scale)


@pytest.mark.parametrize("enlarged", [False, True])
def test_a_poor_clashing_tile_in_the_cloths_colours_goes_when_tiles_are_large(enlarged):
    # hard-42: a cell of yellow and navy stripes beside the board read as tile 48 at fit
    # 0.86, its middle not bare; on a photo whose cells are half as large (enlarged for
    # the read) blur mixes a tile's colours into the cloth's, and the tile stays
    scene = _clash_on_stripes(2.0 if enlarged else 1.0)
    cell = np.array([(2, 0)])
    assert not reader._bare(scene, cell, reader._cell_size(scene, cell))[0]
    assert reader._like_around(scene, cell)[0] >= table.LIKE_AROUND
    _drop_bare_table(scene)
    kept = {c for c, _rd, _px in scene.readings}
    assert {(0, 0), (1, 0)} <= kept
    assert ((2, 0) in kept) == enlarged


def test_no_tile_is_read_on_the_striped_cloth_beside_a_board(bench_scene):
    # hard-42: twelve tiles of 46 px on yellow and navy stripes; a cell of stripes at the
    # board's rim was read as a thirteenth tile (48, fit 0.86)
    path, _truth, expected = bench_scene("hard", 42)
    read = read_photo(str(path))
    assert same_position(expected, read)


def _scene_of(tiles: list, unread: list) -> Scene:
    """A scene whose read has tiles in ``tiles`` and unreadable cells ``unread``."""
    img = np.zeros((60, 60, 3), np.uint8)
    scene = Scene(Photo(img, 60, 60), img, 1.0)
    scene.readings = [(c, Reading(i + 1, 0, 1.0, 0.97), (0.0, 0.0)) for i, c in enumerate(tiles)]
    scene.unreadable = [(c, Reading(0, 0, 0.0, 0.0), (0.0, 0.0)) for c in unread]
    return scene


def test_unreadable_cells_apart_from_the_board_are_dropped():
    board = [(0, 0), (1, 0), (0, 1)]
    # beside the board, and one more beyond it through that cell (a hand over two
    # tiles), stay; a cell two cells off and a pair of cells farther out go
    scene = _scene_of(board, [(2, 0), (3, 0), (0, 3), (5, -3), (6, -3)])
    reader._drop_stray_unreadable(scene)
    assert [c for c, _rd, _px in scene.unreadable] == [(2, 0), (3, 0)]
    # with no tile read, the unreadable cells are all there is: they stay
    scene = _scene_of([], [(0, 3), (5, -3)])
    reader._drop_stray_unreadable(scene)
    assert len(scene.unreadable) == 2


def test_no_unreadable_cell_is_reported_on_a_confetti_cloth_away_from_the_board(bench_scene):
    # hard-58: four tiles on a confetti cloth, one loose tile above them; six cells of the
    # cloth (three round the loose tile, three farther out) were reported unreadable, and
    # the referee would have counted them as tiles
    path, truth, expected = bench_scene("hard", 58)
    read = read_photo(str(path))
    size = truth["render"]["tile_px"]
    board = [np.asarray(t["pixel"]) for t in truth["tiles"]]
    for u in read.meta.get("unreadable", []):
        assert min(np.hypot(*(np.asarray(u["pixel"]) - t)) for t in board) < 0.45 * size
    assert same_position(expected, read)


def _split_tile(scene: Scene, cell: tuple, tile: int, pixel: tuple) -> None:
    """Give ``scene`` a tile read on ``cell`` and split off the board as loose."""
    rd = Reading(tile, 2, 0.99, 0.95)
    scene.split_off.append((cell, rd, np.array(pixel, float)))
    scene.loose.append({"tile": tile, "rotation": 2, "confidence": 0.99, "pixel": list(pixel)})


def test_a_tile_split_off_beyond_unreadable_cells_rejoins_the_board():
    board = [(0, 0), (1, 0), (0, 1)]
    # beyond two unreadable cells in a row (a hand over them): back on the board
    scene = _scene_of(board, [(2, 0), (3, 0)])
    _split_tile(scene, (4, 0), 40, (80.0, 10.0))
    # beyond a cell nobody reported, and an off-lattice loose tile: both stay loose
    _split_tile(scene, (0, 3), 41, (5.0, 70.0))
    scene.loose.append({"tile": 42, "rotation": 0, "confidence": 0.9, "pixel": [90.0, 90.0]})
    reader._rejoin_split(scene)
    assert {c: rd.tile for c, rd, _px in scene.readings}[(4, 0)] == 40
    assert sorted(it["tile"] for it in scene.loose) == [41, 42]
    # an unreadable cell that joins nothing to the board rejoins nothing
    scene = _scene_of(board, [(5, -3)])
    _split_tile(scene, (6, -3), 40, (80.0, 10.0))
    reader._rejoin_split(scene)
    assert len(scene.readings) == 3 and [it["tile"] for it in scene.loose] == [40]


def test_a_tile_beyond_cells_under_a_hand_is_read_on_the_board(bench_scene):
    # hard-10: three tiles under a hand in a row, and tile 53 beyond them, read right but
    # given as a loose tile, since it touched no tile read
    path, truth, expected = bench_scene("hard", 10)
    read = read_photo(str(path))
    assert 53 in read.numbers() and 53 not in [it["tile"] for it in read.loose]
    _steps, _offset, right = best_alignment(expected, read)
    assert right == len(read)
