"""The look log (`vision.looklog`) and `tantrix read --looks`: which looks a read took."""
import json
from pathlib import Path
from types import SimpleNamespace

from tantrix.cli import main
from vision import looklog

SAMPLES = Path(__file__).resolve().parents[1] / "sample_images"


def _scene(tiles: int, unreadable: int = 0, loose: int = 0) -> SimpleNamespace:
    return SimpleNamespace(readings=[None] * tiles, unreadable=[None] * unreadable,
                           loose=[{}] * loose)


def test_nothing_is_logged_unless_asked():
    looklog.note("gated", 0.1, _scene(3))  # (no log: a no-op, no error)
    with looklog.recording() as looks:
        looklog.note("dense", 0.2, _scene(1))
    looklog.note("ungated", 0.3, _scene(2))  # (after the block: not in its log)
    assert [lk.look for lk in looks] == ["dense"]


def test_looks_are_logged_with_where_they_looked_and_the_kept_read_marked():
    first, crop_read, mapped = _scene(2, 4), _scene(5, 1, 2), _scene(5, 1, 2)
    with looklog.recording() as looks:
        looklog.note("gated", 0.25, first)
        looklog.note("unveiled", 0.5, None)
        with looklog.within("crop"):
            looklog.note("gated", 0.125, crop_read)
            with looklog.within("crop"):
                looklog.note("dense", 0.0625, _scene(1))
        looklog.moved(crop_read, mapped)  # (the crop's read given in the photo's frame)
    assert [(lk.look, lk.where, lk.found) for lk in looks] == [
        ("gated", "whole", True), ("unveiled", "whole", False), ("gated", "crop", True),
        ("dense", "crop/crop", True)]
    assert (looks[0].tiles, looks[0].unreadable, looks[0].loose) == (2, 4, 0)
    text = looklog.describe(looks, mapped).splitlines()
    assert [line.endswith("kept") for line in text[:4]] == [False, False, True, False]
    assert "5 tiles, 1 unreadable, 2 loose" in text[2] and "1 tile," in text[3]
    assert "nothing" in text[1]
    assert text[-1] == "4 looks, 0.938 s in all"
    # a kept read that is none of the looks' is said to be so
    assert "kept: a read none of these looks gave" in looklog.describe(looks, _scene(0))


def test_read_with_looks_prints_them_and_reads_the_same(capsys):
    photo = str(SAMPLES / "busy_tablecloth.jpg")
    assert main(["read", photo]) == 0
    plain = capsys.readouterr()
    assert main(["read", photo, "--looks"]) == 0
    logged = capsys.readouterr()
    assert json.loads(logged.out) == json.loads(plain.out)
    lines = [line for line in logged.err.splitlines() if line.startswith("look ")]
    assert lines and lines[0].split()[2] == "gated" and lines[0].split()[3] == "whole"
    assert sum(line.endswith("kept") for line in lines) == 1
    total = [line for line in logged.err.splitlines() if line.endswith("s in all")]
    assert total and total[0].startswith(f"{len(lines)} look")
    assert "look " not in plain.err
