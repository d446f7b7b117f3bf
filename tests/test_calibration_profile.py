"""The profile file: save/load of every section and clear errors on malformed files."""
from __future__ import annotations

import json

import cv2
import numpy as np
import pytest

from calibration import colours, profile, table
from calibration.camera import BoardSpec, CameraProfile
from calibration.profile import Profile
from referee import board as boards
from referee.errors import BadInput
from tantrix.cli import main


@pytest.fixture(scope="module")
def full(shared_dir) -> Profile:
    """A profile with all three sections, the table and colours from a real labelled photo."""
    real = shared_dir / "real_photos"
    b = boards.load(real / "carpet13.json")
    img = cv2.imread(str(real / "carpet13.jpg"))
    cam = CameraProfile(np.array([[500.0, 0, 236.5], [0, 500.0, 177], [0, 0, 1]]),
                        np.array([-0.05, 0.01, 0, 0, 0]), (474, 355), 0.21, BoardSpec(), 12, [0.2, 0.22])
    tiles = colours.tiles_of_board(b)
    tab = table.from_tiles([(c, p) for c, _, _, p in tiles], (474, 355), cam)
    return Profile(cam, tab, colours.learn(img, tiles))


def test_round_trip_keeps_every_section(tmp_path, full):
    path = tmp_path / "p.json"
    full.save(path)
    again = profile.load(path)
    assert np.allclose(again.camera.camera_matrix, full.camera.camera_matrix)
    assert np.allclose(again.camera.dist_coeffs, full.camera.dist_coeffs)
    assert again.camera.board == full.camera.board
    assert np.allclose(again.table.homography, full.table.homography, rtol=1e-9, atol=1e-9)
    assert again.table.rectified_size == full.table.rectified_size
    assert again.table.tilt_deg == pytest.approx(full.table.tilt_deg, abs=1e-3)
    x = np.random.default_rng(1).uniform([0, -50, -50], [100, 50, 50], (100, 3))
    assert np.abs(again.colours.probabilities(x) - full.colours.probabilities(x)).max() < 1e-3
    assert json.loads(path.read_text())["format"] == "tantrix-profile"


def test_sections_are_optional(tmp_path, full):
    only = Profile(colours=full.colours)
    path = tmp_path / "c.json"
    only.save(path)
    again = profile.load(path)
    assert again.camera is None and again.table is None and again.colours is not None


def _mutations(data: dict) -> list[tuple[str, object, str]]:
    """(description, mutated document, expected message fragment)."""
    def with_(path, value):
        d = json.loads(json.dumps(data))
        node = d
        for key in path[:-1]:
            node = node[key]
        if value is KeyError:
            del node[path[-1]]
        else:
            node[path[-1]] = value
        return d

    return [
        ("array", [1, 2], "must be a JSON object"),
        ("no sections", {"format": "tantrix-profile", "version": 1}, "none of the sections"),
        ("other format", with_(["format"], "something"), "format is 'something'"),
        ("future version", with_(["version"], 99), "unsupported version"),
        ("camera not object", with_(["camera"], 3), "camera must be a JSON object"),
        ("K 2x3", with_(["camera", "camera_matrix"], [[1, 0, 0], [0, 1, 0]]), "camera.camera_matrix must have shape 3x3"),
        ("K strings", with_(["camera", "camera_matrix"], [["a", 0, 0], [0, 1, 0], [0, 0, 1]]), "camera.camera_matrix must be a list of numbers"),
        ("K booleans", with_(["camera", "camera_matrix"], [[True, 0, 0], [0, 1, 0], [0, 0, 1]]), "list of numbers"),
        ("K negative f", with_(["camera", "camera_matrix"], [[-5, 0, 0], [0, 5, 0], [0, 0, 1]]), "not a camera matrix"),
        ("dist 3", with_(["camera", "dist_coeffs"], [0, 0, 0]), "dist_coeffs must have 4, 5"),
        ("size", with_(["camera", "image_size"], [640]), "image_size must be [width, height]"),
        ("size zero", with_(["camera", "image_size"], [640, 0]), "image_size[1] must be at least 1"),
        ("no K", with_(["camera", "camera_matrix"], KeyError), "camera.camera_matrix is missing"),
        ("H singular", with_(["table", "homography"], [[0, 0, 0], [0, 0, 0], [0, 0, 1]]), "singular"),
        ("pitch", with_(["table", "tile_pitch_px"], -2), "tile_pitch_px must be positive"),
        ("pitch NaN-ish", with_(["table", "tile_pitch_px"], "80"), "tile_pitch_px must be a finite number"),
        ("no class", with_(["colours", "classes", "green"], KeyError), "colours.classes.green is missing"),
        ("cov not PD", with_(["colours", "classes", "red", "cov"], [[1, 0, 0], [0, -1, 0], [0, 0, 1]]),
         "symmetric positive definite"),
        ("mean 2", with_(["colours", "classes", "blue", "mean"], [1, 2]), "mean must have shape 3"),
        ("gains", with_(["colours", "cast", "gains"], [1, 0, 1]), "gains must be positive"),
    ]


def test_malformed_profiles_give_one_line_errors(tmp_path, full):
    data = full.to_json()
    for what, doc, fragment in _mutations(data):
        path = tmp_path / "bad.json"
        path.write_text(json.dumps(doc))
        with pytest.raises(BadInput) as e:
            profile.load(path)
        msg = str(e.value)
        assert fragment in msg, (what, msg)
        assert "\n" not in msg and str(path) in msg


def test_unreadable_files(tmp_path):
    cases = {
        tmp_path / "missing.json": "no such file",
        tmp_path: "is a directory",
    }
    text = tmp_path / "t.json"
    text.write_text("{not json")
    cases[text] = "malformed JSON"
    binary = tmp_path / "b.json"
    binary.write_bytes(b"\x89PNG\r\n\x1a\n\xff\xfe")
    cases[binary] = "not a UTF-8 text file"
    for path, fragment in cases.items():
        with pytest.raises(BadInput, match=fragment.replace("(", r"\(").replace(")", r"\)")):
            profile.load(path)


def test_cli_show_and_refusing_to_overwrite_a_bad_file(tmp_path, full, capsys, shared_dir):
    good = tmp_path / "good.json"
    full.save(good)
    assert main(["calibrate", "show", str(good)]) == 0
    out = capsys.readouterr().out
    assert "camera:" in out and "table:" in out and "colours: learned red, yellow, blue, black" in out
    broken = tmp_path / "broken.json"
    broken.write_text("{\"camera\": ")
    before = broken.read_text()
    real = shared_dir / "real_photos"
    code = main(["calibrate", "colours", str(real / "carpet13.jpg"), str(real / "carpet13.json"), "-o", str(broken)])
    assert code == 2
    assert "malformed JSON" in capsys.readouterr().err
    assert broken.read_text() == before  # a malformed profile is never overwritten
    assert main(["calibrate", "show", str(broken)]) == 2


def test_profile_option_of_other_commands(tmp_path, full, capsys):
    """``--profile`` of ``tantrix analyze`` goes through calibration.profile (exit 2 if bad)."""
    from pathlib import Path

    board_json = str(Path(__file__).resolve().parent.parent / "sample_images" / "midgame_clean.json")
    good = tmp_path / "good.json"
    full.save(good)
    assert main(["analyze", "--profile", str(good), board_json]) == 0
    capsys.readouterr()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"colours": {"classes": {}}}))
    assert main(["analyze", "--profile", str(bad), board_json]) == 2
    err = capsys.readouterr().err
    assert "colours.classes.red is missing" in err and err.count("\n") == 1
