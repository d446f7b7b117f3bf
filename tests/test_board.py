import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.board import Board, board_from_json, load, loads
from referee.compare import best_alignment, canonical, same_position, turned
from referee.errors import BadInput
from referee.randomgame import random_position


def tile(q, r, n, k):
    return {"q": q, "r": r, "tile": n, "rotation": k}


def test_round_trip_keeps_reader_fields():
    data = {"image": {"width": 640, "height": 480},
            "tiles": [dict(tile(0, 0, 12, 3), confidence=0.9, pixel=[10.5, 20.0]), tile(1, 0, 40, 0)],
            "bag_empty": True, "loose": [{"tile": 5, "rotation": 1, "pixel": [1, 2], "confidence": 0.5}]}
    board = board_from_json(data)
    assert board.bag_empty and len(board) == 2
    out = board.to_json()
    assert out["tiles"][0] == data["tiles"][0]
    assert out["loose"] == data["loose"] and out["image"] == data["image"]
    assert loads(json.dumps(out)).to_json() == out


@pytest.mark.parametrize("text, words", [
    ("{", "malformed JSON"),
    ("[]", "object"),
    ('{"tile": []}', "'tiles'"),
    ('{"tiles": [{"q": 0, "r": 0, "tile": 57, "rotation": 0}]}', "57"),
    ('{"tiles": [{"q": 0, "r": 0, "tile": 0, "rotation": 0}]}', "not 1..56"),
    ('{"tiles": [{"q": 0, "r": 0, "tile": 3, "rotation": 6}]}', "rotation 6"),
    ('{"tiles": [{"q": 0, "r": 0, "tile": 3, "rotation": -1}]}', "rotation -1"),
    ('{"tiles": [{"q": 0, "r": 0, "tile": "3", "rotation": 0}]}', "integer"),
    ('{"tiles": [{"q": 0.5, "r": 0, "tile": 3, "rotation": 0}]}', "integer"),
    ('{"tiles": [{"q": 0, "r": 0, "tile": 3, "rotation": true}]}', "integer"),
    ('{"tiles": [{"q": 0, "r": 0, "tile": 3}]}', "lacks rotation"),
    ('{"tiles": [{"q": 0, "r": 0, "tile": 3, "rotation": 0}], "bag_empty": "yes"}', "bag_empty"),
    ('{"tiles": [{"q": 0, "r": 0, "tile": 3, "rotation": 0}, {"q": 1, "r": 0, "tile": 3, "rotation": 1}]}', "used twice"),
    ('{"tiles": [{"q": 0, "r": 0, "tile": 3, "rotation": 0}, {"q": 0, "r": 0, "tile": 4, "rotation": 1}]}', "two tiles on cell"),
    ('{"tiles": [{"q": 0, "r": 0, "tile": 3, "rotation": 0}], "loose": [{"tile": 3}]}', "used twice"),
    ('{"tiles": ["x"]}', "must be an object"),
])
def test_bad_board_json_gives_one_line_error(text, words):
    with pytest.raises(BadInput) as e:
        loads(text)
    assert words in str(e.value) and "\n" not in str(e.value)


def test_load_errors_name_the_file(tmp_path):
    with pytest.raises(BadInput, match="no such file"):
        load(tmp_path / "missing.json")
    (tmp_path / "bin.json").write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(BadInput, match="bin.json"):
        load(tmp_path / "bin.json")


def test_place_remove_move_and_groups():
    b = Board()
    b.place((0, 0), 1, 0)
    b.place((1, 0), 2, 0)
    b.place((5, 5), 3, 0)
    with pytest.raises(BadInput):
        b.place((0, 0), 4, 0)
    with pytest.raises(BadInput):
        b.place((2, 2), 1, 0)
    assert [len(g) for g in b.groups()] == [2, 1]
    assert b.main_group() == {(0, 0), (1, 0)}
    b.move((5, 5), (1, 1), rotation=4)
    assert b.tiles[(1, 1)].rotation == 4 and b.tile_neighbours((0, 1)) == 3
    assert b.remove((1, 1)).tile == 3
    with pytest.raises(BadInput):
        b.remove((1, 1))


@settings(max_examples=30, deadline=None)
@given(st.integers(1, 40), st.integers(0, 10_000), st.integers(0, 5), st.integers(-9, 9), st.integers(-9, 9))
def test_same_position_up_to_translation_and_rotation(n, seed, steps, dq, dr):
    board = random_position(n, seed)
    moved = Board({(q + dq, r + dr): p for (q, r), p in turned(board, steps).items()})
    assert same_position(board, moved)
    assert canonical(board) == canonical(moved)
    assert best_alignment(board, moved)[2] == n


def test_different_positions_are_not_the_same():
    a = Board.from_placements([((0, 0), 1, 0), ((1, 0), 2, 0)])
    b = Board.from_placements([((0, 0), 1, 0), ((1, 0), 2, 1)])  # one tile turned
    c = Board.from_placements([((0, 0), 1, 0), ((0, 1), 2, 0)])  # neighbour elsewhere
    assert not same_position(a, b) and not same_position(a, c)
    steps, offset, agree = best_alignment(a, b)
    assert agree == 1
