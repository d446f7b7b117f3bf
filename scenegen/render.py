"""Board in, photograph and ground truth out.

The scene is built in 3-D: tiles are thin hexagonal prisms (black walls, printed top face)
lying on a textured table plane, seen by a pinhole camera (:mod:`scenegen.camera`); then
light, lens distortion, blur, sensor noise and JPEG compression are applied in that order.
"""
from __future__ import annotations

import math
from typing import Any

import cv2
import numpy as np

from referee.board import Board, board_from_json
from referee.hexgrid import to_pixel
from referee.link_geometry import vertex
from referee.tiles import TILES

from . import tileface
from .camera import Camera
from .params import default_params
from .table import lay_table, make_table

CORNER = 0.2
"""Rounding radius of a tile's corners (tile units)."""
_OUTLINE = tileface.rounded_hexagon(1.0, CORNER, 4)
MIN_TILE_PX = 20.0
"""Smallest tile the fill rule may shrink tiles to (px, corner to corner at the board's
centre): the reader is specified for tiles of 20 to 300 px (issue 4 asks the generator
for that range).  A far shot of a big board in a small frame had made tiles of 7-13 px."""
_VERTICES = np.array([vertex(k) for k in range(6)])


def _as_board(board: Board | dict) -> Board:
    if isinstance(board, Board):
        return board
    return board_from_json(board)


def _rot(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s], [s, c]])


# -- colour science, roughly -------------------------------------------------------------

def kelvin_to_bgr(kelvin: float) -> np.ndarray:
    """Relative BGR gains of a black body at ``kelvin`` (normalised so green = 1)."""
    t = kelvin / 100.0
    r = 255.0 if t <= 66 else 329.7 * (t - 60) ** -0.1332
    g = 99.47 * math.log(t) - 161.1 if t <= 66 else 288.1 * (t - 60) ** -0.0755
    b = 255.0 if t >= 66 else (0.0 if t <= 19 else 138.5 * math.log(t - 10) - 305.0)
    rgb = np.clip([r, g, b], 1, 255)
    return np.array([rgb[2], rgb[1], rgb[0]]) / rgb[1]


# -- compositing helpers -------------------------------------------------------------------

def _roi(pts: np.ndarray, w: int, h: int, pad: int = 2):
    x0 = max(int(np.floor(pts[:, 0].min())) - pad, 0)
    y0 = max(int(np.floor(pts[:, 1].min())) - pad, 0)
    x1 = min(int(np.ceil(pts[:, 0].max())) + pad, w)
    y1 = min(int(np.ceil(pts[:, 1].max())) + pad, h)
    return x0, y0, x1, y1


def _poly_mask(pts: np.ndarray, shape: tuple[int, int], origin=(0, 0)) -> np.ndarray:
    """Antialiased float mask (0..1) of a polygon given in image pixels."""
    m = np.zeros(shape, np.uint8)
    p = np.round((pts - origin) * 16).astype(np.int32)
    cv2.fillPoly(m, [p], 255, cv2.LINE_AA, 4)
    return m.astype(np.float32) / 255


def soft_blur(a: np.ndarray, sigma: float) -> np.ndarray:
    """Gaussian blur that stays fast for wide kernels: blur a shrunken copy, scale it back."""
    if sigma < 4:
        return cv2.GaussianBlur(a, (0, 0), max(sigma, 0.3))
    f = sigma / 2.0
    h, w = a.shape[:2]
    small = cv2.resize(a, (max(1, int(w / f)), max(1, int(h / f))), interpolation=cv2.INTER_AREA)
    small = cv2.GaussianBlur(small, (0, 0), 2.0)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)


def _blend(img: np.ndarray, roi, colour_img: np.ndarray, alpha: np.ndarray) -> None:
    x0, y0, x1, y1 = roi
    a = alpha[..., None]
    img[y0:y1, x0:x1] = img[y0:y1, x0:x1] * (1 - a) + colour_img * a


class _Piece:
    """One tile on the table: where it lies and which face shows."""

    def __init__(self, number: int, rotation: int, xy: np.ndarray, angle: float,
                 face_up: bool, cell=None):
        self.number, self.rotation, self.xy, self.angle = number, rotation, xy, angle
        self.face_up, self.cell = face_up, cell

    def outline(self, radius: float = 1.0, pts: np.ndarray = _OUTLINE) -> np.ndarray:
        return self.xy + (pts * radius) @ _rot(self.angle).T

    def vertices(self) -> np.ndarray:
        return self.xy + _VERTICES @ _rot(self.angle).T


def _layout(board: Board, p: dict, rng: np.random.Generator) -> list[_Piece]:
    spacing = 1.0 + p["gap"]
    pieces = []
    for cell, pl in sorted(board.tiles.items()):
        x, y = to_pixel(cell, spacing)
        jit = rng.normal(0, p["jitter_pos"], 2)
        ang = math.radians(rng.normal(0, p["jitter_deg"] / 2))
        pieces.append(_Piece(pl.tile, pl.rotation, np.array([x, y]) + jit, ang, True, cell))
    return pieces


def _place_loose(pieces: list[_Piece], rng: np.random.Generator,
                 extra: list[tuple[int, bool]]) -> list[_Piece]:
    """Put loose tiles (number, face_up) on the table near, but clear of, the Tantrix."""
    out = []
    centres = [pc.xy for pc in pieces] or [np.zeros(2)]
    c0 = np.mean(centres, axis=0)
    reach = max(np.max(np.linalg.norm(np.array(centres) - c0, axis=1)), 1.0)
    for number, face_up in extra:
        for _ in range(60):
            ang = rng.uniform(0, 2 * math.pi)
            dist = reach + rng.uniform(2.3, 4.5)
            xy = c0 + dist * np.array([math.cos(ang), math.sin(ang)])
            if all(np.linalg.norm(xy - q.xy) > 2.15 for q in pieces + out):
                turn = rng.uniform(0, 2 * math.pi)
                rot = int(round(math.degrees(turn) / 60)) % 6
                out.append(_Piece(number, rot, xy, turn - math.radians(60 * rot), face_up))
                break
    return out


def _make_camera(p: dict, board_centre: np.ndarray) -> Camera:
    w, h = p["width"], p["height"]
    focal = (w / 2) / math.tan(math.radians(p["fov_deg"]) / 2)
    cam = Camera(w, h, focal, p["tilt_deg"], p["azimuth_deg"], p["roll_deg"],
                 distance=focal * 2.0 / p["tile_px"], target=(float(board_centre[0]), float(board_centre[1])),
                 k1=p["k1"], k2=p["k2"])
    return cam


def _fit(cam: Camera, pieces: list[_Piece], p: dict, margin: float = 0.04) -> Camera:
    """Move the camera back until every tile (plus the board offset) is inside the frame."""
    w, h = cam.width, cam.height
    if not pieces:
        return cam
    pts = np.vstack([pc.outline() for pc in pieces])
    for _ in range(40):
        proj = cam.project(pts, -p["thickness"])
        proj_base = cam.project(pts, 0.0)
        allp = np.vstack([proj, proj_base])
        shift = np.array(p["offset"]) * [w, h]
        allp = allp + shift
        if (allp[:, 0].min() >= margin * w and allp[:, 0].max() <= (1 - margin) * w
                and allp[:, 1].min() >= margin * h and allp[:, 1].max() <= (1 - margin) * h):
            break
        cam.distance *= 1.08
    return cam


def _inside(cam: Camera, pieces: list[_Piece], p: dict, margin: float = 0.01) -> bool:
    """True when every tile's top face and base lie inside the photo."""
    if not pieces:
        return True
    pts = np.vstack([pc.outline() for pc in pieces])
    allp = np.vstack([cam.project(pts, -p["thickness"]), cam.project(pts, 0.0)])
    w, h = cam.width, cam.height
    return bool(allp[:, 0].min() >= margin * w and allp[:, 0].max() <= (1 - margin) * w
                and allp[:, 1].min() >= margin * h and allp[:, 1].max() <= (1 - margin) * h)


def _shift_camera(cam: Camera, p: dict) -> Camera:
    """Apply the board offset as a shift of the target on the table."""
    off = np.array(p["offset"]) * [cam.width, cam.height]
    if not off.any():
        return cam
    # world displacement that moves the image of the target by -off
    Hinv = np.linalg.inv(cam.homography(0.0))
    c = np.array([cam.width / 2, cam.height / 2])
    a = Hinv @ np.array([*c, 1.0])
    b = Hinv @ np.array([*(c - off), 1.0])
    d = b[:2] / b[2] - a[:2] / a[2]
    cam.target = (cam.target[0] + float(d[0]), cam.target[1] + float(d[1]))
    return cam


def _table_image(cam: Camera, p: dict) -> np.ndarray:
    w, h = cam.width, cam.height
    rng = np.random.default_rng(p["table"]["seed"])
    patch, period, _ = make_table(p["table"]["kind"], rng)
    Hinv = np.linalg.inv(cam.homography(0.0))
    # sample on a coarser grid and upsample the coordinates: the plane maps smoothly
    step = 4
    ys, xs = np.mgrid[0:h + step:step, 0:w + step:step].astype(np.float64)
    den = Hinv[2, 0] * xs + Hinv[2, 1] * ys + Hinv[2, 2]
    X = (Hinv[0, 0] * xs + Hinv[0, 1] * ys + Hinv[0, 2]) / den
    Y = (Hinv[1, 0] * xs + Hinv[1, 1] * ys + Hinv[1, 2]) / den
    X = cv2.resize(X.astype(np.float32), (xs.shape[1] * step, xs.shape[0] * step))[:h, :w]
    Y = cv2.resize(Y.astype(np.float32), (xs.shape[1] * step, xs.shape[0] * step))[:h, :w]
    # pre-filter the patch to the scale it is seen at, against moire
    px_per_unit = p["tile_px"] / 2
    patch_px_per_unit = patch.shape[0] / period
    shrink = patch_px_per_unit / px_per_unit
    if shrink > 1.2:
        patch = cv2.GaussianBlur(patch, (0, 0), 0.5 * shrink)
    return lay_table(patch, period, X, Y, math.radians(p["table"]["angle"]))


def _shadows(img: np.ndarray, cam: Camera, pieces: list[_Piece], p: dict) -> None:
    sh = p["light"]["shadow"]
    h, w = img.shape[:2]
    mask = np.zeros((h, w), np.float32)
    off = np.array([sh["dx"], sh["dy"]]) + 0.04
    for pc in pieces:
        pts = cam.project(pc.outline(1.02) + off, 0.0)
        x0, y0, x1, y1 = _roi(pts, w, h)
        if x1 <= x0 or y1 <= y0:
            continue
        m = _poly_mask(pts, (y1 - y0, x1 - x0), (x0, y0))
        mask[y0:y1, x0:x1] = np.maximum(mask[y0:y1, x0:x1], m)
    sigma = max(0.8, sh["blur"] * p["tile_px"] / 2)
    mask = soft_blur(mask, sigma)
    img *= (1 - sh["strength"] * mask)[..., None]


def _texture_radius(cam: Camera, pc: _Piece, p: dict) -> int:
    pts = cam.project_ideal(pc.vertices(), -p["thickness"])
    r = np.linalg.norm(pts - pts.mean(0), axis=1).max()
    return int(np.clip(round(r * 1.3 / 4) * 4, 12, 240))


def _draw_piece(img: np.ndarray, topmask: np.ndarray, cam: Camera, pc: _Piece, p: dict,
                light_angle: float, rng: np.random.Generator) -> None:
    h, w = img.shape[:2]
    th = p["thickness"]
    base = cam.project_ideal(pc.outline(0.995), 0.0)
    top = cam.project_ideal(pc.outline(), -th)
    hull = cv2.convexHull(np.vstack([base, top]).astype(np.float32)).reshape(-1, 2)
    x0, y0, x1, y1 = _roi(hull, w, h)
    if x1 <= x0 or y1 <= y0:
        return
    # the walls: black plastic, a little lighter on the side facing the light
    body = np.array(tileface.PALETTES[p["palette"]]["body"], np.float32)
    if p.get("body_grey") is not None:
        body = np.full(3, p["body_grey"], np.float32)
    wall = _poly_mask(hull, (y1 - y0, x1 - x0), (x0, y0))
    wall_col = np.empty((y1 - y0, x1 - x0, 3), np.float32)
    # the sides are glossy too: they pick up the room light, so they are often lighter
    wall_col[:] = body * 0.8 + p.get("wall_light", 10.0)
    _blend(img, (x0, y0, x1, y1), wall_col, wall)
    # the top face
    R = _texture_radius(cam, pc, p)
    if not pc.face_up:
        tex, alpha = tileface.draw_back(pc.number, R, CORNER)
    elif p["face"] == "real" and tileface.real_textures_available():
        tex, alpha = tileface.real_face(pc.number, R)
    else:
        tex, alpha = tileface.draw_face(pc.number, R, p["palette"], p["band"], light_angle,
                                        CORNER, body_grey=p.get("body_grey"))
    c = tex.shape[0] / 2
    ang = pc.angle + math.radians(60 * pc.rotation)
    M = np.eye(3)
    M[:2, :2] = _rot(ang) / R
    M[:2, 2] = pc.xy - (_rot(ang) / R) @ np.array([c, c])
    tx0, ty0, tx1, ty1 = _roi(top, w, h)
    if tx1 <= tx0 or ty1 <= ty0:
        return
    T = np.array([[1, 0, -tx0], [0, 1, -ty0], [0, 0, 1.0]])
    Hm = T @ cam.homography(-th) @ M
    size = (tx1 - tx0, ty1 - ty0)
    warped = cv2.warpPerspective(tex, Hm, size, flags=cv2.INTER_LINEAR)
    a = cv2.warpPerspective(alpha, Hm, size, flags=cv2.INTER_LINEAR)
    _blend(img, (tx0, ty0, tx1, ty1), warped, a)
    tm = topmask[ty0:ty1, tx0:tx1]
    # nearer tiles drawn later cover what is behind them
    wm = np.zeros_like(tm)
    ix0, iy0, ix1, iy1 = max(tx0, x0), max(ty0, y0), min(tx1, x1), min(ty1, y1)
    if ix1 > ix0 and iy1 > iy0:
        wm[iy0 - ty0:iy1 - ty0, ix0 - tx0:ix1 - tx0] = wall[iy0 - y0:iy1 - y0, ix0 - x0:ix1 - x0]
    topmask[ty0:ty1, tx0:tx1] = np.maximum(tm * (1 - wm), a)


def _glare(img: np.ndarray, topmask: np.ndarray, p: dict, rng: np.random.Generator) -> list:
    h, w = img.shape[:2]
    spots = []
    n = p["light"]["glare"]
    if not n:
        return spots
    field = np.zeros((h, w), np.float32)
    for _ in range(n):
        cx, cy = rng.uniform(0.1, 0.9) * w, rng.uniform(0.1, 0.9) * h
        rx = p["tile_px"] * rng.uniform(0.3, 1.6)
        ry = rx * rng.uniform(0.3, 1.0)
        ang = rng.uniform(0, 180)
        blob = np.zeros((h, w), np.uint8)
        cv2.ellipse(blob, (int(cx), int(cy)), (int(rx), int(ry)), ang, 0, 360, 255, -1)
        field = np.maximum(field, soft_blur(blob.astype(np.float32) / 255, rx / 3))
        spots.append([round(cx, 1), round(cy, 1), round(rx, 1)])
    # glossy tiles reflect the light source; the matte table barely does
    g = field * (0.15 + 0.85 * topmask) * p["light"]["glare_strength"]
    img += (g * 230)[..., None]
    return spots


def _finger(mask: np.ndarray, start: np.ndarray, direction: np.ndarray, length: float,
            width: float) -> None:
    """A finger: a capsule that narrows a little towards its rounded tip."""
    for t0, t1, wf in ((0.0, 0.55, 1.0), (0.5, 1.0, 0.85)):
        a = start + direction * length * t0
        b = start + direction * length * t1
        cv2.line(mask, (int(a[0]), int(a[1])), (int(b[0]), int(b[1])), 255,
                 max(2, int(width * wf)), cv2.LINE_AA)


def _occluder(img: np.ndarray, p: dict, rng: np.random.Generator, pieces_img: list) -> np.ndarray:
    """Draw a hand or an object over part of the scene; return its mask (0..1)."""
    h, w = img.shape[:2]
    kind = p["clutter"]["occluder"]
    mask = np.zeros((h, w), np.uint8)
    if kind == "none" or not pieces_img:
        return mask.astype(np.float32)
    tp = p["tile_px"]
    # aim at one tile of the Tantrix, coming in from the nearest image border
    aim = pieces_img[int(rng.integers(len(pieces_img)))]
    # reach for the edge of the Tantrix rather than its middle
    mid = np.mean(pieces_img, axis=0)
    out = np.asarray(aim) - mid
    out = out / (np.linalg.norm(out) + 1e-9)
    ax, ay = np.asarray(aim) + out * tp * 0.5 + rng.normal(0, tp * 0.3, 2)
    borders = [(ax, 0), (ax, h), (0, ay), (w, ay)]
    bx, by = min(borders, key=lambda b: math.hypot(b[0] - ax, b[1] - ay))
    d = np.array([ax - bx, ay - by]); d /= np.linalg.norm(d) + 1e-9
    nrm = np.array([-d[1], d[0]])
    colour_img = np.empty((h, w, 3), np.float32)
    if kind == "hand":
        skin = np.array(rng.choice([(150, 175, 220), (110, 140, 190), (70, 95, 140), (160, 190, 230)]),
                        np.float32)
        palm_c = np.array([ax, ay]) - d * tp * 0.8
        # arm from the border to the palm
        arm = np.array([[bx, by] + nrm * tp * 1.1, [bx, by] - nrm * tp * 1.1,
                        palm_c - nrm * tp * 0.75, palm_c + nrm * tp * 0.75])
        cv2.fillPoly(mask, [np.round(arm * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
        cv2.ellipse(mask, (int(palm_c[0]), int(palm_c[1])), (int(tp * 0.9), int(tp * 0.75)),
                    math.degrees(math.atan2(d[1], d[0])), 0, 360, 255, -1, cv2.LINE_AA)
        reach = tp * rng.uniform(1.1, 1.5)
        side = 1 if rng.random() < 0.5 else -1  # which side the thumb is on (left/right hand)
        for spread, length in zip(np.linspace(-0.55, 0.55, 4), (0.75, 0.95, 1.0, 0.85)[::side]):
            fd = d + nrm * spread * 0.35
            fd /= np.linalg.norm(fd)
            start = palm_c + nrm * spread * tp * 0.85 + d * tp * 0.5
            _finger(mask, start, fd, reach * length * rng.uniform(0.9, 1.05), tp * 0.27)
        thumb_dir = d * 0.55 + nrm * side * 0.85
        thumb_dir /= np.linalg.norm(thumb_dir)
        _finger(mask, palm_c + nrm * side * tp * 0.55, thumb_dir, reach * 0.7, tp * 0.32)
        colour_img[:] = skin
        # rounded limbs: darker towards their outline, a little sheen along the middle
        inside = cv2.distanceTransform((mask > 127).astype(np.uint8), cv2.DIST_L2, 3)
        depth = np.clip(inside / (tp * 0.35), 0, 1)
        colour_img *= (0.55 + 0.45 * np.sqrt(depth))[..., None]
        colour_img += (np.exp(-((depth - 0.8) / 0.2) ** 2) * 18)[..., None]
        # skin is not flat paint: faint blotches
        blotch = cv2.resize(rng.normal(0, 1, (max(2, h // 24), max(2, w // 24))).astype(np.float32),
                            (w, h), interpolation=cv2.INTER_CUBIC)
        colour_img *= (1 + 0.035 * blotch)[..., None]
    else:
        col = np.array(rng.choice([(40, 40, 45), (200, 200, 205), (30, 60, 160), (140, 90, 40)]),
                       np.float32)
        if rng.random() < 0.5:  # a mug seen from above
            r = int(tp * rng.uniform(0.5, 0.9))
            c = (int(ax), int(ay))
            cv2.circle(mask, c, r, 255, -1, cv2.LINE_AA)
            colour_img[:] = col
            inner = np.zeros((h, w), np.uint8)
            cv2.circle(inner, c, int(r * 0.8), 255, -1, cv2.LINE_AA)
            colour_img *= (1 - 0.5 * inner.astype(np.float32) / 255)[..., None]
        else:  # a pen or phone lying across
            L, W = tp * rng.uniform(1.5, 3.0), tp * rng.uniform(0.15, 0.8)
            c = np.array([ax, ay])
            box = np.array([c + d * L / 2 + nrm * W / 2, c + d * L / 2 - nrm * W / 2,
                            c - d * L / 2 - nrm * W / 2, c - d * L / 2 + nrm * W / 2])
            cv2.fillPoly(mask, [np.round(box * 16).astype(np.int32)], 255, cv2.LINE_AA, 4)
            colour_img[:] = col
    m = mask.astype(np.float32) / 255
    # its soft shadow falls on the table and tiles
    sh = p["light"]["shadow"]
    M = np.float32([[1, 0, tp * (sh["dx"] + 0.1) * 2], [0, 1, tp * (sh["dy"] + 0.1) * 2]])
    shadow = soft_blur(cv2.warpAffine(m, M, (w, h)), tp * 0.25)
    img *= (1 - 0.45 * shadow)[..., None]
    img[:] = img * (1 - m[..., None]) + colour_img * m[..., None]
    return m


def _light(img: np.ndarray, p: dict) -> None:
    h, w = img.shape[:2]
    L = p["light"]
    cast = kelvin_to_bgr(L["kelvin"])
    # the camera's white balance takes out part of the cast
    cast = cast ** (1 - L["white_balance"])
    cast = cast / cast.mean()
    ys, xs = np.mgrid[0:h:8, 0:w:8].astype(np.float32)
    xs = (xs - w / 2) / (max(w, h) / 2)
    ys = (ys - h / 2) / (max(w, h) / 2)
    a = math.radians(L["gradient_angle"])
    field = 1 + L["gradient"] * 0.5 * (xs * math.cos(a) + ys * math.sin(a))
    field *= 1 - L["vignette"] * (xs ** 2 + ys ** 2) * 0.6
    field = cv2.resize(field, (w, h), interpolation=cv2.INTER_LINEAR)
    img *= (field * L["exposure"])[..., None]
    img *= cast.astype(np.float32)


def _blur(img: np.ndarray, p: dict) -> np.ndarray:
    b = p["blur"]
    if b["focus"] > 0.2:
        img = cv2.GaussianBlur(img, (0, 0), b["focus"])
    if b["motion"] >= 1.5:
        n = int(round(b["motion"])) | 1
        k = np.zeros((n, n), np.float32)
        k[n // 2, :] = 1
        k = cv2.warpAffine(k, cv2.getRotationMatrix2D((n / 2 - 0.5, n / 2 - 0.5), b["motion_angle"], 1),
                           (n, n))
        img = cv2.filter2D(img, -1, k / max(k.sum(), 1e-6))
    return img


def _noise(img: np.ndarray, p: dict, rng: np.random.Generator) -> np.ndarray:
    s = p["noise"]
    if s <= 0:
        return img
    h, w = img.shape[:2]
    # shot noise grows with the signal; dim exposures get amplified read noise as well
    gain = 1 / max(p["light"]["exposure"], 0.2)
    sigma = cv2.sqrt(np.clip(img, 0, 255) / 64 + 0.5) * np.float32(s * math.sqrt(gain))
    cv2.setRNGSeed(int(rng.integers(1 << 30)))
    n = np.empty((h, w, 3), np.float32)
    cv2.randn(n, 0, 0.6)
    lum = np.empty((h, w), np.float32)
    cv2.randn(lum, 0, 0.8)
    n += lum[..., None]
    return img + sigma * n


def _sharpen(img: np.ndarray, p: dict) -> np.ndarray:
    """Phone pipelines sharpen: an unsharp mask, with its halos along edges (and on noise)."""
    k = p.get("sharpen", 0.0)
    if k <= 0:
        return img
    soft = cv2.GaussianBlur(img, (0, 0), 1.2)
    return cv2.addWeighted(img, 1 + k, soft, -k, 0)


def _sheen(img: np.ndarray, topmask: np.ndarray, p: dict, rng: np.random.Generator) -> None:
    """Glossy tile tops mirror the bright room: a broad, smooth brightening across them."""
    h, w = img.shape[:2]
    s = p["light"].get("sheen", 0.0)
    if s <= 0:
        return
    field = cv2.resize(rng.uniform(0, 1, (3, 3)).astype(np.float32), (w, h),
                       interpolation=cv2.INTER_CUBIC)
    img += (np.clip(field, 0, 1) * topmask * (45 * s))[..., None]


def render_scene(board: Board | dict, params: dict | None = None, seed: int = 0
                 ) -> tuple[np.ndarray, dict, bytes]:
    """Render ``board``; returns (BGR uint8 image, ground truth dict, JPEG bytes of it)."""
    board = _as_board(board)
    p = dict(default_params() if params is None else params)
    rng = np.random.default_rng(seed)
    w, h = p["width"], p["height"]
    pieces = _layout(board, p, rng)
    p["tile_px_requested"] = p["tile_px"]
    if pieces and p.get("fill"):
        # tiles as large as asked, but no larger than lets the board span ``fill`` of the frame
        xy = np.array([pc.xy for pc in pieces])
        extent = float((xy.max(0) - xy.min(0)).max()) + 2.0
        fits = p["fill"] * min(w, h) * 2.0 / extent
        p["tile_px"] = round(min(p["tile_px"], max(fits, MIN_TILE_PX)), 2)
    used = board.numbers()
    spare = [n for n in TILES if n not in used]
    rng.shuffle(spare)
    cl = p["clutter"]
    extra = [(n, True) for n in spare[:cl["loose"]]]
    extra += [(n, False) for n in spare[cl["loose"]:cl["loose"] + cl["face_down"]]]
    loose = _place_loose(pieces, rng, extra)
    centre = np.mean([pc.xy for pc in pieces], axis=0) if pieces else np.zeros(2)
    cam = _make_camera(p, centre)
    cam = _fit(cam, pieces, p)
    base_target = cam.target
    cam = _shift_camera(cam, p)
    # the shift and the lens can still push an edge tile out: back off until all are inside
    for _ in range(30):
        if _inside(cam, pieces, p):
            break
        cam.distance *= 1.04
        cam.target = base_target
        cam = _shift_camera(cam, p)
    # drop loose tiles that fall outside the frame
    th = p["thickness"]
    loose = [pc for pc in loose
             if (lambda q: q[:, 0].min() > 2 and q[:, 1].min() > 2 and q[:, 0].max() < w - 2
                 and q[:, 1].max() < h - 2)(cam.project(pc.outline(), -th))]
    everything = pieces + loose

    img = _table_image(cam, p)
    _shadows(img, cam, everything, p)
    light_angle = math.radians(p["light"]["gradient_angle"]) + math.pi
    topmask = np.zeros((h, w), np.float32)
    order = sorted(everything, key=lambda pc: -float(cam.depth(pc.xy[None], -th)[0]))
    for pc in order:
        _draw_piece(img, topmask, cam, pc, p, light_angle, rng)
    _sheen(img, topmask, p, rng)
    spots = _glare(img, topmask, p, rng)
    centres_img = [cam.project_ideal(pc.xy[None], -th)[0] for pc in pieces]
    occ = _occluder(img, p, rng, centres_img)
    _light(img, p)
    if p["k1"] or p["k2"]:
        mx, my = cam.distortion_maps()
        img = cv2.remap(img, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
        occ = cv2.remap(occ, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)
    img = _blur(img, p)
    img = _noise(img, p, rng)
    img = _sharpen(img, p)
    img8 = np.clip(img + 0.5, 0, 255).astype(np.uint8)
    ok, jpg = cv2.imencode(".jpg", img8, [cv2.IMWRITE_JPEG_QUALITY, int(p["jpeg_quality"])])
    out = cv2.imdecode(jpg, cv2.IMREAD_COLOR)

    truth = _truth(board, cam, pieces, loose, occ, p, seed, spots)
    return out, truth, jpg.tobytes()


def _tile_truth(cam: Camera, pc: _Piece, th: float) -> dict[str, Any]:
    centre = cam.project(pc.xy[None], -th)[0]
    corners = cam.project(pc.vertices(), -th)
    return {"pixel": [round(float(centre[0]), 1), round(float(centre[1]), 1)],
            "corners": [[round(float(x), 1), round(float(y), 1)] for x, y in corners]}


def _truth(board: Board, cam: Camera, pieces, loose, occ, p, seed, spots) -> dict[str, Any]:
    th = p["thickness"]
    tiles, occluded, widths = [], [], []
    has_occluder = bool(occ.max() > 0)
    for pc in pieces:
        t = {"q": pc.cell[0], "r": pc.cell[1], "tile": pc.number, "rotation": pc.rotation}
        t.update(_tile_truth(cam, pc, th))
        cs = np.array(t["corners"])
        widths.append(float(np.linalg.norm(cs[0] - cs[3])))
        frac = 0.0
        if has_occluder:
            x0, y0, x1, y1 = _roi(cs, occ.shape[1], occ.shape[0])
            if x1 > x0 and y1 > y0:
                m = _poly_mask(cs, (y1 - y0, x1 - x0), (x0, y0))
                frac = float((m * occ[y0:y1, x0:x1]).sum() / max(m.sum(), 1e-6))
        if frac > 0.02:
            occluded.append({"q": pc.cell[0], "r": pc.cell[1], "tile": pc.number,
                             "fraction": round(frac, 3)})
        tiles.append(t)
    loose_out, face_down = [], []
    for pc in loose:
        t = {"tile": pc.number, "rotation": pc.rotation}
        t.update(_tile_truth(cam, pc, th))
        (loose_out if pc.face_up else face_down).append(t)
    # how far to turn this board so that r runs down the photo (CONTRACT: a reader's frame)
    if pieces:
        c = np.mean([pc.xy for pc in pieces], axis=0)
        a, b = cam.project(np.array([c, c + [0, 1.0]]), -th)
        phi = math.degrees(math.atan2(b[1] - a[1], b[0] - a[0]))
        steps = int(round((phi - 90) / 60)) % 6
    else:
        steps = 0
    render = dict(p)
    render.update({
        "seed": seed,
        "camera": {"focal_px": round(cam.focal, 2), "distance": round(cam.distance, 4),
                   "target": [round(v, 4) for v in cam.target]},
        "tile_px_measured": round(float(np.median(widths)), 2) if widths else None,
        "frame_steps": steps,
        "glare_spots": spots,
    })
    return {
        "tiles": sorted(tiles, key=lambda t: (t["q"], t["r"])),
        "bag_empty": board.bag_empty,
        "image": {"width": cam.width, "height": cam.height},
        "loose": loose_out,
        "face_down": face_down,
        "occluded": occluded,
        "render": render,
    }


def render(board: Board | dict, params: dict | None = None, seed: int = 0
           ) -> tuple[np.ndarray, dict]:
    """Photograph ``board`` (a :class:`~referee.board.Board` or board JSON dict).

    ``params`` comes from :func:`scenegen.random_params` (``None``: a clean, nearly top-down
    shot); ``seed`` drives everything random inside the shot (jitter, clutter, noise).
    Returns ``(image, truth)``: image is H×W×3 uint8 BGR *after* JPEG compression at
    ``params["jpeg_quality"]``; truth is CONTRACT board JSON plus, per tile, ``pixel``
    (top-face centre) and ``corners`` (6 [x, y], corner k shared by edges k and k+1 of the
    board frame), and ``image``, ``loose``, ``face_down``, ``occluded``, ``render``.
    """
    img, truth, _ = render_scene(board, params, seed)
    return img, truth


def render_to_file(board: Board | dict, path, params: dict | None = None, seed: int = 0) -> dict:
    """Render and write the JPEG (exact bytes) to ``path``; return the truth."""
    _, truth, jpg = render_scene(board, params, seed)
    with open(path, "wb") as f:
        f.write(jpg)
    return truth
