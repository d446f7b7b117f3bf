"""Where links run on a tile's face (referee.link_geometry), and that the scene
generator draws them there."""
import math

import numpy as np
import pytest

from referee.link_geometry import (BEND_RADIUS, CORNER_RADIUS, edge_midpoint, link_path, link_shape,
                                    vertex)
from referee.tiles import partner_edge, rotated_edges
from scenegen.tileface import PALETTES, draw_face


def _links(number: int, rotation: int) -> dict[str, np.ndarray]:
    """Each link's centre line, finely sampled (an odd count: a straight's middle is a
    sample), by colour."""
    edges = rotated_edges(number, rotation)
    return {edges[e]: link_path(e, partner_edge(number, rotation, e), 2001)
            for e in range(6) if e < partner_edge(number, rotation, e)}


def _distance(points: np.ndarray, path: np.ndarray) -> np.ndarray:
    return np.linalg.norm(points[:, None, :] - path[None], axis=2).min(1)


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
    centre = np.zeros((1, 2))
    assert _distance(centre, link_path(0, 3, 2001))[0] < 1e-9
    # a bend passes the centre at 2 * apothem - 3/2 ≈ 0.23
    assert math.isclose(_distance(centre, link_path(0, 2, 2001))[0], math.sqrt(3) - 1.5, abs_tol=1e-3)


def test_tiles_48_and_54_share_four_edge_ends_but_not_the_middle():
    # edges B G G B Y Y against B G B G Y Y: at rotation 0 the two differ on edges 2, 3
    assert sum(a != b for a, b in zip(rotated_edges(48, 0), rotated_edges(54, 0))) == 2
    centre = np.zeros((1, 2))
    assert _distance(centre, _links(48, 0)["blue"])[0] < 1e-9      # 48's blue is straight
    assert _distance(centre, _links(54, 0)["blue"])[0] > 0.2       # 54's blue bends round


@pytest.mark.parametrize("number", [1, 17, 54])
def test_links_turn_with_the_tile(number):
    # turning a tile one step clockwise turns each link's centre line 60° clockwise (y down)
    a = math.radians(60)
    turn = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    before, after = _links(number, 0), _links(number, 1)
    assert before.keys() == after.keys()
    for colour, path in before.items():
        assert _distance(path @ turn.T, after[colour]).max() < 1e-3


@pytest.mark.parametrize("number", [8, 26, 48, 54])
def test_the_generator_draws_each_link_along_its_centre_line(number):
    radius = 60
    img, _alpha = draw_face(number, radius)
    ink = {c: np.array(PALETTES["classic"][c], float) for c in ("red", "yellow", "green", "blue")}
    links = _links(number, 0)
    for colour, path in links.items():
        path = path[::100][3:-3]                     # (ends: the bevel)
        alone = np.all([_distance(path, p) > 0.3 for c, p in links.items() if c != colour], axis=0)
        px = np.round(path[alone] * radius + radius + 2).astype(int)
        got = img[px[:, 1], px[:, 0]].astype(float)
        nearest = [min(ink, key=lambda c: np.linalg.norm(v - ink[c])) for v in got]
        assert nearest.count(colour) >= 0.9 * len(nearest), (number, colour, nearest)


def test_link_shape_orders_ends_the_short_way_round_and_names_the_arc():
    # a corner, a bend and a straight, each given in both orders
    assert link_shape(0, 1) == link_shape(1, 0) == (0, 1, CORNER_RADIUS)
    assert link_shape(5, 0) == link_shape(0, 5) == (5, 0, CORNER_RADIUS)
    assert link_shape(4, 0) == link_shape(0, 4) == (4, 0, BEND_RADIUS)
    assert link_shape(1, 4) == (1, 4, None) and link_shape(4, 1) == (4, 1, None)


def test_the_board_diagram_draws_links_with_the_tiles_geometry():
    # the SVG arcs start and end at the edge midpoints and use the same radii, scaled
    from webui import diagram

    for a, b in [(0, 1), (2, 0), (3, 5), (1, 4)]:
        path = diagram.link_path(0.0, 0.0, a, b)
        first, second, radius = link_shape(a, b)
        x1, y1 = diagram.SIZE * edge_midpoint(first)
        x2, y2 = diagram.SIZE * edge_midpoint(second)
        assert path.startswith(f"M{x1:.1f},{y1:.1f} ")
        assert path.endswith(f"{x2:.1f},{y2:.1f}")
        if radius is None:
            assert " L" in path
        else:
            r = diagram.SIZE * radius
            assert f"A{r:.1f},{r:.1f} " in path
