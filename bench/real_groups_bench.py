"""Close-ups of a few touching real tiles: two to four of the real tile photos laid edge to
edge on a plain table, with little or no table round them, as a photo of a small puzzle
(a Discovery puzzle's first three tiles) or of two tiles a player asks about would be.

    python -m bench.real_groups_bench                  # every layout and margin, 2 processes
    python -m bench.real_groups_bench --samples 4 --workers 1

Each picture lays the photos of ``../shared/real_tiles`` (cut out with their alpha
channel, unturned, 130×120 px) on touching cells of one layout (a pair side by side or one
above the other, a row, a bent row, a triangle, a rhombus of four) with a margin of table
round them (0 px: the tiles touch the picture's edges).  The tiles of a picture are drawn
at random (fixed seed).  A read is right when its position is the laid one
(``referee.compare.same_position``: the same tiles, cells and turns, up to a turn of the
whole board) and nothing else is read.  Output: a table on stdout and
``bench/results/real_groups.json`` (+ ``.md``).  The photos are read from ``../shared``,
never copied.
"""
from __future__ import annotations

import argparse
import random
import sys
import time
from typing import Any

import cv2
import numpy as np

from bench.outputs import write_report
from bench.real_tiles_bench import LIGHT_TABLE, TILES, labels, read_all, summary

LAYOUTS: dict[str, list[tuple[int, int]]] = {
    "pair": [(0, 0), (1, 0)],
    "pair-upright": [(0, 0), (0, 1)],
    "row": [(0, 0), (1, 0), (2, 0)],
    "bent-row": [(0, 0), (1, 0), (2, -1)],
    "triangle": [(0, 0), (1, 0), (0, 1)],
    "rhombus": [(0, 0), (1, 0), (0, 1), (1, 1)],
}
"""Cells ``(q, r)`` (CONTRACT.md's frame) of each layout's tiles."""

MARGINS = (0, 12, 40, 120)
"""Table (px) round the tiles' box in each picture."""

TABLES = {"light": LIGHT_TABLE, "grey": (140, 140, 140)}
"""BGR of the plain tables the tiles are laid on."""

SIZE = 65.0
"""The crops' tile size (centre to corner, px): 130 px corner to corner."""


def group_picture(numbers: list[int], cells: list[tuple[int, int]], margin: int,
                  table: tuple[int, int, int] = LIGHT_TABLE) -> np.ndarray:
    """A BGR picture of real tiles ``numbers`` (unturned) on ``cells`` of a flat-topped
    lattice of the crops' size, ``margin`` px of plain ``table`` round their box."""
    xy = np.array([[1.5 * q, np.sqrt(3) * (r + q / 2)] for q, r in cells]) * SIZE
    xy -= xy.min(0)
    crops = [cv2.imread(str(TILES / f"tile_{n:02d}.png"), cv2.IMREAD_UNCHANGED) for n in numbers]
    h, w = crops[0].shape[:2]
    width = int(round(xy[:, 0].max())) + w + 2 * margin
    height = int(round(xy[:, 1].max())) + h + 2 * margin
    canvas = np.zeros((height, width, 3), np.float32) + np.array(table, np.float32)
    for crop, (x, y) in zip(crops, np.round(xy).astype(int) + margin):
        a = crop[:, :, 3:4].astype(np.float32) / 255.0
        canvas[y:y + h, x:x + w] = crop[:, :, :3] * a + canvas[y:y + h, x:x + w] * (1 - a)
    return np.clip(canvas, 0, 255).astype(np.uint8)


def laid_board(numbers: list[int], cells: list[tuple[int, int]]):
    """The position a group picture shows (each tile as its photo is labelled)."""
    from referee.board import Board
    board = Board()
    for n, cell in zip(numbers, cells):
        board.place(cell, *labels()[n])
    return board


def read_one(job: tuple[str, int, str, list[int]]) -> dict[str, Any]:
    """Read one group picture: a JSON-ready row."""
    from referee.compare import same_position
    from vision import read_photo
    layout, margin, table, numbers = job
    cells = LAYOUTS[layout]
    image = group_picture(numbers, cells, margin, TABLES[table])
    t0 = time.perf_counter()
    board = read_photo(image)
    seconds = time.perf_counter() - t0
    right = same_position(laid_board(numbers, cells), board) and not board.loose
    return {"layout": layout, "margin": margin, "table": table, "tiles": numbers,
            "right": bool(right), "read": sorted(p.tile for p in board.tiles.values()),
            "loose": [item["tile"] for item in board.loose], "seconds": round(seconds, 3)}


def jobs(samples: int, seed: int = 87) -> list[tuple[str, int, str, list[int]]]:
    """``samples`` pictures per layout, margin and table, tiles drawn with ``seed``."""
    rng = random.Random(seed)
    numbers = sorted(labels())
    return [(layout, margin, table, rng.sample(numbers, len(cells)))
            for layout, cells in LAYOUTS.items() for margin in MARGINS for table in TABLES
            for _ in range(samples)]


def run(samples: int = 6, workers: int = 2, progress: bool = True) -> dict[str, Any]:
    """Every layout × margin × table, ``samples`` pictures each; rows and a summary."""
    rows = read_all(read_one, jobs(samples), workers, "real groups", progress)
    cells = {f"{layout} / {margin}": [r for r in rows if r["layout"] == layout and r["margin"] == margin]
             for layout in LAYOUTS for margin in MARGINS}
    return {"summary": summary(rows),
            "groups": {k: {**summary(rs),
                           "wrong": [[r["table"], r["tiles"], r["read"]] for r in rs if not r["right"]]}
                       for k, rs in cells.items()},
            "rows": rows}


def table(report: dict[str, Any]) -> str:
    """The report as Markdown: one row per layout and margin."""
    lines = ["| layout / margin px | right / reads | median s | misread (table, tiles laid: read) |",
             "|---|---|---|---|"]
    for k, s in report["groups"].items():
        wrong = ", ".join(f"{t} {laid}: {got or 'nothing'}" for t, laid, got in s["wrong"]) or "–"
        lines.append(f"| {k} | {s['right']} / {s['reads']} | {s['median_seconds']} | {wrong} |")
    s = report["summary"]
    lines.append(f"\n{s['right']} of {s['reads']} pictures read right, median {s['median_seconds']} s per read")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.real_groups_bench",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--samples", type=int, default=6,
                    help="pictures per layout, margin and table (default 6)")
    ap.add_argument("--workers", type=int, default=2, help="reader processes (default 2)")
    args = ap.parse_args(argv)
    if not (TILES / "labels.csv").exists():
        print(f"real_groups_bench: the real tile photos are missing (expected in {TILES})", file=sys.stderr)
        return 2
    if args.workers < 1 or args.samples < 1:
        print("real_groups_bench: --workers and --samples must be at least 1", file=sys.stderr)
        return 2
    report = run(args.samples, args.workers)
    md = table(report)
    print(md)
    print(f"written {write_report('real_groups', report, md)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
