"""Fixed-camera benchmark: live frames read with and without a table profile from one calibration photo.

    python -m bench.fixed_camera_bench [--stands N] [--frames M] [--tier hard] [--max-side PX]
                                       [--first I] [--camera] [--out NAME] [--label TEXT]

A camera on a stand sees the table the same way in every frame, so one calibration photo
fixes the table plane (``tantrix calibrate table``).  For each of N *stands* (stand ``i``
= one draw of :func:`scenegen.random_params` for the tier with a fixed seed: camera tilt,
turn, roll, lens, photo size, table cloth, light, blur, noise, JPEG quality; the photo is
scaled down to ``--max-side``) this renders, through one fixed camera:

- a calibration photo: the printed chessboard of ``tantrix calibrate print-board``
  (9x6 squares of 25 mm) lying on the table, no tiles;
- M frames of different boards (legal positions of 2..56 tiles from
  ``referee.randomgame.random_position``, each placed near the middle of the play area,
  with the stand's clutter), touching tiles 45 mm apart centre to centre.

The camera is framed once per stand so that every board of the stand fits (a real stand
frames the play area, so small boards look small).  The table profile is built by the
``tantrix calibrate table CAL.jpg --tile-mm 45`` command itself, then every frame is read
with ``vision.reader.read_photo(path)`` and ``read_photo(path, profile)`` and scored with
``bench.recognition.score_image`` (identity: number and rotation, boards aligned up to
translation and 60° turns; detection precision/recall; perfect boards).  The profile is
also checked against the truth: the true tile centres mapped into the rectified view must
lie ``tile_pitch_px`` apart in every lattice direction.

Frames are cached under ``bench.datasets.data_root() / "fixed-camera"`` (keyed by the
stand's parameters, so reruns only read).  Writes ``bench/results/fixed_camera.json`` and
``bench/results/fixed_camera.md`` (``--out NAME``: ``bench/results/NAME.*``).  ``--camera``
adds a third reading: a camera profile of the stand's lens (from virtual chessboard views,
``bench.calibration_bench.camera_profile_for``) saved first, so the table calibration and
every frame are undistorted as well as rectified.

scenegen aims its camera at each board; here :func:`fixed_camera` swaps the renderer's
camera placement for the stand's camera (and lays the printed board on the table for the
calibration photo) while a frame renders, so everything else (light, lens, blur, noise,
JPEG) is scenegen's own.
"""
from __future__ import annotations

import argparse
import contextlib
import copy
import dataclasses
import hashlib
import io
import json
import math
import sys
import time
from pathlib import Path
from typing import Any, Iterator

import cv2
import numpy as np

from bench.outputs import write_report

GENERATOR_VERSION = 1
"""Bump when the stand or frame generator changes, so cached frames are rebuilt."""

TILE_MM = 45.0
"""Centre distance of touching tiles on the table (what ``--tile-mm`` is told)."""
SQUARES = (9, 6)
SQUARE_MM = 25.0
PAPER_MARGIN_MM = 12.0


# -- a stand: one fixed camera, its boards -------------------------------------------------

@dataclasses.dataclass
class Stand:
    """One camera on a stand: its rendering parameters, camera and the boards it sees."""

    index: int
    tier: str
    params: dict[str, Any]
    camera: Any  # scenegen.camera.Camera
    boards: list  # referee Board per frame, already placed on the play area
    frame_seeds: list[int]
    paper_angle_deg: float

    @property
    def mm_per_unit(self) -> float:
        """Millimetres per scenegen world unit (tile circumradius), so touching tiles are TILE_MM apart."""
        return TILE_MM / (math.sqrt(3.0) * (1.0 + self.params["gap"]))

    def key(self) -> str:
        spec = {"v": GENERATOR_VERSION, "params": self.params, "camera": dataclasses.asdict(self.camera),
                "boards": [b.to_json() for b in self.boards], "seeds": self.frame_seeds,
                "paper": self.paper_angle_deg}
        return hashlib.sha256(json.dumps(spec, sort_keys=True, default=float).encode()).hexdigest()[:12]


def _seed(tier: str, stand: int, what: str) -> int:
    h = hashlib.sha256(f"fixed-camera/{tier}/{stand}/{what}/v{GENERATOR_VERSION}".encode()).digest()
    return int.from_bytes(h[:4], "little")


def _placed(board, rng: np.random.Generator):
    """``board`` moved (whole cells) so its middle is near the play area's centre, give or take 2 cells."""
    from referee.board import Board

    cells = np.array(list(board.tiles), float)
    dq, dr = -np.round(cells.mean(axis=0)).astype(int) + rng.integers(-2, 3, 2)
    return Board.from_placements((((q + int(dq), r + int(dr)), p.tile, p.rotation)
                                  for (q, r), p in board.tiles.items()), board.bag_empty)


def _paper_corners(stand_mm_per_unit: float, angle_deg: float) -> np.ndarray:
    """World (X, Y) of the printed sheet's corners (board centred on the play area)."""
    cols, rows = SQUARES
    w = cols * SQUARE_MM + 2 * PAPER_MARGIN_MM
    h = rows * SQUARE_MM + 2 * PAPER_MARGIN_MM + 8.0
    pts = np.array([[-w / 2, -h / 2], [w / 2, -h / 2], [w / 2, h / 2], [-w / 2, h / 2]])
    a = math.radians(angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    return pts @ rot.T / stand_mm_per_unit


def _fits(cam, pts: np.ndarray, zs: tuple[float, ...], margin: float) -> bool:
    w, h = cam.width, cam.height
    for z in zs:
        p = cam.project(pts, z)
        if not (p[:, 0].min() >= margin * w and p[:, 0].max() <= (1 - margin) * w
                and p[:, 1].min() >= margin * h and p[:, 1].max() <= (1 - margin) * h):
            return False
    return True


def make_stand(tier: str, index: int, frames: int, max_side: int = 1280) -> Stand:
    """Stand ``index`` of ``tier``: parameters, camera framed to fit all its boards, boards."""
    from referee.hexgrid import to_pixel
    from referee.randomgame import random_position
    from scenegen import random_params
    from scenegen.camera import Camera

    p = random_params(tier, _seed(tier, index, "params"))
    scale = min(1.0, max_side / max(p["width"], p["height"]))
    p["width"], p["height"] = int(round(p["width"] * scale)), int(round(p["height"] * scale))
    p["offset"] = [0.0, 0.0]
    p["fill"] = 0  # the renderer must not rescale tiles per board: the camera is fixed
    rng = np.random.default_rng(_seed(tier, index, "boards"))
    boards, seeds = [], []
    for j in range(frames):
        n = int(rng.integers(2, 57))
        boards.append(_placed(random_position(n, seed=int(rng.integers(1 << 30))), rng))
        seeds.append(int(rng.integers(1 << 30)))
    paper_angle = round(float(rng.uniform(-30, 30)), 1)
    w, h = p["width"], p["height"]
    focal = (w / 2) / math.tan(math.radians(p["fov_deg"]) / 2)
    cam = Camera(w, h, focal, p["tilt_deg"], p["azimuth_deg"], p["roll_deg"],
                 distance=focal * 2.0 / p["tile_px"], target=(0.0, 0.0), k1=p["k1"], k2=p["k2"])
    # Frame the play area: every tile of every board (top and base, a little jitter room)
    # and the printed sheet inside the photo.
    spacing = 1.0 + p["gap"]
    hexagon = np.array([[math.cos(math.radians(60 * k)), math.sin(math.radians(60 * k))] for k in range(6)])
    centres = np.array([to_pixel(c, spacing) for b in boards for c in b.tiles])
    outline = (centres[:, None, :] + 1.08 * hexagon[None]).reshape(-1, 2)
    stand_tmp = Stand(index, tier, p, cam, boards, seeds, paper_angle)
    paper = _paper_corners(stand_tmp.mm_per_unit, paper_angle)
    for _ in range(80):
        if _fits(cam, outline, (0.0, -p["thickness"]), 0.05) and _fits(cam, paper, (0.0,), 0.06):
            break
        cam.distance *= 1.05
    cam.distance = round(cam.distance, 6)
    # tile width at the frame centre, for the renderer's shadow, glare and clutter sizes
    mid = cam.project_ideal(np.array([[-1.0, 0.0], [1.0, 0.0]]), -p["thickness"])
    p["tile_px"] = round(float(np.linalg.norm(mid[1] - mid[0])), 2)
    p["board_kind"] = "game"
    return Stand(index, tier, p, cam, boards, seeds, paper_angle)


# -- rendering through the fixed camera ---------------------------------------------------------

def _paper_texture(stand: Stand) -> tuple[np.ndarray, np.ndarray]:
    """The print-board PNG as the printer puts it on paper, and texture px → world (X, Y) (3x3)."""
    from calibration.camera import BoardSpec, board_image

    cam = stand.camera
    # about two texture pixels per photo pixel at the play area's centre, against aliasing
    c = cam.project_ideal(np.array([[0.0, 0.0], [1.0, 0.0]]), 0.0)
    photo_px_per_mm = float(np.linalg.norm(c[1] - c[0])) / stand.mm_per_unit
    dpi = float(np.clip(2 * photo_px_per_mm * 25.4, 50, 600))
    sheet = board_image(BoardSpec("chessboard", SQUARES, SQUARE_MM), dpi, PAPER_MARGIN_MM)
    sheet = cv2.GaussianBlur(sheet.astype(np.float32), (0, 0), 0.8)
    ppm = dpi / 25.4
    th, tw = sheet.shape
    a = math.radians(stand.paper_angle_deg)
    rot = np.array([[math.cos(a), -math.sin(a)], [math.sin(a), math.cos(a)]])
    to_mm = np.array([[1 / ppm, 0, -tw / 2 / ppm], [0, 1 / ppm, -th / 2 / ppm], [0, 0, 1.0]])
    to_world = np.eye(3)
    to_world[:2, :2] = rot / stand.mm_per_unit
    return sheet, to_world @ to_mm


@contextlib.contextmanager
def fixed_camera(stand: Stand, paper: bool = False) -> Iterator[None]:
    """While active, :func:`scenegen.render` photographs through ``stand.camera`` (and, with
    ``paper``, the printed chessboard lies on the table under the light)."""
    import importlib

    # ``scenegen.render`` the attribute is the function; the module is what renders
    R = importlib.import_module("scenegen.render")
    saved = {name: getattr(R, name) for name in ("_make_camera", "_fit", "_shift_camera", "_inside",
                                                  "_table_image")}
    table_image = saved["_table_image"]

    def with_paper(cam, p):
        img = table_image(cam, p)
        sheet, tex_to_world = _paper_texture(stand)
        hm = cam.homography(0.0) @ tex_to_world
        size = (cam.width, cam.height)
        ink = cv2.warpPerspective(sheet, hm, size, flags=cv2.INTER_LINEAR)
        cover = cv2.warpPerspective(np.ones_like(sheet), hm, size, flags=cv2.INTER_LINEAR)
        paper_bgr = (ink * (235.0 / 255.0) + 12.0)[..., None]  # printer black is not black
        img[:] = img * (1 - cover[..., None]) + paper_bgr * cover[..., None]
        return img

    R._make_camera = lambda p, centre: dataclasses.replace(stand.camera)
    R._fit = lambda cam, pieces, p, margin=0.04: cam
    R._shift_camera = lambda cam, p: cam
    R._inside = lambda cam, pieces, p, margin=0.01: True
    if paper:
        R._table_image = with_paper
    try:
        yield
    finally:
        for name, fn in saved.items():
            setattr(R, name, fn)


def render_calibration(stand: Stand, path: Path) -> None:
    """The calibration photo: the printed board on the empty table, no clutter."""
    from referee.board import Board
    from scenegen import render_to_file

    p = copy.deepcopy(stand.params)
    p["clutter"] = {"loose": 0, "face_down": 0, "occluder": "none"}
    p["board_kind"] = "calibration"
    with fixed_camera(stand, paper=True):
        render_to_file(Board(), path, p, _seed(stand.tier, stand.index, "calibration"))


def render_frame(stand: Stand, j: int, path: Path) -> dict:
    """Frame ``j`` of the stand; returns its truth (scenegen's, see ``scenegen.render``)."""
    from scenegen import render_to_file

    with fixed_camera(stand):
        return render_to_file(stand.boards[j], path, copy.deepcopy(stand.params), stand.frame_seeds[j])


def ensure_stand(stand: Stand, root: Path) -> tuple[Path, list[tuple[Path, dict]]]:
    """Render (or reuse) the stand's calibration photo and frames under ``root``."""
    d = root / f"{stand.tier}-{stand.index:03d}-{stand.key()}"
    d.mkdir(parents=True, exist_ok=True)
    cal = d / "calibration.jpg"
    if not cal.exists():
        render_calibration(stand, cal)
    frames = []
    for j in range(len(stand.boards)):
        img, tru = d / f"frame-{j:03d}.jpg", d / f"frame-{j:03d}.json"
        if not (img.exists() and tru.exists()):
            truth = render_frame(stand, j, img)
            tru.write_text(json.dumps(truth, indent=1))
        frames.append((img, json.loads(tru.read_text())))
    return cal, frames


# -- calibrating, checking, reading -------------------------------------------------------------

def calibrate_table(photo: Path, out: Path, camera: Any = None) -> tuple[Any, str | None]:
    """Run ``tantrix calibrate table PHOTO --tile-mm 45 -o OUT``; (profile or None, error line).

    With ``camera`` (a ``CameraProfile``) OUT first holds that camera section, which the
    command uses to undistort, as after ``tantrix calibrate camera``.
    """
    from calibration.profile import Profile, load
    from tantrix.cli import main as cli

    out.unlink(missing_ok=True)
    if camera is not None:
        Profile(camera=camera).save(out)
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = cli(["calibrate", "table", str(photo), "-o", str(out), "--tile-mm", str(TILE_MM),
                    "--squares", f"{SQUARES[0]}x{SQUARES[1]}", "--square-mm", str(SQUARE_MM)])
    if code != 0:
        return None, (err.getvalue().strip().splitlines() or [f"exit {code}"])[-1][:200]
    return load(out), None


def rectified_spacing(table, truths: list[dict], camera: Any = None) -> dict[str, Any]:
    """How regular the true tile centres are in the rectified view.

    For each of the three lattice directions, the median distance between the rectified
    centres of touching tiles divided by ``table.tile_pitch_px`` (1.0 = the profile's scale
    is right; equal in all directions = the tilt is removed); ``tiles_outside_view``: true
    tiles the rectified view crops off.
    """
    from referee.hexgrid import neighbour

    per_dir: list[list[float]] = [[], [], []]
    for truth in truths:
        cells = {(t["q"], t["r"]): t["pixel"] for t in truth["tiles"]}
        if len(cells) < 2:
            continue
        keys = list(cells)
        rect = table.to_rectified(np.array([cells[c] for c in keys], float), camera)
        at = dict(zip(keys, rect))
        for c in keys:
            for e in range(3):
                n = neighbour(c, e)
                if n in at:
                    per_dir[e].append(float(np.linalg.norm(at[n] - at[c])) / table.tile_pitch_px)
    med = [round(float(np.median(d)), 4) if d else None for d in per_dir]
    known = [m for m in med if m is not None]
    # tiles whose centre the rectified view leaves out (or puts within half a pitch of its edge)
    half = table.tile_pitch_px / 2
    outside = 0
    for truth in truths:
        if truth["tiles"]:
            p = table.to_rectified(np.array([t["pixel"] for t in truth["tiles"]], float), camera)
            outside += int(np.sum((p[:, 0] < half) | (p[:, 1] < half) | (p[:, 0] > table.rectified_size[0] - half)
                                  | (p[:, 1] > table.rectified_size[1] - half)))
    return {"tiles_outside_view": outside, "pitch_ratio_by_direction": med,
            "pitch_ratio": round(float(np.median(sum(per_dir, []))), 4) if known else None,
            "anisotropy": round(max(known) / min(known) - 1, 4) if len(known) > 1 else None,
            "pairs": sum(len(d) for d in per_dir)}


def read_scored(path: Path, truth: dict, profile: Any) -> dict[str, Any]:
    """Read one frame (``profile`` may be None) and score it against ``truth``."""
    from bench.recognition import score_image
    from vision.reader import read_photo

    err = None
    t0 = time.perf_counter()
    try:
        read = read_photo(str(path), profile).to_json()
    except Exception as e:  # a reader failure scores as an empty answer
        read, err = None, f"{type(e).__name__}: {e}"[:200]
    row = score_image(truth, read)
    row.update({"seconds": round(time.perf_counter() - t0, 4), "error": err})
    return row


def _profile_entry(profile: Any, truths: list[dict]) -> dict[str, Any]:
    t = profile.table
    return {"tile_pitch_px": round(t.tile_pitch_px, 2), "tilt_deg": t.tilt_deg, "rms_px": t.rms_px,
            "rectified_size": list(t.rectified_size), **rectified_spacing(t, truths, profile.camera)}


def run(tier: str = "hard", stands: int = 4, frames: int = 8, max_side: int = 1280, first: int = 0,
        camera: bool = False, progress: bool = True, root: Path | None = None) -> dict[str, Any]:
    """The whole benchmark; returns the report (see :func:`markdown`).

    Variants: ``without`` (no profile), ``with-table`` (the table profile) and, with
    ``camera``, ``with-camera-table`` (a camera profile of the stand's lens, from
    ``bench.calibration_bench.camera_profile_for``, then the table profile on top).
    """
    from tqdm import tqdm

    from bench.datasets import data_root
    from bench.recognition import summarise

    variants = ("without", "with-table") + (("with-camera-table",) if camera else ())

    root = root or data_root() / "fixed-camera"
    bar = tqdm(total=stands * (frames + 1), desc="fixed-camera stands", unit="photo", file=sys.stderr,
               disable=not progress)
    rows: dict[str, list[dict]] = {v: [] for v in variants}
    per_stand = []
    for i in range(first, first + stands):
        stand = make_stand(tier, i, frames, max_side)
        bar.set_postfix_str(f"stand {i}: rendering")
        cal, shots = ensure_stand(stand, root)
        profiles = {"without": None}
        profiles["with-table"], err = calibrate_table(cal, cal.with_name("profile.json"))
        cam_err = None
        if camera:
            from bench.calibration_bench import camera_profile_for

            profiles["with-camera-table"], cam_err = calibrate_table(
                cal, cal.with_name("profile-camera.json"), camera_profile_for(stand.params, stand.index))
        bar.update(1)
        p = stand.params
        entry: dict[str, Any] = {
            "stand": i, "size": [p["width"], p["height"]], "tilt_deg": p["tilt_deg"], "k1": p["k1"],
            "k2": p["k2"], "table": p["table"]["kind"], "kelvin": p["light"]["kelvin"],
            "exposure": p["light"]["exposure"], "tile_px": p["tile_px"], "calibration_error": err,
            "frames": [],
        }
        truths = [tr for _, tr in shots]
        if profiles["with-table"] is not None:
            entry["profile"] = _profile_entry(profiles["with-table"], truths)
        if camera:
            entry["camera_calibration_error"] = cam_err
            if profiles["with-camera-table"] is not None:
                entry["camera_profile"] = _profile_entry(profiles["with-camera-table"], truths)
        stand_rows: dict[str, list[dict]] = {v: [] for v in variants}
        for j, (path, truth) in enumerate(shots):
            bar.set_postfix_str(f"stand {i}: reading")
            frame = {"frame": j, "tiles": len(truth["tiles"])}
            for v in variants:
                # an uncalibrated stand reads as without a profile
                row = read_scored(path, truth, profiles[v])
                stand_rows[v].append(row)
                rows[v].append(row)
                frame[v] = {"agree": row["agree"], "read": row["read_tiles"], "tp": row["tp"],
                            "perfect": row["perfect"], "seconds": row["seconds"], "error": row["error"]}
            entry["frames"].append(frame)
            bar.update(1)
        entry["summary"] = {v: summarise(stand_rows[v]) for v in variants}
        per_stand.append(entry)
    bar.close()
    return {"tier": tier, "stands": stands, "frames_per_stand": frames, "max_side": max_side,
            "first_stand": first, "tile_mm": TILE_MM, "board": f"chessboard {SQUARES[0]}x{SQUARES[1]} "
            f"squares of {SQUARE_MM:g} mm", "generator_version": GENERATOR_VERSION,
            "variants": list(variants), "summary": {v: summarise(rows[v]) for v in variants},
            "per_stand": per_stand}


def _pct(x) -> str:
    return "–" if x is None else f"{100 * x:.1f} %"


def markdown(report: dict[str, Any]) -> str:
    """The report as a Markdown table (overall, then per stand)."""
    lines = [f"# Fixed-camera benchmark: `{report['tier']}` tier, {report['stands']} stands × "
             f"{report['frames_per_stand']} frames (photos ≤ {report['max_side']} px)", "",
             "Table profile from one photo of a printed " + report["board"] + " per stand "
             "(`tantrix calibrate table --tile-mm 45`)." + (f" {report['label']}" if report.get("label") else ""), "",
             "| reader | identity | position | perfect boards | detection P / R | errors | median s |",
             "|---|---|---|---|---|---|---|"]
    for v, s in report["summary"].items():
        lines.append(f"| {v} | {_pct(s['identity_accuracy'])} | {_pct(s['position_accuracy'])} | "
                     f"{_pct(s['perfect_board_rate'])} | {_pct(s['detection_precision'])} / "
                     f"{_pct(s['detection_recall'])} | {s['reader_errors']} | {s['median_seconds']} |")
    variants = report.get("variants", list(report["summary"]))
    names = " / ".join(variants)
    lines += ["", "Per stand (tile px: tile width at the photo centre; profile: tile pitch in the rectified "
              "view, true centres' spacing / pitch, spread between lattice directions; tilt measured / true):", "",
              f"| stand | photo | tilt | k1 | table | tile px | profile pitch px (ratio, anisotropy) | "
              f"identity {names} | perfect {names} | median s {names} |",
              "|---|---|---|---|---|---|---|---|---|---|"]
    for e in report["per_stand"]:
        pr = e.get("profile")
        prof = (f"{pr['tile_pitch_px']} ({pr['pitch_ratio']}, {_pct(pr['anisotropy'])}); tilt "
                f"{pr['tilt_deg']:.1f}°" + (f"; {pr['tiles_outside_view']} tiles cropped off"
                                             if pr.get("tiles_outside_view") else "")
                if pr else f"calibration failed: {e['calibration_error']}")
        ss = [e["summary"][v] for v in variants]
        lines.append(f"| {e['stand']} | {e['size'][0]}×{e['size'][1]} | {e['tilt_deg']:.1f}° | {e['k1']:+.2f} | "
                     f"{e['table']} | {e['tile_px']:.0f} | {prof} | "
                     + " → ".join(_pct(s["identity_accuracy"]) for s in ss) + " | "
                     + " → ".join(_pct(s["perfect_board_rate"]) for s in ss) + " | "
                     + " / ".join(str(s["median_seconds"]) for s in ss) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--stands", type=int, default=4, help="camera stands (default 4)")
    ap.add_argument("--frames", type=int, default=8, help="frames (boards) per stand (default 8)")
    ap.add_argument("--tier", default="hard", help="scenegen tier the stands are drawn from (default hard)")
    ap.add_argument("--max-side", type=int, default=1280, help="scale photos down to this long side (default 1280)")
    ap.add_argument("--first", type=int, default=0, help="index of the first stand (default 0)")
    ap.add_argument("--camera", action="store_true",
                    help="also read with a camera profile of the stand's lens under the table profile")
    ap.add_argument("--out", default="fixed_camera", help="results name (default fixed_camera)")
    ap.add_argument("--label", default="", help="a note kept in the results (e.g. the reader's commit)")
    args = ap.parse_args(argv)
    from scenegen import TIERS
    if args.tier not in TIERS:
        ap.error(f"unknown tier {args.tier!r}; known: {', '.join(TIERS)}")
    if args.stands < 1 or args.frames < 1 or args.max_side < 320:
        ap.error("--stands and --frames must be at least 1, --max-side at least 320")
    report = run(args.tier, args.stands, args.frames, args.max_side, args.first, args.camera)
    if args.label:
        report["label"] = args.label
    write_report(args.out, report, markdown(report))
    print(markdown(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
