"""``tantrix replay POS1 POS2 ... [--players NAME:COLOUR ...]``: judge a Strategy game."""
from __future__ import annotations

import argparse
import sys

from referee.replay import parse_players, render_text, replay

from . import jsonout
from .inputs import add_format_option, add_profile_option, load_position, load_profile


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("replay", help="judge a Strategy game from successive positions",
                       description="Infer what was played between successive positions (board JSON "
                                   "files or photos) and judge every turn; running scores and the "
                                   "winner.  Visible hands: a 'hands' object in the board JSON.")
    p.add_argument("positions", nargs="+", metavar="POS", help="board JSON files or photos, in order")
    p.add_argument("--players", nargs="+", metavar="NAME:COLOUR",
                   help="players in turn order with their colours, e.g. ann:red bob:yellow")
    p.add_argument("--first", type=int, default=0, metavar="I",
                   help="index in --players of the player who moves first (default 0)")
    add_format_option(p)
    add_profile_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    players = parse_players(args.players)
    profile = load_profile(args.profile)
    boards = [load_position(p, profile=profile) for p in args.positions]
    report = replay(boards, players, first=args.first % max(len(players), 1))
    if args.format == "text":
        sys.stdout.write(render_text(report))
    else:
        jsonout.write(report)
    return 0
