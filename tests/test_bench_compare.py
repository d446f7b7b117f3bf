"""bench.compare: the image-by-image changes between two recognition reports."""
from __future__ import annotations

import copy
import json

import pytest

from bench import compare, recognition


@pytest.fixture(scope="module")
def reports(easy_tier):
    """A report of the oracle on easy 0-2, and one where image 1's read lost a tile."""
    _root, paths = easy_tier
    old = recognition.run("easy", "oracle", 3, progress=False)
    new = copy.deepcopy(old)
    truth = json.loads(paths[1].with_suffix(".json").read_text())
    read = recognition.oracle(str(paths[1]))
    dropped = read["tiles"].pop(0)
    new["images"][1] = {**recognition.score_image(truth, read), "image": old["images"][1]["image"]}
    return old, new, dropped


def test_a_report_compared_with_itself_differs_nowhere(reports):
    old, _new, _dropped = reports
    diff = compare.compare(old, old)
    assert diff["images"] == [] and set(diff["totals"].values()) == {0}


def test_a_lost_tile_is_named_with_its_image_and_cell(reports):
    old, new, dropped = reports
    diff = compare.compare(old, new)
    assert [im["image"] for im in diff["images"]] == [old["images"][1]["image"]]
    im = diff["images"][0]
    assert im["changes"]["agree"][1] == im["changes"]["agree"][0] - 1
    assert im["lost"] == [(dropped["tile"], dropped["q"], dropped["r"], "missing", ())]
    assert im["gained"] == []
    assert diff["totals"]["agree"] == -1 and diff["totals"]["tp"] == -1
    # and the other way round the tile is gained
    back = compare.compare(new, old)
    assert back["images"][0]["gained"] == im["lost"] and back["totals"]["agree"] == 1
    assert f"tile {dropped['tile']} at ({dropped['q']}, {dropped['r']}), missing" in compare.text(diff)


def test_files_that_do_not_compare_exit_2_with_one_line(reports, tmp_path, capsys):
    old, new, _dropped = reports
    a, b, bad = tmp_path / "a.json", tmp_path / "b.json", tmp_path / "bad.json"
    a.write_text(json.dumps(old))
    b.write_text(json.dumps({**new, "tier": "hard"}))
    bad.write_text("{not json")
    for args in ([str(a), str(b)], [str(a), str(bad)], [str(a), str(tmp_path / "none.json")]):
        assert compare.main(args) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and err.startswith("python -m bench.compare: ")
    assert compare.main([str(a), str(a)]) == 0
    assert "0 image(s) differ" in capsys.readouterr().out


def test_a_tile_read_wrong_in_another_way_is_a_change(easy_tier, reports):
    _root, paths = easy_tier
    old, _new, _dropped = reports
    truth = json.loads(paths[2].with_suffix(".json").read_text())

    def turned_once(by: int) -> dict:
        read = recognition.oracle(str(paths[2]))
        read["tiles"][0]["rotation"] = (read["tiles"][0]["rotation"] + by) % 6
        report = copy.deepcopy(old)
        report["images"][2] = {**recognition.score_image(truth, read),
                               "image": old["images"][2]["image"]}
        return report

    a, b = turned_once(1), turned_once(2)
    assert a["images"][2]["agree"] == b["images"][2]["agree"]
    diff = compare.compare(a, b)
    assert [im["image"] for im in diff["images"]] == [old["images"][2]["image"]]
    (lost,), (gained,) = diff["images"][0]["lost"], diff["images"][0]["gained"]
    assert lost[3] == gained[3] == "wrong" and lost[:3] == gained[:3] and lost[4] != gained[4]
    assert f"wrong as {lost[4]}" in compare.text(diff)
