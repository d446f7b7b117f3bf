"""Colour-profile benchmark: the reader on strongly colour-cast `hard` shots, with and without a profile.

    python -m bench.calibration_bench [--count N] [--tier hard] [--any-light] [--no-simulated]

A club table has one lamp: the profile is learnt once from a *calibration shot* taken under
the same light and camera settings as the game photos.  For each benchmark shot (a `hard`
tier scene, by default only those with a strong warm cast: colour temperature under 3800 K
and camera white balance under 0.5, the tier's "warm" light bin) this renders a
calibration shot with the same rendering parameters (light, white balance, exposure,
palette, table, blur, noise; no clutter, no hand) of tiles 1-20 laid out anyhow, learns a
colour profile from it with the ground truth (``calibration.colours.learn``), then reads
the game shot three ways:

- ``without``: ``vision.read_photo(image)``;
- ``with``: ``vision.read_photo(image, profile)``, using what the reader takes from a
  profile today (``Profile.neutral``, ``Profile.colour_means``);
- ``with-neutral``: the profile's neutral point only (grey under this light);
- ``with-logprobs`` (simulated integration, unless ``--no-simulated``): the same call with
  the reader's per-photo colour likelihood ``vision.colours.log_probs`` replaced by the
  profile's own model (``Profile.colour_log_probs``), to show what wiring it in would give.

Scores come from ``bench.recognition.score_image`` (identity accuracy = share of true tiles
read with the right number and rotation, boards compared up to turns and shifts).
Writes ``bench/results/calibration.json`` and ``bench/results/calibration.md``.
"""
from __future__ import annotations

import argparse
import copy
import sys
import time
from types import SimpleNamespace
from typing import Any

import numpy as np

from bench.outputs import write_report

CAL_TILES = 20


def strong_cast(params: dict) -> bool:
    """The tier's "warm" light: tungsten-like colour temperature the camera did not correct."""
    light = params["light"]
    return light["kelvin"] < 3800 and light["white_balance"] < 0.5


def calibration_shot(params: dict, seed: int) -> tuple[np.ndarray, dict]:
    """Tiles 1..CAL_TILES in a compact patch, turned anyhow, under the shot's light."""
    from referee.board import Board
    from referee.hexgrid import ring
    from scenegen import render

    cells = [(0, 0)] + ring((0, 0), 1) + ring((0, 0), 2) + ring((0, 0), 3)
    rng = np.random.default_rng(seed)
    board = Board.from_placements((c, n, int(rng.integers(6)))
                                  for c, n in zip(cells, range(1, CAL_TILES + 1)))
    p = copy.deepcopy(params)
    p["clutter"] = {"loose": 0, "face_down": 0, "occluder": "none"}
    p["board_kind"] = "calibration"
    return render(board, p, seed)


def camera_profile_for(params: dict, seed: int = 0):
    """A camera profile for a shot's camera, as a user would get it from board photos.

    Virtual chessboard views (12x9 squares, varied tilt, turn and position, 0.15 px
    corner noise) are projected through scenegen's own lens model and calibrated with
    ``calibration.camera.calibrate_points`` (OpenCV's model, k3 free).  Its error against
    scenegen's lens is about 1 px at the frame corners, under 0.5 px in the middle.
    """
    import math

    from calibration.camera import BoardSpec, calibrate_points
    from scenegen.camera import Camera

    w, h = params["width"], params["height"]
    focal = (w / 2) / math.tan(math.radians(params["fov_deg"]) / 2)
    obj = BoardSpec("chessboard", (12, 9), 1.0).object_points()
    rng = np.random.default_rng(seed)
    objs, imgs = [], []
    for tilt in (0, 20, 35):
        for az in (0, 60, 120, 180, 240, 300):
            for dx, dy in ((0, 0), (-4, -3), (4, 3), (-4, 3), (4, -3), (0, 3.5), (5, 0)):
                cam = Camera(w, h, focal, tilt + rng.uniform(0, 5), az + rng.uniform(-20, 20), rng.uniform(-20, 20),
                             focal * 12.0 / (0.55 * w), (6.0 + dx, 4.5 + dy), params["k1"], params["k2"])
                pts = cam.project(obj[:, :2]) + rng.normal(0, 0.15, (len(obj), 2))
                if pts.min() >= 2 and (pts[:, 0] <= w - 3).all() and (pts[:, 1] <= h - 3).all():
                    objs.append(obj)
                    imgs.append(pts)
    return calibrate_points(objs, imgs, (w, h), fix_k3=False)[0]


def _read_undistorted(image: np.ndarray, camera) -> tuple[dict | None, float, str | None]:
    """Read the undistorted photo (``calibration.prepare``) and map centres back to the photo."""
    from calibration.prepare import prepare
    from calibration.profile import Profile

    t0 = time.perf_counter()
    prep = prepare(image, Profile(camera=camera))
    read, secs, err = _read(prep.image, None, False)
    if read is not None:
        for item in read.get("tiles", []) + read.get("loose", []):
            if "pixel" in item:
                x, y = prep.to_photo(np.array([item["pixel"]], float))[0]
                item["pixel"] = [round(float(x), 1), round(float(y), 1)]
    return read, time.perf_counter() - t0, err


def _tiles(truth: dict) -> list:
    return [((t["q"], t["r"]), t["tile"], t["rotation"], tuple(t["pixel"])) for t in truth["tiles"]]


def _profile_from(image: np.ndarray, truth: dict):
    from calibration.colours import learn
    from calibration.profile import Profile

    return Profile(colours=learn(image, _tiles(truth)))


def _read(image: np.ndarray, profile, simulated: bool) -> tuple[dict | None, float, str | None]:
    import vision
    import vision.colours as vcolours

    original = vcolours.log_probs
    if simulated:
        vcolours.log_probs = lambda samples, model: profile.colour_log_probs(samples)
    t0 = time.perf_counter()
    try:
        board = vision.read_photo(image, profile)
        return board.to_json(), time.perf_counter() - t0, None
    except Exception as e:  # a reader failure scores as an empty answer
        return None, time.perf_counter() - t0, f"{type(e).__name__}: {e}"[:200]
    finally:
        vcolours.log_probs = original


def run(tier: str = "hard", count: int = 20, any_light: bool = False, simulated: bool = True,
        scan: int = 3000, progress: bool = True, camera: bool = False) -> dict[str, Any]:
    from tqdm import tqdm

    from bench.datasets import scene_spec
    from bench.recognition import score_image, summarise
    from scenegen import render

    picks = []
    for i in range(scan):
        board, params, seed, kind = scene_spec(tier, i)
        if kind == "empty" or not board.tiles:
            continue
        if any_light or strong_cast(params):
            picks.append((i, board, params, seed))
        if len(picks) >= count:
            break
    variants = ["without", "with", "with-neutral"] + (["with-logprobs"] if simulated else [])
    variants += ["with-undistort"] if camera else []
    rows: dict[str, list[dict]] = {v: [] for v in variants}
    per_image = []
    for i, board, params, seed in tqdm(picks, desc=f"{tier} shots", unit="img", file=sys.stderr,
                                       disable=not progress):
        image, truth = render(board, params, seed)
        cal_image, cal_truth = calibration_shot(params, seed + 7919)
        profile = _profile_from(cal_image, cal_truth)
        entry = {"index": i, "tiles": len(truth["tiles"]), "kelvin": params["light"]["kelvin"],
                 "white_balance": params["light"]["white_balance"],
                 "exposure": params["light"]["exposure"], "tile_px": params["tile_px"]}
        from calibration.colours import edge_accuracy

        right, total = edge_accuracy(profile.colours, image, _tiles(truth))
        entry["profile_edge_right"], entry["profile_edge_total"] = right, total
        for v in variants:
            if v == "with-undistort":
                read, secs, err = _read_undistorted(image, camera_profile_for(params, seed))
                row = score_image(truth, read)
                row.update({"seconds": round(secs, 3), "error": err})
                rows[v].append(row)
                entry[v] = {"agree": row["agree"], "read": row["read_tiles"], "perfect": row["perfect"], "error": err}
                continue
            given = None if v == "without" else SimpleNamespace(neutral=profile.colours.neutral_ab) if v == "with-neutral" else profile
            read, secs, err = _read(image, given, v == "with-logprobs")
            row = score_image(truth, read)
            row.update({"seconds": round(secs, 3), "error": err})
            rows[v].append(row)
            entry[v] = {"agree": row["agree"], "read": row["read_tiles"], "perfect": row["perfect"],
                        "error": err}
        per_image.append(entry)
    summary = {v: summarise(rows[v]) for v in variants}
    right = sum(e["profile_edge_right"] for e in per_image)
    total = sum(e["profile_edge_total"] for e in per_image)
    return {"profile_edge_accuracy": round(right / total, 4) if total else None,
            "profile_edges": total,"tier": tier, "selection": "all lights" if any_light else "strong warm cast (kelvin < 3800, white balance < 0.5)",
            "calibration_tiles": CAL_TILES, "summary": summary, "images": per_image}


def markdown(report: dict[str, Any]) -> str:
    lines = [f"# Colour profile benchmark: `{report['tier']}` tier, {report['selection']}", "",
             f"{len(report['images'])} shots; profile learnt from a calibration shot of tiles 1-"
             f"{report['calibration_tiles']} under the same light.", "",
             "| reader | identity accuracy | position accuracy | perfect boards | detection recall | median s |",
             "|---|---|---|---|---|---|"]
    def pct(x):
        return "–" if x is None else f"{100 * x:.1f} %"

    for v, s in report["summary"].items():
        lines.append(f"| {v} | {pct(s['identity_accuracy'])} | {pct(s['position_accuracy'])} | "
                     f"{pct(s['perfect_board_rate'])} | {pct(s['detection_recall'])} | {s['median_seconds']} |")
    lines += ["", f"The profile's colour model alone, sampled at the true tile centres, names "
              f"{pct(report['profile_edge_accuracy'])} of {report['profile_edges']} tile edges right."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tier", default="hard")
    ap.add_argument("--count", type=int, default=20, help="shots to read (default 20)")
    ap.add_argument("--any-light", action="store_true", help="take every shot, not only strong casts")
    ap.add_argument("--no-simulated", action="store_true", help="skip the simulated log-prob integration")
    ap.add_argument("--camera", action="store_true",
                    help="also read undistorted photos (camera profile from virtual board views)")
    ap.add_argument("--out", default=None, help="results name (default calibration[-all-light])")
    args = ap.parse_args(argv)
    report = run(args.tier, args.count, args.any_light, not args.no_simulated, camera=args.camera)
    name = args.out or ("calibration-all-light" if args.any_light else "calibration")
    write_report(name, report, markdown(report))
    print(markdown(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
