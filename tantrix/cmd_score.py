"""``tantrix score BOARD.json|PHOTO``: the Tantrix Loops score of a pattern."""
from __future__ import annotations

import argparse
import sys

from referee.loops_scoring import score_pattern

from . import jsonout
from .inputs import add_format_option, add_profile_option, load_position, load_profile


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("score", help="Tantrix Loops score of a pattern of 3 to 7 tiles",
                       description="Score a Loops pattern: links on loops by shape (corner 1, bend 2, "
                                   "straight 3), +1 per loop, Snowflake +7, Mandala +2.")
    p.add_argument("source", metavar="BOARD.json|PHOTO")
    add_format_option(p)
    add_profile_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    board = load_position(args.source, profile=load_profile(args.profile))
    result = score_pattern(board)
    if args.format == "text":
        lines = [f"score {result['score']}" + ("" if result["valid"] else " (not a valid pattern)")]
        for lp in result["loops"]:
            lines.append(f"  {lp['colour']} loop of {len(lp['cells'])}: {' + '.join(lp['links'])} "
                         f"= {lp['points']} (+1)")
        if result["snowflake"]:
            lines.append("  snowflake +7" + (", mandala +2" if result["mandala"] else ""))
        lines += [f"  ! {r}" for r in result["reasons"]]
        sys.stdout.write("\n".join(lines) + "\n")
    else:
        jsonout.write(result)
    return 0
