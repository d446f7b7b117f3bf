"""A read that loses to another look still lends what it reads surely (vision.reader._borrow)."""
from __future__ import annotations

import pytest

from referee.compare import best_alignment
from vision import read_photo

# board tiles the kept look missed and another look read surely, beside the kept board
BORROWED = [
    # three tiles in a row on a striped cloth: two looks of the whole photo read all three,
    # each with five or more cells of stripes unread, and lost to the crop's look that read
    # two of them and no stripe
    ("real-texture", 53),
    # 24 tiles on a light table: the kept look missed tile 14 at the board's edge; a look
    # with 7 unread cells read it, and a tile 46 the board does not hold, which is not lent
    ("real-texture", 44),
]


@pytest.mark.parametrize("tier,index", BORROWED, ids=[f"{t}-{i}" for t, i in BORROWED])
def test_a_board_tile_another_look_reads_surely_joins_the_kept_read(tier, index, bench_scene):
    path, _truth, expected = bench_scene(tier, index)
    read = read_photo(str(path))
    assert best_alignment(expected, read)[2] == len(expected) == len(read)
