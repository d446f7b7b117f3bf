"""`tantrix read PHOTO [--overlay OUT.png]` end to end, through the real CLI entry point."""
import json

import cv2
import numpy as np
import pytest

from referee.board import Board, board_from_json
from referee.compare import same_position
from referee.randomgame import random_position
from tantrix.cli import main

scenegen = pytest.importorskip("scenegen")


def test_read_prints_board_json_and_overlay(tmp_path, capsys):
    board = random_position(10, seed=21)
    photo = tmp_path / "table.jpg"
    truth = scenegen.render_to_file(board, photo, None, seed=2)
    out_png = tmp_path / "overlay.png"
    code = main(["read", str(photo), "--overlay", str(out_png)])
    captured = capsys.readouterr()
    assert code == 0
    data = json.loads(captured.out)
    assert data["image"] == truth["image"]
    assert all({"q", "r", "tile", "rotation", "confidence", "pixel"} <= t.keys() for t in data["tiles"])
    expected = board_from_json({"tiles": [{k: t[k] for k in ("q", "r", "tile", "rotation")}
                                          for t in truth["tiles"]]})
    assert same_position(expected, board_from_json(data))
    overlay = cv2.imread(str(out_png))
    assert overlay is not None and overlay.shape[:2] == (truth["image"]["height"], truth["image"]["width"])


def test_read_empty_table(tmp_path, capsys):
    photo = tmp_path / "empty.jpg"
    scenegen.render_to_file(Board(), photo, None, seed=3)
    code = main(["read", str(photo)])
    captured = capsys.readouterr()
    assert code == 0
    assert json.loads(captured.out)["tiles"] == []
    assert "no tiles" in captured.err


def test_read_scattered_tiles_gives_them_loose_and_says_so(bench_scene, capsys):
    # real-texture-31: two tiles far apart on a dark cloth, no board.  A crop's look laid
    # cells half the tiles' size over one of them and read it as a lone board tile (a
    # wrong number, 0.9997); the bright look read both tiles loose and right, and a read
    # of loose tiles only is weighed by them, not by its lattice's score
    path, truth, _expected = bench_scene("real-texture", 31)
    assert truth["tiles"] == [] and len(truth["loose"]) == 2
    code = main(["read", str(path)])
    captured = capsys.readouterr()
    assert code == 0
    data = json.loads(captured.out)
    assert data["tiles"] == []
    assert sorted(it["tile"] for it in data["loose"]) == sorted(t["tile"] for t in truth["loose"])
    assert "no board found; 2 loose tile(s) on the table" in captured.err


@pytest.mark.parametrize("content", [b"", b"not an image at all", b"\xff\xd8\xff\xe0" + b"\x00" * 100])
def test_read_bad_input_exit_2(tmp_path, capsys, content):
    photo = tmp_path / "bad.jpg"
    photo.write_bytes(content)
    code = main(["read", str(photo)])
    captured = capsys.readouterr()
    assert code == 2
    assert captured.out == ""
    assert len(captured.err.strip().splitlines()) == 1
    assert "Traceback" not in captured.err


def test_read_missing_file(tmp_path, capsys):
    assert main(["read", str(tmp_path / "nope.png")]) == 2
    assert "no such file" in capsys.readouterr().err


def test_read_truncated_png(tmp_path, capsys):
    ok, buf = cv2.imencode(".png", np.full((40, 40, 3), 90, np.uint8))
    photo = tmp_path / "cut.png"
    photo.write_bytes(buf.tobytes()[:-30])
    assert main(["read", str(photo)]) == 2
    assert "truncated" in capsys.readouterr().err


def test_corrupt_jpeg_gives_one_line(tmp_path, capfd):
    # a complete JPEG whose data is damaged: libjpeg's own warnings must stay off stderr
    rng = np.random.default_rng(0)
    ok, buf = cv2.imencode(".jpg", (rng.random((200, 200, 3)) * 255).astype(np.uint8))
    data = bytearray(buf.tobytes())
    data[600:2000] = b"\x00" * 1400
    photo = tmp_path / "damaged.jpg"
    photo.write_bytes(bytes(data))
    code = main(["read", str(photo)])
    err = capfd.readouterr().err
    assert code in (0, 2)
    if code == 2:
        assert len(err.strip().splitlines()) == 1
    assert "Corrupt JPEG" not in err
