"""The 56 Tantrix tiles: faces, links, back colours, rotation and lookup.

Edge numbering and rotation follow CONTRACT.md: flat-topped hexagon, edges clockwise
from the top (0=N, 1=NE, 2=SE, 3=S, 4=SW, 5=NW); a tile placed with rotation k shows
on its edge i the colour its listed face has on edge (i - k) % 6.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

COLOURS: tuple[str, ...] = ("red", "yellow", "green", "blue")
"""The four link colours, in the order used for every per-colour table."""

SHAPE_BY_GAP = {1: "corner", 2: "bend", 3: "straight"}
"""Link shape from the edge distance between its two ends (1, 2 or 3 steps)."""

_INITIAL = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}

# Number, back colour, edge colours clockwise from N as initials.  The same facts as
# ../shared/tiles/tantrix_tiles.json (tests/test_tiles.py checks they agree).
_TABLE = (
    ( 1, 'yellow' , 'BRBRYY'),
    ( 2, 'yellow' , 'BRRBYY'),
    ( 3, 'yellow' , 'BBYYRR'),
    ( 4, 'red'    , 'BRYBYR'),
    ( 5, 'red'    , 'BBRYYR'),
    ( 6, 'blue'   , 'BRYRBY'),
    ( 7, 'blue'   , 'BBYRYR'),
    ( 8, 'blue'   , 'BBRYRY'),
    ( 9, 'yellow' , 'BRBYRY'),
    (10, 'red'    , 'BRBYYR'),
    (11, 'red'    , 'BYBYRR'),
    (12, 'yellow' , 'BRRYBY'),
    (13, 'blue'   , 'BBYRRY'),
    (14, 'blue'   , 'BBRRYY'),
    (15, 'red'    , 'GGRYYR'),
    (16, 'red'    , 'GGYRRY'),
    (17, 'yellow' , 'GRGRYY'),
    (18, 'red'    , 'GRGYYR'),
    (19, 'red'    , 'GYGYRR'),
    (20, 'yellow' , 'GRRYGY'),
    (21, 'yellow' , 'GGRRYY'),
    (22, 'yellow' , 'GRRGYY'),
    (23, 'yellow' , 'GGYYRR'),
    (24, 'red'    , 'BGGBRR'),
    (25, 'red'    , 'BBGGRR'),
    (26, 'red'    , 'BBGRRG'),
    (27, 'red'    , 'BGBGRR'),
    (28, 'red'    , 'BBRRGG'),
    (29, 'red'    , 'BGBRRG'),
    (30, 'red'    , 'BBRGGR'),
    (31, 'yellow' , 'GGRYRY'),
    (32, 'green'  , 'GRYGYR'),
    (33, 'green'  , 'GGYRYR'),
    (34, 'green'  , 'GRGYRY'),
    (35, 'green'  , 'GRYRGY'),
    (36, 'green'  , 'BGGRBR'),
    (37, 'green'  , 'BBGRGR'),
    (38, 'green'  , 'BBRGRG'),
    (39, 'blue'   , 'BGBRGR'),
    (40, 'blue'   , 'BGRBRG'),
    (41, 'blue'   , 'BRBRGG'),
    (42, 'blue'   , 'BGRGBR'),
    (43, 'blue'   , 'BBYYGG'),
    (44, 'yellow' , 'BGYGBY'),
    (45, 'green'  , 'BBGGYY'),
    (46, 'green'  , 'BYBYGG'),
    (47, 'green'  , 'BBYGGY'),
    (48, 'white'  , 'BGGBYY'),
    (49, 'white'  , 'BBGYYG'),
    (50, 'white'  , 'BGYBYG'),
    (51, 'white'  , 'BGBYGY'),
    (52, 'white'  , 'BGGYBY'),
    (53, 'white'  , 'BGBYYG'),
    (54, 'white'  , 'BGBGYY'),
    (55, 'white'  , 'BBGYGY'),
    (56, 'white'  , 'BBYGYG'),
)


@dataclass(frozen=True, slots=True)
class Link:
    """One coloured link of a tile face: the two edges it joins and its shape."""

    colour: str
    edges: tuple[int, int]
    shape: str


@dataclass(frozen=True, slots=True)
class Tile:
    """A tile face in its listed (rotation 0) orientation."""

    number: int
    back: str
    edges: tuple[str, str, str, str, str, str]

    @property
    def colours(self) -> frozenset[str]:
        """The three link colours this tile carries."""
        return frozenset(self.edges)

    @property
    def missing_colour(self) -> str:
        """The one colour of the four that this tile does not carry."""
        return next(c for c in COLOURS if c not in self.edges)

    @property
    def links(self) -> tuple[Link, Link, Link]:
        """The three links, ordered by their first edge."""
        return _links(self.edges)

    def edges_at(self, rotation: int) -> tuple[str, ...]:
        """Edge colours (index = edge 0..5) of this tile placed with rotation."""
        return rotated_edges(self.number, rotation)


def _links(edges: tuple[str, ...]) -> tuple[Link, Link, Link]:
    out = []
    for i, colour in enumerate(edges):
        j = edges.index(colour, i + 1) if colour in edges[i + 1:] else -1
        if j > i:
            gap = min(j - i, 6 - (j - i))
            out.append(Link(colour, (i, j), SHAPE_BY_GAP[gap]))
    return tuple(out)  # type: ignore[return-value]


TILES: dict[int, Tile] = {
    n: Tile(n, back, tuple(_INITIAL[c] for c in code))  # type: ignore[arg-type]
    for n, back, code in _TABLE
}
"""All 56 tiles by number."""


def tile(number: int) -> Tile:
    """The tile with this back number (1..56); KeyError for any other."""
    return TILES[number]


@lru_cache(maxsize=None)
def rotated_edges(number: int, rotation: int) -> tuple[str, ...]:
    """Edge colours of tile number turned clockwise by rotation steps."""
    base = TILES[number].edges
    return tuple(base[(i - rotation) % 6] for i in range(6))


def partner_edge(number: int, rotation: int, edge: int) -> int:
    """The other end of the link that reaches edge of a placed tile."""
    edges = rotated_edges(number, rotation)
    colour = edges[edge]
    for j in range(6):
        if j != edge and edges[j] == colour:
            return j
    raise AssertionError("every colour sits on exactly two edges")


@lru_cache(maxsize=None)
def _lookup_table() -> dict[tuple[str, ...], tuple[int, int]]:
    table: dict[tuple[str, ...], tuple[int, int]] = {}
    for number in TILES:
        for rotation in range(6):
            table.setdefault(rotated_edges(number, rotation), (number, rotation))
    return table


def find_tile(edges: tuple[str, ...] | list[str]) -> tuple[int, int] | None:
    """Which tile shows these six edge colours, and turned how far.

    Returns (number, rotation) or None when no tile of the set shows them.
    """
    return _lookup_table().get(tuple(edges))


def tiles_with_back(back: str) -> list[int]:
    """Numbers of the tiles whose back number is printed in back colour."""
    return [t.number for t in TILES.values() if t.back == back]


def tiles_with_colours(colours: set[str] | frozenset[str]) -> list[int]:
    """Numbers of the tiles carrying exactly these three link colours."""
    return [t.number for t in TILES.values() if t.colours == frozenset(colours)]


@lru_cache(maxsize=None)
def partners(number: int, rotation: int) -> tuple[int, ...]:
    """For each edge 0..5 of a placed tile, the edge at the other end of its link."""
    return tuple(partner_edge(number, rotation, e) for e in range(6))
