"""Replay benchmark: speed of judging whole Strategy games, and how often injected
irregularities are caught.

Games come from referee.replay.play_game (legal play: forced fills, one free move, forced
fills; 2-4 players with visible hands).  Each game is replayed clean (every violation is a
false alarm) and then once per fault kind, injected into a random turn:

* removed: a tile already on the table disappears;
* turned: a tile on the table is turned by 60°;
* moved: a tile on the table moves to a far cell;
* skipped_fill: a turn that made forced fills with tiles already in the mover's hand keeps
  only its free move (the hand could fill the space);
* two_turns: two turns are photographed as one (two free moves).

    python bench/replay_bench.py [--games N]

Prints the figures and writes bench/results/replay.json.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tqdm import tqdm  # noqa: E402

from bench.outputs import write_json  # noqa: E402
from referee.board import Board, Placement  # noqa: E402
from referee.gobbles import FORCED  # noqa: E402
from referee.hexgrid import neighbours  # noqa: E402
from referee.replay import Player, play_game, replay  # noqa: E402

COLOURS = ("red", "yellow", "green", "blue")
FAULTS = ("removed", "turned", "moved", "skipped_fill", "two_turns")


def _copy(b: Board) -> Board:
    out = Board(dict(b.tiles), bag_empty=b.bag_empty)
    out.meta = {k: v for k, v in b.meta.items()}
    return out


def inject(positions: list[Board], kind: str, rng: random.Random):
    """A faulty copy of the game and the index of the step that holds the fault, or None."""
    steps = list(range(2, len(positions)))
    rng.shuffle(steps)
    for i in steps:
        before, after = positions[i - 1], _copy(positions[i])
        if kind == "two_turns":
            if i + 1 >= len(positions):
                continue
            return positions[:i] + positions[i + 1:], i - 1
        if kind == "skipped_fill":
            new = {c: p for c, p in after.tiles.items() if c not in before.tiles}
            occupied = set(before.tiles)
            free = [c for c in new if sum(n in occupied for n in neighbours(c)) < FORCED]
            forced = [c for c in new if c not in free]
            held = {t for h in before.meta.get("hands", {}).values() for t in h}
            if len(free) != 1 or not forced or not all(new[c].tile in held for c in forced):
                continue  # a fill with a tile drawn during the turn is not visible to judge
            cut = Board(dict(before.tiles), bag_empty=before.bag_empty)
            cut.tiles[free[0]] = new[free[0]]
            return positions[:i] + [cut], i - 1
        cells = sorted(before.tiles)
        if len(cells) < 2:
            continue  # one tile turned = the whole photo turned: nothing to see
        c = rng.choice(cells)
        p = after.tiles.pop(c)
        if kind == "turned":
            after.tiles[c] = Placement(p.tile, (p.rotation + 1) % 6)
        elif kind == "moved":
            far = (max(q for q, _ in after.tiles) + 5, 0)
            after.tiles[far] = p
        return positions[:i] + [after] + positions[i + 1:], i - 1
    return None


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=12)
    ap.add_argument("--out", default=str(ROOT / "bench" / "results" / "replay.json"))
    args = ap.parse_args(argv)
    rng = random.Random(7)
    clean_times, turns_total, false_alarms, tiles_total = [], 0, 0, 0
    caught = {k: 0 for k in FAULTS}
    tried = {k: 0 for k in FAULTS}
    for g in tqdm(range(args.games), file=sys.stderr, desc="games"):
        n = 2 + g % 3
        players = [Player(f"p{i + 1}", COLOURS[i]) for i in range(n)]
        positions = play_game(players, 200, seed=g)
        t0 = time.perf_counter()
        report = replay(positions, players)
        clean_times.append(time.perf_counter() - t0)
        turns_total += len(report["turns"])
        tiles_total += len(positions[-1].tiles)
        false_alarms += report["violations"]
        for kind in FAULTS:
            got = inject(positions, kind, rng)
            if got is None:
                continue
            faulty, step = got
            tried[kind] += 1
            r = replay(faulty, players)
            if r["turns"][step]["violations"]:
                caught[kind] += 1
    out = {
        "games": args.games,
        "turns": turns_total,
        "tiles_placed": tiles_total,
        "seconds_total_clean": round(sum(clean_times), 3),
        "ms_per_turn": round(1000 * sum(clean_times) / max(turns_total, 1), 2),
        "slowest_game_seconds": round(max(clean_times), 3),
        "false_alarms_on_clean_games": false_alarms,
        "faults": {k: {"injected": tried[k], "caught": caught[k]} for k in FAULTS},
    }
    write_json(args.out, out)
    print(json.dumps(out, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
