"""Tangle puzzle search: build the named loops one after another.

Every tile of a Tangle solution lies on one of its loops, so a solution can be built by
tracing loops: the first loop starts from one tile at (0, 0) rotation 0 and is grown tile
by tile along its colour (each step puts an unused tile on the cell its open end points
at, in one of the two rotations that bring the colour to that edge, matching every tile
around it; a step into a tile already on the table just follows that tile's link) until
it closes.  Each further loop starts from an open line of a tile already on the table
(so it shares a tile with the loops before it: entangled), or, for a puzzle with an
"inner" loop, from a new tile beside the group.  Tiles are only ever placed by a trace,
so when the tiles run out every tile is on a closed loop.

Pruning, all read from the puzzle definition: loops closed by a placement (also of other
colours, through the tile's other links) may not exceed the puzzle's count per colour or
in total; a loop with a shape word (circle, 6-tile triangle) or one of the "identical"
loops is capped in length and checked for its shape when it closes; a spoke loop starts
from a line through the hub loop's tiles (the hub is traced first); the last loop must
take every tile left; an empty region the tiles enclose must be fillable (no more cells
than tiles left, each cell matchable by some tile left).  Randomised restarts with a
growing node budget avoid the heavy tail of depth-first search.  Complete arrangements
are verified with :func:`referee.puzzles.check_puzzle`.
"""
from __future__ import annotations

import random
import time

from .board import Board, Placement
from .hexgrid import DIRECTIONS, Cell, distance
from .puzzle_defs import Puzzle
from .shapes import congruent, is_circle, is_triangle
from .solver import _Restart, _Timeout, _box, _facing, _flood, with_restarts
from .tiles import COLOURS, TILES, partners, rotated_edges

LEAD_WITH_CAPPED = True
LEAD_WITH_HUB = True
FILL_MAX = 3
"""Most tiles left over, on no loop, once every loop is closed."""
RESTART_BASE = 3000
"""Node budget of the first randomised run (grows by 30 % per restart)."""


SHAPE_TURNS = {"circle": {2}, "triangle": {1, 3}, "triangle6": {1, 3}}
"""Links a shaped loop can use (edges apart: 1 corner, 2 bend, 3 straight): a 6-tile ring
is six bends; a triangle's border runs straight along its sides and turns by corners."""


def _colours_of(edges) -> list[str]:
    """A tile's colours in a fixed order (a set's order changes with the hash seed)."""
    return [c for c in COLOURS if c in edges]


def _step(c: Cell, e: int) -> Cell:
    return (c[0] + DIRECTIONS[e][0], c[1] + DIRECTIONS[e][1])


class TangleLoopSearch:
    """One depth-first run (optionally shuffled, optionally node-limited)."""

    def __init__(self, puzzle: Puzzle, deadline: float, rng: random.Random | None = None,
                 max_nodes: int | None = None) -> None:
        from .puzzles import check_puzzle

        self.puzzle = puzzle
        self.goal = goal = puzzle.tangle
        self.deadline = deadline
        self.rng = rng
        self.max_nodes = max_nodes
        self.nodes = 0
        self.check = lambda b: check_puzzle(puzzle.name, b)["solved"]
        tiles = list(puzzle.tiles)
        # how many loops of each colour may close, and in total
        if goal.loops and goal.total is None:
            self.max_loops = {c: goal.loops.get(c, 0) for c in COLOURS}
            self.total = sum(goal.loops.values())
        elif goal.total is not None:
            named = sum(goal.loops.values())
            self.max_loops = {c: goal.loops.get(c, goal.total - named) for c in COLOURS}
            self.total = goal.total
        else:
            self.max_loops = {c: len(tiles) for c in COLOURS}
            self.total = None
        self.exact = self.total is not None
        self.caps = {c: 6 for c, s in goal.shapes.items() if s in ("circle", "triangle6")}
        # (tile, colour, entry edge) -> [(rotation, edges, partners)]
        self.opts: dict[tuple[int, str, int], list] = {}
        for t in tiles:
            for k in range(6):
                edges, part = rotated_edges(t, k), partners(t, k)
                for e in range(6):
                    self.opts.setdefault((t, edges[e], e), []).append((k, edges, part))
        self.tiles = tiles

    # -- state helpers --------------------------------------------------------------------

    def _walk(self, cell: Cell, out: int, stop: Cell) -> tuple[Cell, int, list[Cell]] | None:
        """Follow a line leaving ``cell`` through ``out``: the open end (cell, edge, cells
        passed) or ``None`` when it comes back to ``stop`` (a closed loop)."""
        occ, part = self.occ, self.part
        cells = []
        while True:
            n = _step(cell, out)
            if n not in occ:
                return cell, out, cells
            if n == stop:
                return None
            cells.append(n)
            out = part[n][(out + 3) % 6]
            cell = n

    def _line(self, cell: Cell, colour: str):
        """The line of ``colour`` through ``cell``: (cells, end A, end B) or (cells, None,
        None) for a closed loop; ends are (cell, edge) pointing at empty cells."""
        a = self.occ[cell].index(colour)
        b = self.part[cell][a]
        wb = self._walk(cell, b, cell)
        if wb is None:
            loop = [cell]
            c, out = cell, b
            while True:
                n = _step(c, out)
                if n == cell:
                    return loop, None, None
                loop.append(n)
                out = self.part[n][(out + 3) % 6]
                c = n
        wa = self._walk(cell, a, cell)
        cells = list(reversed(wa[2])) + [cell] + wb[2]
        return cells, (wa[0], wa[1]), (wb[0], wb[1])

    def _place(self, h: Cell, t: int, k: int, edges, part) -> None:
        self.occ[h] = edges
        self.part[h] = part
        self.placed[h] = Placement(t, k)
        self.unused.discard(t)

    def _unplace(self, h: Cell) -> None:
        self.unused.add(self.placed[h].tile)
        del self.occ[h], self.part[h], self.placed[h]

    def _closures(self, h: Cell) -> list[tuple[str, list[Cell]]]:
        """Loops the tile on ``h`` closes: (colour, cells)."""
        out = []
        for colour in _colours_of(self.occ[h]):
            cells, a, _ = self._line(h, colour)
            if a is None:
                out.append((colour, cells))
        return out

    def _loop_ok(self, colour: str, cells: list[Cell]) -> bool:
        shape = self.goal.shapes.get(colour)
        if shape == "circle" and not is_circle(cells):
            return False
        if shape == "triangle6" and not is_triangle(cells, 6):
            return False
        if shape == "triangle" and not is_triangle(cells):
            return False
        goal = self.goal
        if goal.hub and (colour == goal.hub or colour in goal.spokes):
            mine = set(cells)
            for c2, other in self.loops:
                pair = {colour, c2}
                if goal.hub in pair and pair & set(goal.spokes) and not mine & set(other):
                    return False
        ident = self.goal.identical
        if colour in ident:
            for c2, other in self.loops:
                if c2 in ident and c2 != colour and not congruent(cells, other):
                    return False
        return True

    def _partial_shape_ok(self, h: Cell, colour: str) -> bool:
        """A circle's open line must still lie around one centre cell; a triangle's must
        turn one way by corners only, at most three, with equal sides between them."""
        shape = self.goal.shapes.get(colour)
        if shape in ("triangle", "triangle6"):
            return self._triangle_ok(h, colour)
        if shape != "circle":
            return True
        cells, _, _ = self._line(h, colour)
        centres = None
        for c in cells:
            around = {_step(c, e) for e in range(6)}
            centres = around if centres is None else centres & around
        return bool(centres - set(cells))

    def _triangle_ok(self, h: Cell, colour: str) -> bool:
        cells, a, _ = self._line(h, colour)
        cur, into = a  # the first cell and its open edge
        runs, corners, sign = [0], 0, None
        for _ in cells:
            out = self.part[cur][into]
            turn = (out - into - 3) % 6
            if turn in (1, 5):
                return False
            if turn:
                if sign is not None and turn != sign:
                    return False
                sign = turn
                corners += 1
                runs.append(0)
            else:
                runs[-1] += 1
            cur, into = _step(cur, out), (out + 3) % 6
        if corners > 3:
            return False
        inner = runs[1:-1]
        if inner:
            side = inner[0]
            if any(r != side for r in inner) or runs[0] > side or runs[-1] > side:
                return False
            if corners == 3 and runs[0] + runs[-1] > side:
                return False
        return True

    def _commit_closures(self, closed) -> bool:
        """Record closed loops; False (nothing recorded) when they break the counts/shapes."""
        for colour, cells in closed:
            if not self._loop_ok(colour, cells):
                return False
        add: dict[str, int] = {}
        for colour, _ in closed:
            add[colour] = add.get(colour, 0) + 1
        for colour, k in add.items():
            if self.count[colour] + k > self.max_loops[colour]:
                return False
        if self.total is not None and self.n_loops + len(closed) > self.total:
            return False
        for colour, cells in closed:
            self.count[colour] += 1
            self.loops.append((colour, cells))
        self.n_loops += len(closed)
        return True

    def _uncommit(self, closed) -> None:
        for colour, _ in closed:
            self.count[colour] -= 1
            self.loops.pop()
        self.n_loops -= len(closed)

    def _can_open(self, colour: str) -> bool:
        return (self.count[colour] < self.max_loops[colour]
                and (self.total is None or self.n_loops < self.total))

    def _regions_ok(self, h: Cell) -> bool:
        """Empty regions enclosed by the tiles: few enough cells, each cell fillable."""
        occ = self.occ
        bits = [_step(h, e) in occ for e in range(6)]
        if sum(1 for i in range(6) if bits[i] and not bits[i - 1]) < 2 and not all(bits):
            return True
        box = _box(occ)
        need = 0
        seen: set[Cell] = set()
        for e in range(6):
            c = _step(h, e)
            if c in occ or c in seen:
                continue
            region, escapes = _flood(c, occ, box)
            seen |= region
            if escapes:
                continue
            need += len(region)
            if need > len(self.unused):
                return False
            for cell in region:
                if not self._fillable(cell):
                    return False
        return True

    def _fillable(self, cell: Cell) -> bool:
        facing = _facing(self.occ, cell)
        if not facing:
            return True
        e0, c0 = facing[0]
        for t in self.unused:
            for k, edges, part in self.opts.get((t, c0, e0), ()):
                if all(edges[e] == c for e, c in facing):
                    return True
        return False

    def _tick(self) -> None:
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise _Restart
        if self.nodes & 511 == 0 and time.monotonic() > self.deadline:
            raise _Timeout

    # -- search -----------------------------------------------------------------------------

    def run(self) -> dict[Cell, Placement] | None:
        self.occ: dict[Cell, tuple[str, ...]] = {}
        self.part: dict[Cell, tuple[int, ...]] = {}
        self.placed: dict[Cell, Placement] = {}
        self.unused = set(self.tiles)
        self.count = {c: 0 for c in COLOURS}
        self.n_loops = 0
        self.loops: list[tuple[str, list[Cell]]] = []
        goal = self.goal
        # the first loop: the hub's when there is one (spokes then start on its tiles), else
        # a loop through one pinned tile, in each of its colours that may make a loop
        lead = self._lead_colour()
        if lead is not None:
            starts = [(t, lead) for t in self.tiles if lead in TILES[t].edges]
        else:
            pool = list(self.tiles)
            if self.rng is not None:
                self.rng.shuffle(pool)
            first = pool[0]
            starts = [(first, c) for c in COLOURS
                      if c in TILES[first].edges and self.max_loops[c] > 0]
            # shape-capped colours first, then colours that need the most loops
            starts.sort(key=lambda s: (s[1] not in self.caps, -goal.loops.get(s[1], 0)))
        if self.rng is not None and lead is not None:
            self.rng.shuffle(starts)
        for t, colour in starts:
            self._place((0, 0), t, 0, rotated_edges(t, 0), partners(t, 0))
            if self._start_line((0, 0), colour):
                return dict(self.placed)
            self._unplace((0, 0))
        return None

    def _lead_colour(self) -> str | None:
        """The colour traced first: a length-capped one (the hub's if capped), else the hub."""
        goal = self.goal
        if goal.hub in self.caps:
            return goal.hub
        if self.caps and LEAD_WITH_CAPPED:
            return sorted(self.caps)[0]
        return goal.hub if LEAD_WITH_HUB else None

    def _start_line(self, cell: Cell, colour: str) -> bool:
        cells, a, b = self._line(cell, colour)
        return self._trace(colour, a, b, len(cells))

    def _trace(self, colour: str, head: tuple[Cell, int], tail: tuple[Cell, int],
               length: int) -> bool:
        """Extend the open ``colour`` line of ``length`` cells at ``head`` until it closes."""
        self._tick()
        if not self.unused:
            return False
        hc, he = head
        h = _step(hc, he)
        entry = (he + 3) % 6
        target = _step(*tail)
        cap = self.caps.get(colour)
        ident = [len(lp) for c2, lp in self.loops if c2 in self.goal.identical and c2 != colour]
        if colour in self.goal.identical and ident:
            cap = ident[0] if cap is None else min(cap, ident[0])
        gap = distance(h, target) + 1  # cells still to pass, the closing one included
        if cap is not None and length + gap > cap:
            return False
        # each cell still to pass takes a tile left or a tile already placed off this line
        if gap - (len(self.placed) - length) > len(self.unused):
            return False
        facing = _facing(self.occ, h)
        cands = []
        occ = self.occ
        turns = SHAPE_TURNS.get(self.goal.shapes.get(colour))
        for t in self.unused:
            for k, edges, part in self.opts.get((t, colour, entry), ()):
                if turns is not None and min((part[entry] - entry) % 6,
                                             (entry - part[entry]) % 6) not in turns:
                    continue
                if all(edges[e] == c for e, c in facing):
                    nxt = _step(h, part[entry])
                    touch = sum(_step(nxt, e) in occ for e in range(6))
                    cands.append((-touch, t, k, edges, part))
        if self.rng is not None:
            self.rng.shuffle(cands)
            cands.sort(key=lambda x: x[0])
        else:
            cands.sort()
        for _, t, k, edges, part in cands:
            self._place(h, t, k, edges, part)
            closed = self._closures(h)
            if self._commit_closures(closed):
                mine = any(c == colour for c, _ in closed)
                if self._regions_ok(h) and (mine or self._partial_shape_ok(h, colour)):
                    if mine:
                        ok = self._next_loop()
                    else:
                        w = self._walk(h, part[entry], h)
                        ok = w is not None and self._trace(
                            colour, (w[0], w[1]), tail, length + 1 + len(w[2]))
                    if ok:
                        return True
                self._uncommit(closed)
            self._unplace(h)
        return False

    def _next_loop(self) -> bool:
        """All traced loops are closed: start the next one, or check a full arrangement."""
        self._tick()
        if not self.unused:
            return self.check(Board(dict(self.placed)))
        if self.exact and self.n_loops >= self.total:
            return self._fill()
        goal = self.goal
        hub_cells = None
        if goal.hub:
            hub = [lp for c, lp in self.loops if c == goal.hub]
            hub_cells = set(hub[0]) if hub else set()
        lines = []
        seen = set()
        for cell in self.placed:
            for colour in _colours_of(self.occ[cell]):
                if not self._can_open(colour) or (colour, cell) in seen:
                    continue
                cells, a, b = self._line(cell, colour)
                for c in cells:
                    seen.add((colour, c))
                if a is None:
                    continue
                if hub_cells is not None and colour in goal.spokes and not hub_cells & set(cells):
                    continue
                lines.append((colour not in self.caps, -len(cells), colour, a, b, len(cells)))
        if self.rng is not None:
            self.rng.shuffle(lines)
            lines.sort(key=lambda x: x[:1])
        else:
            lines.sort(key=lambda x: x[:2])
        for _, _, colour, a, b, n in lines:
            # grow from the end whose empty cell touches more tiles (the tighter spot)
            ta = sum(_step(_step(*a), e) in self.occ for e in range(6))
            tb = sum(_step(_step(*b), e) in self.occ for e in range(6))
            head, tail = (a, b) if ta >= tb else (b, a)
            if self._trace(colour, head, tail, n):
                return True
        if goal.inner:
            return self._start_inner()
        return False

    def _fill(self) -> bool:
        """Every loop is closed but a few tiles are left (e.g. the centre of a circle): put
        them beside the group on no loop, holes first (the checker asks for no tile on a
        loop except in Crop Circles, where this is never reached)."""
        if len(self.unused) > FILL_MAX or self.goal.every_tile_on_loop:
            return False
        occ = self.occ
        empty = {_step(c, e) for c in occ for e in range(6)} - set(occ)
        box = _box(occ)
        holes = [c for c in empty if not _flood(c, occ, box)[1]]
        cells = sorted(holes or empty,
                       key=lambda c: -sum(_step(c, e) in occ for e in range(6)))
        if holes:
            cells = cells[:1]  # a hole must be filled: branching on which one is redundant
        for h in cells:
            facing = _facing(occ, h)
            for t in sorted(self.unused):
                for k in range(6):
                    edges = rotated_edges(t, k)
                    if any(edges[e] != c for e, c in facing):
                        continue
                    self._place(h, t, k, edges, partners(t, k))
                    closed = self._closures(h)
                    if not closed and self._regions_ok(h) and self._next_loop():
                        return True
                    self._unplace(h)
        return False

    def _start_inner(self) -> bool:
        """A loop that may share no tile: start it from a new tile beside the group."""
        colour = self.goal.inner
        if not self._can_open(colour):
            return False
        frontier = sorted({_step(c, e) for c in self.occ for e in range(6)} - set(self.occ))
        for h in frontier:
            facing = _facing(self.occ, h)
            for t in sorted(self.unused):
                for k in range(6):
                    edges, part = rotated_edges(t, k), partners(t, k)
                    if colour not in edges or any(edges[e] != c for e, c in facing):
                        continue
                    self._place(h, t, k, edges, part)
                    closed = self._closures(h)
                    if self._commit_closures(closed):
                        if self._regions_ok(h) and self._start_line(h, colour):
                            return True
                        self._uncommit(closed)
                    self._unplace(h)
        return False


def solve_tangle(puzzle: Puzzle, deadline: float, stats: dict[str, int]) -> dict[Cell, Placement] | None:
    """Randomised restarts of :class:`TangleLoopSearch` until ``deadline``.

    A run that ends within its node budget has searched its whole tree; ``None`` then means
    no arrangement with every tile on a traced loop exists.
    """
    return with_restarts(lambda rng, budget: TangleLoopSearch(puzzle, deadline, rng, budget),
                         RESTART_BASE, deadline, stats)
