"""Benchmark of the rules model: full analysis of 56-tile positions, legal moves for a hand.

Targets (issue 2): analysis of a 56-tile position ≤ 3 ms median; all legal moves for a
6-tile hand on a 50-tile board ≤ 10 ms median.  Restraints are kept in force (bag not
empty) so every field, controlled cells included, is computed.

    python bench/referee_bench.py [--positions 40] [--repeats 25] [--out bench/results/referee.json]
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

from tqdm import tqdm

from referee.analysis import analyze
from referee.board import Board
from referee.moves import hand_moves
from referee.randomgame import random_position


def _timed(fn, repeats: int) -> list[float]:
    """Each call's wall time in milliseconds (best of a warm-up, then ``repeats`` calls)."""
    fn()
    out = []
    for _ in range(repeats):
        t = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t) * 1000)
    return out


def _summary(ms: list[float]) -> dict[str, float]:
    ms = sorted(ms)
    pick = lambda p: ms[min(len(ms) - 1, int(p * len(ms)))]  # noqa: E731
    return {"median_ms": round(statistics.median(ms), 3), "p90_ms": round(pick(0.9), 3),
            "p99_ms": round(pick(0.99), 3), "max_ms": round(ms[-1], 3), "samples": len(ms)}


def _wild_56(seed: int) -> Board:
    """All 56 tiles dropped on a compact patch at random: mismatches, gobbles, holes."""
    rng = random.Random(seed)
    patch = [(q, r) for q in range(-5, 6) for r in range(-5, 6) if abs(q + r) <= 5]
    cells = rng.sample(patch, 56)
    return Board.from_placements([(c, n, rng.randrange(6)) for c, n in zip(cells, range(1, 57))])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--positions", type=int, default=40, help="positions of each kind")
    ap.add_argument("--repeats", type=int, default=25, help="timed runs per position")
    ap.add_argument("--out", default="bench/results/referee.json")
    args = ap.parse_args(argv)

    legal, wild, moves = [], [], []
    for seed in tqdm(range(args.positions), desc="referee bench", file=sys.stderr):
        board = random_position(56, seed)
        board.bag_empty = False
        legal += _timed(lambda: analyze(board), args.repeats)
        w = _wild_56(seed)
        wild += _timed(lambda: analyze(w), args.repeats)
        b50 = random_position(50, 1000 + seed)
        b50.bag_empty = False
        hand = [n for n in range(1, 57) if n not in b50.numbers()][:6]
        moves += _timed(lambda: hand_moves(b50, hand), args.repeats)

    result = {
        "analysis_56_legal": _summary(legal),
        "analysis_56_random": _summary(wild),
        "legal_moves_hand6_board50": _summary(moves),
        "targets": {"analysis_56_legal_median_ms": 3.0, "legal_moves_median_ms": 10.0},
        "positions": args.positions, "repeats": args.repeats,
        "python": platform.python_version(), "machine": platform.machine(),
    }
    ok = (result["analysis_56_legal"]["median_ms"] <= 3.0
          and result["legal_moves_hand6_board50"]["median_ms"] <= 10.0)
    result["targets_met"] = ok
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(result, indent=1) + "\n")
    print(f"{'measure':<34}{'median':>9}{'p90':>9}{'p99':>9}  (ms)")
    for key in ("analysis_56_legal", "analysis_56_random", "legal_moves_hand6_board50"):
        s = result[key]
        print(f"{key:<34}{s['median_ms']:>9.2f}{s['p90_ms']:>9.2f}{s['p99_ms']:>9.2f}")
    print(f"targets met: {ok}  -> {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
