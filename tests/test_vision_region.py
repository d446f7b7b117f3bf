"""A small group of tiles on a large photo is found and read on a full-resolution crop;
every pixel the reader reports is still in the whole photo's frame; a live camera's frame
that only follows reads no crop."""

import dataclasses

import cv2
import numpy as np
import pytest

from referee.board import board_from_json
from referee.compare import best_alignment
from referee.randomgame import random_position
from vision import overlay, reader, region

scenegen = pytest.importorskip("scenegen")

# 9 tiles of 28 px on a dim felt cloth, 1920x1080: lost on the reduced working copy
FAR_DIM = dict(width=1920, height=1080, tile_px=28.0, table={"kind": "felt"}, light={"exposure": 0.45})


@pytest.fixture(scope="module")
def far_dim():
    board = random_position(9, seed=11)
    return scenegen.render(board, scenegen.default_params(**FAR_DIM), seed=4)


def test_region_holds_every_tile(far_dim):
    image, truth = far_dim
    box = region.board_region(image)
    assert box is not None
    x0, y0, x1, y1 = box
    h, w = image.shape[:2]
    assert (x1 - x0) * (y1 - y0) < region.MAX_SHARE * w * h
    for t in truth["tiles"]:
        for x, y in t["corners"]:
            assert x0 <= x <= x1 and y0 <= y <= y1


def test_far_dim_group_read_in_photo_frame(far_dim):
    image, truth = far_dim
    scene, read = reader.read(image)
    assert scene.origin.min() > 0  # read on a crop
    expected = board_from_json({"tiles": [{k: t[k] for k in ("q", "r", "tile", "rotation")}
                                          for t in truth["tiles"]]})
    assert best_alignment(expected, read)[2] == len(expected)
    # every reported centre lies on its tile in the whole photo
    truth_px = np.array([t["pixel"] for t in truth["tiles"]])
    size = truth["render"]["tile_px_measured"]
    for extra in read.extras.values():
        assert np.linalg.norm(truth_px - extra["pixel"], axis=1).min() < 0.25 * size
    # the overlay draws the outlines there too (green pixels at the tile centres' rims)
    picture = overlay.draw(scene)
    assert picture.shape == image.shape
    changed = np.any(picture != image, axis=2)
    for x, y in truth_px.astype(int):
        r = int(size * 0.6)
        assert changed[y - r:y + r, x - r:x + r].any()


def test_table_without_tiles_has_no_region():
    params = scenegen.default_params(width=1600, height=1200, table={"kind": "wood"})
    image, _truth = scenegen.render(random_position(0, seed=1), params, seed=2)
    assert region.board_region(image) is None or reader.read_photo(image).tiles == {}


def test_region_within_the_region_of_a_large_dim_photo(bench_scene):
    # hard-21: three 60 px tiles in a row, a loose tile and face-down tiles on a dim felt,
    # 2048 x 1536.  The whole photo and the first crop (much of the table round the
    # group) both read poorly; the region found within that crop reads the three tiles,
    # and their pixels are in the whole photo's frame.
    path, truth, expected = bench_scene("hard", 21)
    scene, board = reader.read(str(path))
    assert best_alignment(expected, board)[2] == len(expected)
    true_px = np.array([t["pixel"] for t in truth["tiles"]])
    for cell in board.tiles:
        px = np.array(board.extras[cell]["pixel"])
        assert np.linalg.norm(true_px - px, axis=1).min() < 15
    # the overlay's work image sits where the innermost crop was taken
    h, w = scene.work.shape[:2]
    corner = scene.origin
    far = corner + np.array([w, h]) / scene.work_scale
    assert (true_px >= corner).all() and (true_px <= far).all()


def test_tiny_board_on_a_cloth_of_link_coloured_dots(bench_scene):
    # hard-78: ten 46 px tiles (a board 250 px across) on a 12 Mpx photo of a cloth
    # printed with red, yellow, green, blue and black dots.  Hue variety is everywhere, so
    # the region is the dark body that holds links of three hues; read there, the board
    # and its two loose tiles read right (nothing was read before).
    path, truth, expected = bench_scene("hard", 78)
    image = cv2.imread(str(path))
    _region_holding(image, [t["pixel"] for t in truth["tiles"]])
    board = reader.read_photo(image)
    assert best_alignment(expected, board)[2] == len(expected) == len(board.tiles)
    assert sorted(t["tile"] for t in board.loose) == sorted(t["tile"] for t in truth["loose"])


def test_board_on_a_dim_cloth_that_passes_for_dark(bench_scene):
    # hard-11: 19 tiles about 20 px across, in dim warm light on a confetti cloth.  The
    # cloth is dark enough to fall in the dark-body mask, so the whole cloth is one body
    # with the board inside it; the darker part of the dark pixels holds the board alone.
    # The whole photo's lattice reads none of its 24 cells, so it may not outrank the
    # crop's read by its search score (second_look.earned).
    path, truth, expected = bench_scene("hard", 11)
    image = cv2.imread(str(path))
    covered = {(o["q"], o["r"]) for o in truth["occluded"] if o["fraction"] > 0.3}
    x0, y0, x1, y1 = _region_holding(
        image, [t["pixel"] for t in truth["tiles"] if (t["q"], t["r"]) not in covered])
    h, w = image.shape[:2]
    assert (x1 - x0) * (y1 - y0) < 0.1 * w * h
    board = reader.read_photo(image)
    assert best_alignment(expected, board)[2] >= 13      # 14 of 19 measured, 3 covered


def test_unreadable_cells_earn_a_lattice_nothing_without_read_tiles():
    from vision import second_look
    from vision.identify import Reading
    from vision.lattice import Lattice
    blank = np.zeros((8, 8, 3), np.uint8)
    lat = Lattice(np.eye(3), score=10.0)
    cells = [((q, 0), None, np.zeros(2)) for q in range(20)]
    rd = Reading(tile=1, rotation=0, confidence=1.0, fit=1.0)
    read = [((q, 1), rd, np.zeros(2)) for q in range(3)]

    def scene(**parts):
        return reader.Scene(None, blank, 1.0, lattice=lat, unreadable=cells, **parts)
    assert second_look.earned(scene()) == 0
    assert second_look.earned(scene(readings=read)) == 6
    # (loose tiles read beside the board vouch for the lattice as board tiles do)
    loose = [{"tile": 2, "rotation": 0, "confidence": 1.0, "pixel": [0.0, 0.0]}] * 2
    assert second_look.earned(scene(loose=loose)) == 4
    # (never more than the lattice's own score)
    assert second_look.earned(scene(readings=read * 3)) == 10.0


def _region_holding(image: np.ndarray, points: list) -> tuple[int, int, int, int]:
    """The region found on ``image``, asserted to hold every photo point of ``points``."""
    box = region.board_region(image)
    assert box is not None
    x0, y0, x1, y1 = box
    for x, y in points:
        assert x0 <= x <= x1 and y0 <= y <= y1
    return box


def test_a_read_whose_tiles_fit_far_better_holds_a_lattice_scoring_a_little_less():
    from vision import second_look
    from vision.identify import Reading
    from vision.lattice import Lattice
    blank = np.zeros((8, 8, 3), np.uint8)

    def scene(score: float, fits: list[float], doubtful: int = 0, first: int = 1):
        read = [((q, 0), Reading(tile=q + first, rotation=0, confidence=1.0, fit=f), np.zeros(2))
                for q, f in enumerate(fits)]
        # (a loose tile and an unreadable cell beside, as hard-113's first read had)
        loose = [{"tile": 9, "rotation": 0, "confidence": 1.0, "pixel": [0.0, 0.0]}] * doubtful
        unread = [((q, 1), None, np.zeros(2)) for q in range(doubtful)]
        return reader.Scene(None, blank, 1.0, lattice=Lattice(np.eye(3), score=score),
                            readings=read, loose=loose, unreadable=unread)
    # (hard-113's sub-lattice: 2 cells, one wrong; its tiles are not the true lattice's,
    # which would hold as reading more of the same: second_look.reads_more_of_the_same)
    poor = scene(2.18, [0.74, 0.72], doubtful=1, first=11)
    assert second_look.earned(poor) > 2.03
    clean = scene(2.03, [0.91, 0.97, 0.98])      # the true lattice: all three tiles
    assert second_look.better(clean, poor)
    # (a read that fits far better but scores well under what the other earned, or reads
    # fewer tiles, or fits only a little better, does not hold its lattice)
    assert not second_look.better(scene(1.5, [0.91, 0.97, 0.98]), poor)
    assert not second_look._lattice_holds(scene(2.03, [0.97]), poor)
    assert not second_look.better(scene(2.03, [0.80, 0.80, 0.80]), poor)


def test_three_big_tiles_at_a_steep_tilt_read_on_their_own_lattice(bench_scene):
    # hard-113: three tiles ~98 px across at 48° tilt; the whole photo's best read lands a
    # lattice about 1/√3 of their pitch (2 cells, one wrong); the crop's read finds the
    # true lattice and reads all three at fit 0.91-0.98 (second_look._lattice_holds)
    path, _truth, expected = bench_scene("hard", 113)
    board = reader.read_photo(str(path))
    assert best_alignment(expected, board)[2] == len(board) == len(expected) == 3


def test_a_crop_too_small_for_the_board_read_is_not_read(bench_scene, monkeypatch):
    # video-720p-0: 48 tiles of 48 px on a dark check cloth, motion-blurred.  One look
    # reads 47 of them, but the cloth under the tile mask keeps the read "poor", and the
    # tiles' region is a few squares of the cloth holding 41 of the read's cells: reading
    # that crop (5 s of the frame's 9) could give no more tiles than the read has.
    path, _truth, expected = bench_scene("video-720p", 0)
    crops = []
    real = reader._analyse_region
    monkeypatch.setattr(reader, "_analyse_region",
                        lambda photo, source, box, *a, **k: crops.append(box) or real(photo, source, box, *a, **k))
    scene, board = reader.read(str(path))
    assert best_alignment(expected, board)[2] >= len(expected) - 1
    assert crops == []
    # the box the region finder gives is that small one, and a read of 3 tiles would
    # still look there
    photo = reader.load_photo(str(path))
    box = region.board_region(photo.image)
    assert box is not None and not reader._room_for_more(scene, box, photo)
    few = dataclasses.replace(scene, readings=scene.readings[:3])
    assert reader._room_for_more(few, box, photo)


def test_a_frame_that_only_follows_reads_no_crop(far_dim):
    # a live camera's first try at a frame only follows the last lattice; a crop is read
    # without one, so its looks could only miss: the frame is then searched afresh instead
    from vision import looklog, search
    image, _truth = far_dim
    with looklog.recording() as log:
        scene, _read = reader.read(image)
    assert scene.origin.min() > 0 and any(look.where != "whole" for look in log)  # a crop's read
    prior = search.Prior(scene.lattice, scene.work.shape[:2])
    with looklog.recording() as log, search.following_only() as following:
        _scene, board = reader.read(image, None, prior)
    assert log and all(look.where == "whole" for look in log)
    assert not following.followed and len(board) == 0


def test_a_read_giving_the_same_tiles_and_more_holds_a_lattice_scoring_a_little_less():
    # hard-10's case: the crop's read of all seven tiles, on a lattice scoring 5.10, lost
    # to the whole photo's read of four of them, which earned 5.27
    from vision import second_look
    from vision.identify import Reading
    from vision.lattice import Lattice, BASIS
    blank = np.zeros((8, 8, 3), np.uint8)
    H = np.diag([40.0, 40.0, 1.0])

    def scene(score, tiles, unread=0, added_fit=0.95):
        lat = Lattice(H, score=score)
        read = [((q, 0), Reading(tile=t, rotation=r, confidence=1.0,
                                 fit=0.95 if t < 20 else added_fit),
                 40.0 * (BASIS @ np.array([q, 0.0])) + shift) for q, t, r, shift in tiles]
        return reader.Scene(None, blank, 1.0, lattice=lat, readings=read,
                            unreadable=[((9, q), None, np.zeros(2)) for q in range(unread)])
    four = [(q, 10 + q, q % 6, np.zeros(2)) for q in range(4)]
    more = four + [(4, 20, 1, np.zeros(2)), (5, 21, 2, np.zeros(2))]
    whole = scene(9.0, four, unread=3)
    assert second_look.earned(whole) == 7.0
    assert second_look.better(scene(0.9 * 7.0, more), whole)
    # under HOLDS_SHARE of what the other earned, the search's score still decides
    assert not second_look.better(scene(0.7 * 7.0, more), whole)
    # (a lattice numbering its cells from another corner turns every tile alike)
    assert second_look.better(scene(0.9 * 7.0, [(q, t, (r + 2) % 6, s) for q, t, r, s in more]),
                              whole)
    # one tile turned otherwise, or read in the next cell: not the same tiles
    turned = [(q, t, (r + 1) % 6 if q == 0 else r, s) for q, t, r, s in more]
    assert not second_look.better(scene(0.9 * 7.0, turned), whole)
    moved = [(q, t, r, 40.0 * (BASIS @ np.array([0.0, -1.0])) if q == 0 else s)
             for q, t, r, s in more]
    assert not second_look.better(scene(0.9 * 7.0, moved), whole)
    # nor does a read that leaves more cells unread
    assert not second_look.better(scene(0.9 * 7.0, more, unread=4), whole)
    # nor one whose added tiles fit clearly worse than the tiles both give (hard-59: a
    # cell of a confetti cloth read as a tile at fit 0.73)
    assert second_look.better(scene(0.9 * 7.0, more, added_fit=0.86), whole)
    assert not second_look.better(scene(0.9 * 7.0, more, added_fit=0.84), whole)


def test_a_board_a_third_under_hands_is_read_whole_on_its_crop(bench_scene):
    # hard-10: seven tiles on a black cloth at 30-50° tilt, three of them about a third
    # under hands.  The crop's body-grey look reads all seven; the whole photo's looks
    # read four.  (reads_more_of_the_same lets the crop's read win.)
    path, truth, expected = bench_scene("hard", 10)
    board = reader.read_photo(cv2.imread(str(path)))
    assert best_alignment(expected, board)[2] == len(expected) == len(board.tiles) == 7
