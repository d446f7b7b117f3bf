"""Tantrix Strategy replay: judge a game from successive positions (RULES.md).

Each step between two positions is one player's turn (players move in the order given).
The later position is first laid onto the earlier one (translation and 60° turns, with
:func:`referee.compare.best_alignment`), then compared tile by tile:

* a tile gone, moved to another cell or turned is a violation;
* the new tiles are the turn's placements.  Their order is inferred: every order of them
  is replayed with :class:`referee.moves.MoveContext` (touching, matching and — while the
  bag has tiles — restraints 1 to 3), a placement on a forced space is a forced fill, any
  other one the free move; the order with the fewest violations is kept (forced fills
  before the free move preferred).  More than one free move in a turn is a violation.
* with visible hands (``hands`` in the position JSON: ``{"player": [tiles...]}``), a tile
  played that was not in the mover's hand, a free move made while a forced space could be
  filled from the hand, and a forced space left empty at the end of the turn though the
  mover's hand held a tile that legally fitted it (:func:`referee.moves.forced_fills`) are
  violations.

The bag is counted from the tiles on the table and in the hands: 56 − table − hands, where
hands not shown count as 6 tiles each (never more than the tiles left).  A placement is
free of restraints once the bag is empty; the player who draws the last tile is already
free (each placement is followed by a draw).  A position's own ``bag_empty: true`` also
lifts them.  Scores per player are the Strategy score of their colour after every turn.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any, Sequence

from .board import Board, Placement
from .compare import best_alignment, turned
from .errors import BadInput
from .gobbles import FORCED
from .hexgrid import Cell, neighbours
from .moves import MoveContext, forced_fills
from .paths import colour_paths
from .tiles import COLOURS

HAND_SIZE = 6
MAX_PERMUTED = 4  # turns with more placements and no clean order use a greedy order


@dataclass(frozen=True)
class Player:
    name: str
    colour: str


def parse_players(spec: Sequence[str] | None) -> list[Player]:
    """Players from ``NAME:COLOUR`` strings (or bare colours, named after them)."""
    out: list[Player] = []
    for item in spec or ():
        name, _, colour = item.rpartition(":")
        colour = colour.strip().lower()
        name = name.strip() or colour
        if colour not in COLOURS:
            raise BadInput(f"player {item!r}: colour must be one of {', '.join(COLOURS)}")
        if any(p.name == name for p in out):
            raise BadInput(f"player name {name!r} given twice")
        if any(p.colour == colour for p in out):
            raise BadInput(f"colour {colour} given to two players")
        out.append(Player(name, colour))
    if len(out) == 1 or len(out) > 4:
        raise BadInput("Strategy needs 2 to 4 players")
    return out


def _cell(c: Cell) -> list[int]:
    return [c[0], c[1]]


def _fmt(c: Cell) -> str:
    return f"({c[0]},{c[1]})"


def align(reference: Board, later: Board) -> tuple[dict[Cell, Placement], int, Cell]:
    """``later``'s tiles laid onto ``reference``'s frame: (tiles, turn steps, shift)."""
    steps, (dq, dr), _ = best_alignment(reference, later)
    tiles = {(q + dq, r + dr): p for (q, r), p in turned(later, steps).items()}
    return tiles, steps, (dq, dr)


def _hands(board: Board) -> dict[str, list[int]] | None:
    hands = board.meta.get("hands")
    if hands is None:
        return None
    if not isinstance(hands, dict) or not all(
            isinstance(v, list) and all(isinstance(t, int) and not isinstance(t, bool) and 1 <= t <= 56
                                        for t in v) for v in hands.values()):
        raise BadInput("'hands' must map player names to lists of tile numbers 1..56")
    return {str(k): list(v) for k, v in hands.items()}


def bag_count(board: Board, players: list[Player], hands: dict[str, list[int]] | None) -> int:
    """Tiles left in the bag: 56 minus the table minus the hands (6 for a hand not shown)."""
    left = 56 - len(board.tiles)
    shown = hands or {}
    left -= sum(len(v) for v in shown.values())
    if players:
        hidden = sum(1 for p in players if p.name not in shown)
    else:
        hidden = 0 if shown else 2
    left -= min(HAND_SIZE * hidden, max(left, 0))
    return max(left, 0)


def _replay_order(before: Board, order: list[tuple[Cell, Placement]], bag: int,
                  hand: list[int] | None) -> tuple[list[dict[str, Any]], list[str]]:
    """Replay placements in ``order``; return (placement records, violations)."""
    board = Board(dict(before.tiles), bag_empty=before.bag_empty)
    records: list[dict[str, Any]] = []
    problems: list[str] = []
    free_seen = 0
    for j, (cell, p) in enumerate(order):
        bag_empty = board.bag_empty or bag - j <= 0
        ctx = MoveContext(board, bag_empty)
        forced = ctx.counts.get(cell, 0) >= FORCED
        kind = "forced" if forced else "free"
        if not forced and hand is not None and free_seen == 0:
            fills = forced_fills(board, [t for t in hand if t not in board.numbers()], bag_empty)
            open_spaces = [c for c, f in fills.items() if f]
            if open_spaces:
                problems.append(
                    f"free move with tile {p.tile} at {_fmt(cell)} while the forced space at "
                    f"{_fmt(open_spaces[0])} could be filled from the hand "
                    f"(tile {fills[open_spaces[0]][0][0]})")
        if not forced:
            free_seen += 1
            if free_seen == 2:
                problems.append(f"a second free move: tile {p.tile} at {_fmt(cell)} "
                                f"(one free move per turn)")
        check = ctx.check(p.tile, cell, p.rotation)
        if not check.legal:
            problems.append(f"tile {p.tile} at {_fmt(cell)}: {check.reason}")
        records.append({"tile": p.tile, "cell": _cell(cell), "rotation": p.rotation, "kind": kind,
                        "legal": check.legal, "reason": check.reason or "legal",
                        "restraints": not bag_empty})
        board.tiles[cell] = p
    return records, problems


def _best_order(before: Board, added: dict[Cell, Placement], bag: int,
                hand: list[int] | None) -> tuple[list[dict[str, Any]], list[str]]:
    items = sorted(added.items())
    clean = _clean_order(before, items, bag, hand)
    if clean is not None:
        records, problems = _replay_order(before, clean, bag, hand)
        if not problems or len(items) > MAX_PERMUTED:
            return records, problems
    if len(items) > MAX_PERMUTED:
        return _replay_order(before, _greedy_order(before, items), bag, hand)
    best: tuple | None = None
    for perm in itertools.permutations(items):
        records, problems = _replay_order(before, list(perm), bag, hand)
        # fewest violations; then forced fills before the free move where possible
        free_pos = next((i for i, r in enumerate(records) if r["kind"] == "free"), len(records))
        key = (len(problems), -free_pos)
        if best is None or key < best[0]:
            best = (key, records, problems)
    assert best is not None
    return best[1], best[2]


def _clean_order(before: Board, items: list[tuple[Cell, Placement]], bag: int,
                 hand: list[int] | None = None,
                 budget: int = 20000) -> list[tuple[Cell, Placement]] | None:
    """An order in which every placement is legal, at most one is a free move, and (with a
    visible ``hand``) the free move comes when no forced space can be filled from the hand.

    Depth-first, forced fills tried first (so a free move comes as late as it can);
    ``None`` if there is none (or the search budget runs out).
    """
    board = Board(dict(before.tiles), bag_empty=before.bag_empty)
    order: list[tuple[Cell, Placement]] = []
    left = dict(items)
    count = [0]

    def go(free_used: bool) -> bool:
        if not left:
            return True
        count[0] += 1
        if count[0] > budget:
            return False
        bag_empty = board.bag_empty or bag - len(order) <= 0
        ctx = MoveContext(board, bag_empty)
        cands = []
        free_ok: bool | None = None
        for cell, p in left.items():
            forced = ctx.counts.get(cell, 0) >= FORCED
            if not forced:
                if free_used:
                    continue
                if free_ok is None:
                    free_ok = hand is None or not any(forced_fills(
                        board, [t for t in hand if t not in board.numbers()], bag_empty).values())
                if not free_ok:
                    continue
            if ctx.check(p.tile, cell, p.rotation).legal:
                cands.append((not forced, cell, p))
        for free, cell, p in sorted(cands, key=lambda c: (c[0], c[1])):
            del left[cell]
            board.tiles[cell] = p
            order.append((cell, p))
            if go(free_used or free):
                return True
            order.pop()
            del board.tiles[cell]
            left[cell] = p
        return False

    return order if go(False) else None


def _greedy_order(before: Board, items: list[tuple[Cell, Placement]]) -> list[tuple[Cell, Placement]]:
    """For big turns: repeatedly place the pending tile with most tile neighbours."""
    occ = set(before.tiles)
    todo = list(items)
    out = []
    while todo:
        todo.sort(key=lambda it: -sum(n in occ for n in neighbours(it[0])))
        it = todo.pop(0)
        occ.add(it[0])
        out.append(it)
    return out


def _scores(board: Board, players: list[Player]) -> dict[str, int]:
    if players:
        return {p.name: colour_paths(board, p.colour).score for p in players}
    return {c: colour_paths(board, c).score for c in COLOURS}


def replay(positions: Sequence[Board], players: Sequence[Player] | None = None,
           first: int = 0) -> dict[str, Any]:
    """Judge a game from successive positions; JSON-ready report.

    ``players`` move in turn starting with ``players[first]``; without players the
    report scores the four colours and names no mover.  Returns ``{"players", "turns",
    "final_scores", "winner", "violations"}``; each turn has ``turn``, ``player``,
    ``placed`` (in inferred order: tile, cell, rotation, kind forced/free, legal, reason),
    ``removed``/``moved``/``turned``, ``violations``, ``notes``, ``bag``, ``alignment``
    and ``scores``.  Cells are in the first position's frame.
    """
    players = list(players or [])
    if len(positions) < 2:
        raise BadInput("replay needs at least two positions")
    turns: list[dict[str, Any]] = []
    current = positions[0]
    for i in range(1, len(positions)):
        nxt = positions[i]
        tiles, steps, shift = align(current, nxt)
        mover = players[(first + i - 1) % len(players)] if players else None
        hands_before = _hands(current)
        hands_after = _hands(nxt)
        hand = None
        if mover is not None and hands_before is not None and mover.name in hands_before:
            hand = hands_before[mover.name]
        violations: list[str] = []
        notes: list[str] = []
        removed, moved, turned_ = [], [], []
        where_now = {p.tile: c for c, p in tiles.items()}
        for c, p in sorted(current.tiles.items()):
            c2 = where_now.get(p.tile)
            if c2 is None:
                removed.append({"tile": p.tile, "cell": _cell(c)})
                violations.append(f"tile {p.tile} removed from {_fmt(c)}")
            elif c2 != c:
                moved.append({"tile": p.tile, "from": _cell(c), "to": _cell(c2)})
                violations.append(f"tile {p.tile} moved from {_fmt(c)} to {_fmt(c2)}")
            elif tiles[c2].rotation != p.rotation:
                turned_.append({"tile": p.tile, "cell": _cell(c), "from": p.rotation,
                                "to": tiles[c2].rotation})
                violations.append(f"tile {p.tile} at {_fmt(c)} turned from rotation "
                                  f"{p.rotation} to {tiles[c2].rotation}")
        # judge the new tiles against the earlier position with the disturbed tiles as now
        kept = Board({c: p for c, p in current.tiles.items()
                      if where_now.get(p.tile) == c and tiles[c].rotation == p.rotation},
                     bag_empty=current.bag_empty)
        base_numbers = {p.tile for p in current.tiles.values()}
        added = {c: p for c, p in tiles.items() if p.tile not in base_numbers}
        for c, p in tiles.items():  # moved/turned tiles: judged as placed again
            if p.tile in base_numbers and c not in kept.tiles:
                added[c] = p
        bag = bag_count(current, players, hands_before)
        if hand is not None:
            # a tile drawn during the turn may be played in the same turn: at most one draw
            # per earlier placement, never a tile another player is seen holding
            others = {t for name, h in (hands_before or {}).items() if name != mover.name for t in h}
            unseen = [(c, p) for c, p in sorted(added.items())
                      if p.tile not in hand and p.tile not in base_numbers]
            draws = min(max(len(added) - 1, 0), bag)
            for k, (c, p) in enumerate(unseen):
                if p.tile in others:
                    violations.append(f"tile {p.tile} at {_fmt(c)} was in another player's hand, "
                                      f"not {mover.name}'s")
                elif k >= draws:
                    violations.append(f"tile {p.tile} at {_fmt(c)} was not in {mover.name}'s hand")
        records, problems = _best_order(kept, added, bag, hand)
        violations += problems
        frees = sum(r["kind"] == "free" for r in records)
        if added and frees == 0:
            notes.append("no free move this turn (only forced fills)")
        if not added:
            notes.append("no tile played")
        after = Board(dict(tiles), bag_empty=nxt.bag_empty)
        after.meta = dict(nxt.meta)  # keeps the visible hands for the next turn
        if mover is not None:
            end_hand = None
            if hands_after is not None and mover.name in hands_after:
                end_hand = hands_after[mover.name]
            elif hand is not None:
                end_hand = [t for t in hand if t not in after.numbers()]
            if end_hand:
                bag_after = bag_count(after, players, hands_after) if hands_after else max(bag - len(added), 0)
                fills = forced_fills(after, [t for t in end_hand if t not in after.numbers()],
                                     after.bag_empty or bag_after <= 0)
                for c, f in fills.items():
                    if f:
                        violations.append(
                            f"forced space at {_fmt(c)} left empty though {mover.name}'s tile "
                            f"{f[0][0]} fitted it")
        turns.append({
            "turn": i,
            "player": mover.name if mover else None,
            "colour": mover.colour if mover else None,
            "placed": records,
            "removed": removed,
            "moved": moved,
            "turned": turned_,
            "violations": violations,
            "notes": notes,
            "bag": bag,
            "alignment": {"rotation": steps, "shift": list(shift)},
            "scores": _scores(after, players),
        })
        current = after
    final = turns[-1]["scores"]
    best = max(final.values()) if final else 0
    leaders = [k for k, v in final.items() if v == best]
    return {
        "players": [{"name": p.name, "colour": p.colour} for p in players],
        "turns": turns,
        "final_scores": final,
        "winner": leaders[0] if len(leaders) == 1 and players else None,
        "tied": leaders if len(leaders) > 1 and players else [],
        "violations": sum(len(t["violations"]) for t in turns),
    }


def render_text(report: dict[str, Any]) -> str:
    """The replay report as lines for a terminal."""
    lines = []
    for t in report["turns"]:
        who = f"{t['player']} ({t['colour']})" if t["player"] else "?"
        lines.append(f"Turn {t['turn']}: {who}, bag {t['bag']}")
        for r in t["placed"]:
            mark = "ok " if r["legal"] else "BAD"
            lines.append(f"  {mark} {r['kind']:6} tile {r['tile']:2} at ({r['cell'][0]},{r['cell'][1]}) "
                         f"rot {r['rotation']}" + ("" if r["legal"] else f": {r['reason']}"))
        for v in t["violations"]:
            lines.append(f"  ! {v}")
        for n in t["notes"]:
            lines.append(f"  - {n}")
        lines.append("  scores: " + ", ".join(f"{k} {v}" for k, v in t["scores"].items()))
    if report["winner"]:
        lines.append(f"Winner: {report['winner']} with {report['final_scores'][report['winner']]}")
    elif report["tied"]:
        lines.append("Tied: " + ", ".join(report["tied"]))
    lines.append(f"Violations: {report['violations']}")
    return "\n".join(lines) + "\n"


def play_game(players: Sequence[Player], turns: int, seed: int = 0) -> list[Board]:
    """A legal Strategy game, one position per turn (the first one empty), for tests and
    benchmarks.  Positions carry the hands (``meta["hands"]``) as they are before each turn.

    Each turn fills forced spaces from the mover's hand while it can, makes one free move
    (a random legal one), then fills again; the hand is refilled from a shuffled bag.
    """
    import random

    rng = random.Random(seed)
    bag = list(range(1, 57))
    rng.shuffle(bag)
    hands = {p.name: [bag.pop() for _ in range(HAND_SIZE)] for p in players}
    board = Board()
    out = [_with_hands(board, hands)]
    for t in range(turns):
        p = players[t % len(players)]
        hand = hands[p.name]
        free_done = False
        while True:
            board.bag_empty = not bag
            fills = forced_fills(board, hand)
            fill = next(((c, f) for c, f in sorted(fills.items()) if f), None)
            if fill is not None:
                cell, options = fill
                n, rot = rng.choice(options)
            elif not free_done:
                free_done = True
                ctx = MoveContext(board)
                moves = [(n, c, k) for n in hand for c in ctx.candidate_cells() for k in range(6)
                         if ctx.check(n, c, k).legal]
                if not moves:
                    break
                n, cell, rot = rng.choice(moves)
            else:
                break
            board.place(cell, n, rot)
            hand.remove(n)
            if bag:
                hand.append(bag.pop())
        board.bag_empty = not bag
        out.append(_with_hands(board, hands))
        if not any(hands.values()):
            break
    return out


def _with_hands(board: Board, hands: dict[str, list[int]]) -> Board:
    b = Board(dict(board.tiles), bag_empty=board.bag_empty)
    b.meta["hands"] = {k: sorted(v) for k, v in hands.items()}
    return b
