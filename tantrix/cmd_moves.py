"""``tantrix moves BOARD.json TILE...``: legal placements of tiles, and why others are not."""
from __future__ import annotations

import argparse

from referee.errors import BadInput
from referee.moves import MoveContext, all_moves, forced_fills

from . import jsonout
from .inputs import add_profile_option, load_position, load_profile


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("moves", help="legal placements of one or more tiles on a board",
                       description="List every legal (cell, rotation) for each tile; with --explain "
                                   "also every illegal placement and its reason.")
    p.add_argument("source", metavar="BOARD.json|PHOTO")
    p.add_argument("tiles", metavar="TILE", nargs="+", type=int, help="tile numbers (a hand)")
    p.add_argument("--explain", action="store_true", help="also list illegal placements with reasons")
    p.add_argument("--bag-empty", action="store_true", help="restraints lifted (endgame)")
    add_profile_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    board = load_position(args.source, profile=load_profile(args.profile))
    if len(set(args.tiles)) != len(args.tiles):
        raise BadInput("a tile number is given twice")
    ctx = MoveContext(board, True if args.bag_empty else None)
    out = {"bag_empty": ctx.bag_empty, "tiles": {}, "forced_fills": {}}
    for n in args.tiles:
        checks = all_moves(board, n, context=ctx)
        entry = {"legal": [{"cell": list(m.cell), "rotation": m.rotation} for m in checks if m.legal]}
        if args.explain:
            entry["illegal"] = [{"cell": list(m.cell), "rotation": m.rotation, "code": m.code,
                                 "edge": m.edge, "reason": m.reason} for m in checks if not m.legal]
        out["tiles"][str(n)] = entry
    fills = forced_fills(board, args.tiles, True if args.bag_empty else None)
    out["forced_fills"] = [{"cell": list(c), "fills": [{"tile": n, "rotation": k} for n, k in v]}
                           for c, v in fills.items()]
    jsonout.write(out)
    return 0
