"""Recognition benchmark: run a photo reader over a synthetic tier and score it.

    python -m bench.recognition --tier easy --reader vision:read_photo [--count N]
    python -m bench.recognition --tier hard --reader tantrix          # the `tantrix read` command
    python -m bench.recognition --tier easy --reader oracle           # reads the truth (100 %)
    python -m bench.recognition --tier easy --reader degraded-oracle  # truth with errors

A reader is a Python callable ``path -> board JSON dict`` (or ``referee.board.Board``) named
``module:function``, e.g. ``vision:read_photo``, or
``tantrix`` for the ``tantrix read PHOTO`` command (JSON on stdout).  Figures:

- detection precision / recall: reader tiles (``tiles`` and ``loose``, by their ``pixel``)
  matched one-to-one to true tiles whose top-face centre is within 0.45 tile widths; a true
  tile more than half hidden (``occluded``) is not counted as missed; face-down tiles are
  neither wanted nor counted as false.
- identity accuracy: boards aligned up to translation and 60° turns
  (``referee.compare.best_alignment``); share of true tiles whose cell holds the same tile
  number with the same rotation.  Also apart: identity over the tiles that no hand or object
  covers (under 10 % hidden), and for the covered ones how many were read right and how
  many were guessed wrong (read as another tile or rotation; the issue wants them reported
  unreadable instead) and how many were reported unreadable (an ``unreadable`` cell on
  them, aligned as the tiles are).
- recall's misses split into board tiles (under half hidden; a tile reported as an
  unreadable cell is not detected) and loose tiles (``recall_misses``).
- loose tiles named right: share of the true loose tiles that a reader's loose tile
  within 0.45 tile widths names by the right number (rotation not scored: a loose tile
  lies on no lattice).
- unreadable cells: the reader's ``unreadable`` list (cells it says hold a tile it could
  not read), split into those on a true tile (within 0.45 tile widths, face-down tiles
  included) and those where no tile lies.  The referee counts an unreadable cell as
  occupied, so one on the table hides a hole or a forced space.
- position accuracy: after the best occupancy alignment, |true ∩ read cells| / |true ∪ read|.
- perfect-board rate: read position is the true position (``referee.compare.same_position``).
  Also "perfect but for covered tiles": every tile read is right and every tile no hand or
  object covers is read (a covered tile left out or reported unreadable does not count
  against the board; one guessed wrong does).
- empty tables: share of board-free photos where the reader invents no tile (gives none
  away from a true face-up tile, board or loose: a face-down tile read is invented), and,
  stricter, where it gives no board tile at all (a lone loose tile is given as a one-tile
  board by the reader: the first tile of a game).
- time per image (median, p95; wall clock of the reader call), and the same figures broken
  down by tilt, light, tile size, table, board kind.

Writes ``bench/results/recognition-<tier>-<reader>.json`` and ``.md``.
"""
from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import math
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, Callable

import numpy as np

from bench.outputs import RESULTS, write_report
from referee.board import Board
from referee.compare import best_alignment, same_position, turned
from referee.hexgrid import rotate_cell
from vision.acceptance import CHECK_CONFIDENCE

# -- readers -------------------------------------------------------------------------------

def truth_path(photo: str | Path) -> Path:
    return Path(photo).with_suffix(".json")


def oracle(photo: str | Path) -> dict:
    """A perfect reader: returns the ground truth saved beside the photo."""
    t = json.loads(truth_path(photo).read_text())
    return {"tiles": t["tiles"], "loose": t.get("loose", []), "image": t.get("image")}


def degraded_oracle(photo: str | Path) -> dict:
    """The truth with typical reader mistakes, deterministically per photo: a missed tile,
    a tile read one turn off, a near-neighbour confusion, a tile invented on an empty table."""
    out = oracle(photo)
    h = int.from_bytes(hashlib.sha256(Path(photo).name.encode()).digest()[:8], "little")
    rng = np.random.default_rng(h)
    tiles = [dict(t) for t in out["tiles"]]
    if tiles and rng.random() < 0.3:
        tiles.pop(int(rng.integers(len(tiles))))
    if tiles and rng.random() < 0.3:
        t = tiles[int(rng.integers(len(tiles)))]
        t["rotation"] = (t["rotation"] + 1) % 6
    if tiles and rng.random() < 0.15:
        t = tiles[int(rng.integers(len(tiles)))]
        used = {x["tile"] for x in tiles} | {x.get("tile") for x in out["loose"]}
        t["tile"] = next(n for n in range(1, 57) if n not in used)
    if not tiles and rng.random() < 0.3:
        w = (out.get("image") or {}).get("width", 100)
        tiles.append({"q": 0, "r": 0, "tile": 1, "rotation": 0, "pixel": [w / 2, w / 3]})
    out["tiles"] = tiles
    return out


def _command_reader(photo: str | Path) -> dict:
    p = subprocess.run(["tantrix", "read", str(photo)], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(p.stderr.strip().splitlines()[-1] if p.stderr.strip() else f"exit {p.returncode}")
    return json.loads(p.stdout)


def load_reader(spec: str) -> Callable[[str], dict]:
    """``oracle``, ``degraded-oracle``, ``tantrix`` or ``module:function``."""
    if spec == "oracle":
        return oracle
    if spec == "degraded-oracle":
        return degraded_oracle
    if spec == "tantrix":
        return _command_reader
    if ":" not in spec:
        raise SystemExit(f"reader {spec!r}: give module:function, 'tantrix' or 'oracle'")
    mod, fn = spec.split(":", 1)
    return getattr(importlib.import_module(mod), fn)


def reader_name(spec: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", spec.replace(":", "."))


# -- scoring one image ---------------------------------------------------------------------

def _board(tiles: list[dict]) -> Board:
    b = Board()
    for t in tiles:
        try:
            b.place((int(t["q"]), int(t["r"])), int(t["tile"]), int(t["rotation"]) % 6)
        except Exception:  # a reader's duplicate or malformed tile: skip it, it scores nothing
            continue
    return b


def occupancy_overlap(truth: Board, read: Board) -> tuple[int, int]:
    """Best (|∩|, |∪|) of occupied cells over translations and 60° turns of ``read``."""
    tc = set(truth.tiles)
    if not tc or not read.tiles:
        return 0, len(tc | set(read.tiles))
    best = 0
    for steps in range(6):
        cells = list(turned(read, steps))
        offsets = {(a[0] - b[0], a[1] - b[1]) for a in tc for b in cells}
        for dq, dr in offsets:
            n = sum(1 for q, r in cells if (q + dq, r + dr) in tc)
            best = max(best, n)
    return best, len(tc) + len(read.tiles) - best


MATCH = 0.45
"""A reader's pixel matches a true tile within this many tile widths."""


def _width(corners: list) -> float:
    """A true tile's width in pixels (corner to opposite corner)."""
    return max(float(np.linalg.norm(np.subtract(corners[0], corners[3]))), 1.0)


def _pixels(items: list) -> list:
    """The ``pixel`` [x, y] of each of a reader's items (tiles, loose tiles, unreadable
    cells) that gives one; malformed items are skipped."""
    return [t["pixel"] for t in items
            if isinstance(t, dict) and isinstance(t.get("pixel"), (list, tuple))]


def _hidden_shares(truth: dict) -> dict[tuple[int, int], float]:
    """Share of each true tile's top face a hand or object hides, by cell (the renderer's
    ``occluded`` fractions; tiles not listed hide nothing)."""
    return {(o["q"], o["r"]): float(o.get("fraction", 0)) for o in truth.get("occluded", [])}


def _loose_read(read: dict) -> list[tuple[list, Any]]:
    """(pixel, tile number) of each of a reader's loose tiles that gives a pixel."""
    return [(t["pixel"], t.get("tile")) for t in read.get("loose") or []
            if isinstance(t, dict) and isinstance(t.get("pixel"), (list, tuple))]


def _nearest_loose(pixel: list, width: float, got: list[tuple[list, Any]]) -> tuple[float, Any] | None:
    """(distance, number) of the reader's loose tile (``got``: :func:`_loose_read`) nearest
    to a true tile at ``pixel`` of ``width`` px, if one lies within :data:`MATCH` widths."""
    near = [(math.dist(pixel, q), n) for q, n in got if math.dist(pixel, q) < MATCH * width]
    return min(near) if near else None


def _detections(truth: dict, read: dict) -> tuple[int, int, int, int]:
    """(true positives, reader detections counted, true tiles wanted, true loose tiles
    among the wanted that no reader tile matched): a board tile and a loose tile count
    alike in recall, and the last figure says how much of its shortfall is loose tiles."""
    hidden = {c for c, f in _hidden_shares(truth).items() if f > 0.5}
    objs = [(t["pixel"], (t["q"], t["r"]) in hidden, t["corners"]) for t in truth["tiles"]]
    objs += [(t["pixel"], False, t["corners"]) for t in truth.get("loose", [])]
    ignore = [t["pixel"] for t in truth.get("face_down", [])]
    dets = _pixels(list(read.get("tiles", [])) + list(read.get("loose") or []))
    widths = [_width(c) for _, _, c in objs]
    used, tp = set(), 0
    counted = 0
    for d in dets:
        best, bi = None, None
        for i, (p, _, _) in enumerate(objs):
            if i in used:
                continue
            dist = math.dist(d, p)
            if dist < MATCH * widths[i] and (best is None or dist < best):
                best, bi = dist, i
        if bi is not None:
            used.add(bi)
            tp += 1
            counted += 1
        elif not any(math.dist(d, f) < MATCH * (np.median(widths) if widths else 50) for f in ignore):
            counted += 1
    wanted = sum(1 for i, (_, hid, _) in enumerate(objs) if not hid or i in used)
    loose_missed = sum(1 for i in range(len(truth["tiles"]), len(objs)) if i not in used)
    return tp, counted, wanted, loose_missed


COVERED = 0.1
"""A true tile is *covered* when a hand or an object hides at least this share of its top
face (the renderer's ``occluded`` fractions).  The issue wants such a tile reported
unreadable rather than guessed, so covered tiles are also counted apart."""


def _unreadable_cells(truth: dict, read: dict) -> tuple[int, int]:
    """(unreadable cells the reader reported, those of them where no tile lies)."""
    objs = [(t["pixel"], t.get("corners")) for t in
            list(truth["tiles"]) + list(truth.get("loose", [])) + list(truth.get("face_down", []))]
    widths = [_width(c) for _, c in objs if c]
    width = float(np.median(widths)) if widths else 50.0
    cells = _pixels(read.get("unreadable") or [])
    empty = sum(1 for u in cells if not any(math.dist(u, p) < MATCH * width for p, _ in objs))
    return len(cells), empty


def _aligned(read_board: Board, steps: int, offset: tuple[int, int], unreadable: list | None
             ) -> tuple[dict, set]:
    """The read's placements and its ``unreadable`` cells, turned and shifted onto the
    truth's cells as :func:`referee.compare.best_alignment` found."""
    placed = {(q + offset[0], r + offset[1]): p for (q, r), p in turned(read_board, steps).items()}
    flagged = {_align_cell(u, steps, offset) for u in unreadable or [] if _has_cell(u)}
    return placed, flagged - set(placed)


def _has_cell(item: Any) -> bool:
    """Is ``item`` a read's dict with integer ``q`` and ``r``?"""
    return isinstance(item, dict) and isinstance(item.get("q"), int) and isinstance(item.get("r"), int)


def _align_cell(item: dict, steps: int, offset: tuple[int, int]) -> tuple[int, int]:
    """The truth's cell of a read item's ``(q, r)``, turned and shifted as
    :func:`referee.compare.best_alignment` found."""
    q, r = rotate_cell((item["q"], item["r"]), steps)
    return q + offset[0], r + offset[1]


def _given(read: dict, tb: Board, placed: dict, steps: int, offset: tuple[int, int]
           ) -> list[list]:
    """Each board tile the read gives, as ``[confidence, right]`` (its confidence ``None``
    when the read gives none; right: its aligned placement, ``placed`` of :func:`_aligned`,
    is the true one; ``None`` where no true board tile lies: a loose tile given as a
    one-tile board on an empty table is counted apart, as ``empty_table_clean_rate``)."""
    out = []
    for t in read.get("tiles", []):
        if not _has_cell(t):
            continue
        cell = _align_cell(t, steps, offset)
        conf = t.get("confidence")
        out.append([conf if isinstance(conf, (int, float)) else None,
                    None if cell not in tb.tiles else placed.get(cell) == tb.tiles[cell]])
    return out


def _checks(given: list[list]) -> dict[str, Any]:
    """What marking the tiles read under ``vision.acceptance.CHECK_CONFIDENCE`` (the
    companion page's ``LOW_CONFIDENCE`` default) does to one image's ``given``
    (:func:`_given`): tiles given in cells holding a true tile, those given wrong, how
    many of those the mark catches, and how many tiles given right it marks."""
    given = [g for g in given if g[1] is not None]
    low = [g for g in given if g[0] is not None and g[0] < CHECK_CONFIDENCE]
    return {"given": len(given),
            "given_wrong": sum(not ok for _c, ok in given),
            "wrong_marked": sum(not ok for _c, ok in low),
            "right_marked": sum(ok for _c, ok in low)}


def tile_misses(truth: dict, read: dict, tb: Board, placed: dict, flagged: set
                ) -> list[dict[str, Any]]:
    """Each true board tile the aligned read did not give right, with what became of it:
    ``wrong`` (another tile or rotation in its cell; ``read`` = [tile, rotation]),
    ``unreadable`` (reported an unreadable cell), ``loose`` (given as a loose tile within
    :data:`MATCH` widths of it; ``read`` = [tile]) or ``missing``; ``covered`` is the share
    of its face a hand or object hides, ``width`` its width in pixels."""
    hidden = _hidden_shares(truth)
    loose = _loose_read(read)
    out = []
    for t in truth["tiles"]:
        cell = (t["q"], t["r"])
        got, want = placed.get(cell), tb.tiles.get(cell)
        if got == want:
            continue
        w = _width(t["corners"])
        miss: dict[str, Any] = {"tile": t["tile"], "q": cell[0], "r": cell[1],
                                "covered": round(hidden.get(cell, 0.0), 2), "width": round(w, 1)}
        near = _nearest_loose(t["pixel"], w, loose)
        if got is not None:
            miss.update(outcome="wrong", read=[got.tile, got.rotation])
        elif cell in flagged:
            miss["outcome"] = "unreadable"
        elif near:
            miss.update(outcome="loose", read=[near[1]])
        else:
            miss["outcome"] = "missing"
        out.append(miss)
    return out


def _covered_outcomes(truth: dict, tb: Board, placed: dict, flagged: set) -> dict[str, int]:
    """Covered true tiles, and how many of them the aligned read (``placed``, ``flagged``:
    :func:`_aligned`) got right or wrong (a different tile or rotation in that cell: a
    guess) or reported unreadable; the rest were not given."""
    covered = {c for c, f in _hidden_shares(truth).items() if f >= COVERED} & set(tb.tiles)
    right = sum(1 for c in covered if placed.get(c) == tb.tiles[c])
    wrong = sum(1 for c in covered if c in placed and placed[c] != tb.tiles[c])
    return {"covered": len(covered), "covered_right": right, "covered_wrong": wrong,
            "covered_unreadable": len(covered & flagged)}


def _invented(truth: dict, read: dict) -> int:
    """Reader tiles (``tiles`` and ``loose``, by their ``pixel``) lying :data:`MATCH` tile
    widths or more from every true face-up tile, board or loose: tiles where none shows
    its face (a face-down tile read as a tile is invented too).  A true loose tile given
    as a one-tile board is not: it lies there, and is counted by the loose figures."""
    objs = [(t["pixel"], _width(t["corners"])) for t in
            list(truth["tiles"]) + list(truth.get("loose", []))]
    dets = _pixels(list(read.get("tiles", [])) + list(read.get("loose") or []))
    return sum(1 for d in dets if not any(math.dist(d, p) < MATCH * w for p, w in objs))


def loose_named(truth: dict, read: dict) -> list[tuple[int, Any]]:
    """Each true loose tile as (its number, the number the reader's loose tile nearest to
    it within :data:`MATCH` widths gives, ``None`` if none lies there)."""
    got = _loose_read(read)
    out = []
    for t in truth.get("loose", []):
        near = _nearest_loose(t["pixel"], _width(t["corners"]), got)
        out.append((t["tile"], None if near is None else near[1]))
    return out


def _loose_numbers(truth: dict, read: dict) -> tuple[int, int]:
    """(true loose tiles, those a reader's loose tile within :data:`MATCH` widths of it
    names by the right number).  A loose tile's rotation is not scored: it lies on no
    lattice, so the two sides need not count its turn from the same edge."""
    named = loose_named(truth, read)
    return len(named), sum(got == tile for tile, got in named)


def score_image(truth: dict, read: dict | None) -> dict[str, Any]:
    """All per-image figures for one reader answer (``None`` = the reader failed)."""
    read = read or {"tiles": []}
    tb, rb = _board(truth["tiles"]), _board(read.get("tiles", []))
    steps, offset, agree = 0, (0, 0), 0
    if tb.tiles and rb.tiles:
        steps, offset, agree = best_alignment(tb, rb)
    placed, flagged = _aligned(rb, steps, offset, read.get("unreadable"))
    inter, union = occupancy_overlap(tb, rb)
    tp, dets, wanted, loose_missed = _detections(truth, read)
    unread, unread_empty = _unreadable_cells(truth, read)
    loose, loose_right = _loose_numbers(truth, read)
    row = {
        "truth_tiles": len(tb), "read_tiles": len(rb), "agree": int(agree),
        "cells_inter": inter, "cells_union": union,
        "tp": tp, "detections": dets, "wanted": wanted, "loose_missed": loose_missed,
        "perfect": bool(same_position(tb, rb)),
        "unreadable": unread, "unreadable_empty": unread_empty,
        "loose_tiles": loose, "loose_right": loose_right, "invented": _invented(truth, read),
        **_covered_outcomes(truth, tb, placed, flagged),
        "misses": tile_misses(truth, read, tb, placed, flagged),
        "checks": _checks(_given(read, tb, placed, steps, offset)),
    }
    # perfect but for covered tiles: every tile given is right and every tile no hand or
    # object covers is given (a covered tile may be left out or reported unreadable)
    row["perfect_uncovered"] = bool(
        row["agree"] == row["read_tiles"]
        and row["agree"] - row["covered_right"] == row["truth_tiles"] - row["covered"])
    return row


def conditions(truth: dict) -> dict[str, str]:
    """Condition bins of a shot, for the breakdown tables."""
    p = truth["render"]
    tilt = p["tilt_deg"]
    L = p["light"]
    px = p.get("tile_px_measured") or p["tile_px"]
    return {
        "tilt": "0-15°" if tilt < 15 else "15-30°" if tilt < 30 else "30-50°",
        "light": "dim" if L["exposure"] < 0.65 else ("warm" if L["kelvin"] < 3800 and L["white_balance"] < 0.5
                                                     else "normal"),
        "size": "<35px" if px < 35 else "35-70px" if px < 70 else "70-140px" if px < 140 else ">140px",
        "table": p["table"]["kind"],
        "board": p.get("board_kind", "?"),
    }


def summarise(rows: list[dict]) -> dict[str, Any]:
    """Aggregate per-image rows into the headline figures (micro-averaged over tiles)."""
    def ratio(a, b):
        return round(a / b, 4) if b else None
    n = len(rows)
    tiles = sum(r["truth_tiles"] for r in rows)
    empty = [r for r in rows if r["truth_tiles"] == 0]
    times = [r["seconds"] for r in rows if r.get("seconds") is not None]
    return {
        "images": n,
        "tiles": tiles,
        "detection_precision": ratio(sum(r["tp"] for r in rows), sum(r["detections"] for r in rows)),
        "detection_recall": ratio(sum(r["tp"] for r in rows), sum(r["wanted"] for r in rows)),
        # the true tiles recall missed, board tiles (under half hidden) and loose tiles
        "recall_misses": {"board": sum(r["wanted"] - r["tp"] - r.get("loose_missed", 0) for r in rows),
                          "loose": sum(r.get("loose_missed", 0) for r in rows)},
        "identity_accuracy": ratio(sum(r["agree"] for r in rows), tiles),
        # the same over tiles no hand or object covers, and what became of covered ones
        "identity_uncovered": ratio(sum(r["agree"] - r.get("covered_right", 0) for r in rows),
                                    tiles - sum(r.get("covered", 0) for r in rows)),
        "covered_tiles": sum(r.get("covered", 0) for r in rows),
        "covered_right": sum(r.get("covered_right", 0) for r in rows),
        "covered_wrong": sum(r.get("covered_wrong", 0) for r in rows),
        "covered_unreadable": sum(r["covered_unreadable"] for r in rows),
        # what became of the uncovered tiles not read right (see tile_misses)
        "uncovered_misses": _miss_counts(rows),
        # loose tiles beside the Tantrix found and named by the right number
        "loose_tiles": sum(r.get("loose_tiles", 0) for r in rows),
        "loose_right": ratio(sum(r.get("loose_right", 0) for r in rows),
                             sum(r.get("loose_tiles", 0) for r in rows)),
        # tiles given wrong, and what the page's low-confidence mark catches of them
        "checks": {"below": CHECK_CONFIDENCE, **{k: sum(r.get("checks", {}).get(k, 0) for r in rows)
                                            for k in _checks([])}},
        "unreadable_cells": sum(r.get("unreadable", 0) for r in rows),
        "unreadable_empty": sum(r.get("unreadable_empty", 0) for r in rows),
        "position_accuracy": ratio(sum(r["cells_inter"] for r in rows), sum(r["cells_union"] for r in rows)),
        "perfect_board_rate": ratio(sum(r["perfect"] for r in rows), n),
        "perfect_uncovered_rate": ratio(sum(r["perfect_uncovered"] for r in rows), n),
        "empty_tables": len(empty),
        # no tile given where no face-up tile lies; and, stricter, no board tile given at
        # all (a lone loose tile is given as a one-tile board: the first tile of a game)
        "empty_table_uninvented_rate": ratio(sum(r["invented"] == 0 for r in empty), len(empty)),
        "empty_table_clean_rate": ratio(sum(r["read_tiles"] == 0 for r in empty), len(empty)),
        "reader_errors": sum(1 for r in rows if r.get("error")),
        "median_seconds": round(float(np.median(times)), 4) if times else None,
        "p95_seconds": round(float(np.percentile(times, 95)), 4) if times else None,
    }


def run(tier: str, reader_spec: str, count: int | None = None, progress: bool = True,
        start: int = 0) -> dict[str, Any]:
    """Benchmark ``reader_spec`` on ``count`` images of ``tier`` (all when ``None``) from
    image number ``start`` on; return the report."""
    from tqdm import tqdm

    from bench.datasets import ensure_tier
    photos = ensure_tier(tier, None if count is None else start + count, progress=progress)[start:]
    reader = load_reader(reader_spec)
    rows = []
    for photo in tqdm(photos, desc=f"reading {tier}", unit="img", file=sys.stderr, disable=not progress):
        truth = json.loads(truth_path(photo).read_text())
        err = None
        t0 = time.perf_counter()
        try:
            read = reader(str(photo))
            if hasattr(read, "to_json"):  # a referee Board is fine too
                read = read.to_json()
        except Exception as e:  # a reader failure scores as an empty answer
            read, err = None, f"{type(e).__name__}: {e}"[:200]
        secs = time.perf_counter() - t0
        row = score_image(truth, read)
        row.update({"image": photo.name, "seconds": round(secs, 4), "error": err,
                    "conditions": conditions(truth)})
        rows.append(row)
    breakdown: dict[str, dict[str, Any]] = {}
    for key in ("tilt", "light", "size", "table", "board"):
        bins: dict[str, list] = {}
        for r in rows:
            bins.setdefault(r["conditions"][key], []).append(r)
        breakdown[key] = {b: summarise(v) for b, v in sorted(bins.items())}
    from bench.datasets import VERSION
    return {"tier": tier, "reader": reader_spec, "dataset_version": VERSION, "start": start,
            "summary": summarise(rows),
            "breakdown": breakdown, "images": rows}


OUTCOMES = ("wrong", "unreadable", "loose", "missing")
"""What :func:`tile_misses` says became of a true tile not read right."""


def _checks_line(c: dict | None) -> str:
    """The report's row for :func:`_checks`' figures."""
    if not c:
        return "| tiles given wrong: marked for a check | n/a |"
    return (f"| tiles given wrong: marked for a check (confidence < {c['below']}) / tiles given "
            f"right but marked | {c['given_wrong']}: {c['wrong_marked']} / "
            f"{c['right_marked']} of {c['given'] - c['given_wrong']} |")


def _miss_counts(rows: list[dict]) -> dict[str, int]:
    """Uncovered true tiles not read right, by outcome, over per-image rows."""
    counts = dict.fromkeys(OUTCOMES, 0)
    for r in rows:
        for m in r.get("misses", []):
            if m["covered"] < COVERED:
                counts[m["outcome"]] += 1
    return counts


def misses_text(report: dict[str, Any]) -> str:
    """One line per image with a true tile not read right, after the image's size, tilt
    and table bins: each such tile as ``number@q,r outcome``, with ``as tile/rotation``
    (``as tile`` for a loose one) when it was read as something and ``(covered N%)`` when
    a hand or object hides part of it; uncovered tiles first."""
    lines = []
    for row in report["images"]:
        misses = sorted(row.get("misses", []), key=lambda m: (m["covered"] >= COVERED, m["tile"]))
        if not misses:
            continue
        parts = []
        for m in misses:
            part = f"{m['tile']}@{m['q']},{m['r']} {m['outcome']}"
            if m.get("read"):
                part += " as " + "/".join(str(v) for v in m["read"])
            if m["covered"] >= COVERED:
                part += f" (covered {m['covered']:.0%})"
            parts.append(part)
        c = row.get("conditions", {})
        lines.append(f"{row['image']} [{c.get('size', '?')}, tilt {c.get('tilt', '?')}, "
                     f"{c.get('table', '?')}]: " + "; ".join(parts))
    return "\n".join(lines) + ("\n" if lines else "")


def _pct(v) -> str:
    return "–" if v is None else f"{100 * v:.1f} %"


def _range(report: dict[str, Any]) -> str:
    """`` from image N`` when a report did not start at the tier's first image."""
    start = report.get("start", 0)
    return f" from image {start}" if start else ""


def markdown(report: dict[str, Any]) -> str:
    """The report as Markdown tables."""
    s = report["summary"]
    lines = [f"### Recognition: tier `{report['tier']}`, reader `{report['reader']}`", "",
             "| figure | value |", "|---|---|",
             f"| images (tiles) | {s['images']} ({s['tiles']}){_range(report)} |",
             f"| detection precision | {_pct(s['detection_precision'])} |",
             f"| detection recall | {_pct(s['detection_recall'])} |",
             f"| true tiles recall missed: board (an unreadable cell counts as missed) / loose | "
             f"{s.get('recall_misses', {}).get('board', '–')} / {s.get('recall_misses', {}).get('loose', '–')} |",
             f"| tile identity accuracy (number + rotation) | {_pct(s['identity_accuracy'])} |",
             f"| identity on tiles no hand or object covers | {_pct(s.get('identity_uncovered'))} |",
             f"| loose tiles found and named right (number) | {_pct(s.get('loose_right'))} "
             f"of {s.get('loose_tiles', 0)} |",
             f"| covered tiles (≥ {COVERED:.0%} hidden): read right / guessed wrong / reported unreadable | "
             f"{s.get('covered_tiles', 0)}: {s.get('covered_right', 0)} / {s.get('covered_wrong', 0)} / "
             f"{s.get('covered_unreadable', 0)} |",
             "| uncovered tiles not read right: wrong / unreadable / loose / missing | "
             + " / ".join(str(s.get("uncovered_misses", {}).get(k, 0)) for k in OUTCOMES) + " |",
             _checks_line(s.get("checks")),
             f"| unreadable cells reported: where no tile lies | "
             f"{s.get('unreadable_cells', 0)}: {s.get('unreadable_empty', 0)} |",
             f"| position accuracy | {_pct(s['position_accuracy'])} |",
             f"| perfect boards | {_pct(s['perfect_board_rate'])} |",
             f"| perfect but for covered tiles (none guessed) | {_pct(s.get('perfect_uncovered_rate'))} |",
             f"| empty tables with no invented tile (none given off a face-up tile) | "
             f"{_pct(s['empty_table_uninvented_rate'])} of {s['empty_tables']} |",
             f"| empty tables given no board tile (a lone loose tile given as a board counts) | "
             f"{_pct(s['empty_table_clean_rate'])} of {s['empty_tables']} |",
             f"| reader errors | {s['reader_errors']} |",
             f"| time per image, median / p95 | {s['median_seconds']} s / {s['p95_seconds']} s |",
             "", "| condition | bin | images | recall | precision | identity | perfect |",
             "|---|---|---|---|---|---|---|"]
    for key, bins in report["breakdown"].items():
        for b, v in bins.items():
            lines.append(f"| {key} | {b} | {v['images']} | {_pct(v['detection_recall'])} | "
                         f"{_pct(v['detection_precision'])} | {_pct(v['identity_accuracy'])} | "
                         f"{_pct(v['perfect_board_rate'])} |")
    return "\n".join(lines) + "\n"


def write(report: dict[str, Any], out_dir: Path = RESULTS) -> Path:
    stem = f"recognition-{report['tier']}-{reader_name(report['reader'])}"
    return write_report(stem, report, markdown(report), out_dir)


def main(argv: list[str] | None = None) -> int:
    from scenegen import TIERS
    ap = argparse.ArgumentParser(prog="python -m bench.recognition",
                                 description="Score a photo reader on a synthetic tier.")
    ap.add_argument("--tier", default="easy", choices=TIERS)
    ap.add_argument("--reader", default="tantrix",
                    help="module:function, 'tantrix' (the command), 'oracle' or 'degraded-oracle'")
    ap.add_argument("--count", type=int, default=None, help="N images of the tier only")
    ap.add_argument("--start", type=int, default=0,
                    help="first image number read (default 0): --start 60 --count 40 reads 60-99")
    ap.add_argument("--out", type=Path, default=RESULTS, help="results directory")
    ap.add_argument("--misses", action="store_true",
                    help="also list, per image, every true tile not read right and what became of it")
    a = ap.parse_args(argv)
    if a.start < 0 or (a.count is not None and a.count < 1):
        print("python -m bench.recognition: --start must be 0 or more and --count 1 or more",
              file=sys.stderr)
        return 2
    report = run(a.tier, a.reader, a.count, start=a.start)
    path = write(report, a.out)
    print(markdown(report))
    if a.misses:
        print(misses_text(report) or "no tile missed\n")
    print(f"written {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
