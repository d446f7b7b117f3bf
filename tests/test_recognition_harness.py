"""The recognition benchmark: perfect readers score 100 %, faulty ones visibly less."""
from __future__ import annotations

import copy
import json

import cv2
import pytest

from bench import datasets, recognition
from referee.board import board_from_json
from referee.compare import turned
from referee.hexgrid import neighbours
from vision.acceptance import CHECK_CONFIDENCE


@pytest.fixture(scope="module")
def tier(easy_tier):
    """The first three images of the easy tier, in a private cache (conftest's ``easy_tier``)."""
    return easy_tier


def test_tier_is_cached_and_deterministic(tier):
    root, paths = tier
    assert [p.name for p in paths] == ["0000.jpg", "0001.jpg", "0002.jpg"]
    for p in paths:
        truth = json.loads(p.with_suffix(".json").read_text())
        board_from_json(truth)  # ground truth is valid CONTRACT board JSON
        assert truth["render"]["tier"] == "easy"
    manifest = json.loads((root / "easy" / "manifest.json").read_text())
    assert set(manifest["items"]) == {"0000", "0001", "0002"}
    before = [p.stat().st_mtime_ns for p in paths]
    again = datasets.ensure_tier("easy", 2, progress=False)  # a smaller run reuses the cache
    assert [p.stat().st_mtime_ns for p in again] == before[:2]
    board, params, seed, kind = datasets.scene_spec("easy", 1)
    board2, params2, seed2, _ = datasets.scene_spec("easy", 1)
    assert params == params2 and seed == seed2 and board.tiles == board2.tiles


def test_a_tier_rendered_by_another_opencv_is_rendered_again(tmp_path, monkeypatch):
    monkeypatch.setenv("TANTRIX_DATA", str(tmp_path))
    path, = datasets.ensure_tier("easy", 1, progress=False)
    made = path.stat().st_mtime_ns
    assert datasets.ensure_tier("easy", 1, progress=False) == [path]
    assert path.stat().st_mtime_ns == made                       # the same OpenCV: reused
    man = tmp_path / "easy" / "manifest.json"
    manifest = json.loads(man.read_text())
    assert manifest["opencv"] == cv2.__version__
    man.write_text(json.dumps({**manifest, "opencv": "4.0.0"}))
    datasets.ensure_tier("easy", 1, progress=False)
    assert path.stat().st_mtime_ns > made                        # another: rendered again
    assert json.loads(man.read_text())["opencv"] == cv2.__version__


def test_oracle_scores_100_percent(tier, tmp_path):
    report = recognition.run("easy", "oracle", 3, progress=False)
    s = report["summary"]
    assert s["images"] == 3 and s["reader_errors"] == 0
    for key in ("detection_precision", "detection_recall", "identity_accuracy",
                "position_accuracy", "perfect_board_rate"):
        assert s[key] in (1.0, None), key
    path = recognition.write(report, tmp_path)
    assert json.loads(path.read_text())["summary"] == s
    md = path.with_suffix(".md").read_text()
    assert "tile identity accuracy" in md and "| tilt |" in md


def test_start_reads_later_images_only(tier):
    report = recognition.run("easy", "oracle", 2, progress=False, start=1)
    assert [r["image"] for r in report["images"]] == ["0001.jpg", "0002.jpg"]
    assert report["start"] == 1 and report["summary"]["images"] == 2
    assert "| images (tiles) | 2 (" in recognition.markdown(report)
    assert "from image 1 |" in recognition.markdown(report)
    assert "from image" not in recognition.markdown(recognition.run("easy", "oracle", 1, progress=False))


def test_bad_start_or_count_exits_2(capsys):
    assert recognition.main(["--start", "-1"]) == 2
    assert recognition.main(["--count", "0"]) == 2
    assert "--start must be 0 or more" in capsys.readouterr().err


def _truth(tier):
    _, paths = tier
    for p in paths:
        t = json.loads(p.with_suffix(".json").read_text())
        if len(t["tiles"]) >= 3:
            return t
    pytest.skip("no board of 3+ tiles among the first images")


def test_alignment_forgives_translation_and_turns(tier):
    truth = _truth(tier)
    b = board_from_json({"tiles": truth["tiles"]})
    moved = [{"q": c[0] + 3, "r": c[1] - 2, "tile": p.tile, "rotation": p.rotation}
             for c, p in turned(b, 2).items()]
    s = recognition.score_image(truth, {"tiles": moved})
    assert s["agree"] == len(b) and s["perfect"] and s["cells_inter"] == len(b)


def test_mistakes_move_the_figures(tier):
    truth = _truth(tier)
    n = len(truth["tiles"])
    # one tile turned: identity drops, positions and detections do not
    read = copy.deepcopy({"tiles": truth["tiles"]})
    read["tiles"][0]["rotation"] = (read["tiles"][0]["rotation"] + 1) % 6
    s = recognition.score_image(truth, read)
    assert s["agree"] == n - 1 and not s["perfect"] and s["cells_inter"] == s["cells_union"] == n
    assert s["tp"] == n
    # one tile missed: recall and position drop
    read = {"tiles": copy.deepcopy(truth["tiles"][1:])}
    s = recognition.score_image(truth, read)
    wanted = n + len(truth["loose"])  # loose face-up tiles are tiles to detect as well
    assert s["tp"] == n - 1 and s["wanted"] == wanted
    assert s["cells_union"] == n and s["cells_inter"] == n - 1
    # an invented tile far from every true tile: precision drops
    extra = {"q": 40, "r": 40, "tile": 56, "rotation": 0, "pixel": [1.0, 1.0]}
    used = {t["tile"] for t in truth["tiles"]}
    extra["tile"] = next(k for k in range(56, 0, -1) if k not in used)
    s = recognition.score_image(truth, {"tiles": copy.deepcopy(truth["tiles"]) + [extra]})
    assert s["detections"] == n + 1 and s["tp"] == n and not s["perfect"]
    # a reader that failed scores nothing
    s = recognition.score_image(truth, None)
    assert s["agree"] == 0 and s["tp"] == 0


def test_loose_tiles_are_scored_by_number(tier):
    truth = copy.deepcopy(_truth(tier))
    if len(truth["loose"]) < 2:  # two board tiles taken off the board as loose ones
        truth["loose"] += [truth["tiles"].pop() for _ in range(2)]
    n = len(truth["loose"])
    read = {"tiles": copy.deepcopy(truth["tiles"]), "loose": copy.deepcopy(truth["loose"])}
    for t in read["loose"]:  # a loose tile's turn is not scored
        t["rotation"] = (t["rotation"] + 2) % 6
    s = recognition.score_image(truth, read)
    assert s["loose_tiles"] == s["loose_right"] == n
    # one named wrong: still detected, no longer right; one dropped: neither
    used = {t["tile"] for t in truth["tiles"] + truth["loose"]}
    read["loose"][0]["tile"] = next(k for k in range(1, 57) if k not in used)
    s = recognition.score_image(truth, read)
    assert s["loose_right"] == n - 1 and s["tp"] == len(truth["tiles"]) + n
    assert s["loose_missed"] == 0
    s = recognition.score_image(truth, {"tiles": truth["tiles"], "loose": read["loose"][1:]})
    assert s["loose_right"] == n - 1 and s["tp"] == len(truth["tiles"]) + n - 1
    assert s["loose_missed"] == 1
    assert recognition.summarise([s])["loose_right"] == round((n - 1) / n, 4)
    # recall's misses, split: the loose tile dropped, then a board tile dropped as well
    assert recognition.summarise([s])["recall_misses"] == {"board": 0, "loose": 1}
    s = recognition.score_image(truth, {"tiles": truth["tiles"][1:], "loose": read["loose"][1:]})
    assert recognition.summarise([s])["recall_misses"] == {"board": 1, "loose": 1}


def test_covered_tiles_are_counted_apart(tier):
    # a hand over two tiles: one left out of the read (reported unreadable), one guessed
    truth = copy.deepcopy(_truth(tier))
    first, second = truth["tiles"][0], truth["tiles"][1]
    truth["occluded"] = [{"q": t["q"], "r": t["r"], "tile": t["tile"], "fraction": 0.4}
                         for t in (first, second)]
    read = copy.deepcopy({"tiles": truth["tiles"][1:]})
    read["tiles"][0]["rotation"] = (read["tiles"][0]["rotation"] + 1) % 6
    s = recognition.score_image(truth, read)
    assert (s["covered"], s["covered_right"], s["covered_wrong"]) == (2, 0, 1)
    n = len(truth["tiles"])
    summary = recognition.summarise([dict(s, seconds=0.1)])
    assert summary["identity_accuracy"] == round((n - 2) / n, 4)
    assert summary["identity_uncovered"] == 1.0
    assert summary["covered_wrong"] == 1


def test_a_board_perfect_but_for_a_covered_tile_reported_unreadable(tier):
    truth = copy.deepcopy(_truth(tier))
    first = truth["tiles"][0]
    truth["occluded"] = [{"q": first["q"], "r": first["r"], "tile": first["tile"], "fraction": 0.5}]
    # the read turned by two steps and shifted: the unreadable cell must be aligned as its
    # tiles are
    board = board_from_json({"tiles": truth["tiles"][1:]})
    moved = {(q + 3, r - 1): p for (q, r), p in turned(board, 2).items()}
    read = {"tiles": [{"q": q, "r": r, "tile": p.tile, "rotation": p.rotation}
                      for (q, r), p in moved.items()]}
    q, r = turned(board_from_json({"tiles": [first]}), 2).popitem()[0]
    read["unreadable"] = [{"q": q + 3, "r": r - 1}]
    s = recognition.score_image(truth, read)
    assert not s["perfect"] and s["perfect_uncovered"]
    assert (s["covered"], s["covered_unreadable"], s["covered_wrong"]) == (1, 1, 0)
    # without the unreadable cell the board is still perfect but for the covered tile
    s2 = recognition.score_image(truth, {"tiles": read["tiles"]})
    assert s2["perfect_uncovered"] and s2["covered_unreadable"] == 0
    # a covered tile guessed wrong, or an uncovered tile missed, spoils it
    guessed = copy.deepcopy(read)
    guessed["tiles"].append({"q": q + 3, "r": r - 1, "tile": first["tile"],
                             "rotation": (first["rotation"] + 3) % 6})
    assert not recognition.score_image(truth, guessed)["perfect_uncovered"]
    missed = {"tiles": read["tiles"][1:]}
    assert not recognition.score_image(truth, missed)["perfect_uncovered"]
    summary = recognition.summarise([dict(s, seconds=0.1), dict(recognition.score_image(truth, missed), seconds=0.1)])
    assert (summary["perfect_board_rate"], summary["perfect_uncovered_rate"]) == (0.0, 0.5)
    assert summary["covered_unreadable"] == 1


def test_misses_say_what_became_of_each_tile_not_read_right(tier):
    _, paths = tier
    truth = next(t for t in (json.loads(p.with_suffix(".json").read_text()) for p in paths)
                 if len(t["tiles"]) >= 6)
    truth = copy.deepcopy(truth)
    a, b, c, d = truth["tiles"][:4]
    truth["occluded"] = [{"q": d["q"], "r": d["r"], "tile": d["tile"], "fraction": 0.4}]
    read = {"tiles": copy.deepcopy(truth["tiles"][4:]) + [dict(a, rotation=(a["rotation"] + 1) % 6)],
            "unreadable": [{"q": b["q"], "r": b["r"], "pixel": b["pixel"]}],
            "loose": [{"tile": c["tile"], "rotation": 0, "pixel": [c["pixel"][0] + 2, c["pixel"][1]]}]}
    s = recognition.score_image(truth, read)
    got = {m["tile"]: (m["outcome"], m.get("read"), m["covered"]) for m in s["misses"]}
    assert got == {a["tile"]: ("wrong", [a["tile"], (a["rotation"] + 1) % 6], 0.0),
                   b["tile"]: ("unreadable", None, 0.0),
                   c["tile"]: ("loose", [c["tile"]], 0.0),
                   d["tile"]: ("missing", None, 0.4)}
    summary = recognition.summarise([dict(s, seconds=0.1)])
    assert summary["uncovered_misses"] == {"wrong": 1, "unreadable": 1, "loose": 1, "missing": 0}
    text = recognition.misses_text({"images": [dict(s, image="x.jpg", conditions={})]})
    assert text.count(";") == 3 and "(covered 40%)" in text
    # a perfect read misses nothing
    assert recognition.score_image(truth, {"tiles": truth["tiles"]})["misses"] == []


def test_unreadable_cells_on_no_tile_are_counted(tier):
    # the first tile reported unreadable (rightly), plus a cell on the bare table
    truth = _truth(tier)
    first = truth["tiles"][0]
    read = copy.deepcopy({"tiles": truth["tiles"][1:]})
    read["unreadable"] = [{"q": first["q"], "r": first["r"], "pixel": first["pixel"]},
                          {"q": 40, "r": 40, "pixel": [-500.0, -500.0]}]
    s = recognition.score_image(truth, read)
    assert (s["unreadable"], s["unreadable_empty"]) == (2, 1)
    summary = recognition.summarise([dict(s, seconds=0.1)])
    assert (summary["unreadable_cells"], summary["unreadable_empty"]) == (2, 1)


def test_degraded_oracle_scores_below_100_percent(tier, monkeypatch):
    _, paths = tier
    truths = {p: json.loads(p.with_suffix(".json").read_text()) for p in paths}
    rows = []
    # the degraded reader's mistakes depend on the file name: try many names for these photos
    for i in range(40):
        for p, truth in truths.items():
            monkeypatch.setattr(recognition, "oracle", lambda _p, t=truth: {
                "tiles": copy.deepcopy(t["tiles"]), "loose": t["loose"], "image": t["image"]})
            rows.append(recognition.score_image(truth, recognition.degraded_oracle(f"{i}-{p.name}")))
    s = recognition.summarise(rows)
    assert s["identity_accuracy"] < 1.0 and s["perfect_board_rate"] < 1.0
    assert s["detection_recall"] < 1.0


def test_empty_table_invented_tile_is_counted():
    truth = {"tiles": [], "loose": [], "face_down": [], "occluded": [],
             "render": {}}
    clean = recognition.score_image(truth, {"tiles": []})
    bad = recognition.score_image(truth, {"tiles": [{"q": 0, "r": 0, "tile": 5, "rotation": 0,
                                                     "pixel": [10, 10]}]})
    s = recognition.summarise([dict(clean, seconds=0.1), dict(bad, seconds=0.2)])
    assert s["empty_tables"] == 2 and s["empty_table_clean_rate"] == 0.5
    assert (clean["invented"], bad["invented"]) == (0, 1) and s["empty_table_uninvented_rate"] == 0.5
    assert s["detection_precision"] == 0.0


def test_a_lone_loose_tile_given_as_a_board_is_not_invented_but_a_face_down_one_read_is():
    corners = [[0, 0], [10, -17], [30, -17], [40, 0], [30, 17], [10, 17]]
    truth = {"tiles": [], "occluded": [], "render": {},
             "loose": [{"tile": 16, "rotation": 0, "pixel": [100, 100], "corners": corners}],
             "face_down": [{"tile": 22, "pixel": [300, 100], "corners": corners}]}
    lone = recognition.score_image(truth, {"tiles": [{"q": 0, "r": 0, "tile": 16, "rotation": 2,
                                                      "pixel": [103, 98]}]})
    face_down = recognition.score_image(truth, {"loose": [{"tile": 15, "rotation": 0,
                                                          "pixel": [301, 99]}]})
    assert (lone["invented"], face_down["invented"]) == (0, 1)
    s = recognition.summarise([dict(lone, seconds=0.1), dict(face_down, seconds=0.1)])
    assert s["empty_tables"] == 2
    assert s["empty_table_uninvented_rate"] == 0.5   # the face-down tile's read
    assert s["empty_table_clean_rate"] == 0.5        # the one-tile board


def test_board_kinds_are_what_they_claim():
    import numpy as np

    from referee.matching import mismatches
    from referee.puzzles import check_puzzle

    rng = np.random.default_rng(3)
    assert len(datasets.make_board("empty", rng)) == 0
    for _ in range(3):
        game = datasets.make_board("game", rng)
        assert 2 <= len(game) <= 56 and not mismatches(game)
        assert mismatches(datasets.make_board("mismatch", rng))
    sol = datasets.puzzle_solution("discovery-6")
    assert sol is not None and check_puzzle("discovery-6", sol)["solved"]


def test_true_lattice_reads_the_easy_tiles_and_not_a_lattice_half_a_cell_off(tier, tmp_path):
    # bench.true_lattice: the colour stage alone, on cells the truth places
    import shutil

    import numpy as np

    from bench import true_lattice
    _root, paths = tier
    photo = max(paths, key=lambda p: len(json.loads(p.with_suffix(".json").read_text())["tiles"]))
    got = true_lattice.read_true_cells(photo)
    assert got["tiles"] >= 4 and got["right"] == got["tiles"] and got["right_surely"] == got["tiles"]
    # the same photo with its true centres moved by half a centre distance: the cells now
    # straddle two tiles, and few read right
    truth = json.loads(photo.with_suffix(".json").read_text())
    pix = np.array([t["pixel"] for t in truth["tiles"]], float)
    step = np.sort(np.linalg.norm(pix[:, None] - pix[None], axis=2), axis=1)[:, 1].min()
    two = copy.deepcopy(truth)
    for t in truth["tiles"]:
        t["pixel"] = [t["pixel"][0] + 0.5 * step, t["pixel"][1]]
        t["corners"] = [[x + 0.5 * step, y] for x, y in t["corners"]]
    moved = tmp_path / photo.name
    shutil.copy(photo, moved)
    moved.with_suffix(".json").write_text(json.dumps(truth))
    assert true_lattice.read_true_cells(moved)["right"] < got["tiles"] // 2
    # two touching tiles are enough to place the lattice (their corners give the homography)
    first = two["tiles"][0]
    beside = set(neighbours((first["q"], first["r"])))
    pair = [t for t in two["tiles"] if (t["q"], t["r"]) in beside][:1]
    assert pair
    two["tiles"] = [first] + pair
    moved.with_suffix(".json").write_text(json.dumps(two))
    assert true_lattice.read_true_cells(moved) == {"tiles": 2, "right": 2, "right_surely": 2}


def test_placement_bench_renders_the_same_board_placed_sloppily_and_scores_both(tier, tmp_path):
    # bench.placement_bench: the tier's scene again with its tiles further off their cells
    import numpy as np

    from bench import placement_bench
    root, paths = tier
    index = max(range(len(paths)),
                key=lambda i: len(json.loads(paths[i].with_suffix(".json").read_text())["tiles"]))
    tidy = json.loads(paths[index].with_suffix(".json").read_text())
    sloppy_path = placement_bench.sloppy_photo("easy", index, 0.12, 12.0)
    assert sloppy_path is not None and sloppy_path.parent.parent == root
    sloppy = json.loads(sloppy_path.with_suffix(".json").read_text())
    assert sloppy["render"]["jitter_pos"] >= 0.12 and sloppy["render"]["jitter_deg"] >= 12.0
    # the same tiles in the same cells, but not in the same places in the photo
    key = lambda t: (t["q"], t["r"], t["tile"], t["rotation"])  # noqa: E731
    assert sorted(map(key, tidy["tiles"])) == sorted(map(key, sloppy["tiles"]))
    moved = [np.linalg.norm(np.subtract(a["pixel"], b["pixel"]))
             for a, b in zip(sorted(tidy["tiles"], key=key), sorted(sloppy["tiles"], key=key))]
    assert max(moved) > 2.0
    # cached: asked again, the photo is not rendered again
    stamp = sloppy_path.stat().st_mtime_ns
    assert placement_bench.sloppy_photo("easy", index, 0.12, 12.0).stat().st_mtime_ns == stamp
    tiles, right = placement_bench.tiles_right(paths[index])
    assert tiles == len(tidy["tiles"]) and right == tiles
    assert placement_bench.main(["--count", "0"]) == 2
    assert placement_bench.main(["--count", "2", "--out", str(tmp_path)]) == 0
    report = json.loads((tmp_path / "placement-easy.json").read_text())
    assert report["total"]["tiles"] == sum(r["tiles"] for r in report["images"]) > 0
    assert 0 <= report["total"]["sloppy_right"] <= report["total"]["tiles"]
    assert (tmp_path / "placement-easy.md").read_text().startswith("# Sloppy placement, easy")


def test_tiles_given_wrong_and_marked_for_a_check_are_counted(tier):
    truth = _truth(tier)
    n = len(truth["tiles"])
    read = {"tiles": copy.deepcopy(truth["tiles"])}
    for t in read["tiles"]:
        t["confidence"] = 0.99
    # tile 0 turned and doubtful (marked), tile 1 turned and sure (not marked), tile 2 right
    # but doubtful (marked for nothing)
    for k, conf in ((0, 0.7), (1, 0.999)):
        read["tiles"][k]["rotation"] = (read["tiles"][k]["rotation"] + 1) % 6
        read["tiles"][k]["confidence"] = conf
    read["tiles"][2]["confidence"] = CHECK_CONFIDENCE - 0.01
    # and a doubtful tile where no true tile lies: not counted here (it is an invented tile)
    used = {t["tile"] for t in truth["tiles"]}
    read["tiles"].append({"q": 40, "r": 40, "rotation": 0, "confidence": 0.6,
                          "tile": next(k for k in range(1, 57) if k not in used)})
    s = recognition.score_image(truth, read)
    c = recognition.summarise([s, s])["checks"]
    assert c == {"below": CHECK_CONFIDENCE, "given": 2 * n, "given_wrong": 4,
                 "wrong_marked": 2, "right_marked": 2}
    assert s["checks"] == {"given": n, "given_wrong": 2, "wrong_marked": 1, "right_marked": 1}

