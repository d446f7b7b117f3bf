"""Puzzle checkers: solved boards from the solver, and wrong solutions of every kind."""
from __future__ import annotations

from pathlib import Path

import pytest

from referee.board import Board, Placement, load
from referee.compare import turned
from referee.errors import BadInput
from referee.hexgrid import neighbours, ring, rotate_cell
from referee.matching import facing_colours, fits
from referee.puzzle_defs import PUZZLES, TangleGoal
from referee.puzzles import _tangle_reasons, check_puzzle, puzzle_names
from referee.shapes import (congruent, enclosed_by, is_circle, is_triangle, pyramid_cells,
                            pyramid_rows, triangle_border)
from referee.solver import _LoopSearch, arrange, loop_links, merge_links, solve
from referee.tiles import rotated_edges

DATA = Path(__file__).parent / "data" / "puzzles"


def solved(name: str) -> Board:
    result = solve(name, time_limit=20)
    assert result.status == "solved", name
    return result.board


def moved(board: Board, steps: int, dq: int, dr: int) -> Board:
    return Board({(q + dq, r + dr): p for (q, r), p in turned(board, steps).items()})


def place_matching(board: Board, number: int) -> Board:
    """``board`` plus tile ``number`` on some frontier cell where it matches."""
    for cell in sorted({n for c in board.tiles for n in neighbours(c)} - set(board.tiles)):
        facing = facing_colours(board, cell)
        for k in range(6):
            if fits(rotated_edges(number, k), facing) is None:
                out = Board(dict(board.tiles))
                out.tiles[cell] = Placement(number, k)
                return out
    raise AssertionError(f"tile {number} fits nowhere")


def test_every_puzzle_named():
    names = puzzle_names()
    assert [f"discovery-{n}" for n in range(3, 31)] == names[:28]
    for extra in ("rainbow-green", "rainbow-yellow", "rainbow-white", "rainbow-blue", "rainbow-red",
                  "solitaire-quest", "tangle-two", "tangle-chain", "tangle-four", "tangle-necklace",
                  "tangle-padlock", "tangle-tricycle", "tangle-clownface", "tangle-alien",
                  "tangle-bean-party", "tangle-lockdown", "tangle-crop-circles"):
        assert extra in names
    assert len(names) == len(set(names)) == 45


def test_puzzle_tile_sets_follow_the_rules():
    assert PUZZLES["discovery-10"].tiles == tuple(range(1, 11))
    assert PUZZLES["discovery-10"].colour == "red"  # tile 10's back number is red
    assert PUZZLES["discovery-7"].colour == "blue"
    assert len(PUZZLES["rainbow-red"].tiles) == 15 and PUZZLES["rainbow-red"].rows == 5
    assert len(PUZZLES["rainbow-blue"].tiles) == 10 and PUZZLES["rainbow-blue"].rows == 4
    assert PUZZLES["rainbow-white"].colour == "blue"
    lockdown = set()
    for n in ("tangle-clownface", "tangle-alien", "tangle-bean-party", "tangle-lockdown"):
        lockdown |= set(PUZZLES[n].tiles)
    assert lockdown == set(range(1, 57))  # the lockdown shareset uses all 56 tiles


def test_unknown_puzzle_is_bad_input():
    with pytest.raises(BadInput):
        check_puzzle("discovery-31", Board())


@pytest.mark.parametrize("n", range(3, 13))
def test_solver_boards_solve_discovery(n):
    board = solved(f"discovery-{n}")
    verdict = check_puzzle(f"discovery-{n}", board)
    assert verdict == {"puzzle": f"discovery-{n}", "solved": True, "reasons": [],
                       "goal": verdict["goal"]}


def test_solution_accepted_turned_and_moved():
    board = load(DATA / "discovery-10.json")
    for steps in range(6):
        assert check_puzzle("discovery-10", moved(board, steps, 3, -2))["solved"]


def test_missing_tile():
    board = load(DATA / "discovery-10.json")
    cell = board.cell_of(7)
    board.remove(cell)
    v = check_puzzle("discovery-10", board)
    assert not v["solved"]
    assert "tile 7 missing" in v["reasons"]
    assert any("loop" in r and "of 10 tiles" in r for r in v["reasons"])


def test_extra_tile_not_of_the_puzzle():
    board = place_matching(load(DATA / "discovery-10.json"), 40)
    v = check_puzzle("discovery-10", board)
    assert not v["solved"]
    assert any(r.startswith("tile 40 at") and "not part" in r for r in v["reasons"])


def test_mismatch_names_the_edge():
    board = load(DATA / "discovery-10.json")
    cell = board.cell_of(3)
    p = board.tiles[cell]
    board.tiles[cell] = Placement(p.tile, (p.rotation + 1) % 6)
    v = check_puzzle("discovery-10", board)
    assert not v["solved"]
    edges = [r for r in v["reasons"] if r.startswith("edge ")]
    assert edges
    c = f"({cell[0]},{cell[1]})"
    assert any(c in r and "→" in r and "/" in r for r in edges)


def test_loop_not_through_all_tiles():
    # discovery-4 and discovery-5 are both red: a 4-tile red loop plus tile 5
    board = place_matching(solved("discovery-4"), 5)
    v = check_puzzle("discovery-5", board)
    assert not v["solved"]
    assert "red loop closes through 4 of 5 tiles" in v["reasons"]


def test_wrong_colour_loop():
    # tiles 1..7 in a red loop; discovery-7 asks for blue (tile 7's back)
    s = _LoopSearch([7, 6, 5, 4, 3, 2, 1], "red", {}, deadline=1e18)
    found = s.run()
    assert found is not None
    board = Board(found)
    v = check_puzzle("discovery-7", board)
    assert v["solved"] is False
    assert not any(r.startswith(("tile", "edge", "hole")) for r in v["reasons"])
    assert any("blue" in r for r in v["reasons"])


def test_hole_is_reported():
    br = ring((0, 0), 1)
    board = arrange(br, loop_links(br, "blue"), pool=list(range(1, 15)), time_limit=10)
    assert board is not None
    numbers = sorted(board.numbers())
    # check it against a loop puzzle of exactly those tiles: fake one with the same rules
    v = check_puzzle("discovery-6", board) if numbers == list(range(1, 7)) else None
    from referee.puzzles import common_reasons
    from referee.puzzle_defs import Puzzle
    reasons = common_reasons(Puzzle("ring", tuple(numbers), "loop", "blue"), board)
    assert reasons == ["hole at (0,0)"]
    if v is not None:
        assert "hole at (0,0)" in v["reasons"]


def test_separate_groups_reported():
    board = load(DATA / "discovery-10.json")
    far = Board(dict(board.tiles))
    cell = far.cell_of(10)
    p = far.remove(cell)
    far.tiles[(30, 30)] = p
    v = check_puzzle("discovery-10", far)
    assert any("separate groups" in r for r in v["reasons"])


def test_pyramid_any_orientation():
    board = load(DATA / "rainbow-blue.json")
    assert pyramid_rows(board.tiles) == 4
    for steps in range(6):
        assert check_puzzle("rainbow-blue", moved(board, steps, -1, 5))["solved"]


def test_not_a_pyramid():
    board = load(DATA / "rainbow-blue.json")
    rows = sorted(board.tiles)
    corner = rows[0]
    p = board.remove(corner)
    target = next(c for c in sorted({n for c in board.tiles for n in neighbours(c)})
                  if c not in board.tiles and c != corner)
    board.tiles[target] = p
    v = check_puzzle("rainbow-blue", board)
    assert not v["solved"]
    assert any("pyramid of 4 rows" in r for r in v["reasons"])


def test_rainbow_white_in_blue():
    board = load(DATA / "rainbow-white.json")
    assert check_puzzle("rainbow-white", board)["solved"]
    assert not check_puzzle("rainbow-green", board)["solved"]


def test_solitaire_quest():
    result = solve("solitaire-quest", time_limit=20)
    assert result.status == "solved"
    assert check_puzzle("solitaire-quest", result.board)["solved"]
    board = Board(dict(result.board.tiles))
    board.remove(sorted(board.tiles)[0])
    v = check_puzzle("solitaire-quest", board)
    assert not v["solved"] and any("missing" in r for r in v["reasons"])


# --- shape words --------------------------------------------------------------------------

def test_shape_words_in_every_orientation():
    circle = ring((2, -1), 1)
    tri = triangle_border(4)
    for k in range(6):
        assert is_circle([rotate_cell(c, k) for c in circle])
        b = Board({c: Placement(1, 0) for c in tri})
        tb = turned(b, k)
        assert is_triangle(tb.keys())
        assert not is_circle(tb.keys())
        assert pyramid_rows(turned(Board({c: Placement(1, 0) for c in pyramid_cells(5)}), k)) == 5
    assert len(tri) == 9 and is_triangle(triangle_border(3), 6)
    assert not is_triangle(ring((0, 0), 1))
    assert congruent(tri, [(-c[0], c[0] + c[1]) for c in tri])
    assert enclosed_by(ring((0, 0), 1), [(0, 0)])
    assert not enclosed_by(ring((0, 0), 1), [(5, 5)])


# --- tangle rules on built boards --------------------------------------------------------

def _loops(board):
    from referee.paths import all_colour_paths
    return sum(len(cp.loops) for cp in all_colour_paths(board).values())


def test_entangled_rings_pass_and_isolated_ring_fails():
    red = [(0, 0), (1, -1), (1, 0)]
    yellow = [(0, 0), (0, 1), (-1, 1)]
    board = arrange(red + yellow[1:], merge_links(loop_links(red, "red"), loop_links(yellow, "yellow")),
                    accept=lambda b: _loops(b) == 2)
    assert board is not None
    goal = TangleGoal(loops={"red": 1, "yellow": 1})
    assert _tangle_reasons(goal, board) == []
    # the same two colours, rings side by side sharing no tile: isolated
    yellow2 = [(2, 0), (3, -1), (3, 0)]
    apart = arrange(red + yellow2,
                    merge_links(loop_links(red, "red"), loop_links(yellow2, "yellow")),
                    accept=lambda b: _loops(b) == 2, time_limit=10)
    assert apart is not None
    reasons = _tangle_reasons(goal, apart)
    assert any("isolated" in r for r in reasons)


def test_tangle_counts_colours_and_shapes():
    br = ring((0, 0), 1)
    board = arrange(br, loop_links(br, "green"), accept=lambda b: _loops(b) == 1)
    assert board is not None
    assert _tangle_reasons(TangleGoal(loops={"green": 1}, shapes={"green": "circle"}), board) == []
    r = _tangle_reasons(TangleGoal(loops={"green": 1}, shapes={"green": "triangle"}), board)
    assert any("not a triangle" in x for x in r)
    r = _tangle_reasons(TangleGoal(loops={"green": 1, "red": 1}), board)
    assert "1 red loop wanted, 0 found" in r


def test_tangle_puzzle_wrong_tiles():
    board = load(DATA / "discovery-10.json")
    v = check_puzzle("tangle-two", board)
    assert not v["solved"]
    assert "tile 15 missing" in v["reasons"]


def test_tangle_two_solution_and_a_broken_one():
    board = load(DATA / "tangle-two.json")
    assert check_puzzle("tangle-two", board)["solved"]
    for steps in range(6):
        assert check_puzzle("tangle-two", moved(board, steps, 2, 2))["solved"]
    # turn one tile of the yellow loop: matching fails and a loop breaks
    cell = board.cell_of(45)
    p = board.tiles[cell]
    board.tiles[cell] = Placement(p.tile, (p.rotation + 3) % 6)
    v = check_puzzle("tangle-two", board)
    assert not v["solved"]
    assert any("yellow loop" in r for r in v["reasons"])
