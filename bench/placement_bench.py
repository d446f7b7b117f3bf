"""Sloppy placement: how the reader holds up when tiles sit off their cells.

    python -m bench.placement_bench [--tier easy] [--count 30] [--jitter 0.07] [--turn 7]

The benchmark tiers place each tile within a few hundredths of a cell of its lattice
position and within a degree or two of the board's turn (``scenegen`` parameters
``jitter_pos`` up to 0.03, ``jitter_deg`` up to 2).  Tiles set down by hand in a real game
sit further off: nudged apart, turned a few degrees.  This benchmark renders the first
``count`` scenes of a tier again (same board, camera, light and seed) with ``jitter_pos``
and ``jitter_deg`` raised to at least ``--jitter`` (standard deviation of each tile's
offset, in cell radii) and ``--turn`` (degrees; each tile's turn has half that as its
standard deviation), and reads both the tier's own photo and the sloppy one.  A tile
counts as right when number and rotation agree after the boards are aligned
(``bench.recognition.score_image``).

The sloppy photos are cached beside the tier's as ``<tier>-placed-<jitter>-<turn>-v<dataset version>/``.
Writes ``bench/results/placement-<tier>.json`` (+ ``.md``): per image the tiles and the
tiles right as placed by the tier and placed sloppily, and the totals.  Empty boards are
skipped (nothing to place).
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

from bench.datasets import VERSION, ensure_tier, scene_spec, tier_dir
from bench.outputs import RESULTS, markdown_table, write_report


def sloppy_photo(tier: str, index: int, jitter: float, turn: float) -> Path | None:
    """The tier's scene ``index`` rendered with tiles placed at least this sloppily (cached);
    ``None`` for an empty board."""
    from scenegen import render_to_file

    board, params, seed, kind = scene_spec(tier, index)
    if kind == "empty" or not board.tiles:
        return None
    folder = tier_dir(tier).parent / f"{tier}-placed-{jitter:g}-{turn:g}-v{VERSION}"
    folder.mkdir(parents=True, exist_ok=True)
    photo, truth = folder / f"{index:04d}.jpg", folder / f"{index:04d}.json"
    if not (photo.exists() and truth.exists()):
        params["jitter_pos"] = max(params["jitter_pos"], jitter)
        params["jitter_deg"] = max(params["jitter_deg"], turn)
        truth.write_text(json.dumps(render_to_file(board, photo, params, seed)))
    return photo


def tiles_right(photo: Path) -> tuple[int, int]:
    """(tiles on the board, tiles the reader gets right) for a rendered photo, scored as
    ``bench.recognition`` scores it (boards aligned, number and rotation agreeing)."""
    from bench.recognition import score_image
    from vision import read_photo

    truth = json.loads(photo.with_suffix(".json").read_text())
    row = score_image(truth, read_photo(str(photo)).to_json())
    return row["truth_tiles"], row["agree"]


def run(tier: str, count: int, jitter: float, turn: float, progress: bool = True) -> dict[str, Any]:
    from tqdm import tqdm

    photos = ensure_tier(tier, count, progress=progress)
    rows = []
    for index in tqdm(range(count), desc=f"placement {tier}", unit="img", file=sys.stderr,
                      disable=not progress):
        sloppy = sloppy_photo(tier, index, jitter, turn)
        if sloppy is None:
            continue
        # (the same board either way: its tiles are counted once)
        tiles, right = tiles_right(photos[index])
        rows.append({"image": photos[index].name, "tiles": tiles, "right": right,
                     "sloppy_right": tiles_right(sloppy)[1]})
    total = {k: sum(r[k] for r in rows) for k in ("tiles", "right", "sloppy_right")}
    for key, right in (("identity", "right"), ("sloppy_identity", "sloppy_right")):
        total[key] = round(100.0 * total[right] / total["tiles"], 2) if total["tiles"] else None
    return {"tier": tier, "count": count, "jitter": jitter, "turn": turn, "images": rows, "total": total}


def markdown(report: dict[str, Any]) -> str:
    t = report["total"]
    lines = [f"# Sloppy placement, {report['tier']} 0-{report['count'] - 1}", "",
             f"Tiles placed as the tier places them: {t['right']} of {t['tiles']} right "
             f"({t['identity']} %); offset σ ≥ {report['jitter']} cell radii and turn "
             f"σ ≥ {report['turn'] / 2:g}°: {t['sloppy_right']} of {t['tiles']} right "
             f"({t['sloppy_identity']} %).", ""]
    lines += markdown_table(["image", "tiles", "right", "right, placed sloppily"],
                            [[r["image"], r["tiles"], r["right"], r["sloppy_right"]]
                             for r in report["images"]])
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.placement_bench",
                                 description=__doc__.split("\n\n")[0])
    ap.add_argument("--tier", default="easy", choices=["easy", "hard", "real-texture", "video-720p"])
    ap.add_argument("--count", type=int, default=30, help="first N scenes of the tier (default 30)")
    ap.add_argument("--jitter", type=float, default=0.07,
                    help="least standard deviation of a tile's offset, cell radii (default 0.07)")
    ap.add_argument("--turn", type=float, default=7.0,
                    help="least turn jitter in degrees; a tile's turn has half of it as its "
                         "standard deviation (default 7)")
    ap.add_argument("--out", type=Path, default=RESULTS, help="results directory")
    args = ap.parse_args(argv)
    if args.count < 1 or args.jitter < 0 or args.turn < 0:
        print("placement_bench: --count must be positive, --jitter and --turn not negative",
              file=sys.stderr)
        return 2
    report = run(args.tier, args.count, args.jitter, args.turn)
    t = report["total"]
    print(f"{args.tier}: as placed {t['right']}/{t['tiles']} right ({t['identity']} %); "
          f"placed sloppily {t['sloppy_right']}/{t['tiles']} right ({t['sloppy_identity']} %)")
    print("written", write_report(f"placement-{args.tier}", report, markdown(report), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
