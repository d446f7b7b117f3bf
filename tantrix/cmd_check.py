"""``tantrix check PUZZLE BOARD.json|PHOTO``: is the puzzle solved, and if not, why not."""
from __future__ import annotations

import argparse
import sys

from referee.errors import BadInput
from referee.puzzles import check_puzzle, puzzle_names

from . import jsonout
from .inputs import add_format_option, add_profile_option, load_position, load_profile


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("check", help="check a puzzle solution (exit 0 solved, 1 not solved)",
                       description="Print the verdict JSON {puzzle, solved, reasons, goal} for a board "
                                   "JSON or a photo; --list prints every puzzle name.")
    p.add_argument("puzzle", nargs="?", metavar="PUZZLE", help="puzzle name, e.g. discovery-10")
    p.add_argument("source", nargs="?", metavar="BOARD.json|PHOTO")
    p.add_argument("--list", action="store_true", help="print every puzzle name, one per line")
    p.add_argument("--hint", action="store_true",
                   help="also say whether the tiles on the table can still be completed (hint engine)")
    p.add_argument("--time-limit", type=float, default=10.0, metavar="S",
                   help="seconds for --hint (default 10)")
    add_format_option(p)
    add_profile_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    if args.list:
        sys.stdout.write("\n".join(puzzle_names()) + "\n")
        return 0
    if not args.puzzle or not args.source:
        raise BadInput("check: give PUZZLE and BOARD.json|PHOTO (or --list)")
    if args.puzzle not in puzzle_names():
        raise BadInput(f"unknown puzzle {args.puzzle!r} (see 'tantrix check --list')")
    board = load_position(args.source, profile=load_profile(args.profile))
    verdict = check_puzzle(args.puzzle, board)
    if args.hint and not verdict["solved"]:
        from referee.solver import can_complete

        verdict["hint"] = can_complete(args.puzzle, board, time_limit=args.time_limit)
    if args.format == "text":
        lines = [f"{args.puzzle}: {'SOLVED' if verdict['solved'] else 'not solved'} ({verdict['goal']})"]
        lines += [f"  - {r}" for r in verdict["reasons"]]
        if "hint" in verdict:
            h = verdict["hint"]
            word = {True: "can still be completed", False: "cannot be completed",
                    None: "unknown (time ran out)"}[h["completable"]]
            lines.append(f"  hint: {word}")
        sys.stdout.write("\n".join(lines) + "\n")
    else:
        jsonout.write(verdict)
    return 0 if verdict["solved"] else 1
