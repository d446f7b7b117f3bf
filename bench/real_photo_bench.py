"""How the reader holds up on the labelled real photos when the camera and light change.

    python -m bench.real_photo_bench                 # every variant of both photos
    python -m bench.real_photo_bench --variants scale-0.4 warm-strong

The two labelled real photos (``../shared/real_photos``) are read as taken and as a camera
or a lamp could have made them otherwise: smaller, turned, seen more obliquely, darker,
brighter, over-exposed, under a warm or a cold cast (up to a tungsten lamp the camera did
not balance), under a lamp's glare spot (white or warm), light falling off across the table or a
shadow over part of it, blurred, noisy, compressed harder.  Each variant is
a plain image operation on the real photo (no rendering), so this measures the reader on
real tiles, real glare and real tables, which the synthetic tiers only imitate.  Per
variant: tiles right (number and rotation, after the best alignment), tiles read (those
not right are read wrong), loose and unreadable tiles, seconds.  Output: a table on stdout and
``bench/results/real_photos.json``.  The photos are read from ``../shared``, never copied.
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from bench.outputs import write_report

PHOTOS = Path(__file__).resolve().parents[2] / "shared" / "real_photos"
NAMES = ("discovery10", "carpet13")


def _turn(img: np.ndarray, deg: float) -> np.ndarray:
    """Turned by ``deg`` about the middle, on a canvas that holds it all (edges repeated)."""
    h, w = img.shape[:2]
    M = cv2.getRotationMatrix2D((w / 2, h / 2), deg, 1.0)
    c, s = abs(M[0, 0]), abs(M[0, 1])
    nw, nh = int(h * s + w * c), int(h * c + w * s)
    M[0, 2] += nw / 2 - w / 2
    M[1, 2] += nh / 2 - h / 2
    return cv2.warpAffine(img, M, (nw, nh), borderMode=cv2.BORDER_REPLICATE)


def _oblique(img: np.ndarray, k: float) -> np.ndarray:
    """The top edge pulled in by ``k`` of the width on each side (a steeper camera)."""
    h, w = img.shape[:2]
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = np.float32([[w * k, 0], [w * (1 - k), 0], [w, h], [0, h]])
    return cv2.warpPerspective(img, cv2.getPerspectiveTransform(src, dst), (w, h),
                               borderMode=cv2.BORDER_REPLICATE)


_TURN_TO_TOP = {"top": (None, None),
                "bottom": (cv2.ROTATE_180, cv2.ROTATE_180),
                "left": (cv2.ROTATE_90_CLOCKWISE, cv2.ROTATE_90_COUNTERCLOCKWISE),
                "right": (cv2.ROTATE_90_COUNTERCLOCKWISE, cv2.ROTATE_90_CLOCKWISE)}


def _far_side(img: np.ndarray, side: str, k: float) -> np.ndarray:
    """:func:`_oblique` with ``side`` ("top", "bottom", "left", "right") as the far side:
    that edge pulled in by ``k`` of its length at each end."""
    there, back = _TURN_TO_TOP[side]
    if there is None:
        return _oblique(img, k)
    return cv2.rotate(_oblique(cv2.rotate(img, there), k), back)


def _gamma(img: np.ndarray, g: float) -> np.ndarray:
    return np.clip(255.0 * (img / 255.0) ** g, 0, 255).astype(np.uint8)


def _cast(img: np.ndarray, bgr: tuple[float, float, float]) -> np.ndarray:
    return np.clip(img * np.array(bgr), 0, 255).astype(np.uint8)


def _jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    return cv2.imdecode(cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, quality])[1], 1)


def _scale(img: np.ndarray, f: float) -> np.ndarray:
    return cv2.resize(img, None, fx=f, fy=f, interpolation=cv2.INTER_AREA if f < 1 else cv2.INTER_CUBIC)


def _glare_spot(img: np.ndarray) -> np.ndarray:
    """A lamp's soft white reflection over the middle of the picture (light added, up to
    160 of 255, falling off over about a quarter of the picture's size)."""
    h, w = img.shape[:2]
    y, x = np.mgrid[0:h, 0:w]
    spot = np.exp(-(((x - 0.45 * w) / (0.12 * w)) ** 2 + ((y - 0.45 * h) / (0.12 * h)) ** 2))
    return np.clip(img + 160.0 * spot[..., None], 0, 255).astype(np.uint8)


def _falloff(img: np.ndarray, darkest: float) -> np.ndarray:
    """Light falling off from right to left, to ``darkest`` of itself at the left edge."""
    ramp = np.linspace(darkest, 1.0, img.shape[1])[None, :, None]
    return np.clip(img * ramp, 0, 255).astype(np.uint8)


def _shadow(img: np.ndarray, level: float) -> np.ndarray:
    """A soft shadow (an arm's, a camera holder's) over the left part of the picture: light
    down to ``level`` of itself left of a slanted edge running from 55 % of the width at
    the top to 35 % at the bottom, rising to full over 6 % of the width."""
    h, w = img.shape[:2]
    y, x = np.mgrid[0:h, 0:w]
    edge = w * (0.55 - 0.2 * y / max(h - 1, 1))
    lit = np.clip((x - edge) / (0.06 * w) + 0.5, 0.0, 1.0)
    return np.clip(img * (level + (1.0 - level) * lit)[..., None], 0, 255).astype(np.uint8)


def _noise(img: np.ndarray, sigma: float) -> np.ndarray:
    rng = np.random.default_rng(0)
    return np.clip(img + rng.normal(0, sigma, img.shape), 0, 255).astype(np.uint8)


VARIANTS: dict[str, Callable[[np.ndarray], np.ndarray]] = {
    "as-taken": lambda x: x,
    "scale-0.6": lambda x: _scale(x, 0.6),
    "scale-0.4": lambda x: _scale(x, 0.4),
    "scale-2": lambda x: _scale(x, 2.0),
    "turn-15": lambda x: _turn(x, 15),
    "turn-37": lambda x: _turn(x, 37),
    "turn-90": lambda x: _turn(x, 90),
    "oblique-0.2": lambda x: _oblique(x, 0.2),
    "oblique-0.3": lambda x: _oblique(x, 0.3),
    "far-left-0.25": lambda x: _far_side(x, "left", 0.25),
    "far-bottom-0.25": lambda x: _far_side(x, "bottom", 0.25),
    "dim-gamma-1.8": lambda x: _gamma(x, 1.8),
    "dark-x0.45": lambda x: (x * 0.45).astype(np.uint8),
    "bright-gamma-0.6": lambda x: _gamma(x, 0.6),
    "warm": lambda x: _cast(x, (0.85, 0.97, 1.08)),
    "warm-strong": lambda x: _cast(x, (0.7, 0.95, 1.15)),
    "warm-strong-dim": lambda x: _gamma(_cast(x, (0.7, 0.95, 1.15)), 1.5),
    "tungsten": lambda x: _cast(x, (0.55, 0.85, 1.2)),
    "cold": lambda x: _cast(x, (1.2, 1.0, 0.8)),
    "cold-strong": lambda x: _cast(x, (1.35, 1.0, 0.7)),
    "glare-spot": _glare_spot,
    "glare-warm": lambda x: _cast(_glare_spot(x), (0.8, 0.95, 1.1)),
    "glare-oblique": lambda x: _glare_spot(_oblique(x, 0.25)),
    "cold-dim": lambda x: _gamma(_cast(x, (1.3, 1.0, 0.75)), 1.6),
    "falloff-0.4": lambda x: _falloff(x, 0.4),
    "shadow-0.5": lambda x: _shadow(x, 0.5),
    "shadow-0.3": lambda x: _shadow(x, 0.3),
    "jpeg-25": lambda x: _jpeg(x, 25),
    "blur-1.5": lambda x: cv2.GaussianBlur(x, (0, 0), 1.5),
    "noise-12": lambda x: _noise(x, 12.0),
    "over-exposed": lambda x: np.clip(x * 1.6, 0, 255).astype(np.uint8),
    "washed-out": lambda x: cv2.addWeighted(
        x, 0.6, cv2.cvtColor(cv2.cvtColor(x, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR), 0.4, 0),
}
"""Variant name → image operation on the photo as taken (BGR uint8 in and out)."""


def truth(name: str):
    """The labelled board of real photo ``name`` (``referee.board.Board``)."""
    from referee.board import board_from_json
    data = json.loads((PHOTOS / f"{name}.json").read_text())
    return board_from_json({"tiles": [{k: t[k] for k in ("q", "r", "tile", "rotation")}
                                      for t in data["tiles"]]})


def read_variant(name: str, variant: str) -> dict[str, Any]:
    """Read one variant of one photo: its figures as a JSON-ready dict."""
    from referee.compare import best_alignment
    from vision import read_photo
    image = VARIANTS[variant](cv2.imread(str(PHOTOS / f"{name}.jpg")))
    expected = truth(name)
    t0 = time.perf_counter()
    board = read_photo(image)
    seconds = time.perf_counter() - t0
    return {"photo": name, "variant": variant, "tiles": len(expected),
            "right": best_alignment(expected, board)[2], "read": len(board),
            "loose": len(board.loose), "unreadable": len(board.meta.get("unreadable") or []),
            "seconds": round(seconds, 3)}


def run(variants: list[str], progress: bool = True) -> dict[str, Any]:
    """Every variant of both photos; the rows and a summary."""
    from tqdm import tqdm
    jobs = [(n, v) for n in NAMES for v in variants]
    rows = [read_variant(n, v) for n, v in tqdm(jobs, desc="real photos", unit="read",
                                                 file=sys.stderr, disable=not progress)]
    tiles = sum(r["tiles"] for r in rows)
    right = sum(r["right"] for r in rows)
    whole = sum(r["right"] == r["tiles"] for r in rows)
    wrong = sum(r["read"] - r["right"] for r in rows)
    return {"summary": {"reads": len(rows), "tiles": tiles, "tiles_right": right,
                        "tiles_wrong": wrong,
                        "identity": round(right / tiles, 4) if tiles else None,
                        "photos_read_whole": whole},
            "rows": rows}


def table(report: dict[str, Any]) -> str:
    """The report as Markdown: one row per variant, one column pair per photo."""
    by = {(r["photo"], r["variant"]): r for r in report["rows"]}
    variants = list(dict.fromkeys(r["variant"] for r in report["rows"]))
    lines = ["| variant | " + " | ".join(f"{n} right / tiles (wrong, unreadable)" for n in NAMES)
             + " |",
             "|---|" + "---|" * len(NAMES)]
    for v in variants:
        cells = []
        for n in NAMES:
            r = by.get((n, v))
            cells.append("–" if r is None else
                         f"{r['right']} / {r['tiles']} ({r['read'] - r['right']}, {r['unreadable']})")
        lines.append(f"| {v} | " + " | ".join(cells) + " |")
    s = report["summary"]
    lines.append(f"\n{s['tiles_right']} of {s['tiles']} tiles right ({100 * s['identity']:.1f} %), "
                 f"{s['tiles_wrong']} read wrong, {s['photos_read_whole']} of {s['reads']} reads whole")
    return "\n".join(lines) + "\n"


def add_variants_option(ap: argparse.ArgumentParser) -> None:
    """``--variants NAME ...`` (default: every variant), for the benchmarks that use them."""
    ap.add_argument("--variants", nargs="+", choices=list(VARIANTS), default=list(VARIANTS),
                    help="variants to read (default: all)")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m bench.real_photo_bench",
                                 description=__doc__.splitlines()[0])
    add_variants_option(ap)
    args = ap.parse_args(argv)
    if not all((PHOTOS / f"{n}.jpg").exists() for n in NAMES):
        print(f"real_photo_bench: the real photos are missing (expected in {PHOTOS})", file=sys.stderr)
        return 2
    report = run(args.variants)
    md = table(report)
    print(md)
    path = write_report("real_photos", report, md)
    print(f"written {path}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
