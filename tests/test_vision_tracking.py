"""Live tracking: frames of a jittering camera follow the previous frame's lattice, read the
same tiles as a full read, and a frame of another scene is searched from scratch."""
import numpy as np
import pytest

from referee.board import board_from_json
from referee.compare import best_alignment
from referee.randomgame import random_position
from vision import read_photo
from vision.tracking import Tracker

scenegen = pytest.importorskip("scenegen")


def _frames(n_tiles: int, seed: int, count: int, **changes):
    """``count`` renders of one board, the camera moving a little between them."""
    board = random_position(n_tiles, seed=seed)
    rng = np.random.default_rng(seed)
    params = scenegen.default_params(**{"width": 1280, "height": 720, "tile_px": 55.0, **changes})
    out = []
    for _ in range(count):
        out.append(scenegen.render(board, params, seed=seed))
        params = dict(params, offset=[float(v + rng.normal(0, 0.01)) for v in params["offset"]],
                      roll_deg=float(params["roll_deg"] + rng.normal(0, 1.0)),
                      tilt_deg=float(params["tilt_deg"] + abs(rng.normal(0, 0.7))))
    return out


def _truth_board(truth: dict):
    return board_from_json({"tiles": [{k: t[k] for k in ("q", "r", "tile", "rotation")}
                                      for t in truth["tiles"]]})


def test_jittering_frames_are_followed_and_read_right():
    tracker = Tracker()
    for image, truth in _frames(20, seed=11, count=3, table={"kind": "wood"}):
        board = tracker.read(image)
        expected = _truth_board(truth)
        assert best_alignment(expected, board)[2] == len(expected)
        assert best_alignment(read_photo(image), board)[2] == len(expected)
    assert tracker.history == [False, True, True]


def test_another_scene_is_searched_from_scratch():
    tracker = Tracker()
    (first, _t1), = _frames(20, seed=11, count=1, table={"kind": "wood"})
    tracker.read(first)
    # other tiles, bigger, turned: the old lattice does not read them
    (other, truth), = _frames(12, seed=4, count=1, table={"kind": "felt"}, roll_deg=40.0, tile_px=80.0)
    board = tracker.read(other)
    assert tracker.history == [False, False]
    expected = _truth_board(truth)
    assert best_alignment(expected, board)[2] == len(expected)
    tracker.reset()
    assert tracker.lattice is None and tracker.anchor == 0
    assert tracker.box is None and tracker.link is None


def test_a_broken_frame_is_bad_input_and_keeps_the_lattice():
    from referee.errors import BadInput
    tracker = Tracker()
    (first, _t), = _frames(20, seed=11, count=1, table={"kind": "wood"})
    tracker.read(first)
    kept = tracker.lattice
    with pytest.raises(BadInput):
        tracker.read(b"not a photo")
    assert tracker.lattice is kept and tracker.history == [False]


def test_following_only_searches_nothing():
    """Within ``search.following_only`` a lattice is found only by following the previous
    frame's: a frame without a prior, or one the prior does not fit, finds none."""
    from vision import colours, reader, search
    (first, _t1), (second, _t2) = _frames(20, seed=11, count=2, table={"kind": "wood"})
    (other, _t3), = _frames(12, seed=4, count=1, table={"kind": "felt"}, roll_deg=40.0, tile_px=80.0)

    def prepared(image):
        work, _ws = reader._working_copy(reader.load_photo(image))
        model, link, mask = reader.link_and_mask(colours.to_lab(work))
        return work, link, mask, model

    found = search.find_lattice(*prepared(first))
    assert found is not None and not found.tracked
    prior = search.Prior(found, prepared(first)[1].shape)
    with search.following_only():
        assert search.find_lattice(*prepared(second)) is None
        followed = search.find_lattice(*prepared(second), prior=prior)
        assert followed is not None and followed.tracked
        assert search.find_lattice(*prepared(other), prior=prior) is None
    assert search.find_lattice(*prepared(other), prior=prior) is not None  # searched again
    # a frame of a scene its first look read misses at most as often as the last one did
    with pytest.raises(search.NotFollowed):
        with search.following_only(max_misses=0):
            search.find_lattice(*prepared(other), prior=prior)
    with search.following_only(max_misses=0) as following:
        assert search.find_lattice(*prepared(second), prior=prior) is not None
        assert search.find_lattice(*prepared(other), prior=prior) is None  # after a follow
    assert following.followed and following.misses == 0


def test_frames_follow_with_the_bodies_grey(bench_scene, monkeypatch):
    # video-720p-2: 55 tiles whose bodies are far from the photo's darkest grey.  Since
    # session 25 its first frame is read whole with the photo's grey (two faint cells at its
    # rim read cell by cell from the tiles beside them, reader._beside)
    path, _truth, expected = bench_scene("video-720p", 2)
    assert best_alignment(expected, Tracker().read(str(path)))[2] == len(expected)
    # without that, the first frame is read with the bodies' own grey (55 of 55, 53 with the
    # photo's), and the frames after it follow its lattice with that grey, reading as many
    from vision import reader
    monkeypatch.setattr(reader, "_beside", lambda faint, read, taken: faint[:0])
    tracker = Tracker()
    for _ in range(3):
        board = tracker.read(str(path))
        assert best_alignment(expected, board)[2] == len(expected)
        assert tracker.grey is not None
    assert tracker.history == [False, True, True]


def _shifted(params: dict, steps: int, step: float) -> list[dict]:
    """Render parameters of ``steps`` frames, the camera moved by ``step`` (a share of the
    frame) along x from one to the next: a steady shift, larger than jitter."""
    return [dict(params, offset=[params["offset"][0] + k * step, params["offset"][1]])
            for k in range(steps)]


def test_a_camera_moved_by_more_than_a_third_of_a_cell_is_followed():
    # 55 px tiles on a 1280 px frame; each frame moves the camera by 1.5 % of the frame,
    # more than the third of a cell a follow absorbs on its own: the shift is measured
    # (search._moved) and the lattice follows moved by it
    board = random_position(20, seed=11)
    params = scenegen.default_params(width=1280, height=720, tile_px=55.0, table={"kind": "wood"})
    tracker = Tracker()
    for p in _shifted(params, 3, 0.015):
        image, truth = scenegen.render(board, p, seed=11)
        read = tracker.read(image)
        expected = _truth_board(truth)
        assert best_alignment(expected, read)[2] == len(expected)
    assert tracker.history == [False, True, True]


def test_a_far_group_read_on_a_crop_is_followed_on_that_crop():
    # 28 px tiles on a dim 1920 x 1080 frame are read on a crop round them (see
    # test_vision_region); the next frames are read on the same crop, following its lattice
    from test_vision_region import FAR_DIM

    board = random_position(9, seed=11)
    params = scenegen.default_params(**FAR_DIM)
    tracker = Tracker()
    for p in _shifted(params, 3, 0.004):
        image, truth = scenegen.render(board, p, seed=4)
        read = tracker.read(image)
        assert tracker.box is not None   # read on a crop
        expected = _truth_board(truth)
        assert best_alignment(expected, read)[2] == len(expected)
    assert tracker.history == [False, True, True]
