"""How the reader holds up on boards of one colour triple: Tantrix Solitaire sets and
Discovery puzzles.

    python -m bench.three_colour_bench                  # 4 triples x 3 sizes x 4 shots, 2 tiers
    python -m bench.three_colour_bench --shots 2 --tiers easy

A board of 14 tiles sharing three colours lacks the fourth link colour altogether, and
each tile without blue has a twin without green (the same links, blue where it has
green): a reader that names the photo's third colour wrongly reads every tile as its
twin, confidently.  Each shot lays tiles of one triple (``referee.solitaire``'s sets; the
red-yellow-blue set's shots are tiles 1 to N, a Discovery puzzle) on legal cells, renders
it with ``scenegen`` under the tier's random camera, light and table (no hand, no loose
tiles) and reads it.  Per triple and tier: boards, tiles, tiles right (number and
rotation after the best alignment), tiles read as their twin in the other triple, other
tiles read wrong, boards read whole.  Output: a table on stdout and
``bench/results/three_colour.json`` / ``.md``.
"""
from __future__ import annotations

import argparse
import random
import sys
from typing import Any

from bench.outputs import write_report

SIZES = (5, 9, 14)
"""Tiles per board: a small puzzle, a game half laid, a finished Solitaire game."""


def shot(triple: str, size: int, tier: str, index: int) -> dict[str, Any]:
    """Lay, render and read one board: its figures as a JSON-ready dict."""
    from bench.make_samples import grown_from
    from referee.board import Board
    from referee.compare import best_alignment
    from referee.solitaire import solitaire_sets
    from scenegen import random_params, render
    from vision import read_photo
    from vision.missing_colour import TWINS

    seed = 1000 * SIZES.index(size) + 100 * sorted(solitaire_sets()).index(triple) + index
    rng = random.Random(seed)
    pool = sorted(solitaire_sets()[triple])
    tiles = tuple(range(1, size + 1)) if triple == "red-yellow-blue" else tuple(rng.sample(pool, size))
    board = grown_from(tiles, seed)
    params = random_params(tier, seed)
    params["clutter"] = {**params.get("clutter", {}), "loose": 0, "face_down": 0, "occluder": "none"}
    image, _truth = render(board, params, seed)
    read = read_photo(image)
    right = best_alignment(board, read)[2]
    # (each tile read as its twin, in its own turn: the board of twins read right)
    twin_board = Board()
    for cell, p in board.tiles.items():
        twin_board.place(cell, TWINS.get(p.tile, p.tile), p.rotation)
    as_twin = best_alignment(twin_board, read)[2] if TWINS.keys() & board.numbers() else 0
    return {"triple": triple, "tier": tier, "size": size, "seed": seed, "tiles": len(board),
            "right": right, "read": len(read), "as_twin": as_twin}


def run(tiers: list[str], shots: int, progress: bool = True) -> dict[str, Any]:
    """Every triple x size x shot on each tier; the rows and a summary per triple and tier."""
    from tqdm import tqdm
    from referee.solitaire import solitaire_sets
    jobs = [(t, s, tier, i) for tier in tiers for t in sorted(solitaire_sets())
            for s in SIZES for i in range(shots)]
    rows = [shot(*j) for j in tqdm(jobs, desc="three-colour boards", unit="board",
                                    file=sys.stderr, disable=not progress)]
    summary = []
    for tier in tiers:
        for triple in sorted(solitaire_sets()):
            rs = [r for r in rows if r["tier"] == tier and r["triple"] == triple]
            tiles = sum(r["tiles"] for r in rs)
            right = sum(r["right"] for r in rs)
            twin = sum(r["as_twin"] for r in rs)
            summary.append({"tier": tier, "triple": triple, "boards": len(rs), "tiles": tiles,
                            "right": right, "as_twin": twin,
                            "other_wrong": sum(r["read"] - r["right"] for r in rs) - twin,
                            "whole": sum(r["right"] == r["tiles"] for r in rs)})
    return {"summary": summary, "rows": rows}


def table(report: dict[str, Any]) -> str:
    """The summary as Markdown, one row per tier and triple."""
    lines = ["| tier | triple | boards | tiles right | read as the twin | other wrong | boards whole |",
             "|---|---|---|---|---|---|---|"]
    for s in report["summary"]:
        lines.append(f"| {s['tier']} | {s['triple']} | {s['boards']} | {s['right']} / {s['tiles']} | "
                     f"{s['as_twin']} | {s['other_wrong']} | {s['whole']} / {s['boards']} |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.three_colour_bench",
                                 description=__doc__.splitlines()[0])
    ap.add_argument("--tiers", nargs="+", default=["easy", "hard"],
                    choices=["easy", "hard", "real-texture"], help="scene tiers (default: easy hard)")
    ap.add_argument("--shots", type=int, default=4, help="boards per triple and size (default: 4)")
    args = ap.parse_args(argv)
    if args.shots < 1:
        print("three_colour_bench: --shots must be at least 1", file=sys.stderr)
        return 2
    report = run(args.tiers, args.shots)
    md = table(report)
    print(md)
    print(f"written {write_report('three_colour', report, md)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
