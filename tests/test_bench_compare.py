"""bench.compare: the image-by-image changes between two recognition reports."""
from __future__ import annotations

import copy
import json

import pytest

from bench import compare, datasets, recognition


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    """A report of the oracle on easy 0-2, and one where image 1's read lost a tile."""
    root = tmp_path_factory.mktemp("data")
    mp = pytest.MonkeyPatch()
    mp.setenv("TANTRIX_DATA", str(root))
    paths = datasets.ensure_tier("easy", 3, progress=False)
    old = recognition.run("easy", "oracle", 3, progress=False)
    new = copy.deepcopy(old)
    truth = json.loads(paths[1].with_suffix(".json").read_text())
    read = recognition.oracle(str(paths[1]))
    dropped = read["tiles"].pop(0)
    new["images"][1] = {**recognition.score_image(truth, read), "image": old["images"][1]["image"]}
    yield old, new, dropped
    mp.undo()


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
    assert im["lost"] == [(dropped["tile"], dropped["q"], dropped["r"], "missing")]
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
