"""Tiles scattered on a table, on no lattice: each must be read as a loose tile.

    python -m bench.scattered_bench                  # 40 scenes
    python -m bench.scattered_bench --count 10 --no-write

Before a game or a puzzle starts, and in many photos people take of their tiles, the tiles
lie face up anywhere on the table, turned every way, with no Tantrix among them.  The
reader fits a lattice to whatever it sees; a tile lying between that lattice's cells must
still be read on its own hexagon, not half on the table (a wooden table read as red
links gave real tile 51 as tile 2 at confidence 0.996 before ``vision.loose.CLEANER_SPOT``).

Each scene is rendered by ``scenegen`` with the real-texture tier's camera, light, tables
and real tile faces (from ``../shared/real_tiles``, read in place), an empty board, 6 to 14
loose tiles face up and 0 to 3 face down, no hand.  Per scene and overall: loose tiles,
those read right (the number; a loose tile's turn is not scored, see
``bench.recognition``), read wrong (a loose tile read where it lies, under another number),
missed, tiles invented (read where no face-up tile lies) and tiles given as a board
(there is none).  Output: a table on stdout, ``bench/results/scattered.json``.
"""
from __future__ import annotations

import argparse
import hashlib
import sys
import time
from typing import Any

import numpy as np

from bench.outputs import markdown_table, write_report
from bench.recognition import MATCH, _invented, loose_named

SCENES = 40


def _seed(index: int) -> int:
    return int.from_bytes(hashlib.sha256(f"scattered/{index}".encode()).digest()[:4], "little")


def scene(index: int) -> tuple[np.ndarray, dict]:
    """Image ``index`` (BGR, after JPEG) and its truth (``scenegen.render``'s)."""
    from referee.board import Board
    from scenegen import random_params, render
    seed = _seed(index)
    rng = np.random.default_rng(seed)
    params = random_params("real-texture", rng)
    params["clutter"] = {"loose": int(rng.integers(6, 15)), "face_down": int(rng.integers(0, 4)),
                         "occluder": "none"}
    params["board_kind"] = "scattered"
    # loose tiles lie 3.3 to 5.5 tile widths from the middle (scenegen.render._place_loose)
    # and the camera is framed on the (empty) board: a scale that keeps them in the frame
    params["tile_px"] = round(min(params["tile_px"], min(params["width"], params["height"]) / 13.0), 2)
    return render(Board(), params, seed)


def score(truth: dict, read: dict) -> dict[str, Any]:
    """Figures of one scene: see the module doc."""
    named = loose_named(truth, read)
    right = sum(got == tile for tile, got in named)
    wrong = sum(got is not None and got != tile for tile, got in named)
    n = len(named)
    return {"loose": n, "right": right, "wrong": wrong, "missed": n - right - wrong,
            "invented": _invented(truth, read), "board_tiles": len(read.get("tiles", [])),
            "unreadable": len(read.get("unreadable") or [])}


def run(count: int = SCENES, progress: bool = True) -> dict[str, Any]:
    """Read ``count`` scenes; per-scene rows and a summary."""
    from tqdm import tqdm

    from vision import read_photo
    rows = []
    for i in tqdm(range(count), desc="scattered", unit="scene", file=sys.stderr, disable=not progress):
        img, truth = scene(i)
        t0 = time.perf_counter()
        read = read_photo(img).to_json()
        row = {"scene": i, **score(truth, read), "seconds": round(time.perf_counter() - t0, 3),
               "table": truth["render"]["table"]["kind"],
               "tile_px": round(truth["render"]["tile_px"], 1)}
        rows.append(row)
    total = {k: sum(r[k] for r in rows) for k in
             ("loose", "right", "wrong", "missed", "invented", "board_tiles", "unreadable")}
    summary = {"scenes": len(rows), **total,
               "right_share": round(total["right"] / total["loose"], 4) if total["loose"] else None,
               "wrong_share": round(total["wrong"] / total["loose"], 4) if total["loose"] else None,
               "median_seconds": round(float(np.median([r["seconds"] for r in rows])), 3) if rows else None,
               "match_widths": MATCH}
    return {"summary": summary, "rows": rows}


def table(report: dict[str, Any]) -> str:
    """The report as Markdown: the summary line, then the scenes with a tile not right."""
    s = report["summary"]
    lines = [f"{s['scenes']} scenes, {s['loose']} loose tiles: {s['right']} right, "
             f"{s['wrong']} wrong, {s['missed']} missed; {s['invented']} invented, "
             f"{s['board_tiles']} given as a board; median {s['median_seconds']} s", ""]
    bad = [r for r in report["rows"] if r["right"] < r["loose"] or r["invented"] or r["board_tiles"]]
    lines += markdown_table(["scene", "table", "tile px", "loose", "right", "wrong", "missed",
                             "invented", "board", "s"],
                            [[r["scene"], r["table"], r["tile_px"], r["loose"], r["right"], r["wrong"],
                              r["missed"], r["invented"], r["board_tiles"], r["seconds"]] for r in bad])
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.scattered_bench", description=__doc__.split("\n")[0])
    ap.add_argument("--count", type=int, default=SCENES, help=f"scenes to read (default {SCENES})")
    ap.add_argument("--no-write", action="store_true", help="print only; leave bench/results alone")
    args = ap.parse_args(argv)
    if args.count < 1:
        print("scattered_bench: --count must be at least 1", file=sys.stderr)
        return 2
    report = run(args.count)
    md = table(report)
    print(md, end="")
    if not args.no_write:
        print(f"wrote {write_report('scattered', report, md)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
