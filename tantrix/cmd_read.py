"""``tantrix read PHOTO [--overlay OUT.png] [--looks]``: a table photo → board JSON on stdout."""
from __future__ import annotations

import argparse
import sys

from . import jsonout
from .inputs import add_profile_option, load_profile


def register(subparsers: argparse._SubParsersAction) -> None:
    p = subparsers.add_parser("read", help="read a table photo and print the board JSON",
                              description="Find every tile on a table photo and print the board JSON "
                                          "(CONTRACT.md) with per-tile confidence and pixel centre.")
    p.add_argument("photo", help="photo of the table (JPEG, PNG, ...)")
    p.add_argument("--overlay", metavar="OUT.png",
                   help="also write the photo with the reading drawn on it")
    p.add_argument("--looks", action="store_true",
                   help="also print to stderr each look the reader took at the photo "
                        "(which, on the whole photo or a crop, seconds, what it read) and which "
                        "read was kept")
    add_profile_option(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from contextlib import nullcontext

    from vision import looklog, overlay
    from vision.reader import read

    profile = load_profile(args.profile)
    with looklog.recording() if args.looks else nullcontext() as looks:
        scene, board = read(args.photo, profile)
    if args.looks:
        print(looklog.describe(looks, scene), file=sys.stderr)
    if args.overlay:
        from referee.analysis import analyze
        findings = analyze(board) if len(board) else None
        overlay.write(args.overlay, overlay.draw(scene, findings))
    if not board.tiles and board.loose:
        # (scattered tiles with no board among them: say what was found)
        print(f"tantrix read: no board found; {len(board.loose)} loose tile(s) on the table",
              file=sys.stderr)
    elif not board.tiles:
        print("tantrix read: no tiles found in the photo", file=sys.stderr)
    unread = board.meta.get("unreadable", [])
    if unread:
        print(f"tantrix read: {len(unread)} tile(s) could not be read (covered or unclear)", file=sys.stderr)
    jsonout.write(board.to_json())
    return 0
