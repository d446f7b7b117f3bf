"""How the reader holds up on the 56 real tile photos when the camera and light change.

    python -m bench.real_tiles_bench                     # every variant, 2 worker processes
    python -m bench.real_tiles_bench --variants warm-strong dim-gamma-1.8 --workers 1
    python -m bench.real_tiles_bench --as-stored         # the crops as stored, no table round them

Each real tile photo (``../shared/real_tiles``, cut out with its alpha channel) is laid on a
light table as a one-tile picture, then changed as a camera or a lamp could have changed it
(the variants of ``bench.real_photo_bench``: darker, brighter, warm or cold cast, blurred,
noisy, compressed hard, washed out, ...), and read.  A read is right when the board holds
exactly that tile (one tile's rotation holds only up to a turn of the whole board, as any
position does; "rotation as labelled" also counts the labelled rotation, which a variant
that turns the picture changes).  This measures the colour stage on real tile
prints (their real red, green and blue are dark) under light the photos were not taken in.
Output: a table on stdout and ``bench/results/real_tiles.json`` (+ ``.md``); with
``--variants`` the files hold only the variants read.  The photos are read from
``../shared``, never copied.

``--as-stored`` reads each photo as its file holds it instead (alpha dropped: the tile fills
its 130×120 crop and touches its edges, the grey table it was shot on in the corners), as a
close-up photo of one tile would be; output ``bench/results/real_tiles-as-stored.json``.
"""
from __future__ import annotations

import argparse
import csv
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

from bench.outputs import write_report
from bench.real_photo_bench import VARIANTS, add_variants_option

TILES = Path(__file__).resolve().parents[2] / "shared" / "real_tiles"
LIGHT_TABLE = (225, 225, 225)
"""BGR of the plain table the tiles are laid on."""

_NAMES = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}


@lru_cache(maxsize=1)
def labels() -> dict[int, tuple[int, int]]:
    """Tile number → (tile, rotation) its photo shows, from ``labels.csv``'s edge colours
    (read once per process; do not change the dict)."""
    from referee.tiles import find_tile
    with open(TILES / "labels.csv") as f:
        rows = list(csv.DictReader(f))
    return {int(row["tile"]): find_tile(tuple(_NAMES[c] for c in row["edge_colours_in_photo"]))
            for row in rows}


def one_tile_picture(number: int, table: tuple[int, int, int] = LIGHT_TABLE, turn: int = 0
                     ) -> np.ndarray:
    """A 300×300 BGR picture of real tile ``number`` on a plain ``table`` colour, turned
    clockwise by ``turn`` × 60° about the middle."""
    tile = cv2.imread(str(TILES / f"tile_{number:02d}.png"), cv2.IMREAD_UNCHANGED)
    canvas = np.zeros((300, 300, 3), np.float32) + np.array(table, np.float32)
    a = tile[:, :, 3:4].astype(np.float32) / 255.0
    y, x = 90, 85
    h, w = tile.shape[:2]
    canvas[y:y + h, x:x + w] = tile[:, :, :3] * a + canvas[y:y + h, x:x + w] * (1 - a)
    img = np.clip(canvas, 0, 255).astype(np.uint8)
    if turn:
        M = cv2.getRotationMatrix2D((150, 150), -60 * turn, 1.0)
        img = cv2.warpAffine(img, M, (300, 300), borderMode=cv2.BORDER_REPLICATE)
    return img


def stored_picture(number: int) -> np.ndarray:
    """Real tile ``number``'s photo as its file holds it: a 130×120 BGR crop the tile fills
    (the alpha channel dropped; the grey table it was shot on shows in the corners)."""
    return cv2.imread(str(TILES / f"tile_{number:02d}.png"), cv2.IMREAD_COLOR)


def read_one(job: tuple[int, str] | tuple[int, str, bool]) -> dict[str, Any]:
    """Read one tile under one variant (laid on a table, or as stored when the job's third
    item is true): a JSON-ready row."""
    from vision import read_photo
    number, variant = job[:2]
    as_stored = len(job) > 2 and job[2]
    want = labels()[number]
    image = VARIANTS[variant](stored_picture(number) if as_stored else one_tile_picture(number))
    t0 = time.perf_counter()
    board = read_photo(image)
    seconds = time.perf_counter() - t0
    got = [[p.tile, p.rotation] for p in board.tiles.values()]
    # a board's position holds up to a turn of the whole board (CONTRACT.md), so one tile is
    # right when its number is; its rotation is also the labelled one unless the variant
    # turned the picture
    return {"tile": number, "variant": variant, "right": [g[0] for g in got] == [want[0]],
            "as_labelled": got == [list(want)], "read": got,
            "loose": [item["tile"] for item in board.loose], "seconds": round(seconds, 3)}


def read_all(read: Callable[[Any], dict[str, Any]], jobs: list, workers: int, desc: str,
             progress: bool = True) -> list[dict[str, Any]]:
    """``read`` of every job in order, in ``workers`` processes (one: in this process), with a
    progress bar on stderr unless ``progress`` is false."""
    from tqdm import tqdm
    bar = dict(total=len(jobs), desc=desc, unit="read", file=sys.stderr, disable=not progress)
    if workers > 1:
        with ProcessPoolExecutor(workers) as pool:
            return list(tqdm(pool.map(read, jobs), **bar))
    return [read(j) for j in tqdm(jobs, **bar)]


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Reads, right reads, their share and the median seconds a read of ``rows`` (each
    with ``right`` and ``seconds``); share and median ``None`` when there are none."""
    right = sum(r["right"] for r in rows)
    return {"reads": len(rows), "right": right,
            "share": round(right / len(rows), 4) if rows else None,
            "median_seconds": round(float(np.median([r["seconds"] for r in rows])), 3) if rows else None}


def run(variants: list[str], numbers: list[int] | None = None, workers: int = 2,
        progress: bool = True, as_stored: bool = False) -> dict[str, Any]:
    """Every tile in ``numbers`` (default: all 56) under every variant, laid on a table
    or ``as_stored``; rows and a summary."""
    numbers = sorted(labels()) if numbers is None else numbers
    jobs = [(n, v, as_stored) for v in variants for n in numbers]
    rows = read_all(read_one, jobs, workers, "real tiles", progress)
    per = {v: [r for r in rows if r["variant"] == v] for v in variants}
    return {"summary": {**summary(rows), "as_stored": as_stored},
            "variants": {v: {"right": sum(r["right"] for r in rs), "tiles": len(rs),
                             "as_labelled": sum(r["as_labelled"] for r in rs),
                             "wrong": [[r["tile"], r["read"]] for r in rs if not r["right"]]}
                         for v, rs in per.items()},
            "rows": rows}


def table(report: dict[str, Any]) -> str:
    """The report as Markdown: one row per variant."""
    lines = ["| variant | right / tiles | rotation as labelled | misread (tile: read as) |",
             "|---|---|---|---|"]
    for v, s in report["variants"].items():
        wrong = ", ".join(f"{t}: {[g[0] for g in got] or 'nothing'}" for t, got in s["wrong"]) or "–"
        lines.append(f"| {v} | {s['right']} / {s['tiles']} | {s['as_labelled']} | {wrong} |")
    s = report["summary"]
    lines.append(f"\n{s['right']} of {s['reads']} reads right, median {s['median_seconds']} s per read")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.real_tiles_bench",
                                 description=__doc__.splitlines()[0])
    add_variants_option(ap)
    ap.add_argument("--workers", type=int, default=2, help="reader processes (default 2)")
    ap.add_argument("--as-stored", action="store_true",
                    help="read the crops as stored (the tile touching the picture's edges) "
                         "instead of laid on a light table")
    args = ap.parse_args(argv)
    if not (TILES / "labels.csv").exists():
        print(f"real_tiles_bench: the real tile photos are missing (expected in {TILES})", file=sys.stderr)
        return 2
    if args.workers < 1:
        print("real_tiles_bench: --workers must be at least 1", file=sys.stderr)
        return 2
    report = run(args.variants, workers=args.workers, as_stored=args.as_stored)
    md = table(report)
    print(md)
    name = "real_tiles-as-stored" if args.as_stored else "real_tiles"
    print(f"written {write_report(name, report, md)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
