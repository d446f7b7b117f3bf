"""The puzzles of RULES.md as plain data: which tiles, and what shape of goal.

Three goal kinds cover every puzzle:

* ``loop``: one loop of ``colour`` through every tile (Discovery, Rainbow green/yellow/white,
  Solitaire Quest).  ``colour`` ``None`` means any colour (checked per colour).
* ``pyramid``: the tiles form a pyramid of ``rows`` rows and one line of ``colour`` runs
  through every tile (Rainbow blue and red).
* ``tangle``: named loops that must be entangled (Tangle puzzles), see :class:`TangleGoal`.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import BadInput
from .tiles import COLOURS, TILES, tiles_with_back, tiles_with_colours


@dataclass(frozen=True)
class TangleGoal:
    """What a Tangle puzzle asks of its loops.

    ``loops``: exact number of loops per named colour (colours not named may have loops only
    when ``total`` allows it); ``total``: exact number of loops of all colours, when the
    text gives it; ``shapes``: colour → shape word (``"circle"``: a 6-tile ring; ``"triangle"``:
    the border of a triangle of cells; ``"triangle6"``: a 6-tile triangle) for that colour's
    loop; ``hub``: colour whose loop must share a tile with every loop of ``spokes``;
    ``inner``: colour whose loop may share no tile but must lie inside another loop;
    ``identical``: colours whose loops must have the same shape (up to turning and
    mirroring); ``every_tile_on_loop``: every tile lies on some loop.
    """

    loops: dict[str, int] = field(default_factory=dict)
    total: int | None = None
    shapes: dict[str, str] = field(default_factory=dict)
    hub: str | None = None
    spokes: tuple[str, ...] = ()
    inner: str | None = None
    identical: tuple[str, ...] = ()
    every_tile_on_loop: bool = False


@dataclass(frozen=True)
class Puzzle:
    """One puzzle: its slug, tile numbers (sorted), goal kind and goal details."""

    name: str
    tiles: tuple[int, ...]
    kind: str  # "loop" | "pyramid" | "tangle"
    colour: str | None = None
    rows: int = 0
    tangle: TangleGoal | None = None
    text: str = ""
    alternatives: tuple[tuple[int, ...], ...] = ()
    """For Solitaire Quest: the tile sets one may choose from (one per colour triple)."""


def _discovery(n: int) -> Puzzle:
    colour = TILES[n].back
    return Puzzle(f"discovery-{n}", tuple(range(1, n + 1)), "loop", colour,
                  text=f"tiles 1..{n}: one {colour} loop through all {n} tiles, no holes")


_TANGLES: dict[str, tuple[tuple[int, ...], TangleGoal, str]] = {
    "tangle-two": ((2, 7, 15, 26, 31, 45),
                   TangleGoal(loops={"red": 1, "yellow": 1}),
                   "red and yellow loops, entangled"),
    "tangle-chain": ((7, 10, 24, 25, 26, 28, 31, 36, 45),
                     TangleGoal(loops={"red": 1, "yellow": 1, "blue": 1}, hub="yellow",
                                spokes=("red", "blue")),
                     "red-yellow-blue chain"),
    "tangle-four": ((7, 10, 14, 21, 23, 25, 26, 27, 31, 36, 45, 54),
                    TangleGoal(loops={c: 1 for c in COLOURS}),
                    "four tangled loops, one per colour"),
    "tangle-necklace": ((3, 5, 9, 14, 15, 21, 23, 25, 30, 31, 37, 42),
                        TangleGoal(loops={c: 1 for c in COLOURS}, hub="red",
                                   spokes=("yellow", "blue", "green")),
                        "red loop entangled with three small loops: yellow, blue, green"),
    "tangle-padlock": ((2, 5, 6, 15, 21, 25, 26, 35, 44, 45, 48, 49),
                       TangleGoal(loops={c: 1 for c in COLOURS}, shapes={"yellow": "triangle"},
                                  hub="yellow", spokes=("red", "blue", "green")),
                       "yellow triangle entangled with red, blue, green loops"),
    "tangle-tricycle": ((3, 4, 6, 7, 9, 19, 28, 33, 34, 35, 37, 38, 40, 42, 44, 45, 50, 56),
                        TangleGoal(loops={c: 1 for c in COLOURS},
                                   shapes={"blue": "triangle", "red": "circle",
                                           "yellow": "circle", "green": "circle"},
                                   hub="blue", spokes=("red", "yellow", "green")),
                        "blue triangle entangled with red, yellow, green circles"),
    "tangle-clownface": ((6, 14, 15, 17, 26, 38, 44, 47, 50, 52, 54, 55),
                         TangleGoal(loops={c: 1 for c in COLOURS}, shapes={"green": "circle"},
                                    hub="green", spokes=("yellow", "red", "blue")),
                         "green 6-tile circle entangled with yellow, red, blue loops"),
    "tangle-alien": ((2, 13, 21, 27, 33, 36, 41, 48, 53, 56),
                     TangleGoal(loops={c: 1 for c in COLOURS}, shapes={"yellow": "circle"},
                                hub="blue", spokes=("red", "green"), inner="yellow"),
                     "blue loop entangled with red and green loops, plus an inner yellow circle"),
    "tangle-bean-party": ((4, 9, 10, 18, 19, 20, 23, 25, 30, 31, 32, 35, 37, 39, 43, 46, 49, 51),
                          TangleGoal(loops={c: 1 for c in COLOURS}, shapes={"green": "triangle6"},
                                     identical=("red", "yellow", "blue")),
                          "6-tile green triangle and 3 identical loops in the other colours"),
    "tangle-lockdown": ((1, 3, 5, 7, 8, 11, 12, 16, 22, 24, 28, 29, 34, 40, 42, 45),
                        TangleGoal(loops={"yellow": 2}, total=5),
                        "five entangled loops, two of them yellow"),
    "tangle-crop-circles": ((1, 2, 7, 8, 10, 15, 17, 18, 20, 22, 27, 46, 52, 53, 55),
                            TangleGoal(total=None, every_tile_on_loop=True),
                            "every tile on a loop, loops entangled, all matching"),
}


def _build() -> dict[str, Puzzle]:
    out: dict[str, Puzzle] = {}
    for n in range(3, 31):
        p = _discovery(n)
        out[p.name] = p
    for back, colour in (("green", "green"), ("yellow", "yellow"), ("white", "blue")):
        tiles = tuple(tiles_with_back(back))
        out[f"rainbow-{back}"] = Puzzle(
            f"rainbow-{back}", tiles, "loop", colour,
            text=f"the {len(tiles)} {back}-backed tiles: one {colour} loop through all of them")
    for back, rows in (("blue", 4), ("red", 5)):
        tiles = tuple(tiles_with_back(back))
        out[f"rainbow-{back}"] = Puzzle(
            f"rainbow-{back}", tiles, "pyramid", back, rows=rows,
            text=f"the {len(tiles)} {back}-backed tiles: a {rows}-row pyramid with one {back} "
                 f"line through all of them")
    triples = []
    for missing in ("blue", "green", "yellow", "red"):
        triples.append(tuple(tiles_with_colours({c for c in COLOURS if c != missing})))
    out["solitaire-quest"] = Puzzle(
        "solitaire-quest", (), "loop", None, alternatives=tuple(triples),
        text="the 14 tiles of one colour triple: one loop of one colour through all 14")
    for name, (tiles, goal, text) in _TANGLES.items():
        out[name] = Puzzle(name, tuple(sorted(tiles)), "tangle", tangle=goal, text=text)
    return out


PUZZLES: dict[str, Puzzle] = _build()
"""Every puzzle by slug, in the order of :func:`puzzle_names`."""


def puzzle_names() -> list[str]:
    """Every puzzle slug: discovery-3..30, rainbow-*, solitaire-quest, tangle-*."""
    return list(PUZZLES)


def get_puzzle(name: str) -> Puzzle:
    """The puzzle called ``name``; ``BadInput`` for an unknown name."""
    try:
        return PUZZLES[name]
    except KeyError:
        raise BadInput(f"unknown puzzle {name!r} (see 'tantrix check --list')") from None
