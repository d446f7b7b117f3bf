"""Random rendering parameters per tier: every knob of a shot as plain JSON-able data.

``random_params(tier, rng)`` draws one shot's parameters; :func:`scenegen.render` uses them
as given, so a dataset records them beside each image and any image can be re-rendered.
"""
from __future__ import annotations

from typing import Any

import numpy as np

from .table import KINDS

TIERS = ("easy", "hard", "real-texture", "video-720p")

SIZES = [(640, 480), (800, 600), (1024, 768), (1280, 720), (1280, 960), (1600, 1200),
         (1920, 1080), (2048, 1536), (2592, 1944), (3264, 2448), (4000, 3000)]


def _size(rng: np.random.Generator, sizes: list[tuple[int, int]], portrait: float = 0.2):
    # phone-sized photos are rarer than webcam-sized ones (and far slower to render)
    weights = np.array([1.0 / (1 + 0.35 * i) for i in range(len(sizes))])
    w, h = sizes[int(rng.choice(len(sizes), p=weights / weights.sum()))]
    if rng.random() < portrait:
        w, h = h, w
    return int(w), int(h)


def random_params(tier: str, rng: np.random.Generator | int | None = None) -> dict[str, Any]:
    """Draw the parameters of one shot for ``tier`` (one of :data:`TIERS`).

    Units: pixels for image sizes, ``tile_px`` (largest tile width, corner to corner, at the
    board centre; the renderer makes tiles smaller so that the board spans about ``fill`` of
    the shorter image side) and blur; degrees for angles; tile circumradii ("s") for table-plane lengths;
    kelvin for colour temperature.
    """
    if tier not in TIERS:
        raise ValueError(f"unknown tier {tier!r}; known: {', '.join(TIERS)}")
    rng = np.random.default_rng(rng)
    u = rng.uniform
    hard = tier == "hard"
    easy = tier == "easy"
    if easy:
        width, height = _size(rng, SIZES[:7], 0.1)
        tile_px = u(60, 160)
        fill = u(0.45, 0.9)
        tilt = u(0, 20)
        table = str(rng.choice(["light", "dark", "wood", "felt", "light"]))
    elif tier == "video-720p":
        width, height = 1280, 720
        tile_px = u(35, 90)
        fill = u(0.35, 0.85)
        tilt = u(15, 45)
        table = str(rng.choice(KINDS))
    elif tier == "real-texture":
        width, height = _size(rng, SIZES[:8], 0.15)
        tile_px = u(50, 150)
        fill = u(0.35, 0.9)
        tilt = u(0, 40)
        table = str(rng.choice(KINDS))
    else:
        width, height = _size(rng, SIZES, 0.25)
        tile_px = float(np.exp(u(np.log(40), np.log(300))))
        fill = 0.95 - 0.8 * u(0, 1) ** 2  # mostly filling the frame, sometimes a far shot
        tilt = u(0, 50)
        table = str(rng.choice(KINDS))
    dim = hard and rng.random() < 0.3 or tier == "video-720p" and rng.random() < 0.3
    exposure = u(0.3, 0.6) if dim else u(0.85, 1.15) if easy else u(0.7, 1.2)
    params: dict[str, Any] = {
        "tier": tier,
        "width": width,
        "height": height,
        "tile_px": round(float(tile_px), 2),
        "fill": round(float(fill), 3),
        "tilt_deg": round(float(tilt), 2),
        "azimuth_deg": round(float(u(0, 360)), 2),
        "roll_deg": round(float(u(-180, 180)), 2),
        "fov_deg": round(float(u(55, 75)), 2),
        "k1": round(float(u(-0.05, 0.05) if easy else u(-0.2, 0.12)), 4),
        "k2": round(float(u(-0.02, 0.02) if easy else u(-0.05, 0.05)), 4),
        "offset": [round(float(u(-0.1, 0.1)), 3), round(float(u(-0.1, 0.1)), 3)],
        "gap": round(float(u(0.01, 0.05) if rng.random() < 0.7 else u(0.0, 0.012)), 4),
        "jitter_pos": round(float(u(0.0, 0.03)), 4),
        "jitter_deg": round(float(u(0.0, 2.0)), 3),
        "thickness": round(float(u(0.1, 0.18)), 3),
        "face": "real" if tier == "real-texture" else "drawn",
        "palette": str(rng.choice(["classic", "bright", "mid"])),
        "band": round(float(u(0.18, 0.24)), 3),
        "body_grey": round(float(u(10, 65)), 1),
        "wall_light": round(float(u(0, 45)), 1),
        "table": {"kind": table, "seed": int(rng.integers(1 << 30)),
                  "angle": round(float(u(0, 180)), 1)},
        "light": {
            "kelvin": int(u(4500, 6500) if easy else u(2700, 6500)),
            "white_balance": round(float(u(0.6, 1.0) if easy else u(0.0, 1.0)), 3),
            "exposure": round(float(exposure), 3),
            "gradient": round(float(u(0.0, 0.2) if easy else u(0.0, 0.6)), 3),
            "gradient_angle": round(float(u(0, 360)), 1),
            "vignette": round(float(u(0.0, 0.2) if easy else u(0.0, 0.5)), 3),
            "shadow": {"dx": round(float(u(-0.25, 0.25)), 3), "dy": round(float(u(-0.25, 0.25)), 3),
                       "blur": round(float(u(0.05, 0.3)), 3),
                       "strength": round(float(u(0.2, 0.6)), 3)},
            "sheen": round(float(u(0.0, 1.0)), 3),
            "glare": int(rng.integers(0, 2) if easy else rng.integers(0, 4)),
            "glare_strength": round(float(u(0.2, 0.5) if easy else u(0.3, 1.0)), 3),
        },
        "clutter": {
            "loose": int(rng.integers(0, 2) if easy else rng.integers(0, 5)),
            "face_down": int(0 if easy else rng.integers(0, 4)),
            "occluder": "none" if easy else str(rng.choice(["none"] * 6 + ["hand", "object"])),
        },
        "blur": {
            "focus": round(float(u(0, 0.6) if easy else u(0, 2.5)), 3),
            "motion": round(float(0 if easy else (u(0, 12) if tier == "video-720p" else
                                                 u(0, 6) if rng.random() < 0.4 else 0)), 2),
            "motion_angle": round(float(u(0, 180)), 1),
        },
        "sharpen": round(float(0 if tier == "video-720p" else u(0, 0.8) if rng.random() < 0.5 else 0), 3),
        "noise": round(float(u(0.5, 2.0) if easy else u(0.8, 4.0) * (1.5 if dim else 1)), 3),
        "jpeg_quality": int(u(85, 96) if easy else u(40, 96) if hard else u(55, 92)),
    }
    return params


def default_params(**changes: Any) -> dict[str, Any]:
    """A clean, well lit, nearly top-down shot (what ``render(board)`` uses without params).

    ``changes`` replace parameters; a dict value updates that section (``table={"kind":
    "wood"}`` changes the cloth and keeps the rest of ``table``).
    """
    p = random_params("easy", np.random.default_rng(0))
    p.update({"width": 1280, "height": 960, "tile_px": 100.0, "fill": 0.7, "tilt_deg": 10.0, "roll_deg": 5.0,
              "k1": 0.0, "k2": 0.0, "offset": [0.0, 0.0], "palette": "classic", "jpeg_quality": 92})
    p["table"]["kind"] = "light"
    p["clutter"] = {"loose": 0, "face_down": 0, "occluder": "none"}
    p["light"].update({"exposure": 1.0, "glare": 0, "kelvin": 5500, "white_balance": 0.9})
    p["blur"] = {"focus": 0.3, "motion": 0.0, "motion_angle": 0.0}
    p["noise"] = 1.0
    for key, value in changes.items():
        if isinstance(value, dict):
            p[key].update(value)
        else:
            p[key] = value
    return p
