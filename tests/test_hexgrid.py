from hypothesis import given
from hypothesis import strategies as st

from referee.hexgrid import (DIRECTIONS, components, distance, edge_between, neighbour,
                             neighbours, opposite, ring, rotate_cell, to_pixel)

cells = st.tuples(st.integers(-50, 50), st.integers(-50, 50))


@given(cells, st.integers(0, 5))
def test_neighbour_symmetry(cell, edge):
    n = neighbour(cell, edge)
    assert neighbour(n, opposite(edge)) == cell
    assert edge_between(cell, n) == edge
    assert edge_between(n, cell) == opposite(edge)
    assert distance(cell, n) == 1


@given(cells)
def test_six_distinct_neighbours_at_distance_one(cell):
    ns = neighbours(cell)
    assert len(set(ns)) == 6
    assert all(distance(cell, n) == 1 for n in ns)


@given(cells, st.integers(0, 5))
def test_rotation_turns_directions_clockwise(cell, steps):
    assert rotate_cell(cell, 6) == cell
    assert distance(rotate_cell(cell, steps), (0, 0)) == distance(cell, (0, 0))
    for e, d in enumerate(DIRECTIONS):
        assert rotate_cell(d, steps) == DIRECTIONS[(e + steps) % 6]


@given(cells, cells, st.integers(0, 5))
def test_rotation_preserves_distance(a, b, steps):
    assert distance(rotate_cell(a, steps), rotate_cell(b, steps)) == distance(a, b)


def test_directions_match_pixel_geometry():
    # edge 0 is north (up, y smaller), edges run clockwise
    x, y = to_pixel(DIRECTIONS[0])
    assert abs(x) < 1e-9 and y < 0
    x, y = to_pixel(DIRECTIONS[2])
    assert x > 0 and y > 0
    for d in DIRECTIONS:
        x, y = to_pixel(d)
        assert abs((x * x + y * y) ** 0.5 - 3 ** 0.5) < 1e-9


def test_ring_sizes_and_components():
    for radius in range(1, 5):
        r = ring((2, -1), radius)
        assert len(r) == len(set(r)) == 6 * radius
        assert all(distance(c, (2, -1)) == radius for c in r)
    groups = components([(0, 0), (1, 0), (5, 5), (5, 6), (5, 7)])
    assert [len(g) for g in groups] == [3, 2]


def test_distance_takes_arrays_of_cells_and_broadcasts():
    # (vision.shading measures every cell against every other at once this way)
    import numpy as np
    a = np.array([(0, 0), (1, 1), (0, 0)])
    b = np.array([(0, 0), (1, -1), (2, -1), (-1, -1), (0, 3)])
    d = distance((a[:, 0, None], a[:, 1, None]), (b[None, :, 0], b[None, :, 1]))
    assert d.shape == (3, 5)
    assert d.tolist() == [[distance(tuple(p), tuple(q)) for q in b.tolist()] for p in a.tolist()]
    assert d[0].tolist() == [0, 1, 2, 2, 3] and d[1, 3] == 4
