"""``tantrix analyze BOARD.json|PHOTO``: the referee's report."""
from __future__ import annotations

import argparse
import sys

from referee.analysis import analyze
from referee.textview import render_text

from . import jsonout
from .inputs import add_format_option, add_profile_option, load_position, load_profile


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("analyze", help="report what a referee says about a board JSON or a photo",
                       description="Print the analysis report (CONTRACT.md) of a board JSON file or a photo.")
    p.add_argument("source", metavar="BOARD.json|PHOTO")
    add_format_option(p)
    p.add_argument("--bag-empty", action="store_true",
                   help="treat the bag as empty (endgame: restraints lifted) whatever the input says")
    add_profile_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    board = load_position(args.source, profile=load_profile(args.profile))
    if args.bag_empty:
        board.bag_empty = True
    report = analyze(board)
    if args.format == "text":
        sys.stdout.write(render_text(board, report))
    else:
        jsonout.write(report)
    return 0
