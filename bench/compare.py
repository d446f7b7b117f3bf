"""What changed between two recognition reports of one tier, image by image.

A change to the reader is judged by what it does to every tile, not only by the summary:
two images can trade a tile and leave the figures the same.  Run the recognition benchmark
with the old code and the new, each with its own ``--out DIR`` (it writes
``recognition-TIER-READER.json`` there), then::

    python -m bench.compare OLD.json NEW.json

prints each image whose read differs (tiles right, tiles missed and what became of them,
a tile read wrong in another way included; loose tiles named right, tiles invented,
unreadable cells) and the totals' changes.  Exit status 0, or 2 when a file is missing,
is no recognition report, or the two reports are of different tiers or images.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

COUNTED = ("agree", "tp", "loose_right", "invented", "unreadable", "unreadable_empty")
"""Per-image counts compared (see ``bench.recognition.score_image``): tiles right, tiles
and loose tiles found, loose tiles named right, tiles given where none lies, unreadable
cells reported and those of them where no tile lies."""


class ReportError(ValueError):
    """A file that is not a recognition report, or two reports that do not compare."""


def load_report(path: Path) -> dict[str, Any]:
    """A recognition report (``bench.recognition.write``) read from ``path``."""
    try:
        report = json.loads(Path(path).read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as err:
        raise ReportError(f"{path}: cannot read a report ({err})") from None
    if not isinstance(report, dict) or not isinstance(report.get("images"), list):
        raise ReportError(f"{path}: not a recognition report (no 'images' list)")
    return report


def _misses(row: dict[str, Any]) -> set[tuple]:
    """An image's missed tiles as (tile, q, r, outcome, what was read there: () or the
    wrong (tile, rotation), or the loose tile's (number,)): a tile read wrong in a new way
    is a change too."""
    return {(m["tile"], m["q"], m["r"], m["outcome"], tuple(m.get("read", ())))
            for m in row.get("misses", [])}


def _said(outcome: str, read: tuple) -> str:
    """A miss's outcome as printed: ``wrong as (12, 3)``, ``loose as (12,)``, ``missing``."""
    return f"{outcome} as {read}" if read else outcome


def compare(old: dict[str, Any], new: dict[str, Any]) -> dict[str, Any]:
    """The images whose reads differ between reports ``old`` and ``new`` of one tier.

    Returns ``{"images": [{"image", "changes": {count: [old, new]}, "lost": [...],
    "gained": [...]}], "totals": {count: new total - old total}}``: ``lost`` are misses
    (see :func:`_misses`) only the new read has, ``gained`` those only the old one had."""
    if old.get("tier") != new.get("tier"):
        raise ReportError(f"reports of different tiers: {old.get('tier')} and {new.get('tier')}")
    before = {row["image"]: row for row in old["images"]}
    after = {row["image"]: row for row in new["images"]}
    if set(before) != set(after):
        raise ReportError("the reports read different images")
    out, totals = [], dict.fromkeys(COUNTED, 0)
    for name in sorted(after):
        a, b = before[name], after[name]
        changes = {k: [a.get(k, 0), b.get(k, 0)] for k in COUNTED if a.get(k, 0) != b.get(k, 0)}
        for k in COUNTED:
            totals[k] += b.get(k, 0) - a.get(k, 0)
        lost, gained = sorted(_misses(b) - _misses(a)), sorted(_misses(a) - _misses(b))
        if changes or lost or gained:
            out.append({"image": name, "changes": changes, "lost": lost, "gained": gained})
    return {"images": out, "totals": totals}


def text(diff: dict[str, Any]) -> str:
    """The comparison as lines to print."""
    lines = []
    for im in diff["images"]:
        counts = ", ".join(f"{k} {a} -> {b}" for k, (a, b) in im["changes"].items())
        lines.append(f"{im['image']}: {counts or 'same counts'}")
        lines += [f"    now missed: tile {t} at ({q}, {r}), {_said(o, rd)}"
                  for t, q, r, o, rd in im["lost"]]
        lines += [f"    now right:  tile {t} at ({q}, {r}), was {_said(o, rd)}"
                  for t, q, r, o, rd in im["gained"]]
    total = ", ".join(f"{k} {v:+d}" for k, v in diff["totals"].items())
    lines.append(f"{len(diff['images'])} image(s) differ; totals: {total}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.compare",
                                 description="Image-by-image changes between two recognition reports.")
    ap.add_argument("old", type=Path, help="the report of the code before the change")
    ap.add_argument("new", type=Path, help="the report of the code after it")
    a = ap.parse_args(argv)
    try:
        diff = compare(load_report(a.old), load_report(a.new))
    except ReportError as err:
        print(f"python -m bench.compare: {err}", file=sys.stderr)
        return 2
    sys.stdout.write(text(diff))
    return 0


if __name__ == "__main__":
    sys.exit(main())
