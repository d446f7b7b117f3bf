"""The referee's report: rulebook cases, and invariants on random boards."""
from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.analysis import analyze
from referee.board import Board
from referee.compare import turned
from referee.hexgrid import DIRECTIONS, distance, neighbours
from referee.randomgame import random_position
from referee.restraints import cascade, controlled_cells
from referee.tiles import COLOURS, TILES


def cells_of(report_list):
    return {tuple(c) for c in report_list}


def yellow_ring():
    # tiles 1, 2 and 3 around a common corner, turned so their yellow corners meet
    return Board.from_placements([((0, 0), 1, 3), ((1, 0), 2, 1), ((1, -1), 3, 1)])


# ---------------------------------------------------------------- rulebook cases
def test_ring_of_tiles_1_2_3_is_a_yellow_loop():
    report = analyze(yellow_ring())
    assert report["mismatches"] == []
    assert report["colours"]["yellow"]["longest_loop"] == 3
    assert report["colours"]["yellow"]["longest_line"] == 0
    assert report["colours"]["yellow"]["score"] == 6
    assert len(report["colours"]["yellow"]["loops"]) == 1


def test_single_tile_has_three_lines_of_one():
    report = analyze(Board.from_placements([((0, 0), 17, 2)]))
    carried = TILES[17].colours
    for c in COLOURS:
        expected = 1 if c in carried else 0
        assert report["colours"][c]["longest_line"] == expected
        assert report["colours"][c]["score"] == expected


def test_mismatch_is_reported_once_from_the_smaller_cell():
    board = Board.from_placements([((0, 0), 1, 0), ((1, 0), 2, 0)])
    # edge 2 (SE) of (0,0) touches edge 5 (NW) of (1,0)
    a, b = board.tiles[(0, 0)].edges[2], board.tiles[(1, 0)].edges[5]
    report = analyze(board)
    if a == b:
        assert report["mismatches"] == []
    else:
        assert report["mismatches"] == [{"cell": [0, 0], "neighbour": [1, 0], "edge": 2, "colours": [a, b]}]


def ring_board(centre=(0, 0), missing=()):
    """Tiles on the ring around ``centre``, minus the edges listed in ``missing``."""
    q, r = centre
    items, n = [], 1
    for e, (dq, dr) in enumerate(DIRECTIONS):
        if e not in missing:
            items.append(((q + dq, r + dr), n, 0))
            n += 1
    return Board.from_placements(items)


def test_forced_space_lists_the_colours_facing_it():
    board = ring_board(missing=(3, 4, 5))  # three neighbours: N, NE, SE
    report = analyze(board)
    [space] = [s for s in report["forced_spaces"] if s["cell"] == [0, 0]]
    assert space["neighbours"] == 3
    for e in range(6):
        tile = board.tiles.get(DIRECTIONS[e])
        expected = None if tile is None else tile.edges[(e + 3) % 6]
        assert space["colours"][e] == expected
    assert [0, 0] not in report["double_gobbles"]


def test_double_gobble_has_four_or_more_neighbours():
    report = analyze(ring_board(missing=(4, 5)))
    assert [0, 0] in report["double_gobbles"]
    assert any(v["rule"] == 2 and v["cells"] == [[0, 0]] for v in report["restraint_violations"])


def test_same_colour_forced_space():
    # three neighbours that all show red towards the centre
    items = []
    used = set()
    for e in (0, 2, 4):
        cell = DIRECTIONS[e]
        for n in TILES:
            if n in used:
                continue
            k = next((k for k in range(6) if TILES[n].edges_at(k)[(e + 3) % 6] == "red"), None)
            if k is not None:
                items.append((cell, n, k))
                used.add(n)
                break
    report = analyze(Board.from_placements(items))
    assert cells_of(report["same_colour_forced"]) == {(0, 0)}
    assert any(v["rule"] == 1 for v in report["restraint_violations"])
    endgame = Board.from_placements(items, bag_empty=True)
    report = analyze(endgame)
    assert report["restraint_violations"] == [] and report["controlled_cells"] == []
    assert cells_of(report["same_colour_forced"]) == {(0, 0)}


def test_controlled_side_as_in_the_rulebook():
    # A straight row along the SE direction, and a forced space A = (0, 1) at its west end.
    row = [(0, 0), (1, 0), (2, 0), (3, 0)]
    items = [(c, n, 0) for n, c in enumerate(row + [(-1, 1)], start=1)]
    board = Board.from_placements(items)
    report = analyze(board)
    assert cells_of(report["forced_spaces"] and [s["cell"] for s in report["forced_spaces"]]) == {(0, 1)}
    controlled = cells_of(report["controlled_cells"])
    # the cells along the side, next to the forced space, are controlled ...
    assert {(1, 1), (2, 1), (3, 1)} <= controlled
    # ... extending the row in its own direction is not, nor is the far side of the row
    assert (4, 0) not in controlled
    assert not controlled & {(0, -1), (1, -1), (2, -1), (3, -1), (4, -1)}
    # filling the forced spaces in order walks along the side: X, Y, Z only after A
    for n, cell in enumerate([(0, 1), (1, 1), (2, 1)], start=9):
        assert [s["cell"] for s in analyze(board)["forced_spaces"]] == [list(cell)]
        board.place(cell, n, 0)
    report = analyze(board)
    assert report["forced_spaces"] == [] and report["controlled_cells"] == []
    # and in the endgame nothing is controlled
    board.bag_empty = True
    assert analyze(board)["controlled_cells"] == []


def test_two_adjacent_forced_spaces_break_restraint_3():
    # (0,1) and (1,1) both forced, side by side
    cells = [(0, 0), (1, 0), (2, 0), (-1, 1), (2, 1)]
    board = Board.from_placements([(c, n, 0) for n, c in enumerate(cells, start=1)])
    report = analyze(board)
    assert cells_of(s["cell"] for s in report["forced_spaces"]) == {(0, 1), (1, 1)}
    assert {"rule": 3, "cells": [[0, 1], [1, 1]]}.items() <= next(
        v for v in report["restraint_violations"] if v["rule"] == 3).items()


def test_hole_of_one_cell():
    report = analyze(ring_board())
    assert report["holes"] == [[0, 0]]
    assert report["double_gobbles"] == [[0, 0]]


def test_hole_of_several_cells():
    # a ring around the two cells (0,0) and (1,0)
    inside = {(0, 0), (1, 0)}
    around = sorted({n for c in inside for n in neighbours(c)} - inside)
    board = Board.from_placements([(c, n, 0) for n, c in enumerate(around, start=1)])
    report = analyze(board)
    assert cells_of(report["holes"]) == inside
    # open the ring: no hole any more
    board.remove(around[0])
    assert analyze(board)["holes"] == []


def test_hole_of_three_cells_in_a_bigger_position():
    inside = {(0, 0), (1, 0), (0, 1)}
    around = sorted({n for c in inside for n in neighbours(c)} - inside)
    extra = [(5, -3), (5, -2)]
    board = Board.from_placements([(c, n, 0) for n, c in enumerate(around + extra, start=1)])
    assert cells_of(analyze(board)["holes"]) == inside


def test_lists_are_sorted():
    board = random_position(40, 3)
    board.bag_empty = False
    report = analyze(board)
    for key in ("double_gobbles", "same_colour_forced", "controlled_cells", "holes"):
        assert report[key] == sorted(report[key])
    assert [s["cell"] for s in report["forced_spaces"]] == sorted(s["cell"] for s in report["forced_spaces"])
    assert [(m["cell"], m["neighbour"]) for m in report["mismatches"]] == sorted(
        (m["cell"], m["neighbour"]) for m in report["mismatches"])


# ---------------------------------------------------------------- reference implementations
def naive_counts(occ):
    counts = {}
    for c in occ:
        for n in neighbours(c):
            if n not in occ:
                counts[n] = counts.get(n, 0) + 1
    return counts


def naive_cascade_conflicts(occ):
    """RULES.md's cascade, written as literally as possible."""
    occ = set(occ)
    while True:
        counts = naive_counts(occ)
        s = {c for c, k in counts.items() if k >= 3}
        if not s:
            return False
        if any(counts[c] >= 4 for c in s) or any(n in s for c in s for n in neighbours(c)):
            return True
        occ |= s


def naive_controlled(board):
    occ = set(board.tiles)
    assert not naive_cascade_conflicts(occ)
    return sorted(c for c, k in naive_counts(occ).items() if k <= 2 and naive_cascade_conflicts(occ | {c}))


def naive_holes(board):
    occ = set(board.tiles)
    far = max((distance(c, (0, 0)) for c in occ), default=0) + 2
    box = {(q, r) for q in range(-far, far + 1) for r in range(-far, far + 1) if distance((q, r), (0, 0)) <= far}
    start = next(c for c in box if distance(c, (0, 0)) == far)
    seen, stack = {start}, [start]
    while stack:
        for n in neighbours(stack.pop()):
            if n in box and n not in occ and n not in seen:
                seen.add(n)
                stack.append(n)
    return sorted(c for c in box if c not in occ and c not in seen)


def wild_board(seed, n):
    """Tiles dropped at random on a compact patch: mismatches, gobbles, holes, anything."""
    rng = random.Random(seed)
    patch = [(q, r) for q in range(-4, 5) for r in range(-4, 5) if abs(q + r) <= 4]
    cells = rng.sample(patch, n)
    numbers = rng.sample(range(1, 57), n)
    return Board.from_placements([(c, t, rng.randrange(6)) for c, t in zip(cells, numbers)])


def midgame(n, seed):
    """A legal position, judged as if the bag still had tiles (restraints in force)."""
    board = random_position(n, seed)
    board.bag_empty = False
    return board


boards = st.one_of(
    st.builds(midgame, st.integers(1, 56), st.integers(0, 10**6)),
    st.builds(wild_board, st.integers(0, 10**6), st.integers(1, 56)),
)


@settings(max_examples=60, deadline=None)
@given(boards)
def test_paths_cover_every_tile_once_per_colour(board):
    report = analyze(board)
    for colour in COLOURS:
        entry = report["colours"][colour]
        paths = entry["lines"] + entry["loops"]
        cells = [tuple(c) for p in paths for c in p]
        carrying = {c for c, p in board.tiles.items() if colour in p.edges}
        assert len(cells) == len(set(cells)) and set(cells) == carrying
        for p in entry["lines"]:
            assert all(distance(tuple(a), tuple(b)) == 1 for a, b in zip(p, p[1:]))
        for p in entry["loops"]:
            assert len(p) >= 3
            assert all(distance(tuple(a), tuple(b)) == 1 for a, b in zip(p, p[1:] + p[:1]))
        assert entry["longest_line"] == max((len(p) for p in entry["lines"]), default=0)
        assert entry["longest_loop"] == max((len(p) for p in entry["loops"]), default=0)
        assert entry["score"] == max(entry["longest_line"], 2 * entry["longest_loop"])


@settings(max_examples=60, deadline=None)
@given(boards)
def test_gobbles_mismatches_and_holes_agree_with_brute_force(board):
    report = analyze(board)
    counts = naive_counts(set(board.tiles))
    assert cells_of(s["cell"] for s in report["forced_spaces"]) == {c for c, k in counts.items() if k >= 3}
    assert cells_of(report["double_gobbles"]) == {c for c, k in counts.items() if k >= 4}
    for s in report["forced_spaces"]:
        shown = [c for c in s["colours"] if c]
        same = any(shown.count(c) >= 3 for c in COLOURS)
        assert (s["cell"] in report["same_colour_forced"]) == same
    pairs = set()
    for (q, r), p in board.tiles.items():
        for e, (dq, dr) in enumerate(DIRECTIONS):
            o = board.tiles.get((q + dq, r + dr))
            if o is not None and o.edges[(e + 3) % 6] != p.edges[e]:
                pairs.add(tuple(sorted([(q, r), (q + dq, r + dr)])))
    assert {(tuple(m["cell"]), tuple(m["neighbour"])) for m in report["mismatches"]} == pairs
    assert report["holes"] == [list(c) for c in naive_holes(board)]


@settings(max_examples=80, deadline=None)
@given(boards)
def test_controlled_cells_follow_the_literal_cascade(board):
    if naive_cascade_conflicts(set(board.tiles)):
        # a board that already breaks a restraint: controlled cells are new conflicts only
        assert cascade(board.tiles)
        for c in controlled_cells(board):
            assert board.tile_neighbours(c) in (1, 2)
        return
    assert [tuple(c) for c in analyze(board)["controlled_cells"]] == naive_controlled(board)


@settings(max_examples=40, deadline=None)
@given(boards, st.integers(0, 5), st.integers(-5, 5), st.integers(-5, 5))
def test_report_does_not_depend_on_the_frame(board, steps, dq, dr):
    moved = Board({(q + dq, r + dr): p for (q, r), p in turned(board, steps).items()})
    a, b = analyze(board), analyze(moved)
    for key in ("mismatches", "forced_spaces", "double_gobbles", "same_colour_forced",
                "controlled_cells", "holes", "restraint_violations"):
        assert len(a[key]) == len(b[key]), key
    for colour in COLOURS:
        for key in ("longest_line", "longest_loop", "score"):
            assert a["colours"][colour][key] == b["colours"][colour][key]


@pytest.mark.parametrize("seed", range(5))
def test_legal_random_positions_break_no_restraint_and_match(seed):
    board = random_position(30, seed)
    report = analyze(board)
    assert report["mismatches"] == []
    assert report["restraint_violations"] == []


@pytest.mark.parametrize("seed", range(8))
def test_touching_edges_agree_with_the_mismatch_list(seed):
    # random tiles at random turns on a patch of cells (clashes everywhere) and a legal
    # position: every touching edge of a cell matches or is one of the board's mismatches
    from referee.matching import mismatches, touching_edges
    rng = random.Random(seed)
    cells = [(q, r) for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]
    numbers = rng.sample(range(1, 57), len(cells))
    for board in (Board.from_placements([(c, n, rng.randrange(6)) for c, n in zip(cells, numbers)]),
                  random_position(20, seed)):
        clashes = {}
        for m in mismatches(board):
            for c in (m.cell, m.neighbour):
                clashes[c] = clashes.get(c, 0) + 1
        for cell in board.tiles:
            touching, matching = touching_edges(board, cell)
            assert touching == sum(n in board.tiles for n in neighbours(cell))
            assert touching - matching == clashes.get(cell, 0)
