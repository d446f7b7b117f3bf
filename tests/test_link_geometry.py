"""Where links run on a tile's face (referee.link_geometry), and that the scene
generator draws them there."""
import math

import numpy as np
import pytest

from referee.link_geometry import _to_polyline, distance_to_links, edge_midpoint, link_path, vertex
from referee.tiles import rotated_edges
from scenegen.tileface import PALETTES, draw_face


@pytest.mark.parametrize("e1,e2", [(0, 1), (0, 2), (0, 3), (4, 1), (5, 1), (3, 5)])
def test_every_link_runs_from_one_edge_midpoint_to_the_other(e1, e2):
    path = link_path(e1, e2)
    ends = {tuple(np.round(path[0], 9)), tuple(np.round(path[-1], 9))}
    assert ends == {tuple(np.round(edge_midpoint(e1), 9)), tuple(np.round(edge_midpoint(e2), 9))}


def test_link_shapes_corner_bend_and_straight():
    # a corner keeps half a side from the vertex its edges share; a bend 3/2 from the
    # centre of the cell across its middle edge; a straight runs through the centre
    assert np.allclose(np.linalg.norm(link_path(1, 2) - vertex(1), axis=1), 0.5)
    assert np.allclose(np.linalg.norm(link_path(0, 2) - 2 * edge_midpoint(1), axis=1), 1.5)
    assert _to_polyline(np.zeros((1, 2)), link_path(0, 3))[0] < 1e-9
    # a bend passes the centre at 2 * apothem - 3/2 ≈ 0.23
    assert math.isclose(_to_polyline(np.zeros((1, 2)), link_path(0, 2))[0], math.sqrt(3) - 1.5, abs_tol=1e-3)


def test_tiles_48_and_54_share_four_edge_ends_but_not_the_middle():
    # edges B G G B Y Y against B G B G Y Y: at rotation 0 the two differ on edges 2, 3
    assert sum(a != b for a, b in zip(rotated_edges(48, 0), rotated_edges(54, 0))) == 2
    centre = np.zeros((1, 2))
    assert distance_to_links(48, 0, centre)["blue"][0] < 1e-9      # 48's blue is straight
    assert distance_to_links(54, 0, centre)["blue"][0] > 0.2       # 54's blue bends round


def test_distances_follow_the_tile_turned():
    pts = np.array([[0.0, -0.6], [0.5, 0.3], [-0.2, 0.1]])
    for n in (1, 17, 54):
        d0 = distance_to_links(n, 0, pts)
        # turning the tile one step clockwise turns the points with it (60° clockwise, y down)
        a = math.radians(60)
        turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
        d1 = distance_to_links(n, 1, pts @ turn.T)
        assert all(np.allclose(d0[c], d1[c]) for c in d0)


@pytest.mark.parametrize("number", [8, 26, 48, 54])
def test_the_generator_draws_each_link_along_its_centre_line(number):
    radius = 60
    img, alpha = draw_face(number, radius)
    edges = rotated_edges(number, 0)
    ink = {c: np.array(PALETTES["classic"][c], float) for c in ("red", "yellow", "green", "blue")}
    for colour in set(edges):
        e1, e2 = [e for e in range(6) if edges[e] == colour]
        path = link_path(e1, e2, 21)[3:-3]          # (ends: the bevel)
        d = distance_to_links(number, 0, path)
        alone = np.all([d[c] > 0.3 for c in d if c != colour], axis=0)   # not where links cross
        px = np.round(path[alone] * radius + radius + 2).astype(int)
        got = img[px[:, 1], px[:, 0]].astype(float)
        nearest = [min(ink, key=lambda c: np.linalg.norm(v - ink[c])) for v in got]
        assert nearest.count(colour) >= 0.9 * len(nearest), (number, colour, nearest)
