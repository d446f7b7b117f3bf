"""Colours alone: how many tiles the reader's colour stage reads on the *true* lattice.

    python -m bench.true_lattice --tier hard --count 120 [--images 48 93]

For each rendered image a homography is fitted to the renderer's true tile centres and
corners (so small boards count too), every
true cell is sampled on the photo (``vision.sampling.sample_cells``) and identified with the
reader's colour stage: the photo's first model, scaled to its links and calibrated on its
own readings (``vision.reader.learn_colours``), then the global assignment.  A tile counts
as read when number and rotation are right, and as read *surely* when the reading also
passes the reader's own bar for keeping a tile (``vision.acceptance.fits``).

Beside each figure the reader's own count from its last benchmark run
(``bench/results/reader-<tier>.json`` or ``recognition-<tier>-vision.read_photo.json``,
the newer, when it covers the image) shows what the lattice search and the occupancy test
lose: a photo whose true cells read well but whose reader count is
low lost its tiles before any colour was read.  This is a diagnosis, not a reader: it
knows where the tiles are.

Writes ``bench/results/true-lattice-<tier>.json`` (+ ``.md``) and prints one line per image.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from bench.datasets import ensure_tier
from bench.outputs import RESULTS, markdown_table, write_report


def true_homography(tiles: list[dict], scale: float = 1.0) -> np.ndarray | None:
    """Homography (3, 3) lattice plane → photo pixels (times ``scale``) fitted to the
    renderer's true tile centres and corners, so two touching tiles are enough (a lone
    tile's own corners leave its turn open by sixths).

    The truth lists each tile's six corners in the photo, starting anywhere and running
    either way round: the pairing with the plane's corners that fits best is taken."""
    from vision.lattice import BASIS, CORNERS

    best = None
    for start in range(6):
        for way in (1, -1):
            plane, pix = [], []
            for t in tiles:
                centre = np.array([t["q"], t["r"]], np.float64) @ BASIS.T
                plane += [centre] + [centre + CORNERS[(start + way * k) % 6] for k in range(6)]
                pix += [t["pixel"]] + list(t["corners"])
            plane, pix = np.array(plane, np.float64), np.array(pix, np.float64) * scale
            H, _ = cv2.findHomography(plane, pix, 0)
            if H is None:
                continue
            err = float(np.abs(cv2.perspectiveTransform(plane[None], H)[0] - pix).mean())
            if best is None or err < best[0]:
                best = (err, H)
    return None if best is None else best[1]


def read_true_cells(photo_path: str | Path) -> dict[str, Any]:
    """Sample and identify the true cells of one rendered photo; counts of tiles right."""
    from vision import bodies, colours, identify, sampling
    from vision.image_io import load_photo
    from vision.lattice import Lattice
    from vision.acceptance import UNFIT, fits
    from vision.reader import learn_colours

    truth = json.loads(Path(photo_path).with_suffix(".json").read_text())
    tiles = truth["tiles"]
    out = {"tiles": len(tiles), "right": 0, "right_surely": 0}
    if not tiles:
        return out
    cells = np.array([[t["q"], t["r"]] for t in tiles], np.float64)
    photo = load_photo(photo_path)
    H = true_homography(tiles, photo.scale)
    if H is None:
        return out
    lab = colours.to_lab(photo.image)
    model = colours.initial_model(lab, bodies.dark_mask(lab))
    edges, _corners = sampling.sample_cells(photo.image, Lattice(H), cells, np.zeros((len(cells), 2)))
    every = np.ones(len(cells), bool)
    model = learn_colours(colours.adapt_scale(model, edges.reshape(-1, 3)), edges, every)
    readings = identify.identify(colours.log_probs(edges, model), first=every, last_if=UNFIT)
    for t, rd in zip(tiles, readings):
        if (rd.tile, rd.rotation) == (t["tile"], t["rotation"]):
            out["right"] += 1
            out["right_surely"] += int(fits(rd))
    return out


def _reader_counts(tier: str) -> dict[str, int]:
    """The reader's tiles right per image name, from the newer of the reader benchmark's and
    the recognition benchmark's last run of ``vision:read_photo`` on this tier."""
    paths = [p for p in (RESULTS / f"reader-{tier}.json", RESULTS / f"recognition-{tier}-vision.read_photo.json")
             if p.exists()]
    if not paths:
        return {}
    newest = max(paths, key=lambda p: p.stat().st_mtime)
    return {r["image"]: r["agree"] for r in json.loads(newest.read_text()).get("images", [])}


def run(tier: str, count: int, images: list[int] | None = None, progress: bool = True) -> dict[str, Any]:
    from tqdm import tqdm
    photos = ensure_tier(tier, count if images is None else max(images) + 1, progress=progress)
    if images is not None:
        photos = [photos[i] for i in images]
    reader = _reader_counts(tier)
    rows = []
    for photo in tqdm(photos, desc=f"true lattice {tier}", unit="img", file=sys.stderr, disable=not progress):
        row = {"image": photo.name, **read_true_cells(photo), "reader_right": reader.get(photo.name)}
        rows.append(row)
        print(f"{photo.name}: {row['right']}/{row['tiles']} right on the true lattice "
              f"({row['right_surely']} surely); reader {row['reader_right']}", flush=True)
    total = {k: sum(r[k] for r in rows) for k in ("tiles", "right", "right_surely")}
    known = [r for r in rows if r["reader_right"] is not None]
    total["reader_right"] = sum(r["reader_right"] for r in known) if known else None
    total["reader_tiles"] = sum(r["tiles"] for r in known) if known else None
    return {"tier": tier, "images": rows, "total": total}


def markdown(report: dict[str, Any]) -> str:
    t = report["total"]
    lines = [f"# True-lattice colour reads, {report['tier']}", "",
             f"{t['right']} of {t['tiles']} tiles right on the true lattice ({t['right_surely']} surely); "
             f"the reader: {t['reader_right']} of {t['reader_tiles']} on the images it was run on.", ""]
    lines += markdown_table(["image", "tiles", "right (true lattice)", "surely", "reader"],
                            [[r["image"], r["tiles"], r["right"], r["right_surely"], r["reader_right"]]
                             for r in report["images"]])
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tier", default="hard", choices=["easy", "hard", "real-texture", "video-720p"])
    ap.add_argument("--count", type=int, default=60, help="first N images of the tier")
    ap.add_argument("--images", type=int, nargs="+", help="only these image indices")
    ap.add_argument("--out", type=Path, default=RESULTS, help="results directory")
    args = ap.parse_args(argv)
    report = run(args.tier, args.count, args.images)
    t = report["total"]
    print(f"{args.tier}: {t['right']}/{t['tiles']} right on the true lattice ({t['right_surely']} surely); "
          f"reader {t['reader_right']}/{t['reader_tiles']}")
    print("written", write_report(f"true-lattice-{args.tier}", report, markdown(report), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
