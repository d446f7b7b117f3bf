"""Regenerate ``sample_images/``: small realistic photos of chosen positions, with truth.

    python -m bench.make_samples [--out sample_images]

Every board is built with the rules model (legal play from ``referee.randomgame``, solutions
from ``referee.solver``, legal moves from ``referee.moves``) and every verdict in the README
table comes from ``referee.analysis.analyze`` / ``referee.puzzles.check_puzzle``, so nothing
here decides a rule.  Deterministic: same code, same files.
"""
from __future__ import annotations

import argparse
import json
import random
import sys
from pathlib import Path
from typing import Any, Callable

import cv2
import numpy as np

from referee.analysis import analyze
from referee.board import Board
from referee.moves import legal_moves
from referee.puzzles import check_puzzle
from referee.randomgame import random_position

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "sample_images"
MAX_BYTES = 150_000


# -- boards --------------------------------------------------------------------------------

def midgame() -> Board:
    """The clean mid-game kept as sample_images/midgame_clean.json (15 tiles, legal play)."""
    return random_position(15, seed=3)


def turned_tile(board: Board, cell=None) -> Board:
    """``board`` with one touching tile turned by one step: at least one mismatch."""
    out = board.copy()
    # a tile with few neighbours, so that the photo shows one or two mismatches, not five
    cells = [cell] if cell else sorted((c for c in out.tiles if out.tile_neighbours(c) > 0),
                                       key=lambda c: (out.tile_neighbours(c), c))
    for c in cells:
        p = out.tiles[c]
        for k in range(1, 6):
            out.tiles[c] = type(p)(p.tile, (p.rotation + k) % 6)
            if analyze(out, paths=False)["mismatches"]:
                return out
        out.tiles[c] = p
    raise RuntimeError("could not make a mismatch")


def _search(pred: Callable[[dict], bool], make: Callable[[int], Board | None], tries: int = 400) -> Board:
    for seed in range(tries):
        b = make(seed)
        if b is not None and pred(analyze(b, paths=False)):
            return b
    raise RuntimeError("no board found")


def _removed(seed: int, n: int, min_nb: int) -> Board | None:
    """A legal position with one inner tile taken away (the rest untouched)."""
    b = random_position(n, seed=seed)
    cells = [c for c in sorted(b.tiles) if b.tile_neighbours(c) >= min_nb]
    if not cells:
        return None
    out = b.copy()
    out.remove(random.Random(seed).choice(cells))
    return out if len(out.groups()) == 1 else None


def _free_move(seed: int, n: int, pred) -> Board | None:
    """A legal position plus one matching move that ignores the restraints (bag_empty rules)."""
    b = random_position(n, seed=seed)
    rng = random.Random(seed)
    spare = [t for t in range(1, 57) if t not in b.numbers()]
    rng.shuffle(spare)
    for t in spare[:12]:
        for cell, rot in legal_moves(b, t, bag_empty=True):
            trial = b.copy()
            trial.place(cell, t, rot)
            if pred(analyze(trial, paths=False)):
                return trial
    return None


def double_gobble() -> Board:
    return _search(lambda r: r["double_gobbles"] and not r["mismatches"] and not r["holes"],
                   lambda s: _removed(s, 18, 4))


def same_colour_gobble() -> Board:
    return _search(lambda r: r["same_colour_forced"] and not r["double_gobbles"] and not r["mismatches"],
                   lambda s: _free_move(s, 16, lambda r: r["same_colour_forced"] and not r["double_gobbles"]))


def controlled_side() -> Board:
    def adjacent_forced(r):
        return any(v["rule"] == 3 for v in r["restraint_violations"]) and not r["double_gobbles"] \
            and not r["same_colour_forced"]
    return _search(adjacent_forced, lambda s: _free_move(s, 16, adjacent_forced))


def finished_game() -> Board:
    b = random_position(56, seed=11)
    b.bag_empty = True
    return b


def gobble_position(n: int = 16, seed: int = 5) -> Board:
    """Tantrix Gobble: two matching tiles, then every tile touches at least two others."""
    rng = random.Random(seed)
    while True:
        bag = list(range(1, 57))
        rng.shuffle(bag)
        b = Board(bag_empty=True)
        b.place((0, 0), bag.pop(), 0)
        while len(b) < n and bag:
            placed = False
            for t in list(bag):
                moves = [(c, k) for c, k in legal_moves(b, t, bag_empty=True)
                         if len(b) < 2 or b.tile_neighbours(c) >= 2]
                if moves:
                    c, k = rng.choice(moves)
                    b.place(c, t, k)
                    bag.remove(t)
                    placed = True
                    break
            if not placed:
                break
        if len(b) == n:
            b.bag_empty = False
            return b


def grown_from(tiles: tuple[int, ...], seed: int = 0) -> Board:
    """The given tiles laid one by one on legal, matching cells (no restraints)."""
    rng = random.Random(seed)
    for _ in range(200):
        b = Board(bag_empty=True)
        todo = list(tiles)
        rng.shuffle(todo)
        ok = True
        for t in todo:
            moves = legal_moves(b, t, bag_empty=True)
            if not moves:
                ok = False
                break
            c, k = rng.choice(moves)
            b.place(c, t, k)
        if ok:
            b.bag_empty = False
            return b
    raise RuntimeError("tiles could not be laid")


def tangle_solution(name: str, limit: float = 120.0) -> Board | None:
    """A solution of Tangle puzzle ``name`` by a plain search over legal moves.

    Every tile of a Tangle lies on the goal loops, and entangled loops form one connected
    web, so each new tile can be put where a goal-colour link of the placed tiles ends in an
    empty cell; ``referee.puzzles.check_puzzle`` judges complete boards.  Deterministic.
    """
    import time

    from referee.hexgrid import neighbour
    from referee.puzzle_defs import get_puzzle
    puzzle = get_puzzle(name)
    colours = set(puzzle.tangle.loops)
    deadline = time.monotonic() + limit

    def open_ends(b: Board) -> set:
        return {neighbour(c, e) for c, p in b.tiles.items() for e, col in enumerate(p.edges)
                if col in colours and neighbour(c, e) not in b.tiles}

    def dfs(b: Board, left: frozenset) -> Board | None:
        if time.monotonic() > deadline:
            raise TimeoutError
        if not left:
            return b.copy() if check_puzzle(name, b)["solved"] else None
        ends = open_ends(b)
        for t in sorted(left):
            for cell, rot in legal_moves(b, t, bag_empty=True):
                if cell in ends:
                    b.place(cell, t, rot)
                    found = dfs(b, left - {t})
                    b.remove(cell)
                    if found is not None:
                        return found
        return None

    try:
        for first in puzzle.tiles:
            b = Board(bag_empty=True)
            b.place((0, 0), first, 0)
            found = dfs(b, frozenset(puzzle.tiles) - {first})
            if found is not None:
                found.bag_empty = False
                return found
    except TimeoutError:
        return None
    return None


def solution(name: str, limit: float = 30.0) -> Board:
    from referee.solver import solve
    res = solve(name, time_limit=limit)
    if res.board is None:
        raise RuntimeError(f"solver gave no solution for {name}: {res.status}")
    return res.board


def wrongly_solved(name: str, board: Board) -> Board:
    """A near-solution: the solution with one tile turned (the loop/line is broken)."""
    for c in sorted(board.tiles):
        out = board.copy()
        p = out.tiles[c]
        out.tiles[c] = type(p)(p.tile, (p.rotation + 3) % 6)
        if not check_puzzle(name, out)["solved"]:
            return out
    raise RuntimeError("could not break the solution")


# -- what to render ------------------------------------------------------------------------

def _params(**kw) -> dict[str, Any]:
    from scenegen import default_params
    p = default_params()
    p.update({"width": 960, "height": 720, "tile_px": 110.0, "tilt_deg": 22.0, "roll_deg": -8.0,
              "azimuth_deg": 80.0, "palette": "bright", "jpeg_quality": 80, "band": 0.2})
    p["light"].update({"sheen": 0.5, "glare": 1, "glare_strength": 0.35, "kelvin": 5000,
                       "white_balance": 0.8})
    for k, v in kw.items():
        if isinstance(v, dict):
            p[k] = {**p[k], **v}
        else:
            p[k] = v
    return p


def cases() -> list[dict[str, Any]]:
    """(stem, board builder, render params, what it shows, puzzle to check or None)."""
    disc = solution("discovery-10")
    rain = solution("rainbow-white")
    tangle_name = "tangle-two"
    try:
        tangle = solution(tangle_name, 10)
    except RuntimeError:  # referee.solver does not find this one quickly yet
        tangle = tangle_solution(tangle_name)
    mg = midgame()
    out = [
        dict(stem="midgame_clean", board=mg, params=_params(), puzzle=None,
             shows="clean mid-game, 15 tiles reached by legal play, light table"),
        dict(stem="midgame_mismatch", board=turned_tile(mg), params=_params(
             table={"kind": "wood"}, roll_deg=30.0, palette="classic"), puzzle=None,
             shows="the same mid-game with one tile turned: a colour mismatch, wooden table"),
        dict(stem="double_gobble", board=double_gobble(), params=_params(
             table={"kind": "dark"}, roll_deg=75.0), puzzle=None,
             shows="an empty cell with four tiles around it (double gobble) on a dark table"),
        dict(stem="same_colour_gobble", board=same_colour_gobble(), params=_params(
             table={"kind": "felt"}, roll_deg=-40.0, palette="mid"), puzzle=None,
             shows="a forced space where three links of one colour meet (can never be filled)"),
        dict(stem="controlled_side", board=controlled_side(), params=_params(roll_deg=140.0), puzzle=None,
             shows="two adjacent forced spaces: a controlled side was played"),
        dict(stem="finished_game", board=finished_game(), params=_params(
             width=1024, height=768, tile_px=70.0, tilt_deg=12.0, palette="classic"), puzzle=None,
             shows="all 56 tiles played (bag empty): score each colour's longest line/loop"),
        dict(stem="discovery10_solved", board=disc, params=_params(tilt_deg=35.0, roll_deg=0.0), puzzle="discovery-10",
             shows="Discovery 10 solved: one red loop through tiles 1-10"),
        dict(stem="discovery10_wrong", board=wrongly_solved("discovery-10", disc), params=_params(
             tilt_deg=30.0, roll_deg=20.0, table={"kind": "cloth-check"}), puzzle="discovery-10",
             shows="Discovery 10 with one tile turned round: the loop is broken"),
        dict(stem="rainbow_white_solved", board=rain, params=_params(roll_deg=-60.0, palette="mid"),
             puzzle="rainbow-white", shows="Rainbow white (9 white-backed tiles): one blue loop"),
        dict(stem="rainbow_white_wrong", board=wrongly_solved("rainbow-white", rain), params=_params(
             roll_deg=10.0, table={"kind": "wood"}), puzzle="rainbow-white",
             shows="Rainbow white with one tile turned: no loop through all nine"),
        dict(stem="gobble_game", board=gobble_position(), params=_params(
             roll_deg=200.0, table={"kind": "dark"}, palette="classic"), puzzle=None,
             shows="a Tantrix Gobble position: every tile touches at least two others"),
        dict(stem="dim_oblique", board=mg, params=_params(
             tilt_deg=48.0, roll_deg=-25.0, tile_px=120.0,
             light={"exposure": 0.38, "kelvin": 2900, "white_balance": 0.2, "vignette": 0.45,
                    "gradient": 0.5}, noise=3.0, blur={"focus": 1.0, "motion": 0.0, "motion_angle": 0}),
             puzzle=None, shows="the clean mid-game again, dim warm light, steep 48° view, noisy"),
        dict(stem="busy_tablecloth", board=random_position(12, seed=8), params=_params(
             table={"kind": "cloth-floral", "seed": 7}, roll_deg=15.0,
             clutter={"loose": 2, "face_down": 1, "occluder": "none"}), puzzle=None,
             shows="12 tiles on a busy floral cloth, two loose tiles and one face down beside"),
        dict(stem="tight_group", board=random_position(20, seed=21), params=_params(
             gap=0.0, jitter_pos=0.0, jitter_deg=0.3, tile_px=95.0, roll_deg=33.0), puzzle=None,
             shows="20 tiles pushed tightly together (no gaps)"),
        dict(stem="hand_over_board", board=random_position(14, seed=4), params=_params(
             clutter={"loose": 1, "face_down": 0, "occluder": "hand"}, roll_deg=-70.0), puzzle=None,
             shows="a hand reaching over the Tantrix (tiles listed under occluded)"),
    ]
    if tangle is not None:
        out.insert(10, dict(stem="tangle_two_solved", board=tangle, params=_params(roll_deg=50.0),
                            puzzle=tangle_name, shows="Tangle 'two': red and yellow loops entangled"))
        wrong = wrongly_solved(tangle_name, tangle)
        shows = "Tangle 'two' with one tile turned: loops broken"
    else:
        wrong = grown_from((2, 7, 15, 26, 31, 45), seed=2)
        shows = "the six Tangle 'two' tiles laid matching but without the two loops"
    out.insert(11 if tangle is not None else 10, dict(
        stem="tangle_two_wrong", board=wrong, params=_params(roll_deg=-15.0, palette="classic"),
        puzzle=tangle_name, shows=shows))
    return out


def verdict(board: Board, puzzle: str | None) -> str:
    """One line of what a referee says about ``board`` (from referee's own reports)."""
    if puzzle:
        v = check_puzzle(puzzle, board)
        return f"`{puzzle}`: " + ("solved" if v["solved"] else "not solved — " + "; ".join(v["reasons"][:2]))
    r = analyze(board)
    bits = []
    if r["mismatches"]:
        bits.append(f"{len(r['mismatches'])} mismatch(es) at " +
                    ", ".join(f"{tuple(m['cell'])}/{tuple(m['neighbour'])}" for m in r["mismatches"]))
    if r["double_gobbles"]:
        bits.append("double gobble at " + ", ".join(str(tuple(c)) for c in r["double_gobbles"]))
    if r["same_colour_forced"]:
        bits.append("same-colour forced space at " + ", ".join(str(tuple(c)) for c in r["same_colour_forced"]))
    rv = [v for v in r.get("restraint_violations", []) if v["rule"] == 3]
    if rv:
        bits.append("controlled side played (adjacent forced spaces " +
                    ", ".join(" & ".join(str(tuple(c)) for c in v["cells"]) for v in rv) + ")")
    fs = [c["cell"] for c in r["forced_spaces"]]
    if fs and not (r["double_gobbles"] or r["same_colour_forced"]):
        bits.append(f"{len(fs)} forced space(s)")
    if r["holes"]:
        bits.append(f"{len(r['holes'])} hole cell(s)")
    if not bits:
        bits.append("no faults")
    sc = ", ".join(f"{c} {v['score']}" for c, v in r["colours"].items())
    return "; ".join(bits) + f"; scores {sc}"


def contact_sheet(items: list[tuple[str, np.ndarray]], cols: int = 4, w: int = 320) -> np.ndarray:
    cells = []
    for stem, img in items:
        h = int(img.shape[0] * w / img.shape[1])
        t = cv2.resize(img, (w, h), interpolation=cv2.INTER_AREA)
        t = cv2.copyMakeBorder(t[:240], 0, max(0, 240 - t[:240].shape[0]) + 22, 2, 2,
                               cv2.BORDER_CONSTANT, value=(255, 255, 255))
        cv2.putText(t, stem, (6, t.shape[0] - 7), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 1, cv2.LINE_AA)
        cells.append(t)
    while len(cells) % cols:
        cells.append(np.full_like(cells[0], 255))
    rows = [np.hstack(cells[i:i + cols]) for i in range(0, len(cells), cols)]
    return np.vstack(rows)


def make(out: Path = OUT) -> list[dict[str, Any]]:
    from tqdm import tqdm

    from scenegen import render_scene
    out.mkdir(parents=True, exist_ok=True)
    rows, thumbs = [], []
    todo = cases()
    for i, case in enumerate(tqdm(todo, desc="samples", unit="img", file=sys.stderr)):
        params = dict(case["params"])
        for _ in range(6):  # keep every sample small enough to commit
            img, truth, jpg = render_scene(case["board"], params, seed=100 + i)
            if len(jpg) <= MAX_BYTES:
                break
            params["jpeg_quality"] = int(params["jpeg_quality"]) - 8
        (out / f"{case['stem']}.jpg").write_bytes(jpg)
        truth["render"]["sample"] = case["shows"]
        (out / f"{case['stem']}.json").write_text(json.dumps(truth, indent=1) + "\n")
        rows.append({"stem": case["stem"], "shows": case["shows"], "tiles": len(case["board"]),
                     "says": verdict(case["board"], case["puzzle"]), "kb": len(jpg) // 1024})
        thumbs.append((case["stem"], img))
    sheet = contact_sheet(thumbs)
    cv2.imwrite(str(out / "contact_sheet.jpg"), sheet, [cv2.IMWRITE_JPEG_QUALITY, 80])
    (out / "README.md").write_text(readme(rows))
    return rows


def readme(rows: list[dict[str, Any]]) -> str:
    lines = [
        "# Sample images",
        "",
        "Synthetic photos of Tantrix tables rendered by `scenegen` (regenerate with",
        "`python -m bench.make_samples`). Beside each `NAME.jpg` is `NAME.json`: the ground truth",
        "in CONTRACT board JSON (`tiles` with q, r, tile, rotation, plus per tile the `pixel` centre",
        "and the 6 `corners` of its top face, `image`, `loose`, `face_down`, `occluded`, and every",
        "rendering parameter under `render`). Any of the JSON files can be given to",
        "`tantrix analyze` directly; the photos are for `tantrix read` / `tantrix analyze PHOTO`.",
        "",
        "The verdicts below are what the referee (`referee.analysis`, `referee.puzzles`) says",
        "about the true board; a reader that gets every tile right must lead to the same verdict.",
        "Cells named in a verdict are in the frame of the truth JSON; a reader may choose another",
        "frame (boards compare up to translation and 60° turns, CONTRACT.md).",
        "",
        "![contact sheet](contact_sheet.jpg)",
        "",
        "| photo | tiles | what it shows | what a referee should say |",
        "|---|---|---|---|",
    ]
    for r in rows:
        lines.append(f"| `{r['stem']}.jpg` | {r['tiles']} | {r['shows']} | {r['says']} |")
    lines.append("")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.make_samples", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=OUT)
    a = ap.parse_args(argv)
    rows = make(a.out)
    for r in rows:
        print(f"{r['stem']:24s} {r['kb']:4d} KB  {r['says']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
