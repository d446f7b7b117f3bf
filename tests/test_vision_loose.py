"""Tiles away from the Tantrix: which groups of them are loose."""

from referee.compare import best_alignment
from vision import read_photo, reader
from vision.identify import Reading


def _items(*cells):
    return [(c, Reading(tile=i + 1, rotation=0, confidence=0.99, fit=0.95), (0.0, 0.0))
            for i, c in enumerate(cells)]


BOARD = [(0, 0), (1, 0), (0, 1), (1, 1)]


def test_a_far_group_of_touching_tiles_is_loose():
    far = [(4, 0), (5, -1)]                      # two cells of table between it and the board
    keep, loose = reader._split_isolated(_items(*BOARD, *far))
    assert sorted(c for c, _rd, _px in keep) == sorted(BOARD)
    assert sorted(c for c, _rd, _px in loose) == sorted(far)


def test_a_group_one_missed_tile_away_stays_on_the_board():
    near = [(3, 0), (4, -1)]                     # one empty cell between: a missed tile
    keep, loose = reader._split_isolated(_items(*BOARD, *near))
    assert len(keep) == 6 and loose == []


def test_unreadable_cells_bridge_a_far_group():
    far = [(4, 0), (5, -1)]
    covered = _items((2, 0), (3, 0))            # a hand over the row between
    keep, loose = reader._split_isolated(_items(*BOARD, *far), bad=covered)
    assert len(keep) == 6 and loose == []
    # a single tile alone is loose whatever bridges it (as before)
    keep, loose = reader._split_isolated(_items(*BOARD, (5, 0)))
    assert [c for c, _rd, _px in loose] == [(5, 0)]


def test_a_loose_tile_on_face_down_tiles_is_not_a_board_group(bench_scene):
    # real-texture-50: a loose tile lying over face-down tiles far from the board read as
    # two touching cells of it; they are not part of the Tantrix
    path, _truth, expected = bench_scene("real-texture", 50)
    read = read_photo(str(path))
    agree = best_alignment(expected, read)[2]
    assert agree == len(read) >= len(expected) - 1   # one tile is under a hand


def test_a_clear_tile_beyond_a_hidden_gap_stays_on_the_board():
    far = [(3, 0)]                               # one cell between it and the board: (2, 0)
    items = _items(*BOARD, *far)
    asked = []

    def hand_over(cells):                       # something other than the table lies there
        asked.extend(cells)
        return [c == (2, 0) for c in cells]

    keep, loose = reader._split_isolated(items, hidden=hand_over)
    assert len(keep) == 5 and loose == [] and (2, 0) in asked

    # the table between: loose, as without the test
    keep, loose = reader._split_isolated(items, hidden=lambda cells: [False] * len(cells))
    assert [c for c, _rd, _px in loose] == [(3, 0)]
    # two cells between, even both hidden: loose (a hand beside the board, a loose tile)
    keep, loose = reader._split_isolated(_items(*BOARD, (4, 0)), hidden=lambda cells: [True] * len(cells))
    assert [c for c, _rd, _px in loose] == [(4, 0)]
    # a poor reading beyond a hand may be a covered tile's: not kept
    poor = items[:-1] + [((3, 0), Reading(tile=9, rotation=0, confidence=0.6, fit=0.7), (0.0, 0.0))]
    keep, loose = reader._split_isolated(poor, hidden=hand_over)
    assert [c for c, _rd, _px in loose] == [(3, 0)]


def test_fingers_between_the_board_and_its_end_tile(bench_scene):
    # real-texture-58: fingers cover the tiles between the board and tile 25 at the end of
    # its row; the tile is the board's, not a loose one (before: reported loose)
    path, truth, expected = bench_scene("real-texture", 58)
    read = read_photo(str(path))
    assert 25 in {p.tile for p in read.tiles.values()}
    assert 25 not in {t["tile"] for t in read.loose}
    steps, offset, agree = best_alignment(expected, read)
    assert agree == len(read)                   # every tile given is right
