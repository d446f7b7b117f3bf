"""Tantrix Loops pattern scores: published patterns rebuilt from real tiles."""
from __future__ import annotations

from collections import Counter

import pytest

from referee.board import Board, Placement
from referee.hexgrid import edge_between, neighbours, ring
from referee.loops_scoring import score_pattern
from referee.paths import all_colour_paths
from referee.shapes import triangle_border
from referee.solver import arrange, loop_links, merge_links
from referee.tiles import SHAPE_BY_GAP


def n_loops(board: Board) -> int:
    return sum(len(cp.loops) for cp in all_colour_paths(board).values())


def cycle_shapes(cycle) -> Counter:
    out = Counter()
    for i, c in enumerate(cycle):
        a = edge_between(c, cycle[i - 1])
        b = edge_between(c, cycle[(i + 1) % len(cycle)])
        gap = abs(a - b)
        out[SHAPE_BY_GAP[min(gap, 6 - gap)]] += 1
    return out


def find_cycle(length: int, shapes: dict[str, int]):
    """A simple cycle of cells through (0, 0) whose links have these shapes."""
    want = Counter(shapes)

    def extend(path):
        if len(path) == length:
            if path[0] in neighbours(path[-1]) and cycle_shapes(path) == want:
                return list(path)
            return None
        for n in neighbours(path[-1]):
            if n not in path:
                found = extend(path + [n])
                if found:
                    return found
        return None

    return extend([(0, 0)])


def build(cells, links, loops):
    board = arrange(cells, links, accept=lambda b: n_loops(b) == loops, time_limit=10)
    assert board is not None, "no real tiles make this pattern"
    return board


def single_loop(length, shapes, colour="red"):
    cyc = find_cycle(length, shapes)
    assert cyc is not None
    return build(cyc, loop_links(cyc, colour), 1)


@pytest.mark.parametrize("name,length,shapes,score", [
    ("Pinkie Ring", 3, {"corner": 3}, 4),
    ("Egg", 4, {"bend": 2, "corner": 2}, 7),
    ("D", 5, {"straight": 1, "bend": 2, "corner": 2}, 10),
    ("Bracelet", 6, {"bend": 6}, 13),
    ("Delta", 6, {"straight": 3, "corner": 3}, 13),
])
def test_single_loop_patterns(name, length, shapes, score):
    board = single_loop(length, shapes)
    result = score_pattern(board)
    assert result["valid"], result["reasons"]
    assert result["score"] == score, name
    assert len(result["loops"]) == 1


def test_delta_is_the_triangle():
    cyc = [(0, 0), (1, 0), (2, 0), (1, 1), (0, 2), (0, 1)]
    assert set(cyc) == triangle_border(3)
    board = build(cyc, loop_links(cyc, "yellow"), 1)
    assert score_pattern(board)["score"] == 13


def test_two_pinkie_rings_sharing_a_tile():
    a = [(0, 0), (0, -1), (1, -1)]
    b = [(0, 0), (0, 1), (-1, 1)]
    board = build(a + b[1:], merge_links(loop_links(a, "red"), loop_links(b, "blue")), 2)
    result = score_pattern(board)
    assert result["valid"] and result["score"] == 8


def test_egg_and_ring():
    egg = [(1, -1), (0, 0), (0, 1), (1, 0)]
    pinkie = [(0, 0), (-1, 0), (-1, 1)]
    board = build(egg + pinkie[1:], merge_links(loop_links(egg, "blue"), loop_links(pinkie, "yellow")), 2)
    result = score_pattern(board)
    assert result["valid"] and result["score"] == 11


def test_trinity_three_rings_round_a_centre():
    rings = [[(0, 0)] + [neighbours((0, 0))[e] for e in (2 * i, 2 * i + 1)] for i in range(3)]
    links = merge_links(*(loop_links(r, c) for r, c in zip(rings, ("blue", "yellow", "red"))))
    cells = [(0, 0)] + neighbours((0, 0))
    board = build(cells, links, 3)
    result = score_pattern(board)
    assert result["snowflake"] and not result["mandala"]
    assert result["valid"] and result["score"] == 19


def test_mandala_bracelet_with_centre():
    br = ring((0, 0), 1)
    board = build(br + [(0, 0)], loop_links(br, "green"), 1)
    result = score_pattern(board)
    assert result["snowflake"] and result["mandala"]
    assert result["valid"] and result["score"] == 22


def test_bracelet_may_enclose_a_hole():
    br = ring((0, 0), 1)
    board = build(br, loop_links(br, "red"), 1)
    result = score_pattern(board)
    assert result["valid"] and not result["snowflake"]


def test_tile_off_every_loop_is_invalid_and_scores_nothing_for_it():
    pinkie = [(0, 0), (1, -1), (1, 0)]
    board = build(pinkie, loop_links(pinkie, "red"), 1)
    # add a tile that matches but lies on no loop
    used = board.numbers()
    for cell in [(2, -1), (0, 1), (-1, 0)]:
        for t in range(1, 57):
            if t in used:
                continue
            for k in range(6):
                trial = Board(dict(board.tiles))
                trial.tiles[cell] = Placement(t, k)
                r = score_pattern(trial)
                if not any("edge" in x for x in r["reasons"]) and len(r["loops"]) == 1:
                    assert not r["valid"]
                    assert any("on no loop" in x for x in r["reasons"])
                    assert r["score"] == 4
                    return
    pytest.fail("no matching extra tile found")


def test_too_few_tiles_and_mismatch_reported():
    board = Board.from_placements([((0, 0), 1, 0), ((1, 0), 2, 0)])
    r = score_pattern(board)
    assert not r["valid"]
    assert any("3 to 7" in x for x in r["reasons"])
