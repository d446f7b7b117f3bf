"""Pictures of single tiles: the face (links on a black body) and the back.

A face is drawn in the tile's own frame: flat-topped, edge 0 at the top, edges numbered
clockwise, centre at the middle of a square texture.  Distances below are in units of the
tile's circumradius ``s`` (centre to corner), so edge midpoints lie at ``sqrt(3)/2``.

Link geometry follows the real tiles (../shared/real_tiles): every link meets its edge at
the edge midpoint, square to the edge; a *corner* is an arc of radius s/2 about the vertex
shared by its two edges; a *bend* is an arc of radius 3s/2 about the centre of the
neighbouring cell across the edge between its two ends; a *straight* is a band through
the centre (``referee.link_geometry``).
Crossing links are drawn one over the other with a thin black keyline.

Textures are BGR float32 in 0..255 plus an alpha mask (float32 0..1); both are cached.
"""
from __future__ import annotations

import math
from functools import lru_cache

import cv2
import numpy as np

from referee.link_geometry import link_path, vertex
from referee.tiles import TILES, rotated_edges, partner_edge

PALETTES: dict[str, dict[str, tuple[float, float, float]]] = {
    # BGR medians sampled from ../shared/real_tiles (matte, dark inks)
    "classic": {"red": (8, 14, 100), "yellow": (30, 148, 170), "green": (48, 78, 36),
                "blue": (92, 30, 8), "body": (18, 16, 15)},
    # the glossier, brighter edition seen in ../shared/real_photos/discovery10.jpg
    "bright": {"red": (48, 40, 215), "yellow": (20, 182, 220), "green": (60, 140, 38),
               "blue": (205, 110, 45), "body": (46, 42, 46)},
    # in between (the carpet photo)
    "mid": {"red": (45, 45, 170), "yellow": (40, 200, 210), "green": (55, 120, 45),
            "blue": (170, 105, 45), "body": (34, 32, 31)},
}

BACK_INKS = {"yellow": (30, 190, 220), "red": (40, 40, 200), "blue": (190, 100, 40),
             "green": (60, 150, 50), "white": (225, 225, 225)}


def rounded_hexagon(radius: float = 1.0, corner: float = 0.12, steps: int = 5) -> np.ndarray:
    """Outline of a flat-topped hexagon with rounded corners, shape (6*(steps+1), 2).

    ``radius`` is the sharp hexagon's circumradius, ``corner`` the rounding radius (same units).
    """
    pts = []
    for k in range(6):
        v = vertex(k) * radius
        # centre of the rounding circle lies on the line to the centre, inside the vertex
        c = v * (1 - corner / (radius * math.sin(math.radians(60))) * 1.0)
        a0 = math.radians(-60 + 60 * k) - math.radians(30)
        for t in np.linspace(0, 1, steps + 1):
            a = a0 + t * math.radians(60)
            pts.append(c + corner * np.array([math.cos(a), math.sin(a)]))
    return np.array(pts)


def band_polygon(path: np.ndarray, width: float) -> np.ndarray:
    """A closed polygon covering a band of ``width`` around ``path`` with square ends."""
    d = np.gradient(path, axis=0)
    d /= np.linalg.norm(d, axis=1, keepdims=True)
    normal = np.stack([-d[:, 1], d[:, 0]], axis=1)
    left = path + normal * width / 2
    right = path - normal * width / 2
    # carry the ends a little past the rim so they are cut by the tile edge, not short of it
    ext = d * 0.08
    left[0] -= ext[0]; right[0] -= ext[0]
    left[-1] += ext[-1]; right[-1] += ext[-1]
    return np.vstack([left, right[::-1]])


def _links_of(number: int) -> list[tuple[str, int, int]]:
    seen, out = set(), []
    edges = rotated_edges(number, 0)
    for e in range(6):
        if e in seen:
            continue
        p = partner_edge(number, 0, e)
        seen.update((e, p))
        out.append((edges[e], e, p))
    return out


@lru_cache(maxsize=None)
def _link_order(number: int) -> tuple[int, ...]:
    """Drawing order of the three links (last = on top at crossings).

    Read from the photograph of the real tile when ../shared/real_tiles is there (the colour
    seen where two links cross is the upper one); otherwise a fixed per-tile order.
    """
    order = [0, 1, 2]
    np.random.default_rng(number * 7919).shuffle(order)
    if not real_textures_available():
        return tuple(order)
    links = _links_of(number)
    img, alpha = real_face(number, 65)
    pal = PALETTES["classic"]
    above: dict[int, set[int]] = {i: set() for i in range(3)}
    for i in range(3):
        for j in range(i + 1, 3):
            pi, pj = link_path(*links[i][1:], n=200), link_path(*links[j][1:], n=200)
            d = np.linalg.norm(pi[:, None] - pj[None], axis=2)
            a, b = np.unravel_index(np.argmin(d), d.shape)
            if d[a, b] > 0.03:
                continue
            x, y = (pi[a] + pj[b]) / 2 * 65 + img.shape[0] / 2
            seen = img[int(y) - 1:int(y) + 2, int(x) - 1:int(x) + 2].reshape(-1, 3).mean(0)
            di = np.linalg.norm(seen - pal[links[i][0]])
            dj = np.linalg.norm(seen - pal[links[j][0]])
            if di < dj:
                above[i].add(j)
            else:
                above[j].add(i)
    def height(k: int, seen: frozenset = frozenset()) -> int:
        below = [j for j in above[k] if j not in seen]
        return 1 + max((height(j, seen | {k}) for j in below), default=0)

    # a link above another is drawn after it
    return tuple(sorted(range(3), key=lambda k: (height(k), order.index(k))))


@lru_cache(maxsize=64)
def _shape(radius_px: int, corner: float) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Alpha mask, distance-to-rim (tile units) and rim normal angle for a texture size."""
    size = 2 * radius_px + 4
    ss = 4
    big = np.zeros((size * ss, size * ss), np.uint8)
    c = size / 2
    outline = rounded_hexagon(1.0, corner) * radius_px + c
    cv2.fillPoly(big, [np.round(outline * ss * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
    alpha = cv2.resize(big, (size, size), interpolation=cv2.INTER_AREA).astype(np.float32) / 255
    inside = (alpha > 0.5).astype(np.uint8)
    dist = cv2.distanceTransform(inside, cv2.DIST_L2, 5) / radius_px
    gx = cv2.Sobel(dist, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(dist, cv2.CV_32F, 0, 1, ksize=3)
    # the outward normal points against the gradient of the distance
    ang = np.arctan2(-gy, -gx).astype(np.float32)
    return alpha, dist.astype(np.float32), ang


def draw_face(number: int, radius_px: int, palette: str = "classic", band: float = 0.23,
              light_angle: float = -2.2, corner: float = 0.12, variant: int = 0,
              body_grey: float | None = None) -> tuple[np.ndarray, np.ndarray]:
    """The face of tile ``number`` at rotation 0 as (BGR float32 image, alpha).

    ``radius_px`` is the circumradius in texture pixels; the tile centre is at
    ``(radius_px + 2, radius_px + 2)``.  ``band`` is the link width in tile units (s);
    ``body_grey`` (0..255) overrides the palette's body colour (glossy black plastic looks
    anything from 10 to 70 grey depending on what it reflects).
    """
    bg = None if body_grey is None else int(round(body_grey / 4) * 4)
    return _draw_face(number, int(radius_px), palette, round(band, 3), round(light_angle, 1),
                      round(corner, 2), variant, bg)


@lru_cache(maxsize=2048)
def _draw_face(number, radius_px, palette, band, light_angle, corner, variant, body_grey):
    pal = dict(PALETTES[palette])
    if body_grey is not None:
        pal["body"] = (body_grey * 0.98, body_grey * 0.95, body_grey)
    alpha, dist, ang = _shape(radius_px, corner)
    size = alpha.shape[0]
    c = size / 2
    ss = 3 if radius_px < 60 else 2
    img = np.zeros((size * ss, size * ss, 3), np.float32)
    img[:] = pal["body"]
    scale = radius_px * ss
    links = _links_of(number)
    keyline = 0.035
    for idx in _link_order(number):
        colour, e1, e2 = links[idx]
        path = link_path(e1, e2)
        outer = band_polygon(path, band + 2 * keyline) * scale + c * ss
        inner = band_polygon(path, band) * scale + c * ss
        # the link sits in a groove: a thin keyline darker than the body around it
        groove = tuple(0.45 * v for v in pal["body"])
        cv2.fillPoly(img, [np.round(outer * 16).astype(np.int32)], groove, cv2.LINE_AA, 4)
        cv2.fillPoly(img, [np.round(inner * 16).astype(np.int32)], pal[colour], cv2.LINE_AA, 4)
        # links are printed slightly recessed: a glossy lighter line along one side
        off = np.array([math.cos(light_angle), math.sin(light_angle)]) * band * 0.28
        shine = (band_polygon(path, band * 0.16) + off) * scale + c * ss
        light = tuple(min(255.0, 0.92 * v + 0.08 * 255) for v in pal[colour])
        cv2.fillPoly(img, [np.round(shine * 16).astype(np.int32)], light, cv2.LINE_AA, 4)
    img = cv2.resize(img, (size, size), interpolation=cv2.INTER_AREA)
    img = cv2.GaussianBlur(img, (0, 0), max(0.35, radius_px / 140))
    # rim: a black border where links stop, then a bevel catching the light
    rim = 0.05
    body = np.array(pal["body"], np.float32)
    border = np.clip((rim - dist) / 0.02, 0, 1)[..., None]
    img = img * (1 - border) + body * border
    # a rounded, glossy bevel: bright where it faces the light, shaded on the far side
    facing = np.cos(ang - light_angle)
    bevel = np.exp(-((dist - 0.035) / 0.028) ** 2)
    img += (bevel * np.clip(22 + 55 * facing, 0, None))[..., None]
    img *= (1 - 0.25 * bevel * np.clip(-facing, 0, 1))[..., None]
    # body texture: faint mottling so the black is not a flat fill
    rng = np.random.default_rng(number * 31 + variant)
    mott = cv2.GaussianBlur(rng.normal(0, 1, (size, size)).astype(np.float32), (0, 0), max(1, radius_px / 25))
    img += (mott * 2.5)[..., None]
    return np.clip(img, 0, 255), alpha


@lru_cache(maxsize=256)
def draw_back(number: int, radius_px: int, corner: float = 0.12) -> tuple[np.ndarray, np.ndarray]:
    """The back of tile ``number``: black body with its number printed in its back colour."""
    alpha, dist, ang = _shape(int(radius_px), corner)
    size = alpha.shape[0]
    img = np.zeros((size, size, 3), np.uint8)
    img[:] = (20, 18, 18)
    ink = BACK_INKS[TILES[number].back]
    text = str(number)
    font = cv2.FONT_HERSHEY_DUPLEX
    fs = radius_px / 30
    th = max(1, int(radius_px / 12))
    (tw, tht), _ = cv2.getTextSize(text, font, fs, th)
    cv2.putText(img, text, (int(size / 2 - tw / 2), int(size / 2 + tht / 2)), font, fs, ink, th,
                cv2.LINE_AA)
    img = img.astype(np.float32)
    bevel = np.exp(-((dist - 0.022) / 0.014) ** 2) * (0.5 + 0.5 * np.cos(ang + 2.2))
    img += (bevel * 60)[..., None]
    return np.clip(img, 0, 255), alpha


# -- real tile photographs as textures (the "real-texture" tier) ----------------------

def _real_dir():
    """../shared/real_tiles beside the repository (read in place, never copied)."""
    from pathlib import Path
    return Path(__file__).resolve().parents[2] / "shared" / "real_tiles"


_CODE = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}


@lru_cache(maxsize=1)
def _real_labels() -> dict[int, int]:
    """For each tile photo, how many steps the photographed face is turned from rotation 0."""
    import csv
    out = {}
    path = _real_dir() / "labels.csv"
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            n = int(row["tile"])
            seen = tuple(_CODE[ch] for ch in row["edge_colours_in_photo"])
            for k in range(6):
                if rotated_edges(n, k) == seen:
                    out[n] = k
                    break
    return out


def real_textures_available() -> bool:
    """True when ../shared/real_tiles (with labels) can be read."""
    return (_real_dir() / "labels.csv").exists()


@lru_cache(maxsize=512)
def real_face(number: int, radius_px: int) -> tuple[np.ndarray, np.ndarray]:
    """The photographed face of tile ``number`` at rotation 0, same layout as :func:`draw_face`."""
    k = _real_labels()[number]
    im = cv2.imread(str(_real_dir() / f"tile_{number:02d}.png"), cv2.IMREAD_UNCHANGED)
    h, w = im.shape[:2]
    src_r = w / 2.0
    size = 2 * radius_px + 4
    scale = radius_px / src_r
    # turn the photo back by k steps (counter-clockwise) so that it shows rotation 0
    m = cv2.getRotationMatrix2D((w / 2, h / 2), 60 * k, scale)
    m[:, 2] += (size / 2 - w / 2, size / 2 - h / 2)
    interp = cv2.INTER_AREA if scale < 1 else cv2.INTER_CUBIC
    out = cv2.warpAffine(im, m, (size, size), flags=interp, borderMode=cv2.BORDER_CONSTANT)
    img = out[..., :3].astype(np.float32)
    alpha = out[..., 3].astype(np.float32) / 255
    return img, alpha
