"""Tile bodies: which pixels look like tiles, and hexagons fitted to single-tile blobs.

A Tantrix tile is a black body with coloured links, so "tile-like" = dark or link-coloured.
Touching tiles merge into one blob; the lattice (lattice.py) separates them.  Here a blob
that is one hexagon on its own gives the lattice's scale and shape directly (useful when
there are few tiles), and blobs that the lattice does not explain are loose tiles.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import cv2
import numpy as np

from . import colours
from .lattice import CORNERS, SQ3


@dataclass
class Hexagon:
    """A hexagon in the image: ``M`` (2x2) maps the unit plane hexagon, ``centre`` (x, y).

    ``iou`` is the overlap between the fitted hexagon and the blob it came from.
    """

    centre: np.ndarray
    M: np.ndarray
    iou: float

    @property
    def corners(self) -> np.ndarray:
        """(6, 2) image corners, in the plane's corner order."""
        return CORNERS @ self.M.T + self.centre

    @property
    def size(self) -> float:
        """Centre-to-corner size in pixels (geometric mean over directions)."""
        return float(np.sqrt(abs(np.linalg.det(self.M))))


def dark_mask(lab: np.ndarray) -> np.ndarray:
    """bool mask of tile-body-like pixels: grey, and not as light as a light table.

    Bodies are black or (lit, glossy) dark grey; a coloured table is never grey and a
    white cloth is lighter than the photo's Otsu split of lightness.  On a dark table the
    mask covers the table too, which is harmless: it only says where links may be.
    """
    if _LAST_DARK and _LAST_DARK[0][0] is lab:
        return _LAST_DARK[0][1]
    _L8, thr = _lightness_split(lab)
    thr = float(np.clip(thr, 70, 150))
    dark = _grey(lab) & (lab[..., 0] < thr)
    _LAST_DARK[:] = [(lab, dark)]
    return dark


_LAST_DARK: list = []
"""[(lab, its dark mask)] of the last :func:`dark_mask` (a look's link image and its cell
stage's loose tiles ask for one photo's alike; ``lab`` must not be changed in place between
calls, nor the mask returned)."""


def _grey(lab: np.ndarray) -> np.ndarray:
    """bool (H, W): pixels of Lab ``lab`` grey enough for a tile body (chroma under 10
    plus a twelfth of the lightness: a lit glossy body takes on a little colour)."""
    return colours.chroma(lab[..., 1], lab[..., 2]) < 10 + 0.08 * lab[..., 0]


def darker_part(lab: np.ndarray, dark: np.ndarray) -> np.ndarray:
    """The darker of ``dark``'s pixels (bool, H × W): those below the Otsu split of the
    lightness of ``dark``'s own pixels (on every other one).  Tile bodies against a dim
    cloth that fell under the photo's split too (hard-11); ``dark`` itself when it holds
    under 200 pixels."""
    L8, _thr = _lightness_split(lab)
    values = L8[dark][::2]
    if values.size < 100:
        return dark
    thr, _ = cv2.threshold(values.reshape(-1, 1), 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    return dark & (L8 < thr)


_LAST_SPLIT: list = []
"""[(lab, L8, threshold)] of the last :func:`_lightness_split` (the dark mask and the tile
mask split one photo's lightness alike)."""


def _lightness_split(lab: np.ndarray) -> tuple[np.ndarray, float]:
    """Lightness as uint8 (H, W) and its Otsu split (on every other pixel) of a Lab image.

    ``lab`` must not be changed in place between calls (the last split is reused).
    """
    if _LAST_SPLIT and _LAST_SPLIT[0][0] is lab:
        return _LAST_SPLIT[0][1], _LAST_SPLIT[0][2]
    L8 = np.clip(lab[..., 0], 0, 255).astype(np.uint8)
    thr, _ = cv2.threshold(L8[::2, ::2], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
    _LAST_SPLIT[:] = [(lab, L8, float(thr))]
    return L8, float(thr)


def body_region(dark: np.ndarray, radius: int) -> np.ndarray:
    """float32 0/1: the grey bodies closed over gaps up to ``2 * radius`` px (their links).

    A closing fills the coloured links inside a body but does not spread onto the table
    around it (a square kernel keeps it fast: OpenCV separates it).
    """
    k = 2 * radius + 1
    m = cv2.morphologyEx(dark.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    return m.astype(np.float32)


DARKEST_SPLIT = 110.0
"""The tile mask's split of lightness is the photo's Otsu split, at most this (of 255)."""


def _dark_split(lab: np.ndarray) -> tuple[np.ndarray, float]:
    """Lightness as uint8 (H, W) of ``lab`` and the split below which the tile mask takes
    a pixel as dark (:data:`DARKEST_SPLIT`)."""
    L8, thr = _lightness_split(lab)
    return L8, min(thr, DARKEST_SPLIT)


def tile_mask(lab: np.ndarray, link: np.ndarray) -> np.ndarray:
    """uint8 mask (255 = tile-like) of a working-scale photo.

    Pixels darker than the photo's Otsu split of lightness (the bodies against a lighter
    table) or link-coloured, closed so links inside a body are filled.
    """
    L8, split = _dark_split(lab)
    dark = L8 < split
    if dark.mean() > 0.5:
        # a dark table falls below the split too: bodies are then the pixels clearly
        # darker than the table around them
        k = max(15, max(L8.shape) // 8)
        bg = cv2.blur(L8, (k, k)).astype(np.float32)
        dark = L8 < 0.75 * bg
    else:
        dark |= glare_lit(lab)
    mask = (dark | (link > 0.5)).astype(np.uint8) * 255
    k = max(3, int(round(min(lab.shape[:2]) / 200)) | 1)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    return mask


GLARE_LIT = 60
"""How much (of 255) darker than the lightest of its surroundings a grey pixel must be to
count as a tile body lit by glare (see :func:`glare_lit`)."""

GLARE_WHITE = 245
"""How light (of 255) that lightest place must be: glare, not a light table or cloth (a
table as light as 225 left the test's gain to chance on the benchmark boards)."""


def glare_lit(lab: np.ndarray) -> np.ndarray:
    """bool mask (H, W) of grey pixels at or above the tile mask's split of lightness
    (:func:`_dark_split`) yet much darker than the lightest place around them.

    ``lab``: the photo as :func:`colours.to_lab` gives it (not changed in place since the
    tile mask split its lightness: the split is reused).

    A lamp's reflection lifts a black body to mid grey, above the photo's split of
    lightness, so the dark test loses that part of a tile and a lone tile's outline is cut
    short (a real tile under a glare spot, seen steeply, then fitted a cell half its size).
    The table around it is lifted to near white too (at least :data:`GLARE_WHITE`), so the
    body stays clearly darker than its surroundings.  "Around" is a closing over a third
    of the picture's longer side, taken on a copy reduced to at most 160 px for speed.
    """
    L8, split = _dark_split(lab)
    h, w = L8.shape
    f = min(1.0, 160.0 / max(h, w))
    small = cv2.resize(L8, (max(1, round(w * f)), max(1, round(h * f))), interpolation=cv2.INTER_AREA)
    k = max(3, max(small.shape) // 3)
    light = cv2.morphologyEx(small, cv2.MORPH_CLOSE, np.ones((k, k), np.uint8))
    lit = np.zeros((h, w), bool)
    # most photos have no such place: look at full size only inside the reduced copy's box
    ys, xs = np.nonzero((cv2.subtract(light, small) > GLARE_LIT // 2) & (small >= split)
                        & (light >= GLARE_WHITE))
    if ys.size == 0:
        return lit
    y0, y1 = max(0, int((ys.min() - 1) / f)), min(h, int((ys.max() + 2) / f))
    x0, x1 = max(0, int((xs.min() - 1) / f)), min(w, int((xs.max() + 2) / f))
    up = cv2.resize(light, (w, h), interpolation=cv2.INTER_LINEAR)[y0:y1, x0:x1]
    near = L8[y0:y1, x0:x1]
    lit[y0:y1, x0:x1] = ((cv2.subtract(up, near) > GLARE_LIT) & (near >= split) & (up >= GLARE_WHITE)
                         & _grey(lab[y0:y1, x0:x1]))
    return lit


def fit_hexagon(points: np.ndarray, area: float) -> tuple[np.ndarray, np.ndarray] | None:
    """Affine hexagon from a blob's boundary points (N, 2): (centre, M) or ``None``.

    Second moments give the affine shape up to a rotation (a regular hexagon's moments are
    isotropic); the six-fold angular harmonic of the whitened outline gives the rotation.
    (2x2 algebra in closed form: this runs on every blob of every look's tile mask.)
    """
    if len(points) < 12 or area <= 0:
        return None
    pts = np.asarray(points, np.float64)
    lo = pts.min(0)
    w, h = (pts.max(0) - lo).astype(int) + 3
    local = np.round(pts - lo + 1).astype(np.int32)
    blob = np.zeros((h, w), np.uint8)
    cv2.fillPoly(blob, [local], 1)
    # the turn is read from the convex hull: a link cut out of the mask at the tile's edge
    # must not turn the fit
    hull_img = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(hull_img, cv2.convexHull(local), 1)
    cnts, _ = cv2.findContours(hull_img, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    outline = (max(cnts, key=cv2.contourArea)[:, 0, :] if cnts else local).astype(np.float64)
    m = cv2.moments(blob, binaryImage=True)
    if m["m00"] <= 0:
        return None
    c = np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])
    # S = the symmetric square root of the covariance * 24/5 (image = S @ round hexagon)
    k = 24.0 / 5.0 / m["m00"]
    a, b, d = m["mu20"] * k, m["mu11"] * k, m["mu02"] * k
    det = a * d - b * b
    if det <= 0:  # (a and d are variances: a flat blob is the only way down)
        return None
    s = np.sqrt(det)
    t = np.sqrt(a + d + 2.0 * s)
    S = np.array([[a + s, b], [b, d + s]]) / t
    Si = np.array([[d + s, -b], [-b, a + s]]) / (t * s)   # adj(S) / det S, and det S = s
    wx, wy = ((outline - c) @ Si.T).T
    u = wx + 1j * wy
    rad = np.abs(u)
    u2 = u * u
    # e^{6i angle} as the sixth power of the direction (the centre lies strictly inside
    # the hull of a blob that is not flat, so no outline point has rad 0)
    z = np.sum((rad - rad.mean()) * (u2 * u2 * u2) / rad ** 6)
    phi = np.angle(z) / 6.0  # a corner direction of the whitened hexagon
    co, si = np.cos(phi), np.sin(phi)
    M = S @ np.array([[co, -si], [si, co]])
    return c + lo - 1, M


_LAST_BLOBS: tuple = ()
"""(mask, labels, stats, fits) of the last mask :func:`single_hexagons` looked at: the
search and the reader both look at one photo's mask, with different size limits."""


def _blob_fits(mask: np.ndarray) -> tuple[np.ndarray, np.ndarray, dict]:
    """Connected components of ``mask`` (labels, stats) and a cache of per-blob fits."""
    global _LAST_BLOBS
    last = _LAST_BLOBS
    if last and last[0] is mask:
        return last[1], last[2], last[3]
    _n, labels, stats, _ = cv2.connectedComponentsWithStats(mask, connectivity=8)
    fits: dict = {}
    _LAST_BLOBS = (mask, labels, stats, fits)
    return labels, stats, fits


def _fit_blob(labels: np.ndarray, stats: np.ndarray, i: int) -> Hexagon | None:
    """Blob ``i``'s hexagon if the blob is one (IoU with its fitted hexagon ≥ 0.78)."""
    area = stats[i, cv2.CC_STAT_AREA]
    x, y, w, h = stats[i, :4]
    roi = (labels[y:y + h, x:x + w] == i).astype(np.uint8)
    cnts, _ = cv2.findContours(roi, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    if not cnts:
        return None
    cnt = max(cnts, key=cv2.contourArea)
    fit = fit_hexagon(cnt[:, 0, :].astype(np.float64), float(area))
    if fit is None:
        return None
    c, M = fit
    hexmask = np.zeros_like(roi)
    cv2.fillConvexPoly(hexmask, np.round(CORNERS @ M.T + c).astype(np.int32), 1)
    inter = float(np.count_nonzero(hexmask & roi))
    union = float(np.count_nonzero(hexmask | roi))
    iou = inter / union if union else 0.0
    return Hexagon(c + [x, y], M, iou) if iou >= 0.78 else None


def single_hexagons(mask: np.ndarray, min_size: float = 6.0, max_blobs: int = 24) -> list[Hexagon]:
    """Blobs of ``mask`` that are one hexagon each (IoU with their fitted hexagon ≥ 0.78).

    ``mask`` must not be changed in place between calls (fits of the last mask are reused).
    """
    labels, stats, fits = _blob_fits(mask)
    return _hexagons_of(labels, stats, fits, min_size, max_blobs)


def _hexagons_of(labels: np.ndarray, stats: np.ndarray, fits: dict, min_size: float,
                 max_blobs: int) -> list[Hexagon]:
    """The blobs (``labels``, ``stats`` of ``cv2.connectedComponentsWithStats``) that are
    one hexagon each, largest first; ``fits`` caches each blob's fit."""
    min_area = (min_size ** 2) * 2.6
    # a hexagon fills 55..80 % of its bounding box whatever its turn and tilt
    fill = stats[:, cv2.CC_STAT_AREA] / np.maximum(stats[:, 2] * stats[:, 3], 1)
    ok = (stats[:, cv2.CC_STAT_AREA] >= min_area) & (fill > 0.5) & (fill < 0.85)
    ok[0] = False
    idx = np.nonzero(ok)[0]
    idx = idx[np.argsort(-stats[idx, cv2.CC_STAT_AREA])][:max_blobs]
    out = []
    for i in idx:
        if i not in fits:
            fits[i] = _fit_blob(labels, stats, int(i))
        if fits[i] is not None:
            hx = fits[i]
            out.append(Hexagon(hx.centre.copy(), hx.M.copy(), hx.iou))
    return out


BODY_CLOSING = 0.22
""":func:`body_hexagons` closes the grey bodies with a disc of this many cell sizes
(centre to corner) in radius: a link is about a third of a size wide, so the links reaching
a body's rim are closed over, while tiles half a size apart stay apart (a radius of 0.26
sizes joined hard-110's face-down tile to the two loose tiles beside it)."""


def body_hexagons(dark: np.ndarray, size: float, min_size: float = 6.0,
                  max_size: float | None = None, max_blobs: int = 24) -> list[Hexagon]:
    """Single-tile blobs of the grey bodies alone: ``dark`` (bool, H×W, see
    :func:`dark_mask`) closed over the links' width (:data:`BODY_CLOSING` of ``size``, the
    cells' centre-to-corner size in px) and its holes filled.

    The tile mask adds link-coloured pixels to the bodies, and a cloth printed in a link's
    colour then joins loose tiles to its print (hard-110: three loose tiles on a blue and
    brown striped cloth, each one blob with the stripes); their black bodies alone stand
    apart.  On a dark table the bodies and the table make one blob: nothing is found.
    ``min_size``, ``max_size``: the blobs' sizes looked at (px, centre to corner; a hexagon
    is fitted only to blobs of that area)."""
    radius = max(1, int(round(BODY_CLOSING * size)))
    last = _LAST_BODY_BLOBS
    if last and last[0] is dark and last[1] == radius:
        # (a read's cell stage runs again on one look's bodies: its lattice refitted, a
        # lone tile's own hexagon; the cells' size, and so the closing, seldom changes)
        labels, stats, fits = last[2], last[3], last[4]
    else:
        closed = closed_and_filled(dark.astype(np.uint8), radius)
        closed = cv2.morphologyEx(closed, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        _n, labels, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
        fits = {}
        _LAST_BODY_BLOBS[:] = [dark, radius, labels, stats, fits]
    if max_size is not None:
        # (the board, and a cloth's big patches, are fitted no hexagon: fitting is the cost)
        stats = stats.copy()
        stats[stats[:, cv2.CC_STAT_AREA] > 2.6 * max_size ** 2, cv2.CC_STAT_AREA] = 0
    return _hexagons_of(labels, stats, fits, min_size, max_blobs)


_LAST_BODY_BLOBS: list = []
"""[dark, radius, labels, stats, fits] of the last :func:`body_hexagons` (``dark`` must
not be changed in place between calls)."""


def closed_and_filled(mask: np.ndarray, radius: int) -> np.ndarray:
    """``mask`` (uint8 0/1, H×W) closed with a disc of ``radius`` px (:func:`close_disc`)
    and its holes filled: whatever the rest of the plane cannot reach round the mask."""
    closed = close_disc(mask, radius)
    outside = cv2.copyMakeBorder(closed, 1, 1, 1, 1, cv2.BORDER_CONSTANT, value=0)
    cv2.floodFill(outside, None, (0, 0), 1)
    closed[outside[1:-1, 1:-1] == 0] = 1
    return closed


def hexagon_area(size: Any) -> Any:
    """Area (px²) of a regular hexagon of centre-to-corner ``size`` (px; a float or an
    array, elementwise)."""
    return 1.5 * SQ3 * size * size


def tile_spots(mask: np.ndarray, size: float, max_tiles: float = 12.0) -> list[np.ndarray]:
    """Centres (x, y) of tile-sized places in blobs of ``mask`` that are not one hexagon:
    a loose tile touching a face-down tile, a cloth's print or its own shadow.

    ``size``: the cells' centre-to-corner size (px).  Blobs of 0.6 to ``max_tiles``
    tiles' area are looked at (a dark table's mask is one huge blob: nothing there); a
    spot is a peak of the distance to the blob's rim at least half as deep as a tile's
    inner radius (0.6 until session 51: glare ate a corner of real-texture-42's loose
    tile, 0.52 deep), deepest first (see :func:`_deep_places`).  The blobs are measured by
    ``size`` alone, not by the size a tile has where they lie (as :func:`link_spots`'
    patches may be): on video-720p-13's flowered cloth that made 13 places 18, and the
    frame 60 ms slower.
    """
    labels, stats, _fits = _blob_fits(mask)
    return _deep_places(labels, stats, size, (0.6, max_tiles), 0.5)


def _deep_places(labels: np.ndarray, stats: np.ndarray, size: float, tiles: tuple[float, float],
                 depth: float, most: int | None = None,
                 local: Callable[[np.ndarray], np.ndarray] | None = None) -> list[np.ndarray]:
    """Peaks of the distance to the rim, in blobs (``labels``, ``stats`` of
    ``cv2.connectedComponentsWithStats``) of ``tiles`` (low, high) hexagons' area of
    ``size`` (px): at least ``depth`` of a hexagon's inner radius deep, each at least
    1.4 ``size`` from a deeper one in its blob; (x, y) each, deepest first.  With
    ``most``, the blobs stop being looked at once more than ``most`` peaks are found (the
    caller then only counts them).

    ``local`` (points (N, 2) → sizes (N,) px): the size a tile lying at the blob's middle
    has, which stands for ``size`` in the blob's least area and depth when it is smaller.
    A loose tile farther from the camera than the board is smaller than the board's cells
    (hard-19's tile 27, beyond a board seen 41° from above, is 0.74 of them across: its
    patch of links was 0.22 of a cell's area and 0.32 deep, 0.40 and 0.43 of its own).
    The largest area stays ``size``'s: measured by the smaller tile, a cloth's big patches
    of print fell out of the count that tells a print (video-720p-13's 20 became 16).
    """
    area = stats[:, cv2.CC_STAT_AREA].astype(np.float64)
    sizes = np.full(len(stats), float(size))
    if local is not None and len(stats) > 1:
        middles = stats[:, :2] + stats[:, 2:4] / 2.0
        sizes = np.minimum(sizes, local(middles))
    tile_area = hexagon_area(sizes)
    inner = SQ3 / 2 * sizes                        # a hexagon's inner radius
    largest = tiles[1] * hexagon_area(size)
    out = []
    for i in np.nonzero((area >= tiles[0] * tile_area) & (area <= largest))[0]:
        if i == 0:
            continue
        dist, (x0, y0) = _blob_distance(labels, stats, int(i))
        peak = (dist >= depth * inner[i]) & (dist >= cv2.dilate(dist, np.ones((3, 3), np.uint8)))
        ys, xs = np.nonzero(peak)
        order = np.argsort(-dist[ys, xs])
        # deepest first, each kept unless a kept one lies nearer than 1.4 sizes
        cand = np.stack([xs[order] + x0, ys[order] + y0], 1).astype(np.float64)
        deep = dist[ys[order], xs[order]]
        taken = np.zeros((0, 2))
        for c, dc in zip(cand, deep):
            if (np.hypot(c[0] - taken[:, 0], c[1] - taken[:, 1]) >= 1.4 * size).all():
                taken = np.vstack([taken, c])
                out.append((float(dc), c))
        if most is not None and len(out) > most:
            break
    # deepest first over all blobs: a shallow place (a shadow's scrap beside a tile) is
    # then passed over when a deeper one lies within a tile of it
    return [c for _d, c in sorted(out, key=lambda dc: -dc[0])]


def link_spots(link: np.ndarray, size: float, most: int | None = None,
               board: list[np.ndarray] | None = None,
               local: Callable[[np.ndarray], np.ndarray] | None = None) -> list[np.ndarray]:
    """Centres (x, y) of tile-sized patches of link colour: a loose tile whose black body
    does not stand out from the table (a dark or busy cloth leaves it out of the tile
    mask, or merges it with the print), but whose links do.

    ``link``: the link-likelihood image (0..1); ``size``: the cells' centre-to-corner size
    (px).  The links (likelihood > 0.5) are closed over a tile's gaps between them; a
    patch from 0.25 cells' area (a loose tile farther from the camera than the board is
    smaller than its cells: real-texture-88's are 0.8 of them across) holds tiles'
    links, one tile at each of its deep places (two loose tiles side by side make one
    patch: real-texture-80).  More than ``most`` patches are a cloth's print, not tiles:
    none is returned, and the search for them stops there (on video-720p-13's dotted
    cloth, 20 patches, that saves ~1.5 ms of a 60 ms frame).

    ``board``: hexagons (each (6, 2), image px) of the Tantrix's cells, whose links are
    left out: closed with them, a loose tile a few pixels from the board joins the
    board's patch, too big to be a tile's (video-720p-17's loose tiles beside a board of three).
    ``local``: the size of a tile lying at given points (N, 2) → (N,) px, by which a patch
    smaller than ``size``'s tile may be measured (see :func:`_deep_places`).
    """
    # closing with a kernel of a tile's size is slow at full size: a tile of about ten
    # pixels across is enough to find tile-sized patches (a pixel there is link when a
    # quarter of what it covers is: a thin link is not averaged away)
    f = max(1.0, size / 5.0)
    links = (link > 0.5).astype(np.uint8) * 255
    if board:
        cv2.fillPoly(links, [np.round(p).astype(np.int32) for p in board], 0)
    if f > 1.0:
        if np.rint(np.array(links.shape) * (1 / f)).min() < 1:
            return []  # (a crop smaller than a pixel of the reduction: OpenCV would fail)
        links = cv2.resize(links, None, fx=1 / f, fy=1 / f, interpolation=cv2.INTER_AREA)
    closed = close_disc((links >= 64).astype(np.uint8), max(1, int(round(0.6 * size / f))))
    _n, labels, stats, _ = cv2.connectedComponentsWithStats(closed, connectivity=8)
    here = None if local is None else (lambda pts: local((pts + 0.5) * f - 0.5) / f)
    places = _deep_places(labels, stats, size / f, (0.25, 4.0), 0.3, most, here)
    if most is not None and len(places) > most:
        return []
    # (a peak on the reduced image is a block off: the patch's middle round it is nearer)
    ys, xs = np.nonzero(closed)
    pts = np.stack([xs, ys], 1).astype(np.float64)
    out = []
    reach = 0.8 * size / f
    for c in places:
        # (the points within the square round the disc first: the same points, in order)
        box = pts[(np.abs(pts[:, 0] - c[0]) <= reach) & (np.abs(pts[:, 1] - c[1]) <= reach)]
        near = box[np.hypot(*(box - c).T) <= reach]
        out.append((near.mean(0) + 0.5) * f - 0.5)
    return out


def blobs(mask: np.ndarray, min_area: float) -> list[tuple[np.ndarray, float, np.ndarray]]:
    """Connected blobs of ``mask`` larger than ``min_area``: (centroid, area, contour)."""
    n, labels, stats, cents = cv2.connectedComponentsWithStats(mask, connectivity=8)
    out = []
    for i in range(1, n):
        area = float(stats[i, cv2.CC_STAT_AREA])
        if area >= min_area:
            out.append((cents[i], area, i))
    return out


GROUP_TILES = (1.6, 4.4)
"""Blobs of this many tiles' area (low, high), at the size their deep places give, are
looked at by :func:`small_groups`: two to four touching tiles."""

GROUP_SPACING = (0.8, 1.2)
"""The deepest place of such a blob and the nearest other are this share (low, high) of
the distance they should be apart (see :func:`small_groups`) ..."""

GROUP_DEPTHS = 0.75
"""... each deep place at least this share as deep as the deepest."""

GROUP_CLOSING = 0.07
"""The blob is closed with a disc this share of its area's square root in radius (about a
link's half-width for two tiles) before its deep places are found."""


def small_groups(mask: np.ndarray, min_size: float = 6.0, max_blobs: int = 6) -> list[Hexagon]:
    """One cell of each blob of ``mask`` that is a few touching tiles (:data:`GROUP_TILES`):
    a close-up of two or three tiles, whose merged bodies make no single hexagon.

    The blob's deepest place (farthest from its rim) is either a tile's middle, an inner
    radius deep, with the next tile's middle twice that away across their shared edge (a
    pair, a row); or the corner where three tiles meet, a centre-to-corner size deep,
    with the tiles' middles that far away (a triangle).  Either gives the cells' size and
    turn.  ``M`` is square-on (a similarity); ``iou`` is 0 (no hexagon was fitted).
    Largest blobs first.
    """
    labels, stats, _fits = _blob_fits(mask)
    area = stats[:, cv2.CC_STAT_AREA]
    min_area = 2 * 2.6 * min_size ** 2
    out = []
    for i in [i for i in np.argsort(-area) if i != 0 and area[i] >= min_area][:max_blobs]:
        places, origin = _deep_places_of(labels, stats, int(i))
        if len(places) < 2:
            continue
        (a, deep), (b, _d) = places[0], min(places[1:], key=lambda p: np.hypot(*(p[0] - places[0][0])))
        apart = float(np.hypot(*(b - a)))
        for size, centre, towards in ((2 * deep / SQ3, a, b), (deep, b, a)):
            # (a pair: a's neighbour's middle lies 2 inner radii away, 30° off the plane's
            # x axis; a triangle: b's corner a lies one size away, along a corner's line)
            want = SQ3 * size if centre is a else size
            tiles = area[i] / hexagon_area(size)
            if not (GROUP_SPACING[0] <= apart / want <= GROUP_SPACING[1]
                    and GROUP_TILES[0] <= tiles <= GROUP_TILES[1]):
                continue
            d = towards - centre
            turn = np.arctan2(d[1], d[0]) - (np.pi / 6 if centre is a else 0.0)
            M = size * np.array([[np.cos(turn), -np.sin(turn)], [np.sin(turn), np.cos(turn)]])
            out.append(Hexagon(centre + origin, M, 0.0))
            break
    return out


def _deep_places_of(labels: np.ndarray, stats: np.ndarray, i: int
                    ) -> tuple[list[tuple[np.ndarray, float]], np.ndarray]:
    """Blob ``i``'s places farthest from its rim (at least :data:`GROUP_DEPTHS` of the
    deepest, each farther than 0.9 of that from a deeper one): ``[(x, y), depth]`` in a
    box of the blob, deepest first, and that box's origin in the image."""
    # (links light enough to leave holes and notches in the bodies' mask are still the
    # tile's: closed over about a link's width, and holes filled)
    k = max(1, int(GROUP_CLOSING * np.sqrt(stats[i, cv2.CC_STAT_AREA])))
    dist, origin = _blob_distance(labels, stats, i, close=k)
    deepest = float(dist.max())
    peak = (dist >= GROUP_DEPTHS * deepest) & (dist >= cv2.dilate(dist, np.ones((3, 3), np.uint8)))
    ys, xs = np.nonzero(peak)
    places: list[tuple[np.ndarray, float]] = []
    for j in np.argsort(-dist[ys, xs]):
        c = np.array([xs[j], ys[j]], np.float64)
        # (a flat ridge has many maxima: those near a deeper place are that place)
        if all(np.hypot(*(c - p)) >= 0.9 * deepest for p, _d in places):
            places.append((c, float(dist[ys[j], xs[j]])))
    return places, np.array(origin, np.float64)


DISC_BY_DISTANCE = 16
"""From this radius (px) on, :func:`close_disc` closes by distance transforms."""


def close_disc(mask: np.ndarray, radius: int) -> np.ndarray:
    """``mask`` (uint8 0/1, H×W) closed with a disc of ``radius`` px: dilated, then
    eroded, by the disc (uint8 0/1, H×W).

    Small radii use OpenCV's elliptic element.  From :data:`DISC_BY_DISTANCE` on, the
    dilation and the erosion are each a threshold of an exact Euclidean distance
    transform (the pixels within ``radius`` of the mask; of those, the ones farther than
    ``radius`` from the rest): the elliptic element's cost grows with its area, and a
    blob as large as a whole photo of cloth, closed with a disc of radius 145, took 6 s
    (hard-21: 17 of its 28 s went on such closings).  The two discs differ only in a
    pixel at their rims.  As with OpenCV's defaults, nothing beyond the array's edge
    dilates it, and nothing there erodes it.
    """
    if radius < DISC_BY_DISTANCE:
        return cv2.morphologyEx(mask, cv2.MORPH_CLOSE, cv2.getStructuringElement(
            cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1)))
    r = float(radius)
    # (distance of each pixel off the mask to the mask: dilated = within r of it)
    grown = cv2.distanceTransform((mask == 0).astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_PRECISE) <= r
    # (eroded: the pixels farther than r from any pixel left out of the dilation)
    kept = cv2.distanceTransform(grown.astype(np.uint8), cv2.DIST_L2, cv2.DIST_MASK_PRECISE) > r
    return kept.astype(np.uint8)


def _blob_distance(labels: np.ndarray, stats: np.ndarray, i: int, close: int = 0
                   ) -> tuple[np.ndarray, tuple[int, int]]:
    """Each pixel's distance to blob ``i``'s rim (0 off it), in a box of the blob with a
    border round it, and that box's origin (x, y) in the image.  ``close``: the blob is
    first closed with a disc of that radius (px) and its holes are filled."""
    x, y, w, h = stats[i, :4]
    b = close + 1
    roi = np.zeros((h + 2 * b, w + 2 * b), np.uint8)
    np.equal(labels[y:y + h, x:x + w], i, out=roi[b:b + h, b:b + w], casting="unsafe")
    if close:
        roi = closed_and_filled(roi, close)
    return cv2.distanceTransform(roi, cv2.DIST_L2, 5), (int(x) - b, int(y) - b)
