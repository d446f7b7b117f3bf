"""Close-ups of a few touching tiles (vision.bodies.small_groups): their merged bodies make
no single hexagon, so the search takes the cells' size and turn from the blob's deep
places; and the real tiles laid so read whole."""
import cv2
import numpy as np
import pytest

from bench.real_groups_bench import LAYOUTS, TABLES, group_picture, laid_board
from bench.real_tiles_bench import TILES as REAL
from referee.compare import same_position
from referee.hexgrid import to_pixel
from vision import bodies, read_photo
from vision.lattice import CORNERS

real = pytest.mark.skipif(not (REAL / "labels.csv").exists(), reason="../shared/real_tiles missing")


def _turn(deg: float) -> np.ndarray:
    a = np.deg2rad(deg)
    return np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])


def _group_mask(cells, size: float, turn: float, origin=(200.0, 160.0), shape=(340, 420)):
    """A mask of touching hexagons on ``cells``, ``size`` px centre to corner, turned."""
    mask = np.zeros(shape, np.uint8)
    M = size * _turn(turn)
    for cell in cells:
        centre = M @ np.array(to_pixel(cell)) + origin
        cv2.fillConvexPoly(mask, np.round(CORNERS @ M.T + centre).astype(np.int32), 255)
    return mask, M


def _on_lattice(found: bodies.Hexagon, M: np.ndarray, origin, cells) -> bool:
    """Whether the group's cell sits on one of ``cells`` and its map is the lattice's (any
    of the six turns that make the same lattice)."""
    centres = [M @ np.array(to_pixel(c)) + origin for c in cells]
    if min(np.hypot(*(found.centre - c)) for c in centres) > 0.15 * np.sqrt(abs(np.linalg.det(M))):
        return False
    return any(np.allclose(found.M, M @ _turn(60 * k), atol=0.1 * abs(M[0, 0]) + 0.1 * abs(M[1, 0]) + 2)
               for k in range(6))


@pytest.mark.parametrize("layout", ["pair", "pair-upright", "row", "bent-row", "triangle"])
@pytest.mark.parametrize("turn", [0.0, 17.0, 41.0])
def test_a_small_group_gives_its_cells_size_and_turn(layout, turn):
    # (a rhombus of four is deepest between its two triangles: no cell shows there, and its
    # lattice comes from the link image's rings, see bench.real_groups_bench)
    cells = LAYOUTS[layout]
    mask, M = _group_mask(cells, 40.0, turn)
    groups = bodies.small_groups(mask)
    assert len(groups) == 1
    assert _on_lattice(groups[0], M, (200.0, 160.0), cells)


def test_links_cut_into_the_bodies_do_not_hide_the_group():
    cells = LAYOUTS["pair"]
    mask, M = _group_mask(cells, 40.0, 10.0)
    # a link band from an edge's middle into the tile, as a light link leaves it out of the mask
    centre = M @ np.array(to_pixel(cells[0])) + (200.0, 160.0)
    cv2.line(mask, tuple(np.round(centre).astype(int)), tuple(np.round(centre + M @ [0, -0.9]).astype(int)), 0, 7)
    groups = bodies.small_groups(mask)
    assert len(groups) == 1 and _on_lattice(groups[0], M, (200.0, 160.0), cells)


def test_a_single_tile_or_a_big_board_is_no_small_group():
    one, _M = _group_mask([(0, 0)], 40.0, 0.0)
    assert bodies.small_groups(one) == []
    board = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]
    big, _M = _group_mask(board, 20.0, 5.0)
    assert bodies.small_groups(big) == []
    assert bodies.small_groups(np.zeros((100, 100), np.uint8)) == []


@real
@pytest.mark.parametrize("layout", ["pair", "pair-upright", "triangle", "rhombus"])
@pytest.mark.parametrize("margin", [0, 40])
def test_touching_real_tiles_close_up_read_whole(layout, margin):
    # before small groups: a pair 40 px from the edges read nothing at all (tiles 15, 28),
    # an upright pair at 12 px none of 4
    cells = LAYOUTS[layout]
    numbers = [15, 28, 41, 6][:len(cells)]
    board = read_photo(group_picture(numbers, cells, margin))
    assert same_position(laid_board(numbers, cells), board), sorted(
        (c, p.tile, p.rotation) for c, p in board.tiles.items())
    assert board.loose == []


@real
@pytest.mark.parametrize("numbers, layout, margin, table", [
    # session 96: the bodies stop 2 px short of the picture's edge, the close-up went
    # unframed, and two wrong loose tiles were read off one tile's links
    ([6, 24, 32, 28], "rhombus", 0, "light"),
    # sessions 96-97: the first look fitted its lattice to the two right-hand tiles and
    # left three cells unread; only the faint look, kept then for small tiles alone,
    # read all four
    ([44, 1, 17, 7], "rhombus", 40, "light"),
    # sessions 96-97: a look reading the pair as two loose tiles tied with one reading it
    # as a board (with no Tantrix in either read, a board tile counted as a loose one)
    ([42, 21], "pair-upright", 40, "grey"),
], ids=["rhombus-to-the-edges", "rhombus-faint-look", "upright-pair-on-grey"])
def test_real_groups_bench_misses_read_whole(numbers, layout, margin, table):
    cells = LAYOUTS[layout]
    board = read_photo(group_picture(numbers, cells, margin, TABLES[table]))
    assert same_position(laid_board(numbers, cells), board), sorted(
        (c, p.tile, p.rotation) for c, p in board.tiles.items())
    assert board.loose == [] and "unreadable" not in board.meta
