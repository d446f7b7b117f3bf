"""Named, seeded benchmark tiers of synthetic table photos, generated on demand and cached.

    python -m bench.datasets easy [--count N] [--force]      # make (or reuse) a tier
    python -m bench.datasets --list

Each tier is a directory (default ``~/.cache/tantrix/datasets/<tier>/``, or
``$TANTRIX_DATA/<tier>/``) holding ``NNNN.jpg`` photos, ``NNNN.json`` ground truth beside
each (CONTRACT board JSON + pixel centres, corners, loose/face-down/occluded tiles and every
rendering parameter, see scenegen) and ``manifest.json``.  Image ``i`` of a tier is always the
same picture: it depends only on the tier name and ``i``, so ``--count 20`` gives the first
20 images of the full tier and a cache made with a larger count is reused.

Boards: legal Strategy positions grown with the rules model (``referee.randomgame``), puzzle
solutions found by ``referee.solver``, positions with deliberate mismatches (so a reader
cannot assume that edges match), tight groups of touching tiles, and empty tables (no tile
on the table, sometimes loose or face-down tiles or clutter only) to measure invented tiles.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import os
import sys
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from referee.board import Board
from referee.matching import mismatches
from referee.randomgame import random_position
from referee.tiles import TILES

VERSION = 7
"""Bump when the generator changes enough that cached tiers must be rebuilt."""

SEED_VERSION = 6
"""The version named in every image's seed.  Kept when a generator fix changes only some
images, so that the others stay the same pictures and figures stay comparable (v7: tiles
no smaller than 20 px, ``scenegen.render.MIN_TILE_PX``; 4 of the first 120 hard images)."""

TIER_COUNTS = {"easy": 300, "hard": 300, "real-texture": 200, "video-720p": 200}

BOARD_KINDS = (("game", 0.45), ("puzzle", 0.17), ("mismatch", 0.2), ("tight", 0.1),
               ("empty", 0.08))

PUZZLES = ("discovery-3", "discovery-4", "discovery-5", "discovery-6", "discovery-7",
           "discovery-8", "discovery-9", "discovery-10", "discovery-12", "discovery-15",
           "rainbow-white", "rainbow-blue", "rainbow-yellow", "rainbow-green")


def data_root() -> Path:
    """Where tiers are cached: ``$TANTRIX_DATA`` or ``~/.cache/tantrix/datasets``."""
    env = os.environ.get("TANTRIX_DATA")
    return Path(env) if env else Path.home() / ".cache" / "tantrix" / "datasets"


def tier_dir(tier: str) -> Path:
    return data_root() / tier


def _seed(tier: str, index: int) -> int:
    h = hashlib.sha256(f"{tier}/{index}/v{SEED_VERSION}".encode()).digest()
    return int.from_bytes(h[:4], "little")


@lru_cache(maxsize=None)
def puzzle_solution(name: str) -> Board | None:
    """A solution of puzzle ``name`` from the referee's solver (None if it times out)."""
    from referee.solver import solve
    res = solve(name, time_limit=6.0)
    return res.board if res.status == "solved" else None


def _tile_count(rng: np.random.Generator) -> int:
    # mostly mid-size boards, some tiny and some full-table ones
    r = rng.random()
    if r < 0.1:
        return int(rng.integers(2, 5))
    if r < 0.8:
        return int(rng.integers(5, 31))
    return int(rng.integers(31, 57))


def with_mismatches(board: Board, rng: np.random.Generator, count: int = 2) -> Board:
    """A copy of ``board`` where ``count`` touching tiles are turned or swapped for spares
    so that at least one touching edge pair differs in colour."""
    out = board.copy()
    cells = [c for c in sorted(out.tiles) if out.tile_neighbours(c) > 0]
    if not cells:
        return out
    for _ in range(50):
        trial = out.copy()
        for c in rng.choice(len(cells), size=min(count, len(cells)), replace=False):
            cell = cells[int(c)]
            p = trial.tiles[cell]
            spare = sorted(set(TILES) - trial.numbers())
            if rng.random() < 0.5 or not spare:
                trial.tiles[cell] = type(p)(p.tile, (p.rotation + int(rng.integers(1, 6))) % 6)
            else:
                trial.remove(cell)
                trial.place(cell, int(rng.choice(spare)), int(rng.integers(6)))
        if mismatches(trial):
            return trial
    return out


def make_board(kind: str, rng: np.random.Generator) -> Board:
    """A board of the given kind (see module doc)."""
    seed = int(rng.integers(1 << 30))
    if kind == "empty":
        return Board()
    if kind == "puzzle":
        for _ in range(5):
            sol = puzzle_solution(str(rng.choice(PUZZLES)))
            if sol is not None:
                return sol.copy()
        kind = "game"
    board = random_position(_tile_count(rng), seed=seed)
    if kind == "mismatch":
        board = with_mismatches(board, rng, int(rng.integers(1, 4)))
    return board


def scene_spec(tier: str, index: int) -> tuple[Board, dict[str, Any], int, str]:
    """Board, rendering parameters, render seed and board kind of image ``index``."""
    from scenegen import random_params
    seed = _seed(tier, index)
    rng = np.random.default_rng(seed)
    kinds, weights = zip(*BOARD_KINDS)
    kind = str(rng.choice(kinds, p=np.array(weights) / sum(weights)))
    board = make_board(kind, rng)
    params = random_params(tier, rng)
    if kind == "tight":
        params["gap"] = round(float(rng.uniform(0.0, 0.008)), 4)
        params["jitter_pos"] = round(float(rng.uniform(0.0, 0.006)), 4)
    if kind == "empty" and rng.random() < 0.5:
        params["clutter"]["loose"] = 0
    params["board_kind"] = kind
    return board, params, seed, kind


def _conditions(truth: dict) -> dict[str, Any]:
    p = truth["render"]
    return {"tilt": p["tilt_deg"], "exposure": p["light"]["exposure"],
            "kelvin": p["light"]["kelvin"], "tile_px": p.get("tile_px_measured"),
            "table": p["table"]["kind"], "size": [p["width"], p["height"]]}


def _opencv() -> str:
    """The OpenCV version that renders the scenes.  The renderer's warps, blurs and JPEG
    coding are OpenCV's, and OpenCV 5.1 renders a few pixels in a thousand differently
    from 5.0 (hard-48, 20 px tiles under JPEG quality 60: the reader read 49 of its 54
    tiles as 5.0 renders it and 8 as 5.1 does), so a cache made by another version is
    rendered again rather than mixed with new images."""
    import cv2
    return cv2.__version__


def ensure_tier(tier: str, count: int | None = None, force: bool = False,
                progress: bool = True) -> list[Path]:
    """Make sure the first ``count`` images of ``tier`` exist; return their photo paths."""
    from scenegen import TIERS, render_to_file
    if tier not in TIERS:
        raise SystemExit(f"unknown tier {tier!r}; known: {', '.join(TIERS)}")
    count = TIER_COUNTS[tier] if count is None else count
    d = tier_dir(tier)
    d.mkdir(parents=True, exist_ok=True)
    man_path = d / "manifest.json"
    manifest = {"tier": tier, "version": VERSION, "opencv": _opencv(), "items": {}}
    if man_path.exists() and not force:
        try:
            old = json.loads(man_path.read_text())
            # (images rendered by another OpenCV are other pictures: see _opencv)
            if old.get("version") == VERSION and old.get("opencv") == _opencv():
                manifest = old
        except (OSError, ValueError):
            pass
    from tqdm import tqdm
    paths = []
    todo = [i for i in range(count)
            if force or f"{i:04d}" not in manifest["items"]
            or not (d / f"{i:04d}.jpg").exists() or not (d / f"{i:04d}.json").exists()]
    bar = tqdm(total=len(todo), desc=f"tier {tier}", unit="img", file=sys.stderr,
               disable=not progress or not todo)
    for i in range(count):
        stem = f"{i:04d}"
        if i in todo:
            board, params, seed, kind = scene_spec(tier, i)
            truth = render_to_file(board, d / f"{stem}.jpg", params, seed)
            (d / f"{stem}.json").write_text(json.dumps(truth, indent=1))
            manifest["items"][stem] = {"kind": kind, "tiles": len(truth["tiles"]),
                                       **_conditions(truth)}
            bar.update(1)
            if bar.n % 10 == 0:
                man_path.write_text(json.dumps(manifest, indent=1))
        paths.append(d / f"{stem}.jpg")
    bar.close()
    manifest["count"] = max(count, manifest.get("count", 0))
    man_path.write_text(json.dumps(manifest, indent=1))
    return paths


def main(argv: list[str] | None = None) -> int:
    from scenegen import TIERS
    ap = argparse.ArgumentParser(prog="python -m bench.datasets", description=__doc__.split("\n\n")[0])
    ap.add_argument("tier", nargs="?", choices=TIERS)
    ap.add_argument("--count", type=int, default=None, help="images to make (default: the whole tier)")
    ap.add_argument("--force", action="store_true", help="re-render even if cached")
    ap.add_argument("--list", action="store_true", help="list tiers and where they are cached")
    a = ap.parse_args(argv)
    if a.list or not a.tier:
        for t in TIERS:
            d = tier_dir(t)
            n = len(list(d.glob("*.jpg"))) if d.exists() else 0
            print(f"{t:14s} {TIER_COUNTS[t]:4d} images, {n} cached in {d}")
        return 0
    paths = ensure_tier(a.tier, a.count, a.force)
    print(f"{len(paths)} images in {tier_dir(a.tier)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
