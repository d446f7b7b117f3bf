"""Entry point of the ``tantrix`` console script.

Each subcommand lives in its own module ``tantrix/cmd_<name>.py`` exposing
``register(subparsers)`` (adds its parser and sets ``func``).  Errors: ``BadInput`` and
other expected failures print one line on stderr and exit 2; nothing prints a traceback
unless ``TANTRIX_DEBUG=1`` is set.
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys

from referee.errors import BadInput

SUBCOMMANDS = ("read", "analyze", "moves", "check", "solve", "replay", "score",
               "calibrate", "serve")


class _Parser(argparse.ArgumentParser):
    """argparse that exits 2 with a single line instead of usage + message."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise BadInput(f"{self.prog.removeprefix('tantrix').strip() or 'usage'}: {message}")


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tantrix", description="Tantrix Table Companion: read and referee a Tantrix table.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    sub.required = True
    for name in SUBCOMMANDS:
        importlib.import_module(f"tantrix.cmd_{name}").register(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run the CLI; returns the exit code (also used by ``sys.exit``)."""
    debug = os.environ.get("TANTRIX_DEBUG") == "1"
    try:
        args = build_parser().parse_args(argv)
        code = args.func(args)
        return int(code or 0)
    except BadInput as e:
        print(f"tantrix: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("tantrix: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as e:  # noqa: BLE001 - the promise is "never a traceback"
        if debug:
            raise
        print(f"tantrix: internal error: {type(e).__name__}: {e} (set TANTRIX_DEBUG=1 for details)",
              file=sys.stderr)
        return 3


if __name__ == "__main__":
    sys.exit(main())
