"""Benchmark of the photo reader (``vision.read_photo``) against issue 5's targets.

    python -m bench.reader_bench                       # default counts per tier
    python -m bench.reader_bench --count 40 --tiers hard real-texture
    python -m bench.reader_bench --speed-only

Accuracy: the recognition harness (``bench/recognition.py``) on the fixed-seed tiers
``easy``, ``hard``, ``real-texture`` (identity, perfect boards, detection P/R, empty tables).
Speed: median wall time of ``read_photo`` (decode included) on a 12 Mpx photo of a 56-tile
board, and on ``video-720p`` frames (1280×720).  Both the figures and the targets are
printed and written to ``bench/results/reader.json`` (per-tier details to
``bench/results/reader-<tier>.json``).
"""
from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from pathlib import Path

from bench.outputs import write_report

TARGETS = {
    "identity_accuracy": 0.998,      # hard and real-texture
    "perfect_board_rate": 0.95,      # hard
    "detection_precision": 0.995,
    "detection_recall": 0.995,
    "seconds_12mp_median": 0.5,
    "seconds_720p_median": 0.06,
}

READER = "vision:read_photo"


def accuracy(tier: str, count: int, progress: bool = True) -> dict:
    """Recognition summary of the reader on the first ``count`` images of ``tier``."""
    from bench.recognition import run
    report = run(tier, READER, count, progress=progress)
    write_report(f"reader-{tier}", report)
    return report["summary"]


def _time_reads(path: str, repeats: int) -> list[float]:
    from vision import read_photo
    read_photo(path)  # warm-up: OpenCV's lookup tables, imports
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        read_photo(path)
        times.append(time.perf_counter() - t0)
    return times


def speed_12mp(repeats: int = 7) -> dict:
    """Median seconds to read a 4000×3000 JPEG of a 56-tile board (fixed seed)."""
    from referee.randomgame import random_position
    from scenegen import random_params, render_to_file
    board = random_position(56, seed=5)
    params = random_params("easy", 5)
    params.update({"width": 4000, "height": 3000, "tilt_deg": 20.0, "jpeg_quality": 90})
    params["clutter"] = {"loose": 0, "face_down": 0, "occluder": "none"}
    with tempfile.TemporaryDirectory() as d:
        path = str(Path(d) / "board56.jpg")
        truth = render_to_file(board, path, params, seed=5)
        times = _time_reads(path, repeats)
        from referee.board import board_from_json
        from referee.compare import best_alignment
        from vision import read_photo
        read = read_photo(path)
        tb = board_from_json({"tiles": [{k: t[k] for k in ("q", "r", "tile", "rotation")}
                                        for t in truth["tiles"]]})
        agree = best_alignment(tb, read)[2]
    return {"median_seconds": round(statistics.median(times), 4), "runs": len(times),
            "min_seconds": round(min(times), 4), "tiles": len(tb), "tiles_read_right": agree,
            "tile_px": truth["render"].get("tile_px_measured")}


def speed_720p(count: int = 15) -> dict:
    """Median seconds per 1280×720 frame over the first ``count`` video-720p images."""
    from bench.datasets import ensure_tier
    paths = ensure_tier("video-720p", count, progress=False)
    from vision import read_photo
    read_photo(str(paths[0]))
    times = []
    for p in paths:
        t0 = time.perf_counter()
        read_photo(str(p))
        times.append(time.perf_counter() - t0)
    return {"median_seconds": round(statistics.median(times), 4), "frames": len(times),
            "p95_seconds": round(sorted(times)[int(0.95 * (len(times) - 1))], 4)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--tiers", nargs="+", default=["easy", "hard", "real-texture"])
    ap.add_argument("--count", type=int, default=60, help="images per tier")
    ap.add_argument("--speed-only", action="store_true")
    ap.add_argument("--no-speed", action="store_true")
    args = ap.parse_args(argv)
    out: dict = {"reader": READER, "targets": TARGETS, "tiers": {}, "speed": {}}
    if not args.speed_only:
        for tier in args.tiers:
            s = accuracy(tier, args.count)
            out["tiers"][tier] = s
            print(f"{tier:13s} identity {s['identity_accuracy']}  perfect {s['perfect_board_rate']}  "
                  f"det P {s['detection_precision']} R {s['detection_recall']}  "
                  f"empty clean {s['empty_table_clean_rate']}  median {s['median_seconds']} s "
                  f"({s['images']} images, {s['tiles']} tiles)", flush=True)
    if not args.no_speed:
        out["speed"]["12mp_56_tiles"] = s12 = speed_12mp()
        print(f"12 Mpx, 56 tiles: median {s12['median_seconds']} s (target ≤ 0.5 s); "
              f"{s12['tiles_read_right']}/{s12['tiles']} tiles right", flush=True)
        out["speed"]["720p"] = s7 = speed_720p()
        print(f"1280x720: median {s7['median_seconds']} s (target ≤ 0.06 s)", flush=True)
    path = write_report("reader" if not args.speed_only else "reader-speed", out)
    print(f"wrote {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
