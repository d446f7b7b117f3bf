"""Puzzle solver and hint engine.

Loop puzzles (Discovery, Rainbow green/yellow/white, Solitaire Quest) are solved by growing
the loop tile by tile along the target colour: the first tile is fixed at (0, 0) with
rotation 0 (this removes the translation and rotation symmetry), the path leaves it through
one end of its link and must come back through the other.  Each step tries the unused tiles
in the two rotations that bring the colour to the entry edge and keeps those that match
every touching tile.  Pruning: the head must still be able to reach the closing cell (hex
distance against the tiles left), a placement that cuts off an empty region that the head
is not in makes a hole and is dropped, and an enclosed region the head is in must be small
enough to fill.

Pyramid puzzles (Rainbow blue/red) fill the pyramid's cells row by row; the colour's links
may not close a cycle and at most two link ends may point out of the pyramid, so at the
end the links form exactly one line through every tile.

Tangle puzzles are solved by tracing their loops one after another
(:mod:`referee.tangle_search`).  With tiles already on the table (the hint engine) a
placement search is used instead (each empty cell beside the group gets a matching tile or
is kept empty for good; every tile must stay able to lie on a loop of a named colour); it
is only practical for small tile sets.  Complete arrangements are checked with
:func:`referee.puzzles.check_puzzle`.

The hint engine (:func:`can_complete`) runs the same searches with the tiles already on
the table held fixed.
"""
from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from .board import Board, Placement
from .hexgrid import DIRECTIONS, Cell, distance
from .matching import mismatches
from .puzzle_defs import Puzzle, get_puzzle
from .shapes import pyramid_placements
from .tiles import TILES, partners, rotated_edges


class _Timeout(Exception):
    pass


class _Restart(Exception):
    """A randomised run used up its node budget: start again with another order."""


@dataclass
class SolveResult:
    """Outcome of a search: ``status`` is ``solved``, ``impossible`` or ``timeout``."""

    puzzle: str
    status: str
    board: Board | None = None
    seconds: float = 0.0
    nodes: int = 0
    details: dict[str, Any] = field(default_factory=dict)

    def to_json(self) -> dict[str, Any]:
        return {
            "puzzle": self.puzzle,
            "status": self.status,
            "seconds": round(self.seconds, 3),
            "nodes": self.nodes,
            "board": self.board.to_json() if self.board is not None else None,
            **self.details,
        }


# ---------------------------------------------------------------------------------------
# loop search

class _LoopSearch:
    """Depth-first growth of one loop of ``colour`` through ``tiles`` (plus ``fixed``)."""

    def __init__(self, tiles: list[int], colour: str, fixed: dict[Cell, Placement],
                 deadline: float, rng: random.Random | None = None,
                 max_nodes: int | None = None) -> None:
        self.colour = colour
        self.rng = rng
        self.max_nodes = max_nodes
        self.deadline = deadline
        self.nodes = 0
        self.fixed = dict(fixed)
        fixed_numbers = {p.tile for p in fixed.values()}
        self.free = [t for t in tiles if t not in fixed_numbers]
        # (tile, entry edge) -> [(rotation, edges, exit edge)]
        self.options: dict[tuple[int, int], list[tuple[int, tuple[str, ...], int]]] = {}
        self.link_opts: dict[tuple[int, int], list[tuple[int, tuple[str, ...]]]] = {}
        self.walk_depth = 8
        for t in tiles:
            for k in range(6):
                edges = rotated_edges(t, k)
                for e in range(6):
                    if edges[e] == colour:
                        self.options.setdefault((t, e), []).append((k, edges, partners(t, k)[e]))
                        self.link_opts.setdefault((e, partners(t, k)[e]), []).append((t, edges))

    def run(self) -> dict[Cell, Placement] | None:
        col = self.colour
        if any(col not in p.edges for p in self.fixed.values()):
            return None  # a tile on the table without the colour can't be on the loop
        if self.fixed:
            start = min(c for c, p in self.fixed.items() if col in p.edges)
            occ = {c: p.edges for c, p in self.fixed.items()}
            placed = dict(self.fixed)
        else:
            first = self.free[0]
            start = (0, 0)
            occ = {start: rotated_edges(first, 0)}
            placed = {start: Placement(first, 0)}
            self.free = self.free[1:]
        edges = occ[start]
        a = edges.index(col)
        p = placed[start]
        b = partners(p.tile, p.rotation)[a]
        self.start, self.close_edge = start, b
        self.target = (start[0] + DIRECTIONS[b][0], start[1] + DIRECTIONS[b][1])
        self.occ, self.placed = occ, placed
        self.unvisited = set(self.fixed) - {start}
        self.unused = set(self.free)
        return dict(self.placed) if self._step(start, a) else None

    def _remaining(self) -> int:
        return len(self.unused) + len(self.unvisited)

    def _step(self, cur: Cell, exit_edge: int) -> bool:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _Restart
        if self.nodes & 1023 == 0 and time.monotonic() > self.deadline:
            raise _Timeout
        dq, dr = DIRECTIONS[exit_edge]
        h = (cur[0] + dq, cur[1] + dr)
        entry = (exit_edge + 3) % 6
        occ = self.occ
        if h in occ:
            if h == self.start:
                return entry == self.close_edge and not self.unused and not self.unvisited
            if h in self.unvisited and occ[h][entry] == self.colour:
                p = self.placed[h]
                self.unvisited.discard(h)
                if self._step(h, partners(p.tile, p.rotation)[entry]):
                    return True
                self.unvisited.add(h)
            return False
        if not self.unused:
            return False
        # what the cell must show: colours of the tiles around it
        facing = _facing(occ, h)
        cands = [(t, k, edges, x) for t in sorted(self.unused)
                 for k, edges, x in self.options.get((t, entry), ())
                 if all(edges[e] == c for e, c in facing)]
        if self.rng is not None:
            self.rng.shuffle(cands)
        # keep the loop compact: prefer heading into cells that touch more tiles (a loop
        # through every tile with no hole must fold back along itself)
        def touching(cand):
            d = DIRECTIONS[cand[3]]
            n = (h[0] + d[0], h[1] + d[1])
            return -sum((n[0] + a, n[1] + b) in occ for a, b in DIRECTIONS)

        cands.sort(key=touching)
        for t, k, edges, x in cands:
            occ[h] = edges
            self.placed[h] = Placement(t, k)
            self.unused.discard(t)
            if self._feasible(h, x, len(facing)) and self._step(h, x):
                return True
            self.unused.add(t)
            del occ[h]
            del self.placed[h]
        return False

    def _feasible(self, h: Cell, x: int, touching: int) -> bool:
        """Can the loop still close after a tile went on ``h`` leaving through edge ``x``?"""
        rem = self._remaining()
        nxt = (h[0] + DIRECTIONS[x][0], h[1] + DIRECTIONS[x][1])
        if rem == 0:
            return nxt == self.start and not (self._splits(h) and self._encloses(h))
        if nxt in self.occ and nxt not in self.unvisited:
            return False
        if distance(nxt, self.target) > rem - 1:
            return False
        for f in self.unvisited:
            if distance(nxt, f) + distance(f, self.target) > rem - 1:
                return False
        if (distance(h, self.target) == 1 and self.target not in self.occ
                and not self._target_fillable()):
            return False
        if (rem <= self.walk_depth and not self.unvisited and self.target not in self.occ
                and not self._closable(nxt, (x + 3) % 6, rem)):
            return False
        if touching >= 1 and self._splits(h):
            return self._regions_ok(h, nxt, rem)
        return True

    def _closable(self, c0: Cell, entry0: int, m0: int) -> bool:
        """Is there a walk of ``m0`` empty cells from ``c0`` (entered through ``entry0``) to
        the closing cell, each cell fillable by some unused tile that links its entry to its
        exit and matches the tiles around it?

        A relaxation — tiles may repeat and the walk may cross itself — so ``False`` is
        certain; memoised on (cell, entry, cells left).
        """
        occ, T, unused, link_opts = self.occ, self.target, self.unused, self.link_opts
        last = (self.close_edge + 3) % 6
        memo: dict[tuple[Cell, int, int], bool] = {}
        facing_at: dict[Cell, list[tuple[int, str]]] = {}

        def fillable(c: Cell, entry: int, ex: int) -> bool:
            facing = facing_at.get(c)
            if facing is None:
                facing = facing_at[c] = _facing(occ, c)
            return any(t in unused and all(edges[e] == f for e, f in facing)
                       for t, edges in link_opts.get((entry, ex), ()))

        def ok(c: Cell, entry: int, m: int) -> bool:
            key = (c, entry, m)
            got = memo.get(key)
            if got is None:
                if len(memo) > WALK_STATES:
                    raise _Restart  # too costly to decide: caught below, nothing pruned
                if m == 1:
                    got = c == T and fillable(c, entry, last)
                else:
                    got = False
                    for ex in range(6):
                        if ex == entry:
                            continue
                        n = (c[0] + DIRECTIONS[ex][0], c[1] + DIRECTIONS[ex][1])
                        if (n not in occ and distance(n, T) <= m - 2 and fillable(c, entry, ex)
                                and ok(n, (ex + 3) % 6, m - 1)):
                            got = True
                            break
                memo[key] = got
            return got

        try:
            return ok(c0, entry0, m0)
        except _Restart:
            return True

    def _target_fillable(self) -> bool:
        """Can some unused tile still go on the closing cell, linking back to the start?"""
        occ, T = self.occ, self.target
        facing = _facing(occ, T)
        into = (self.close_edge + 3) % 6
        for t in self.unused:
            for k, edges, x in self.options.get((t, into), ()):
                if all(edges[e] == c for e, c in facing):
                    return True
        return False

    def _splits(self, h: Cell) -> bool:
        """True when the tiles around ``h`` form two or more separate arcs."""
        occ = self.occ
        bits = [(h[0] + dq, h[1] + dr) in occ for dq, dr in DIRECTIONS]
        arcs = sum(1 for i in range(6) if bits[i] and not bits[i - 1])
        return arcs >= 2 or all(bits)

    def _regions_ok(self, h: Cell, nxt: Cell, rem: int) -> bool:
        """Empty regions around ``h``: none enclosed away from the head, the head's region
        still holds the closing cell, and enclosed cells fit in the tiles left."""
        occ = self.occ
        if nxt in occ:
            return True  # the head runs into a fixed tile: nothing cheap to say
        box = _box(occ)
        seen: set[Cell] = set()
        need = 0
        for dq, dr in DIRECTIONS:
            c = (h[0] + dq, h[1] + dr)
            if c in occ or c in seen:
                continue
            region, escapes = _flood(c, occ, box)
            seen |= region
            head_here = nxt in region
            if head_here and self.target not in region:
                return False
            if not escapes:
                if not head_here:
                    return False  # an enclosed empty region the loop can't reach: a hole
                need += len(region)
        return need <= rem


    def _encloses(self, h: Cell) -> bool:
        """True when some empty neighbour of ``h`` lies in an enclosed region (a hole)."""
        occ = self.occ
        box = _box(occ)
        for dq, dr in DIRECTIONS:
            c = (h[0] + dq, h[1] + dr)
            if c not in occ and not _flood(c, occ, box)[1]:
                return True
        return False


def _facing(occ: dict[Cell, tuple[str, ...]], cell: Cell) -> list[tuple[int, str]]:
    """``(edge, colour)`` pairs a tile on ``cell`` must show to match the tiles around it."""
    out = []
    for e, (dq, dr) in enumerate(DIRECTIONS):
        n = occ.get((cell[0] + dq, cell[1] + dr))
        if n is not None:
            out.append((e, n[(e + 3) % 6]))
    return out


def _box(occ) -> tuple[int, int, int, int]:
    """The axial bounding box of ``occ`` grown by one cell: (q0, q1, r0, r1)."""
    qs = [c[0] for c in occ]
    rs = [c[1] for c in occ]
    return (min(qs) - 1, max(qs) + 1, min(rs) - 1, max(rs) + 1)


def _flood(start: Cell, occ, box) -> tuple[set[Cell], bool]:
    q0, q1, r0, r1 = box
    region = {start}
    stack = [start]
    escapes = False
    while stack:
        q, r = stack.pop()
        for dq, dr in DIRECTIONS:
            n = (q + dq, r + dr)
            if n in occ or n in region:
                continue
            if not (q0 <= n[0] <= q1 and r0 <= n[1] <= r1):
                escapes = True
                continue
            region.add(n)
            stack.append(n)
    # a region touching the box's rim is outside
    if not escapes:
        for q, r in region:
            if q in (q0, q1) or r in (r0, r1):
                escapes = True
                break
    return region, escapes


# ---------------------------------------------------------------------------------------
# pyramid search

class _PyramidSearch:
    """Fill a fixed set of cells so one line of ``colour`` runs through every tile."""

    def __init__(self, tiles: list[int], colour: str, cells: frozenset[Cell],
                 fixed: dict[Cell, Placement], deadline: float,
                 rng: random.Random | None = None, max_nodes: int | None = None) -> None:
        self.colour = colour
        self.rng = rng
        self.max_nodes = max_nodes
        self.outside_edges = {
            c: {e for e, (dq, dr) in enumerate(DIRECTIONS) if (c[0] + dq, c[1] + dr) not in cells}
            for c in cells}
        self.cells = cells
        self.deadline = deadline
        self.nodes = 0
        self.fixed = fixed
        used = {p.tile for p in fixed.values()}
        self.unused = [t for t in tiles if t not in used]
        self.order = sorted((c for c in cells if c not in fixed), key=lambda c: (c[1], c[0]))
        # symmetry: the pyramid maps onto itself turned by 120°; without fixed tiles one
        # tile is kept to one cell of each orbit, so each solution is met once, not thrice
        self.pinned: tuple[int, frozenset[Cell]] | None = None
        if not fixed and tiles:
            self.pinned = (min(tiles), _one_per_orbit(cells))
        self.rots = {t: [(k, rotated_edges(t, k), partners(t, k)) for k in range(6)] for t in tiles}

    def run(self) -> dict[Cell, Placement] | None:
        self.occ: dict[Cell, tuple] = {}
        for c, p in self.fixed.items():
            self.occ[c] = (rotated_edges(p.tile, p.rotation), partners(p.tile, p.rotation))
        self.placed = dict(self.fixed)
        ends = 0
        for c in self.fixed:
            ok, e = self._colour_ok(c)
            if not ok:
                return None
            ends += e
        if ends > 2:
            return None
        if self._fill(0, ends, set(self.unused)):
            return dict(self.placed)
        return None

    def _colour_ok(self, c: Cell) -> tuple[bool, int]:
        """(no cycle closed through ``c``, link ends of ``c`` pointing out of the cells)."""
        edges, part = self.occ[c]
        col = self.colour
        if col not in edges:
            return False, 0
        a = edges.index(col)
        outside = 0
        for end in (a, part[a]):
            n = (c[0] + DIRECTIONS[end][0], c[1] + DIRECTIONS[end][1])
            if n not in self.cells:
                outside += 1
        # walk from c out through a; a cycle comes back to c
        cur, e = c, a
        for _ in range(len(self.cells) + 1):
            n = (cur[0] + DIRECTIONS[e][0], cur[1] + DIRECTIONS[e][1])
            o = self.occ.get(n)
            if o is None:
                break
            entry = (e + 3) % 6
            if o[0][entry] != col:
                break
            if n == c:
                return False, outside
            cur, e = n, o[1][entry]
        return True, outside

    def _fill(self, i: int, ends: int, unused: set[int]) -> bool:
        """Fill the most constrained empty cell next to the tiles (fewest candidates) first."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _Restart
        if self.nodes & 1023 == 0 and time.monotonic() > self.deadline:
            raise _Timeout
        occ = self.occ
        if len(occ) == len(self.cells):
            return ends == 2
        frontier = [c for c in self.cells if c not in occ
                    and any((c[0] + dq, c[1] + dr) in occ for dq, dr in DIRECTIONS)]
        if not frontier:
            frontier = [self.order[0]]
        best: tuple[Cell, list] | None = None
        for c in sorted(frontier):
            cands = self._candidates(c, ends, unused)
            if best is None or len(cands) < len(best[1]):
                best = (c, cands)
                if not cands:
                    return False
        h, cands = best
        if self.rng is not None:
            self.rng.shuffle(cands)
        for t, k, edges, part in cands:
            occ[h] = (edges, part)
            ok, out = self._colour_ok(h)
            if ok and ends + out <= 2:
                self.placed[h] = Placement(t, k)
                unused.discard(t)
                if self._fill(i + 1, ends + out, unused):
                    return True
                unused.add(t)
                del self.placed[h]
            del occ[h]
        return False

    def _candidates(self, c: Cell, ends: int, unused: set[int]) -> list[tuple]:
        """Tiles and turns that match around ``c`` and keep at most two line ends outside."""
        facing = self._facing(c)
        out_edges = self.outside_edges[c]
        col = self.colour
        out = []
        pinned = self.pinned
        for t in sorted(unused):
            if pinned is not None and t == pinned[0] and c not in pinned[1]:
                continue
            for k, edges, part in self.rots[t]:
                if all(edges[e] == f for e, f in facing):
                    a = edges.index(col)
                    if ends + (a in out_edges) + (part[a] in out_edges) <= 2:
                        out.append((t, k, edges, part))
        return out

    def _facing(self, h: Cell) -> list[tuple[int, str]]:
        occ = self.occ
        out = []
        for e, (dq, dr) in enumerate(DIRECTIONS):
            n = occ.get((h[0] + dq, h[1] + dr))
            if n is not None:
                out.append((e, n[0][(e + 3) % 6]))
        return out


def _one_per_orbit(cells: frozenset[Cell]) -> frozenset[Cell]:
    """One cell of each orbit of the 120° turn that maps the triangle ``cells`` onto itself."""
    from .hexgrid import rotate_cell

    turned = [rotate_cell(c, 2) for c in cells]
    dq = min(c[0] for c in cells) - min(c[0] for c in turned)
    dr = min(c[1] for c in cells) - min(c[1] for c in turned)
    sigma = {c: (t[0] + dq, t[1] + dr) for c, t in zip(cells, turned)}
    if set(sigma.values()) != set(cells):
        return frozenset(cells)  # not symmetric this way: pin nothing
    keep: set[Cell] = set()
    seen: set[Cell] = set()
    for c in sorted(cells):
        if c in seen:
            continue
        orbit = {c, sigma[c], sigma[sigma[c]]}
        seen |= orbit
        keep.add(c)
    return frozenset(keep)


# ---------------------------------------------------------------------------------------
# Tangle search

class _TangleSearch:
    """Arrangements where every tile lies on a loop, checked against the puzzle at the end.

    Grows the group from one tile (fixed at (0, 0), rotation 0) by deciding, for the empty
    cell beside the group with most tile neighbours, either a matching tile for it or that
    it stays empty for good; each arrangement is met once.  Pruning: a cell kept empty with
    six tile neighbours is a hole; a tile whose every loop-colour link has an end against a
    cell kept empty can lie on no loop.  Complete arrangements go to ``check_puzzle``.
    """

    def __init__(self, puzzle: Puzzle, tiles: list[int], fixed: dict[Cell, Placement],
                 deadline: float) -> None:
        self.puzzle = puzzle
        self.deadline = deadline
        self.nodes = 0
        goal = puzzle.tangle
        named = set(goal.loops) if goal and goal.loops and goal.total is None else set()
        self.loop_colours = named or {"red", "yellow", "green", "blue"}
        # most loops of each colour a solution may have (closing one more is a dead end)
        if goal is not None and goal.loops and goal.total is None:
            self.max_loops = {c: goal.loops.get(c, 0) for c in ("red", "yellow", "green", "blue")}
        elif goal is not None and goal.total is not None:
            self.max_loops = {c: min(goal.total, goal.loops.get(c, goal.total))
                              for c in ("red", "yellow", "green", "blue")}
        else:
            self.max_loops = None
        self.closed = {"red": 0, "yellow": 0, "green": 0, "blue": 0}
        used = {p.tile for p in fixed.values()}
        self.unused = {t for t in tiles if t not in used}
        self.fixed = fixed
        self.rots = {t: [(k, rotated_edges(t, k), partners(t, k)) for k in range(6)] for t in tiles}

    def run(self) -> dict[Cell, Placement] | None:
        from .puzzles import check_puzzle

        self.placed: dict[Cell, Placement] = dict(self.fixed)
        self.occ: dict[Cell, tuple[str, ...]] = {c: p.edges for c, p in self.fixed.items()}
        self.empty: set[Cell] = set()
        if not self.placed:
            first = min(self.unused)
            self.placed[(0, 0)] = Placement(first, 0)
            self.occ[(0, 0)] = rotated_edges(first, 0)
            self.unused.discard(first)
        self.check = lambda b: check_puzzle(self.puzzle.name, b)["solved"]
        return dict(self.placed) if self._grow() else None

    def _grow(self) -> bool:
        self.nodes += 1
        if self.nodes & 1023 == 0 and time.monotonic() > self.deadline:
            raise _Timeout
        if not self.unused:
            return self.check(Board(dict(self.placed)))
        occ, empty = self.occ, self.empty
        best, best_k = None, -1
        for c in occ:
            for dq, dr in DIRECTIONS:
                n = (c[0] + dq, c[1] + dr)
                if n in occ or n in empty:
                    continue
                k = sum((n[0] + a, n[1] + b) in occ for a, b in DIRECTIONS)
                if k > best_k or (k == best_k and n < best):
                    best, best_k = n, k
        if best is None:
            return False
        h = best
        facing = _facing(occ, h)
        for t in sorted(self.unused):
            for k, edges, _ in self.rots[t]:
                if any(edges[e] != f for e, f in facing):
                    continue
                occ[h] = edges
                self.placed[h] = Placement(t, k)
                self.unused.discard(t)
                closed = self._closed_loops(h)
                for c in closed:
                    self.closed[c] += 1
                if self._loops_ok() and self._tile_ok(h) and self._grow():
                    return True
                for c in closed:
                    self.closed[c] -= 1
                self.unused.add(t)
                del occ[h]
                del self.placed[h]
        # or the cell stays empty for good
        if best_k == 6:
            return False  # a hole
        empty.add(h)
        ok = all(self._tile_ok((h[0] + dq, h[1] + dr)) for dq, dr in DIRECTIONS
                 if (h[0] + dq, h[1] + dr) in occ)
        if ok and self._grow():
            return True
        empty.discard(h)
        return False

    def _closed_loops(self, h: Cell) -> list[str]:
        """Colours of the loops that the tile just put on ``h`` closes."""
        out = []
        p = self.placed[h]
        part = partners(p.tile, p.rotation)
        edges = self.occ[h]
        for a in range(6):
            if a > part[a]:
                continue
            colour, cur, e = edges[a], h, a
            for _ in range(len(self.placed)):
                n = (cur[0] + DIRECTIONS[e][0], cur[1] + DIRECTIONS[e][1])
                if n not in self.occ:
                    break
                if n == h:
                    out.append(colour)
                    break
                q = self.placed[n]
                cur, e = n, partners(q.tile, q.rotation)[(e + 3) % 6]
        return out

    def _loops_ok(self) -> bool:
        m = self.max_loops
        return m is None or all(self.closed[c] <= m[c] for c in m)

    def _tile_ok(self, c: Cell) -> bool:
        """Can the tile on ``c`` still lie on a loop (no link end against a kept-empty cell)?"""
        p = self.placed[c]
        edges = self.occ[c]
        part = partners(p.tile, p.rotation)
        for e in range(6):
            if edges[e] in self.loop_colours and e < part[e]:
                ends = ((c[0] + DIRECTIONS[e][0], c[1] + DIRECTIONS[e][1]),
                        (c[0] + DIRECTIONS[part[e]][0], c[1] + DIRECTIONS[part[e]][1]))
                if not any(n in self.empty for n in ends):
                    return True
        return False


# ---------------------------------------------------------------------------------------
# public API

def _loop_targets(puzzle: Puzzle, fixed: dict[Cell, Placement]) -> list[tuple[list[int], str]]:
    """(tile set, colour) pairs to try for a loop puzzle."""
    if puzzle.alternatives:
        sets = [list(t) for t in puzzle.alternatives]
        if fixed:
            on = {p.tile for p in fixed.values()}
            sets = [s for s in sets if on <= set(s)]
        out = []
        for s in sets:
            common = set.intersection(*(set(TILES[t].edges) for t in s))
            out += [(s, c) for c in sorted(common)]
        return out
    return [(list(puzzle.tiles), puzzle.colour)]


def _search(puzzle: Puzzle, fixed: dict[Cell, Placement], deadline: float,
            stats: dict[str, int]) -> dict[Cell, Placement] | None:
    if puzzle.kind == "loop":
        for tiles, colour in _loop_targets(puzzle, fixed):
            if fixed and not any(colour in p.edges for p in fixed.values()):
                continue
            found = _restarting_loop_search(_order_tiles(tiles, colour), colour, fixed,
                                            deadline, stats)
            if found:
                return found
        return None
    if puzzle.kind == "pyramid":
        for cells in pyramid_placements(puzzle.rows, fixed):
            budget, seed = PYRAMID_RESTART_BASE, 0
            while True:
                if time.monotonic() > deadline:
                    raise _Timeout
                rng = random.Random(seed) if seed else None
                s = _PyramidSearch(list(puzzle.tiles), puzzle.colour, cells, fixed, deadline,
                                   rng, budget)
                try:
                    found = s.run()
                    break
                except _Restart:
                    budget = int(budget * 1.3) + 1
                    seed += 1
                finally:
                    stats["nodes"] += s.nodes
            if found:
                return found
        return None
    if not fixed:
        from .tangle_search import solve_tangle  # imports this module's helpers

        return solve_tangle(puzzle, deadline, stats)
    s = _TangleSearch(puzzle, list(puzzle.tiles), fixed, deadline)
    try:
        return s.run()
    finally:
        stats["nodes"] += s.nodes


def _restarting_loop_search(tiles: list[int], colour: str, fixed: dict[Cell, Placement],
                            deadline: float, stats: dict[str, int]) -> dict[Cell, Placement] | None:
    """Randomised restarts with a node budget growing by 30 % each time.

    Depth-first search has a heavy tail (a bad early choice is explored for long); short
    randomised runs escape it.  A run that ends within its budget has searched its whole
    tree, so its ``None`` proves there is no solution.
    """
    return with_restarts(lambda rng, budget: _LoopSearch(tiles, colour, fixed, deadline, rng, budget),
                         RESTART_BASE, deadline, stats)


def with_restarts(make_search, first_budget: int, deadline: float, stats: dict[str, int]):
    """Run ``make_search(rng, budget).run()`` with a node budget growing by 30 % per restart.

    The first run is deterministic (``rng=None``), later ones are seeded 1, 2, ...; a run
    raises ``_Restart`` when it exceeds its budget.  ``_Timeout`` once ``deadline`` passes.
    """
    budget, seed = first_budget, 0
    while True:
        if time.monotonic() > deadline:
            raise _Timeout
        s = make_search(random.Random(seed) if seed else None, budget)
        try:
            return s.run()
        except _Restart:
            budget = int(budget * 1.3) + 1
            seed += 1
        finally:
            stats["nodes"] += s.nodes
            stats["restarts"] = stats.get("restarts", 0) + 1


WALK_STATES = 800
"""Most (cell, entry, length) states one walk-to-closure test may visit before giving up."""
RESTART_BASE = 200
"""Node budget of the first randomised run of the loop search."""
PYRAMID_RESTART_BASE = 5000
"""Node budget of the first run of the pyramid search (grows by 30 % per restart)."""


def _order_tiles(tiles: list[int], colour: str) -> list[int]:
    """Start from the highest-numbered tile (the puzzle's own tile for Discovery)."""
    return sorted(tiles, reverse=True)


def solve(name: str, time_limit: float = 60.0) -> SolveResult:
    """Find a solution of puzzle ``name`` from its tile set within ``time_limit`` seconds.

    The solution board is built around (0, 0); check it with
    :func:`referee.puzzles.check_puzzle`.
    """
    puzzle = get_puzzle(name)
    t0 = time.monotonic()
    stats = {"nodes": 0}
    try:
        found = _search(puzzle, {}, t0 + time_limit, stats)
    except _Timeout:
        return SolveResult(name, "timeout", None, time.monotonic() - t0, stats["nodes"])
    status = "solved" if found else "impossible"
    board = Board(found) if found else None
    return SolveResult(name, status, board, time.monotonic() - t0, stats["nodes"])


def can_complete(name: str, board: Board, time_limit: float = 10.0) -> dict[str, Any]:
    """Hint engine: can the tiles on ``board`` be completed into a solution of ``name``?

    Returns ``{"puzzle", "completable", "reasons", "solution", "seconds"}``:
    ``completable`` is ``True`` (``solution`` is a completed board JSON keeping every tile
    where it is), ``False`` (``reasons`` say why) or ``None`` when the time ran out.
    """
    from .puzzles import fmt_cell, puzzle_tiles

    puzzle = get_puzzle(name)
    t0 = time.monotonic()
    want = set(puzzle_tiles(puzzle, board))
    reasons = [f"tile {p.tile} at {fmt_cell(c)} is not part of this puzzle"
               for c, p in sorted(board.tiles.items()) if p.tile not in want]
    reasons += [f"edge {fmt_cell(m.cell)}→{fmt_cell(m.neighbour)} {m.colours[0]}/{m.colours[1]}"
                for m in mismatches(board)]
    if puzzle.kind == "pyramid" and board.tiles and not pyramid_placements(puzzle.rows, board.tiles):
        reasons.append(f"the tiles do not fit inside any pyramid of {puzzle.rows} rows")
    if reasons:
        return {"puzzle": name, "completable": False, "reasons": reasons, "solution": None,
                "seconds": round(time.monotonic() - t0, 3)}
    stats = {"nodes": 0}
    try:
        found = _search(puzzle, dict(board.tiles), t0 + time_limit, stats)
    except _Timeout:
        return {"puzzle": name, "completable": None,
                "reasons": [f"no answer within {time_limit:g} s"], "solution": None,
                "seconds": round(time.monotonic() - t0, 3)}
    if found is None:
        return {"puzzle": name, "completable": False,
                "reasons": ["no completion exists with the tiles where they are"],
                "solution": None, "seconds": round(time.monotonic() - t0, 3)}
    return {"puzzle": name, "completable": True, "reasons": [],
            "solution": Board(found).to_json(), "seconds": round(time.monotonic() - t0, 3)}


# ---------------------------------------------------------------------------------------
# building positions to order (test boards, Loops patterns)

def loop_links(cycle: list[Cell], colour: str) -> dict[Cell, list[tuple[str, int, int]]]:
    """The link each cell of a closed ``cycle`` of neighbouring cells needs to carry it."""
    from .hexgrid import edge_between

    out: dict[Cell, list[tuple[str, int, int]]] = {}
    k = len(cycle)
    for i, c in enumerate(cycle):
        a = edge_between(c, cycle[i - 1])
        b = edge_between(c, cycle[(i + 1) % k])
        if a is None or b is None:
            raise ValueError(f"cells {cycle[i - 1]}, {c}, {cycle[(i + 1) % k]} are not a path")
        out.setdefault(c, []).append((colour, a, b))
    return out


def merge_links(*links: dict[Cell, list[tuple[str, int, int]]]) -> dict[Cell, list[tuple[str, int, int]]]:
    """Several :func:`loop_links` requirements together (loops that share tiles)."""
    out: dict[Cell, list[tuple[str, int, int]]] = {}
    for d in links:
        for cell, wanted in d.items():
            out.setdefault(cell, []).extend(wanted)
    return out


def arrange(cells: list[Cell], links: dict[Cell, list[tuple[str, int, int]]] | None = None,
            pool: list[int] | None = None, accept=None,
            time_limit: float = 5.0) -> Board | None:
    """Put distinct tiles of ``pool`` (default: all 56) on ``cells`` so that every touching
    edge matches and each cell carries the links asked in ``links`` (colour, edge, edge).

    ``accept(board)`` can refuse complete arrangements (e.g. with an unwanted extra loop).
    Returns ``None`` when nothing fits within ``time_limit`` seconds.
    """
    links = links or {}
    pool = sorted(pool or TILES)
    order = list(cells)
    deadline = time.monotonic() + time_limit
    placed: dict[Cell, Placement] = {}
    options: dict[Cell, list[tuple[int, int, tuple[str, ...]]]] = {}
    for c in order:
        opts = []
        for t in pool:
            for k in range(6):
                edges = rotated_edges(t, k)
                part = partners(t, k)
                if all(edges[a] == col and part[a] == b for col, a, b in links.get(c, ())):
                    opts.append((t, k, edges))
        options[c] = opts
    used: set[int] = set()
    counter = [0]

    def go(i: int) -> bool:
        counter[0] += 1
        if counter[0] & 1023 == 0 and time.monotonic() > deadline:
            raise _Timeout
        if i == len(order):
            return accept is None or accept(Board(dict(placed)))
        c = order[i]
        facing = [(e, placed[(c[0] + dq, c[1] + dr)].edges[(e + 3) % 6])
                  for e, (dq, dr) in enumerate(DIRECTIONS) if (c[0] + dq, c[1] + dr) in placed]
        for t, k, edges in options[c]:
            if t in used or any(edges[e] != f for e, f in facing):
                continue
            placed[c] = Placement(t, k)
            used.add(t)
            if go(i + 1):
                return True
            used.discard(t)
            del placed[c]
        return False

    try:
        return Board(dict(placed)) if go(0) else None
    except _Timeout:
        return None
