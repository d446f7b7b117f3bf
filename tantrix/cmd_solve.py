"""``tantrix solve PUZZLE [--time-limit S]``: a solution board JSON for a puzzle."""
from __future__ import annotations

import argparse
import sys

from referee.errors import BadInput
from referee.puzzles import check_puzzle, puzzle_names
from referee.solver import solve

from . import jsonout


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("solve", help="find a solution of a puzzle and print it as board JSON",
                       description="Search for a solution of PUZZLE from its tile set; prints the "
                                   "board JSON (exit 0), or a one-line message (exit 1: time ran "
                                   "out or no solution).")
    p.add_argument("puzzle", metavar="PUZZLE")
    p.add_argument("--time-limit", type=float, default=60.0, metavar="S",
                   help="give up after S seconds (default 60)")
    p.add_argument("--stats", action="store_true", help="print search statistics on stderr")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.puzzle not in puzzle_names():
        raise BadInput(f"unknown puzzle {args.puzzle!r} (see 'tantrix check --list')")
    if not args.time_limit > 0:
        raise BadInput("--time-limit must be positive")
    result = solve(args.puzzle, time_limit=args.time_limit)
    if args.stats:
        print(f"{args.puzzle}: {result.status} in {result.seconds:.3f} s, {result.nodes} nodes",
              file=sys.stderr)
    if result.board is None:
        what = ("no solution found within the time limit" if result.status == "timeout"
                else "the puzzle has no solution")
        print(f"tantrix: {args.puzzle}: {what} ({result.seconds:.1f} s)", file=sys.stderr)
        return 1
    assert check_puzzle(args.puzzle, result.board)["solved"]
    jsonout.write(result.board.to_json())
    return 0
