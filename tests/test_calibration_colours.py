"""Colour profiles learnt from real tile photos laid out under coloured light."""
from __future__ import annotations

import csv
import functools
import json

import cv2
import numpy as np
import pytest

from calibration import colours
from calibration.colours import CLASSES, REFERENCE_LAB, ColourModel
from calibration.synthetic import apply_cast, composite_tiles
from referee.errors import BadInput
from referee.hexgrid import ring
from tantrix.cli import main

CELLS = [(0, 0)] + ring((0, 0), 1) + ring((0, 0), 2) + ring((0, 0), 3) + ring((0, 0), 4)
TUNGSTEN = ((1.2, 1.0, 0.5), 0.6)   # warm and dim
SHADE = ((0.55, 0.8, 1.25), 1.3)    # blue daylight


def _scene(shared_dir, numbers, seed, cast):
    """A top-down table of real tile photos ``numbers`` under light ``cast``: image, board JSON, tiles."""
    img, board, tiles = _cached_scene(shared_dir, tuple(numbers), seed, cast)
    return img.copy(), json.loads(json.dumps(board)), list(tiles)


@functools.lru_cache(maxsize=16)
def _cached_scene(shared_dir, numbers, seed, cast):
    rng = np.random.default_rng(seed)
    layout = [(c, n, int(rng.integers(6))) for c, n in zip(CELLS, numbers)]
    img, board = composite_tiles(shared_dir / "real_tiles", layout, rng=rng, background=(120, 140, 150))
    img = apply_cast(img, *cast)
    img = np.clip(img + rng.normal(0, 2, img.shape), 0, 255).astype(np.uint8)
    tiles = [((t["q"], t["r"]), t["tile"], t["rotation"], tuple(t["pixel"])) for t in board["tiles"]]
    return img, board, tiles


def _edge_accuracy(model: ColourModel, img, tiles) -> float:
    """Share of tile edges whose median edge sample the model gives the right colour."""
    right, total = colours.edge_accuracy(model, img, tiles)
    assert total == 6 * len(tiles)
    return right / total


def test_reference_colours_match_the_real_tile_photos(shared_dir):
    """REFERENCE_LAB is what the 56 real tile photos show (flat-topped, labels.csv edges)."""
    names = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
    buckets = {c: [] for c in CLASSES}
    edge_off, body_off = colours._edge_sample_offsets(), colours._body_sample_offsets()
    with open(shared_dir / "real_tiles" / "labels.csv") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 56
    for row in rows:
        img = cv2.imread(str(shared_dir / "real_tiles" / f"tile_{int(row['tile']):02d}.png"))
        h, w = img.shape[:2]
        centre, radius = np.array([(w - 1) / 2, (h - 1) / 2]), w / 2
        lab = cv2.GaussianBlur(colours.to_lab(img), (0, 0), 1.0)
        for i, ch in enumerate(row["edge_colours_in_photo"]):
            p = np.round(centre + edge_off[i] * radius).astype(int)
            buckets[names[ch]].append(lab[p[:, 1], p[:, 0]])
        p = np.round(centre + body_off.reshape(-1, 2) * radius).astype(int)
        buckets["black"].append(lab[p[:, 1], p[:, 0]])
    model = colours.fit({c: np.concatenate(v) for c, v in buckets.items()})
    assert np.abs(model.means - REFERENCE_LAB).max() < 1.0
    assert all(model.counts > 500)


@pytest.mark.parametrize("cast", [TUNGSTEN, SHADE], ids=["tungsten", "shade"])
def test_profile_learnt_under_a_cast_reads_other_tiles_under_it(shared_dir, cast):
    img, _, tiles = _scene(shared_dir, range(1, 21), 3, cast)       # tiles 1-20: all colours
    model = colours.learn(img, tiles)
    assert model.learned == CLASSES
    test_img, _, test_tiles = _scene(shared_dir, range(21, 57), 2, cast)  # other tiles, same light
    assert _edge_accuracy(model, test_img, test_tiles) >= 0.99


def test_profile_of_the_right_light_beats_one_of_neutral_light(shared_dir):
    neutral_img, _, neutral_tiles = _scene(shared_dir, range(1, 21), 4, ((1, 1, 1), 1.0))
    neutral_model = colours.learn(neutral_img, neutral_tiles)
    cast_img, _, cast_tiles = _scene(shared_dir, range(1, 21), 3, TUNGSTEN)
    cast_model = colours.learn(cast_img, cast_tiles)
    test_img, _, test_tiles = _scene(shared_dir, range(21, 57), 2, TUNGSTEN)
    with_right = _edge_accuracy(cast_model, test_img, test_tiles)
    with_neutral = _edge_accuracy(neutral_model, test_img, test_tiles)
    assert with_right >= 0.99
    assert with_neutral < with_right


def test_missing_colour_is_predicted_from_the_cast(shared_dir):
    """Discovery tiles 1-10 have no green: green is predicted and still recognised."""
    img, _, tiles = _scene(shared_dir, range(1, 11), 1, SHADE)
    model = colours.learn(img, tiles)
    assert "green" not in model.learned and model.counts[CLASSES.index("green")] == 0
    test_img, _, test_tiles = _scene(shared_dir, range(15, 57), 2, SHADE)
    assert _edge_accuracy(model, test_img, test_tiles) >= 0.97


def test_real_photo_profile(shared_dir):
    from referee import board as boards

    for name in ("discovery10", "carpet13"):
        b = boards.load(shared_dir / "real_photos" / f"{name}.json")
        img = cv2.imread(str(shared_dir / "real_photos" / f"{name}.jpg"))
        tiles = colours.tiles_of_board(b)
        model = colours.learn(img, tiles)
        assert set(model.learned) == {"red", "yellow", "blue", "black"}
        # each learnt link colour has its hue: red a>0, yellow b>0, blue b<0; black is darkest
        red, yellow, blue, black = (model.means[CLASSES.index(c)] for c in ("red", "yellow", "blue", "black"))
        assert red[1] > 30 and yellow[2] > 40 and blue[2] < -30
        assert black[0] < min(red[0], yellow[0], blue[0])
        assert _edge_accuracy(model, img, tiles) >= 0.95


def test_probabilities_shapes_and_encodings(shared_dir):
    img, _, tiles = _scene(shared_dir, range(1, 21), 3, TUNGSTEN)
    model = colours.learn(img, tiles)
    p = model.probabilities(model.means)
    assert p.shape == (5, 5) and np.allclose(p.sum(axis=1), 1)
    assert np.array_equal(np.argmax(p, axis=1), np.arange(5))
    lab8 = model.means * [255 / 100, 1, 1]
    lp = model.log_probabilities(lab8.reshape(5, 1, 3), encoding="lab8")
    assert lp.shape == (5, 1, 5)
    assert np.array_equal(np.argmax(lp[:, 0], axis=1), np.arange(5))
    assert np.exp(lp).min() >= 0.02 / 5 * 0.99  # the outlier floor
    image_p = model.probability_image(img[:40, :50])
    assert image_p.shape == (40, 50, 5) and image_p.dtype == np.float32
    table_sample = colours.to_lab(img[:1, :1]).reshape(1, 3)  # the cloth in a corner
    assert model.mahalanobis2(table_sample).min() > colours.CHI2_3_99


def test_json_round_trip_keeps_probabilities(shared_dir):
    img, _, tiles = _scene(shared_dir, range(1, 11), 1, SHADE)
    model = colours.learn(img, tiles)
    again = ColourModel.from_json(json.loads(json.dumps(model.to_json())))
    x = np.random.default_rng(0).uniform([0, -60, -60], [100, 60, 60], (200, 3))
    assert np.abs(again.probabilities(x) - model.probabilities(x)).max() < 1e-3
    assert again.learned == model.learned
    assert np.allclose(again.neutral_ab, model.neutral_ab, atol=1e-3)
    # the grey is the darkest body's: close to neutral for tiles laid on a cloth under daylight-blue
    assert np.linalg.norm(model.neutral_ab - model.means[CLASSES.index("black"), 1:]) < 10


def test_too_few_tiles_is_bad_input(shared_dir):
    img, _, tiles = _scene(shared_dir, range(1, 4), 1, SHADE)
    with pytest.raises(BadInput, match="at least 3 tiles"):
        colours.learn(img, tiles[:2])


def test_cli_colours(tmp_path, shared_dir, capsys):
    img, board, _ = _scene(shared_dir, range(1, 21), 3, TUNGSTEN)
    photo, bj, out = tmp_path / "t.png", tmp_path / "t.json", tmp_path / "p.json"
    cv2.imwrite(str(photo), img)
    bj.write_text(json.dumps(board))
    assert main(["calibrate", "colours", str(photo), str(bj), "-o", str(out)]) == 0
    assert "colours from 20 tiles" in capsys.readouterr().out
    data = json.loads(out.read_text())
    assert set(data["colours"]["classes"]) == set(CLASSES)
    # adding a table section keeps the colours
    assert main(["calibrate", "table", str(photo), "--tiles", str(bj), "-o", str(out)]) == 0
    data = json.loads(out.read_text())
    assert "colours" in data and "table" in data
    # low-confidence reader output is left out
    for t in board["tiles"]:
        t["confidence"] = 0.3
    low = tmp_path / "low.json"
    low.write_text(json.dumps(board))
    bad_json = tmp_path / "bad.json"
    bad_json.write_text("{\"tiles\": [")
    for argv in (["calibrate", "colours", str(photo), str(low), "-o", str(tmp_path / "x.json")],
                 ["calibrate", "colours", str(photo), str(bad_json), "-o", str(tmp_path / "x.json")],
                 ["calibrate", "colours", str(photo), str(bj), "--min-confidence", "2"]):
        assert main(argv) == 2, argv
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "Traceback" not in err


def test_cli_colours_reads_the_photo_when_no_board_is_given(tmp_path, capsys):
    """Without BOARD.json the photo reader supplies the tiles (confident ones only)."""
    from referee.board import Board
    from scenegen import render

    rng = np.random.default_rng(7)
    board = Board.from_placements((c, n, int(rng.integers(6))) for c, n in zip(CELLS[:12], range(1, 13)))
    img, truth = render(board, None, seed=3)  # a clean, nearly top-down shot
    photo, out = tmp_path / "shot.png", tmp_path / "p.json"
    cv2.imwrite(str(photo), img)
    assert main(["calibrate", "colours", str(photo), "-o", str(out)]) == 0, capsys.readouterr().err
    said = capsys.readouterr().out
    assert "colours from" in said
    model = ColourModel.from_json(json.loads(out.read_text())["colours"])
    # the reader-read profile names the true edges as well as one learnt from the truth
    tiles = [((t["q"], t["r"]), t["tile"], t["rotation"], tuple(t["pixel"])) for t in truth["tiles"]]
    assert _edge_accuracy(model, img, tiles) >= 0.97


def test_profile_from_a_rendered_calibration_shot(shared_dir):
    """scenegen: learn under a warm lamp from tiles 1-20, then name the edges of another
    board shot under the same lamp; a profile learnt under neutral light does worse."""
    from referee.board import Board
    from scenegen import default_params, render

    def shot(numbers, seed, kelvin, wb):
        p = default_params()
        p["light"].update({"kelvin": kelvin, "white_balance": wb, "exposure": 0.8})
        p["tile_px"], p["tilt_deg"], p["width"], p["height"] = 90.0, 20.0, 960, 720
        rng = np.random.default_rng(seed)
        board = Board.from_placements((c, n, int(rng.integers(6))) for c, n in zip(CELLS, numbers))
        img, truth = render(board, p, seed)
        return img, [((t["q"], t["r"]), t["tile"], t["rotation"], tuple(t["pixel"])) for t in truth["tiles"]]

    warm = colours.learn(*shot(range(1, 21), 1, 2800, 0.0))
    neutral = colours.learn(*shot(range(1, 21), 1, 5500, 1.0))
    assert warm.learned == CLASSES
    test_img, test_tiles = shot(range(21, 45), 2, 2800, 0.0)
    right, total = colours.edge_accuracy(warm, test_img, test_tiles)
    right_n, _ = colours.edge_accuracy(neutral, test_img, test_tiles)
    assert total == 6 * 24
    assert right / total >= 0.97
    assert right_n < right
