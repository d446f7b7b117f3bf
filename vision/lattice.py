"""The hex lattice the tiles sit on: a homography from the lattice plane to the photo.

The lattice plane is CONTRACT.md's frame with unit hexagon size (centre-to-corner 1):
cell ``(q, r)`` has its centre at ``referee.hexgrid.to_pixel((q, r))``, corners at angles
0°, 60°, ... and edge ``k``'s midpoint at angle ``-90° + 60° k`` (y down, like an image).

The pieces the search (search.py) uses, on a "link" image (how much each pixel looks like
a coloured link, 0..1):
1. the autocorrelation's ring of peaks gives an affine guess of two neighbour vectors
   (links meet every tile edge at its midpoint, so the photo is periodic with the lattice);
2. the phase is the offset that puts the most link colour on edge midpoints and the least
   on corners (every Tantrix corner is black), found by folding the image into one cell;
3. cells are refined one by one and a homography is fitted to them, growing outwards from
   the middle of the tiles, so perspective (tilt up to ~50°) is followed.
"""
from __future__ import annotations

import contextlib
import contextvars
from collections.abc import Iterator
from dataclasses import dataclass, replace

import cv2
import numpy as np

from .order_stats import median

SQ3 = 3 ** 0.5
A1 = np.array([1.5, SQ3 / 2])   # plane vector to neighbour (q+1, r)   (edge 2, SE)
A2 = np.array([0.0, SQ3])       # plane vector to neighbour (q, r+1)   (edge 3, S)
BASIS = np.stack([A1, A2], axis=1)  # plane = BASIS @ (q, r)
_INV_BASIS = np.linalg.inv(BASIS)

_ang_mid = np.deg2rad(-90 + 60 * np.arange(6))
MIDPOINTS = np.stack([np.cos(_ang_mid), np.sin(_ang_mid)], 1) * (SQ3 / 2)
"""Plane offsets of the six edge midpoints from a cell centre, index = edge."""
_ang_cor = np.deg2rad(60 * np.arange(6) - 120)
CORNERS = np.stack([np.cos(_ang_cor), np.sin(_ang_cor)], 1)
"""Plane offsets of the six corners; corner k is between edges k-1 and k... (k=0: NW-N)."""


OCCUPIED = 0.3
"""Midpoint-minus-corner link contrast (:func:`cell_contrast`) above which a cell is taken
to hold a tile: while the lattice is grown and judged, and when the reader picks the cells
it reads."""

FAINT_OCCUPIED = 0.2
"""The same bar within :func:`faint_links`: for small tiles out of focus, whose links blur
into the bodies (hard-138, tiles 21 px across: on the true lattice, tiles' contrast 0.23
median, the empty cells round them 0.01)."""

_OCCUPIED: contextvars.ContextVar[float] = contextvars.ContextVar("occupied", default=OCCUPIED)


def occupied() -> float:
    """The contrast bar a cell must clear to hold a tile (:data:`OCCUPIED`, or
    :data:`FAINT_OCCUPIED` within :func:`faint_links`)."""
    return _OCCUPIED.get()


@contextlib.contextmanager
def faint_links() -> Iterator[None]:
    """Within this block, cells need only :data:`FAINT_OCCUPIED` contrast to hold a tile
    (the reader's faint look)."""
    token = _OCCUPIED.set(FAINT_OCCUPIED)
    try:
        yield
    finally:
        _OCCUPIED.reset(token)


MAX_ENUMERATED = 40000
"""Most cells a lattice's plane box may hold to be enumerated (more: a degenerate lattice)."""

MIN_CELL_PX = 6.0
"""Cells smaller than this (centre to corner, px) near a lattice's horizon are no tiles."""


def plane_cells(plane: np.ndarray) -> np.ndarray:
    """The cells (N, 2) int whose hexagons contain lattice-plane points (N, 2) (hex
    rounding)."""
    qr = plane @ _INV_BASIS.T
    cube = np.stack([qr[:, 0], qr[:, 1], -qr.sum(1)], 1)
    rnd = np.round(cube)
    err = np.abs(rnd - cube)
    # the coordinate rounded furthest is the one to recompute from the other two
    worst = err.argmax(1)
    rows = np.arange(len(rnd))
    rnd[rows, worst] = 0.0
    rnd[rows, worst] = -rnd[rows].sum(1)
    return rnd[:, :2].astype(int)


def _cross(u: np.ndarray, v: np.ndarray) -> float:
    return float(u[0] * v[1] - u[1] * v[0])


def _apply(H: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Apply a 3x3 homography to points (..., 2) (plain arithmetic: no BLAS threads); or
    (N, 3, 3) homographies, one to each of N sets of points (N, ..., 2)."""
    pts = np.asarray(pts, np.float64)
    x, y = pts[..., 0], pts[..., 1]
    h = _terms(H, x.ndim)
    w = h[2][0] * x + h[2][1] * y + h[2][2]
    out = np.empty(pts.shape, np.float64)
    out[..., 0] = (h[0][0] * x + h[0][1] * y + h[0][2]) / w
    out[..., 1] = (h[1][0] * x + h[1][1] * y + h[1][2]) / w
    return out


def _terms(H: np.ndarray, ndim: int) -> np.ndarray:
    """``H``'s terms to multiply coordinate arrays of ``ndim`` axes with: ``H`` itself
    (3, 3), or for (N, 3, 3) homographies, one per leading index of the coordinates, each
    term as an (N, 1, ...) array (the same products as with that one homography)."""
    if H.ndim == 2:
        return H
    return np.moveaxis(H, 0, -1).reshape((3, 3, len(H)) + (1,) * (ndim - 1))


@dataclass
class Lattice:
    """``H`` maps lattice-plane points (homogeneous) to photo pixels of the working image."""

    H: np.ndarray
    score: float = 0.0
    judged: int = 0       # cells the search read to score it (search.py)
    tracked: bool = False  # found by following a previous frame's lattice (search.py)
    steep: bool = False    # may reach its horizon (see _cells_before_horizon)

    def to_image(self, pts: np.ndarray) -> np.ndarray:
        """Plane points (..., 2) → image points (..., 2)."""
        return _apply(self.H, pts)

    def to_plane(self, pts: np.ndarray) -> np.ndarray:
        """Image points (..., 2) → plane points (..., 2)."""
        return _apply(self._inverse(), pts)

    def _inverse(self) -> np.ndarray:
        # kept with the H it inverts (H is replaced, never changed in place)
        cached = self.__dict__.get("_inv")
        if cached is None or cached[0] is not self.H:
            cached = (self.H, np.linalg.inv(self.H))
            self.__dict__["_inv"] = cached
        return cached[1]

    def centres(self, cells: np.ndarray) -> np.ndarray:
        """Image centres of cells given as an (N, 2) int array of (q, r)."""
        return self.to_image(np.asarray(cells, np.float64) @ BASIS.T)

    def hexagons(self, cells: np.ndarray, shifts: np.ndarray | None = None,
                 scale: float = 1.0) -> np.ndarray:
        """Image corners (N, 6, 2) of the hexagons of ``cells`` (N, 2) (q, r), each moved
        by its plane ``shifts`` (N, 2) and scaled about its centre by ``scale``."""
        plane = np.asarray(cells, np.float64).reshape(-1, 2) @ BASIS.T
        if shifts is not None:
            plane = plane + np.asarray(shifts, np.float64).reshape(-1, 2)
        return self.to_image(plane[:, None] + scale * CORNERS)

    def cell_at(self, pts: np.ndarray) -> np.ndarray:
        """The cells (N, 2) int whose hexagons contain image points (N, 2) (hex rounding)."""
        return plane_cells(self.to_plane(np.asarray(pts, np.float64).reshape(-1, 2)))

    def turn_against(self, plane_point: np.ndarray, M: np.ndarray) -> float:
        """Degrees (0..30) between a hexagon seen in the image (2x2 map ``M`` of the unit
        plane hexagon, as :class:`vision.bodies.Hexagon`) and the lattice's cells at
        ``plane_point``, modulo the hexagon's 60° symmetry."""
        p = np.asarray(plane_point, np.float64)
        j = self.to_image(np.array([p, p + [1.0, 0.0]]))
        a_lat = np.degrees(np.arctan2(j[1, 1] - j[0, 1], j[1, 0] - j[0, 0]))
        a_hex = np.degrees(np.arctan2(M[1, 0], M[0, 0]))
        return float(abs((a_hex - a_lat + 30) % 60 - 30))

    def cell_size(self, cells: np.ndarray) -> np.ndarray:
        """Approximate centre-to-corner size in image pixels of each cell, (N,)."""
        return self._size_at(np.asarray(cells, np.float64) @ BASIS.T)

    def size_at(self, points: np.ndarray) -> np.ndarray:
        """:meth:`cell_size` of a cell centred at each image point (N, 2), (N,) px: the
        size a tile lying there on the table's plane has."""
        return self._size_at(self.to_plane(np.asarray(points, np.float64).reshape(-1, 2)))

    def _size_at(self, plane: np.ndarray) -> np.ndarray:
        """:meth:`cell_size` of cells centred at plane points (N, 2)."""
        p0, p1, p2 = self.to_image(np.stack([plane, plane + [1.0, 0.0], plane + [0.0, 1.0]]))
        d1, d2 = p1 - p0, p2 - p0
        return np.sqrt(np.abs(d1[:, 0] * d2[:, 1] - d1[:, 1] * d2[:, 0]))

    def cells_in(self, width: int, height: int, margin: float = 0.0,
                 window: tuple[float, float, float, float] | None = None) -> np.ndarray:
        """All cells whose centre falls inside the image (grown by ``margin`` px), (N, 2).

        ``window`` = (x0, y0, x1, y1) px: only cells centred inside it too (a small window
        of a fine lattice is enumerated without the rest of the image's cells).
        """
        return self.cells_and_centres_in(width, height, margin, window)[0]

    def cells_and_centres_in(self, width: int, height: int, margin: float = 0.0,
                             window: tuple[float, float, float, float] | None = None
                             ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`cells_in` and their image centres (N, 2) (as :meth:`centres` gives them)."""
        # the search asks for the same lattice's cells several times (grown, then scored):
        # the last answer is kept with the H it was for (H is replaced, never changed)
        key = (width, height, margin, window)
        cached = self.__dict__.get("_cells")
        if cached is not None and cached[0] is self.H and cached[1] == key:
            return cached[2]
        out = self._cells_in(width, height, margin, window)
        for a in out:
            a.flags.writeable = False
        self.__dict__["_cells"] = (self.H, key, out)
        return out

    def _cells_in(self, width: int, height: int, margin: float,
                  window: tuple[float, float, float, float] | None) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`cells_and_centres_in`, computed."""
        x0, y0, x1, y1 = -margin, -margin, width + margin, height + margin
        if window is not None:
            x0, y0 = max(x0, window[0]), max(y0, window[1])
            x1, y1 = min(x1, window[2]), min(y1, window[3])
            if x0 >= x1 or y0 >= y1:
                return np.zeros((0, 2), int), np.zeros((0, 2))
        bx0, by0 = (0.0, 0.0) if window is None else (max(0.0, x0), max(0.0, y0))
        bx1, by1 = (width, height) if window is None else (min(width, x1), min(height, y1))
        corners = np.array([[0, 0], [width, 0], [width, height], [0, height],
                            [bx0, by0], [bx1, by0], [bx1, by1], [bx0, by1]], np.float64)
        qr = self.to_plane(corners) @ _INV_BASIS.T
        whole = np.ceil(qr[:4].max(0)) - np.floor(qr[:4].min(0)) + 5
        if self.steep:
            side = np.sign(self._depth_of_image(corners[:4]))
            if np.prod(whole) > MAX_ENUMERATED or (side != side[0]).any():
                # the image reaches the lattice's horizon: only the part of the image
                # before it, where cells are at least MIN_CELL_PX, is enumerated
                return self._cells_before_horizon(x0, y0, x1, y1, bx0, by0, bx1, by1)
        if np.prod(whole) > MAX_ENUMERATED:  # a degenerate lattice: refuse to enumerate millions
            return np.zeros((0, 2), int), np.zeros((0, 2))
        lo = np.floor(qr[4:].min(0)) - 2
        hi = np.ceil(qr[4:].max(0)) + 2
        # every (q, r) from lo to hi, q-major (lo and hi are whole numbers)
        cells = np.indices((int(hi[0] - lo[0]) + 1, int(hi[1] - lo[1]) + 1)).reshape(2, -1).T + lo.astype(int)
        c = self.centres(cells)
        ok = (c[:, 0] >= x0) & (c[:, 0] < x1) & (c[:, 1] >= y0) & (c[:, 1] < y1)
        # (a cell's centre does not depend on the other cells mapped with it)
        return cells[ok], c[ok]

    def _cells_before_horizon(self, x0: float, y0: float, x1: float, y1: float,
                              bx0: float, by0: float, bx1: float, by1: float
                              ) -> tuple[np.ndarray, np.ndarray]:
        """:meth:`_cells_in` of a ``steep`` lattice whose horizon the image reaches: the
        cells of the plane box round the image points (a grid over the box ``bx0..by1``)
        that lie in front of the horizon where cells measure at least :data:`MIN_CELL_PX`.

        A lattice fitted to a small board seen steeply (hard-48: 54 tiles 20 px across at
        44°) extrapolates to a horizon inside the image, where the plane box of the image's
        corners is unbounded or wraps through infinity.  Only lattices grown from such a
        board's own rings are ``steep`` (``search.core_rings``): other lattices that reach
        their horizon are degenerate ones of the search, and enumerated as before (given
        cells, they read a striped cloth's patch beside hard-132's board as a tile)."""
        none = np.zeros((0, 2), int), np.zeros((0, 2))
        gx, gy = np.meshgrid(np.linspace(bx0, bx1, 17), np.linspace(by0, by1, 17))
        pts = np.stack([gx.ravel(), gy.ravel()], 1)
        # (in front: on the side of the horizon line that holds most of the image; the
        # other side sees the plane mirrored, from behind.  An image point's side is the
        # sign of its plane point's depth.)
        side = self._depth_of_image(pts)
        sign = 1.0 if (side > 0).sum() * 2 >= len(side) else -1.0
        with np.errstate(divide="ignore", invalid="ignore"):
            plane = self.to_plane(pts)
            keep = (side * sign > 0) & np.isfinite(plane).all(1)
            keep[keep] = self._size_at(plane[keep]) >= MIN_CELL_PX
        if not keep.any():
            return none
        qr = plane[keep] @ _INV_BASIS.T
        lo = np.floor(qr.min(0)) - 2
        hi = np.ceil(qr.max(0)) + 2
        if np.prod(hi - lo + 1) > MAX_ENUMERATED:
            return none
        cells = np.indices((int(hi[0] - lo[0]) + 1, int(hi[1] - lo[1]) + 1)).reshape(2, -1).T + lo.astype(int)
        c = self.centres(cells)
        plane = cells @ BASIS.T
        H = self.H
        depth = H[2, 0] * plane[:, 0] + H[2, 1] * plane[:, 1] + H[2, 2]
        ok = ((c[:, 0] >= x0) & (c[:, 0] < x1) & (c[:, 1] >= y0) & (c[:, 1] < y1)
              & (depth * sign > 0) & (self._size_at(plane) >= MIN_CELL_PX))
        return cells[ok], c[ok]

    def _depth_of_image(self, pts: np.ndarray) -> np.ndarray:
        """The homogeneous depth (N,) of image points (N, 2) mapped to the plane: its sign
        says on which side of the lattice's horizon each lies."""
        Hi = self._inverse()
        return Hi[2, 0] * pts[:, 0] + Hi[2, 1] * pts[:, 1] + Hi[2, 2]


def sample(image: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Bilinear samples of a float32 (H, W) or (H, W, C) image at points (..., 2) (x, y)."""
    p = np.asarray(pts, np.float32)
    return sample_xy(image, p[..., 0], p[..., 1])


_MAX_MAP = 32000
"""Longest side of a map cv2.remap takes (its limit is 32767)."""


_MAP_ROW = 256
"""Trailing axes of a point grid are merged into remap rows of at least this many points
(cv2.remap on rows of 24 points, one cell's edge points, took 2.5 times as long)."""


def _map_width(shape: tuple[int, ...]) -> int:
    """Points per remap row for a point grid of ``shape``: its trailing axes merged until a
    row holds :data:`_MAP_ROW` points (at most :data:`_MAX_MAP`); 0 for fewer than 2 axes."""
    if len(shape) < 2:
        return 0
    cols = 1
    for d in reversed(shape):
        if cols >= _MAP_ROW or cols * d > _MAX_MAP:
            break
        cols *= d
    return cols if cols <= _MAX_MAP else 0


def sample_xy(image: np.ndarray, xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """:func:`sample` at image coordinates given apart: float32 arrays of one shape (...)."""
    shape = xs.shape
    n = xs.size
    if n == 0:
        return np.zeros(shape + image.shape[2:], np.float32)
    cols = _map_width(shape)
    if cols and n // cols <= _MAX_MAP:
        # the points' own layout, trailing axes merged, is a valid remap map: no copy needed
        mx = np.ascontiguousarray(xs, np.float32).reshape(-1, cols)
        my = np.ascontiguousarray(ys, np.float32).reshape(-1, cols)
        out = cv2.remap(image, mx, my, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        return out.reshape(shape + image.shape[2:])
    cols = 1024 if n > 1024 else max(n, 1)
    rows = -(-n // cols)
    mx = np.zeros(rows * cols, np.float32)
    my = np.zeros(rows * cols, np.float32)
    mx[:n] = xs.ravel()
    my[:n] = ys.ravel()
    out = cv2.remap(image, mx.reshape(rows, cols), my.reshape(rows, cols), cv2.INTER_LINEAR,
                    borderMode=cv2.BORDER_REPLICATE)
    if image.ndim == 3:
        return out.reshape(-1, image.shape[2])[:n].reshape(*shape, image.shape[2])
    return out.reshape(-1)[:n].reshape(shape)


# -- 1. Lattice vectors from the autocorrelation -----------------------------------

def autocorr_bases(link: np.ndarray, max_candidates: int = 3, subpixel: bool = False) -> list[np.ndarray]:
    """Candidate neighbour-vector pairs (2x2, columns = images of ``A1``, ``A2``).

    The link image correlates with itself shifted by a lattice vector (links meet every
    edge at its midpoint; corners are black), so the autocorrelation has a ring of six peaks
    (an affine hexagon).  The ring may be the lattice or half of it; both are returned and
    the phase/refinement score decides.  ``subpixel``: peaks placed to a fraction of a
    pixel (:func:`_subpixel`; the usual rings keep whole pixels: hard-16 lost two tiles
    at its edge with them).
    """
    h, w = link.shape
    x = link - link.mean()
    F = np.fft.rfft2(x, s=(2 * h, 2 * w))
    ac = np.fft.irfft2(F * np.conj(F), s=(2 * h, 2 * w))
    ac = np.fft.fftshift(ac).astype(np.float32)
    cy, cx = h, w
    ac /= ac[cy, cx] + 1e-9
    # peaks are looked for in the upper half-plane within half the image's short side:
    # only that window (plus the 5x5 dilation's reach) is searched
    R = int(np.ceil(0.5 * min(h, w)))
    y0, y1 = max(0, cy - 2), min(2 * h, cy + R + 2)
    x0, x1 = max(0, cx - R - 2), min(2 * w, cx + R + 2)
    win = ac[y0:y1, x0:x1]
    dil = cv2.dilate(win, np.ones((5, 5), np.uint8))
    yy, xx = np.mgrid[y0 - cy:y1 - cy, x0 - cx:x1 - cx]
    rr = np.hypot(xx, yy)
    inner = np.zeros(win.shape, bool)
    inner[2 if y0 > 0 else 0:win.shape[0] - (2 if y1 < 2 * h else 0),
          2 if x0 > 0 else 0:win.shape[1] - (2 if x1 < 2 * w else 0)] = True
    peaks = np.argwhere((win >= dil) & inner & (rr > 3) & (rr < 0.5 * min(h, w)) & (win > 0.05)
                        & (yy >= 0))
    if len(peaks) == 0:
        return []
    vals = win[peaks[:, 0], peaks[:, 1]]
    vecs = np.stack([xx[peaks[:, 0], peaks[:, 1]], yy[peaks[:, 0], peaks[:, 1]]], 1).astype(np.float64)
    if subpixel:
        vecs += _subpixel(win, peaks)
    order = np.argsort(-vals)
    vecs, vals = vecs[order], vals[order]
    norms = np.linalg.norm(vecs, axis=1)
    absv = np.abs(vecs)
    out: list[np.ndarray] = []
    used = np.zeros(len(vecs), bool)
    for i in range(min(len(vecs), 8)):
        if used[i]:
            continue
        e1 = vecs[i]
        n1 = norms[i]
        # the best partner: similar length, 40..80 degrees away (either side); peaks are
        # sorted by value, so the first that qualifies is the strongest
        cos = (vecs @ e1) / (norms * n1)
        ratio_ok = (norms / n1 > 0.6) & (norms / n1 < 1.67)
        ratio_ok[i] = False
        ang_pos = np.degrees(np.arccos(np.clip(cos, -1, 1)))
        ang_neg = np.degrees(np.arccos(np.clip(-cos, -1, 1)))
        pos = ratio_ok & (ang_pos > 35) & (ang_pos < 85)
        neg = ratio_ok & (ang_neg > 35) & (ang_neg < 85)
        cand = np.nonzero(pos | neg)[0]
        if len(cand) == 0:
            continue
        j = cand[0]
        e2 = vecs[j] if pos[j] else -vecs[j]
        if _cross(e1, e2) < 0:
            e1, e2 = e2, e1
        base = np.stack([e1, e2], 1)
        out.append(base)
        # skip other peaks on the same ring
        ring = np.abs(np.stack([e1, e2, e2 - e1]))
        used |= (np.linalg.norm(absv[:, None, :] - ring[None], axis=2) < 0.15 * n1).any(1)
        if len(out) >= max_candidates:
            break
    return out


def _subpixel(img: np.ndarray, peaks: np.ndarray) -> np.ndarray:
    """(x, y) offsets (N, 2), each within ±0.5 px, of the true maxima near integer peaks
    ``peaks`` (N, 2) (row, col) of ``img``: a parabola through each peak and its two
    neighbours along each axis (a ring found on a shrunk image is read to a fraction of
    its pixels: a peak 22 px out, rounded, put hard-48's lattice 6 % off)."""
    h, w = img.shape
    out = np.zeros((len(peaks), 2))
    for axis, (dy, dx) in enumerate(((0, 1), (1, 0))):
        y, x = peaks[:, 0], peaks[:, 1]
        ok = (y - dy >= 0) & (y + dy < h) & (x - dx >= 0) & (x + dx < w)
        y, x = y[ok], x[ok]
        a, b, c = img[y - dy, x - dx], img[y, x], img[y + dy, x + dx]
        den = a - 2 * b + c
        off = np.where(den < 0, 0.5 * (a - c) / np.where(den < 0, den, -1.0), 0.0)
        out[ok, axis] = np.clip(off, -0.5, 0.5)
    return out


def affine(M: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """3x3 H of the affine map ``p -> M p + offset`` (2x2 ``M``, offset (2,))."""
    H = np.eye(3)
    H[:2, :2] = M
    H[:2, 2] = offset
    return H


def affine_from_basis(base: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """3x3 H (affine) mapping plane → image with plane neighbour vectors onto ``base``."""
    return affine(base @ np.linalg.inv(BASIS), offset)


# -- 2. phase by folding ------------------------------------------------------------

_FOLD = 24


def fold_phase(link: np.ndarray, base: np.ndarray, weight_centre: np.ndarray, radius: float
               ) -> tuple[np.ndarray, float]:
    """Best lattice offset (image px) for neighbour vectors ``base``, and its match.

    The link image near ``weight_centre`` (within ``radius`` px, so that perspective does
    not smear the phase) is folded into one cell and matched against the Tantrix pattern
    (link colour on edge midpoints, black corners).  Returns ``(offset, ncc)``: ``ncc`` the
    match normalised by the fold's own variation (-1..1), which compares lattices of
    different sizes fairly.
    """
    step = max(1, int(np.linalg.norm(base[:, 0]) / 10))
    cx, cy = float(weight_centre[0]), float(weight_centre[1])
    xy, vals = _fold_points(link, step, cx, cy, float(radius))
    if len(vals) == 0:
        return np.asarray(weight_centre, np.float64), 0.0
    # (the 2x2 inverse by hand: np.linalg.solve's call costs more than the folding)
    (a, b), (c, d) = base
    det = a * d - b * c
    u = (d * xy[0] - b * xy[1]) / det   # neighbour-vector units
    v = (a * xy[1] - c * xy[0]) / det
    idx = (np.floor(v * _FOLD).astype(np.intp) % _FOLD) * _FOLD + (
        np.floor(u * _FOLD).astype(np.intp) % _FOLD)
    fold = np.bincount(idx, weights=vals, minlength=_FOLD * _FOLD).reshape(_FOLD, _FOLD)
    cnt = np.bincount(idx, minlength=_FOLD * _FOLD).reshape(_FOLD, _FOLD)
    fold = fold / np.maximum(cnt, 1)
    fold -= fold.mean()
    _template_cached()
    # circular cross-correlation: score[dv, du] = sum fold[v+dv, u+du] * t[v, u]
    # (OpenCV's transform: a third of NumPy's time on a 24x24 fold)
    spectrum = cv2.dft(fold, flags=cv2.DFT_COMPLEX_OUTPUT)
    score = cv2.idft(cv2.mulSpectrums(spectrum, _TEMPLATE_DFT[0], 0, conjB=True),
                     flags=cv2.DFT_REAL_OUTPUT | cv2.DFT_SCALE)
    dv, du = np.unravel_index(np.argmax(score), score.shape)
    offset = base @ np.array([(du + 0.5) / _FOLD, (dv + 0.5) / _FOLD])
    ncc = float(score.max()) / (float(np.linalg.norm(fold)) * _TEMPLATE_NORM[0] + 1e-9)
    return offset, ncc


_LAST_FOLD: list = []
"""[(link, key, radius, points, squared distances, values, {radius: (points, values)})]
of the last :func:`_fold_points`: hypotheses of one size (a sweep of turns) fold the same
pixels."""


def _fold_points(link: np.ndarray, step: int, cx: float, cy: float, radius: float
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Pixels every ``step`` px within ``radius`` of (cx, cy): ((2, N) x/y float64, (N,) link).

    The grid starts at the window's corner; the pixels of a slightly larger radius with the
    same corner are kept, and a call with a radius up to that takes its share of them (in
    the same order: the folds sum them alike).
    """
    h, w = link.shape
    x0, y0 = max(0, int(cx - radius)), max(0, int(cy - radius))
    key = (step, cx, cy, x0, y0)
    last = _LAST_FOLD[0] if _LAST_FOLD else None
    if last is None or last[0] is not link or last[1] != key or radius > last[2]:
        big = radius * 1.01
        x1, y1 = min(w, int(cx + big) + 1), min(h, int(cy + big) + 1)
        ys, xs = np.mgrid[y0:y1:step, x0:x1:step]
        xs = xs.ravel().astype(np.float64)
        ys = ys.ravel().astype(np.float64)
        d2 = (xs - cx) ** 2 + (ys - cy) ** 2
        keep = d2 < big ** 2
        xs, ys, d2 = xs[keep], ys[keep], d2[keep]
        last = (link, key, big, np.stack([xs, ys]), d2, link[ys.astype(int), xs.astype(int)], {})
        _LAST_FOLD[:] = [last]
    taken = last[6]
    if radius not in taken:
        # (a pixel of the wider grid past this radius's own window is farther than the radius)
        near = last[4] < radius ** 2
        taken.clear()
        taken[radius] = (last[3][:, near], last[5][near])
    return taken[radius]


_TEMPLATE: list[np.ndarray] = []
_TEMPLATE_NORM: list[float] = []
_TEMPLATE_DFT: list[np.ndarray] = []


def _template_cached() -> np.ndarray:
    if not _TEMPLATE:
        t = np.zeros((_FOLD, _FOLD), np.float64)
        inv = np.linalg.inv(BASIS)
        for pts, val in ((MIDPOINTS * 0.85, 1.0), (CORNERS * 0.85, -1.0)):
            uv = (pts @ inv.T) % 1.0
            for u, v in uv:
                t[int(np.floor(v * _FOLD)) % _FOLD, int(np.floor(u * _FOLD)) % _FOLD] += val
        # spread each point over its neighbourhood (wrap-around)
        k = np.zeros_like(t)
        for dv in (-1, 0, 1):
            for du in (-1, 0, 1):
                k += np.roll(np.roll(t, dv, 0), du, 1) * (1.0 if dv == du == 0 else 0.5)
        k -= k.mean()
        _TEMPLATE.append(k)
        _TEMPLATE_NORM.append(float(np.linalg.norm(k)))
        _TEMPLATE_DFT.append(cv2.dft(k, flags=cv2.DFT_COMPLEX_OUTPUT))
    return _TEMPLATE[0]


# -- 3. per-cell refinement and homography ------------------------------------------

SEARCH_REACH = 0.3
"""How far (plane units, a cell's centre-to-corner size) a cell's shift is searched."""
_SEARCH = np.stack(np.meshgrid(*[np.linspace(-SEARCH_REACH, SEARCH_REACH, 7)] * 2), -1).reshape(-1, 2)
# negative points: corners and the stretches of edge next to them (black on every tile:
# links meet the edges only at their midpoints), slightly inside the cell
_NEAR = np.concatenate([0.8 * CORNERS + 0.2 * np.roll(CORNERS, 1, 0), 0.8 * CORNERS + 0.2 * np.roll(CORNERS, -1, 0)])
_EDGE_PTS = np.concatenate([MIDPOINTS * 0.85, CORNERS * 0.85, _NEAR * 0.88])
_EDGE_W = np.r_[np.ones(6), -np.ones(18) / 3.0]
_FINE = np.stack(np.meshgrid(np.linspace(-0.12, 0.12, 5), np.linspace(-0.12, 0.12, 5)), -1).reshape(-1, 2)


def local_shifts(link: np.ndarray, lat: Lattice, cells: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-cell plane shift that best fits each cell (lens distortion, jitter), and its contrast.

    A coarse search (±0.3 of the cell size) then a fine one (±0.075) around the best.
    Returns ``(shifts (N, 2), contrast (N,))``.
    """
    if len(cells) == 0:
        return np.zeros((0, 2)), np.zeros(0)
    sc = cell_contrast(link, lat, cells, _SEARCH)
    best = _SEARCH[sc.argmax(1)]
    sc2 = _contrast_at(link, lat.H, np.asarray(cells, np.float64) @ BASIS.T + best, _FINE)
    k = sc2.argmax(1)
    return best + _FINE[k], sc2[np.arange(len(cells)), k]


def hexagon_shifts(link: np.ndarray, Hs: np.ndarray) -> np.ndarray:
    """:func:`local_shifts` of cell (0, 0) of each of N one-cell lattices ``Hs`` (N, 3, 3)
    (hexagons fitted to loose tiles), all at once: shifts (N, 2)."""
    if len(Hs) == 0:
        return np.zeros((0, 2))
    sc = _contrast_at(link, Hs, np.zeros((len(Hs), 2)), _SEARCH)
    best = _SEARCH[sc.argmax(1)]
    return best + _FINE[_contrast_at(link, Hs, best, _FINE).argmax(1)]


def turned_cells(H: np.ndarray, cells: np.ndarray, turns: np.ndarray) -> np.ndarray:
    """One-cell lattices of ``cells`` (N, 2) of the lattice ``H`` (3, 3), each turned by
    each of ``turns`` (K,) radians about the cell's centre: (N * K, 3, 3), cell (0, 0) of
    row ``i * K + j`` being cell ``i`` turned by ``turns[j]`` (for :func:`hexagon_shifts`
    and ``sampling.sample_hexagons``)."""
    turns = np.asarray(turns, np.float64)
    c, s = np.cos(turns), np.sin(turns)
    T = np.tile(np.eye(3), (len(cells), len(turns), 1, 1))
    T[..., 0, 0], T[..., 0, 1], T[..., 1, 0], T[..., 1, 1] = c, -s, s, c
    T[..., :2, 2] = (np.asarray(cells, np.float64) @ BASIS.T)[:, None, :]
    return (H @ T).reshape(-1, 3, 3)


def hexagon_contrast(link: np.ndarray, Hs: np.ndarray) -> np.ndarray:
    """Best :func:`cell_contrast` over the search's shifts of cell (0, 0) of each of N
    one-cell lattices ``Hs`` (N, 3, 3), (N,)."""
    if len(Hs) == 0:
        return np.zeros(0)
    return _contrast_at(link, Hs, np.zeros((len(Hs), 2)), _SEARCH).max(1)


def cell_contrast(link: np.ndarray, lat: Lattice, cells: np.ndarray, shifts: np.ndarray | None = None
                  ) -> np.ndarray:
    """Mean link value at the 6 midpoints minus at the 6 corners, per cell (and shift)."""
    return _contrast_at(link, lat.H, np.asarray(cells, np.float64) @ BASIS.T,
                        np.zeros((1, 2)) if shifts is None else shifts)


_CHUNK_POINTS = 65536
"""Sample points handled at once by :func:`_contrast_at`: the work arrays of a shift search
over a few hundred cells (~5·10^5 points) fall out of the cache; in chunks such a search
took a third of the time."""

_EDGE_W6 = (_EDGE_W / 6.0).astype(np.float32)
""":data:`_EDGE_W` over the 6 midpoints, float32: one matrix product gives the contrast."""


def _contrast_at(link: np.ndarray, H: np.ndarray, centres: np.ndarray, shifts: np.ndarray
                 ) -> np.ndarray:
    """:func:`cell_contrast` of plane points ``centres`` (N, 2) at each of ``shifts``
    (S, 2), (N, S); computed a chunk of cells at a time (each cell's value is the same).
    ``H``: (3, 3), or (N, 3, 3) one homography per cell."""
    per = max(1, _CHUNK_POINTS // (len(shifts) * len(_EDGE_PTS)))
    out = np.empty((len(centres), len(shifts)))
    for i in range(0, len(centres), per):
        at = centres[i:i + per, None, :] + shifts[None, :, :]
        v = sample_xy(link, *_map_offsets(H if H.ndim == 2 else H[i:i + per], at, _EDGE_PTS))
        out[i:i + per] = v @ _EDGE_W6
    return out


def _map_offsets(H: np.ndarray, at: np.ndarray, offsets: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Image x and y, float32 (..., P), of plane points ``at`` (..., 2) plus each of
    ``offsets`` (P, 2); ``H`` (3, 3), or (N, 3, 3): one homography per cell, ``at`` (N, ..., 2).

    The shift search maps ~10^6 points a frame.  H's terms of ``at`` and of ``offsets`` are
    taken apart in float64 (few values) and only their sums over the full grid are formed,
    in float32, with one reciprocal of the perspective term per point: twice as fast as
    float64 quotients.  Points move by under 10^-3 px against the float64 map (remap
    resolves 1/32 px; the reads of video-720p 0-14 were the same to the last digit).
    """
    ax, ay = at[..., 0], at[..., 1]
    ox, oy = offsets[:, 0], offsets[:, 1]
    h = _terms(H, ax.ndim)
    hp = h if H.ndim == 2 else h[..., None]  # (terms of the offsets: one more axis, P)

    def part(r: int) -> np.ndarray:
        return (h[r][0] * ax + h[r][1] * ay + h[r][2]).astype(np.float32)[..., None] + \
            (hp[r][0] * ox + hp[r][1] * oy).astype(np.float32)

    w = part(2)
    np.reciprocal(w, out=w)
    out = []
    for r in (0, 1):
        v = part(r)
        v *= w
        out.append(v)
    return out[0], out[1]


def refine(link: np.ndarray, lat: Lattice, cells: np.ndarray, min_contrast: float
           ) -> tuple[Lattice, np.ndarray]:
    """Move each cell to its best nearby position, refit H; returns (lattice, used cells)."""
    sc = cell_contrast(link, lat, cells, _SEARCH)
    best = sc.argmax(1)
    good = sc[np.arange(len(cells)), best] > min_contrast
    if good.sum() < 3:
        return lat, cells[good]
    found = np.asarray(cells)[good]
    plane = found.astype(np.float64) @ BASIS.T
    img = lat.to_image(plane + _SEARCH[best[good]])
    if good.sum() >= 8:
        # the cells mostly agree already (each was moved at most a third of a cell), so a
        # few hundred RANSAC draws are plenty; OpenCV's default 2000 cost 20 ms a call
        H, inl = cv2.findHomography(plane, img, cv2.RANSAC,
                                    0.15 * float(median(lat.cell_size(found))), maxIters=300)
        need = 2
    elif good.sum() >= 4:
        A, inl = cv2.estimateAffine2D(plane, img)
        H = None if A is None else np.vstack([A, [0, 0, 1]])
        need = 1
    else:
        A, inl = cv2.estimateAffinePartial2D(plane, img)
        H = None if A is None else np.vstack([A, [0, 0, 1]])
        need = 0
    # (a fit that failed outright marks no cell: then all of them are what there is)
    fixing = np.ones(len(found), bool) if H is None or inl is None else inl.ravel() > 0
    if fixing.sum() < need + 2 or off_the_row(found[fixing]) < need:
        # the cells the map was fitted to do not fix it: a homography (affine map) needs
        # four (three) of them, two (one) off every row (a similarity: any two).  A line of
        # tiles, maybe with a stray cell beside it, leaves it free across the row, and
        # RANSAC returned a wild or singular map (the reader crashed inverting one).  Eight
        # cells or more then only move, turn and scale the lattice along them, keeping its
        # perspective; fewer leave it as it is (moved along them, a search's small
        # hypotheses won where they should not: hard-26 lost a tile)
        H = None
        if need == 2 and fixing.sum() >= 2:
            A, _inl = cv2.estimateAffinePartial2D(lat.to_image(plane[fixing]), img[fixing])
            H = None if A is None else np.vstack([A, [0, 0, 1]]) @ lat.H
    if H is None:
        return lat, cells[good]
    return replace(lat, H=H), cells[good]


def fitted_to(lat: Lattice, cells: np.ndarray, shifts: np.ndarray) -> Lattice | None:
    """``lat`` with its homography refitted (least squares) to where ``cells`` (N, 2) were
    found: their centres moved by ``shifts`` (N, 2, plane units); ``None`` when the fit
    fails.  Unlike :func:`refine`, no cell is moved again: the shifts are the reader's."""
    if off_the_row(cells) < 2:
        return None  # (a row of cells, and one beside it, fix no homography across the row)
    plane = np.asarray(cells, np.float64) @ BASIS.T
    H, _ = cv2.findHomography(plane, lat.to_image(plane + np.asarray(shifts, np.float64)), 0)
    return None if H is None else replace(lat, H=H)


def off_the_row(cells: np.ndarray) -> int:
    """How many of ``cells`` (N, 2) lie off their most crowded row, in any of the
    lattice's three directions (constant q, r or q + r): 0 for a straight line of tiles.
    A homography is fixed only by cells two or more of which lie off every row, an
    affine map by one."""
    c = np.asarray(cells, np.int64).reshape(-1, 2)
    if len(c) == 0:
        return 0
    rows = (c[:, 0], c[:, 1], c[:, 0] + c[:, 1])
    return len(c) - max(int(np.unique(a, return_counts=True)[1].max()) for a in rows)


def _supported(lat: Lattice, support: Support) -> tuple[np.ndarray, np.ndarray]:
    """The lattice's cells in the image whose centre (rounded to a pixel) lies where
    ``support`` says tiles may be, and their centres: (M, 2) int, (M, 2) px."""
    h, w = support.shape
    cells, centres = lat.cells_and_centres_in(w, h)
    c = np.round(centres).astype(int)
    ok = (c[:, 0] >= 0) & (c[:, 0] < w) & (c[:, 1] >= 0) & (c[:, 1] < h)
    ok[ok] = support.at(c[ok, 0], c[ok, 1])
    return cells[ok], centres[ok]


@dataclass(frozen=True)
class Support:
    """Where tiles may be: pixels with link colour (link > 0.3) on over 1 % of the ``k`` x
    ``k`` window round them, i.e. within about one cell of a link.

    Asked only at cell centres, so it is answered from a summed-area table of the link
    mask (padded by ``pad`` px, mirrored as OpenCV's default border mirrors) instead of
    box-filtering every pixel for each cell size: the growths of one frame ask at half a
    dozen sizes.  The answers are those of the box filter (tests).
    """

    table: np.ndarray      # int32 (h + 2 pad + 1, w + 2 pad + 1) summed-area table
    pad: int
    k: int                 # window side, odd
    shape: tuple[int, int]  # (h, w) of the link image

    def at(self, x: np.ndarray, y: np.ndarray) -> np.ndarray:
        """bool (N,) at integer pixels ``x``, ``y`` (N,) inside the image."""
        r, t = self.k // 2, self.table
        x0, x1 = x - r + self.pad, x + r + self.pad + 1
        y0, y1 = y - r + self.pad, y + r + self.pad + 1
        count = t[y1, x1] - t[y0, x1] - t[y1, x0] + t[y0, x0]
        return count > 0.01 * self.k * self.k


_LAST_SUPPORT: list = []
"""[(link, pad, table)] of the last summed-area table :func:`support_map` made: the
search's growths and the reader ask about the same link image, many times a frame."""


def support_map(link: np.ndarray, size: float) -> Support:
    """Where tiles may be, for cells of ``size`` px (see :class:`Support`).

    ``link`` must not be changed in place between calls (its table is reused).
    """
    k = max(3, int(size * 2) | 1)
    last = _LAST_SUPPORT[0] if _LAST_SUPPORT else None
    if last is None or last[0] is not link or last[1] < k // 2:
        # room for windows half as large again (scaled copies of a lattice, its growth)
        pad = k // 2 + k // 4 + 1
        m = cv2.copyMakeBorder((link > 0.3).view(np.uint8), pad, pad, pad, pad, cv2.BORDER_REFLECT_101)
        last = (link, pad, cv2.integral(m, sdepth=cv2.CV_32S))
        _LAST_SUPPORT[:] = [last]
    return Support(last[2], last[1], k, link.shape)


MAX_REFINED = 500
"""Most cells (nearest the board's middle) a refinement step looks at."""


def _grow(link: np.ndarray, lat: Lattice, centre: np.ndarray, w: int, h: int) -> Lattice | None:
    """Refine the lattice from the middle outwards (the caller scores it); ``None`` when no
    cell holds a tile or the perspective is degenerate."""
    cells_all = lat.cells_in(w, h)
    if len(cells_all) == 0:
        return None
    size0 = float(median(lat.cell_size(cells_all)))
    if size0 < 3:
        return None
    support = support_map(link, size0)
    radius = 3.5 * size0 * SQ3
    for _ in range(8):
        lat2, used, everywhere = _refine_about(link, lat, support, centre, radius)
        if len(used) < 1:
            return None
        lat = lat2
        if everywhere:
            break
        radius *= 2.0
    cells_all, _ = _supported(lat, support)
    if len(cells_all) == 0:
        return None
    con = cell_contrast(link, lat, cells_all)[:, 0]
    occ = con > occupied()
    if not occ.any():
        return None
    sizes = lat.cell_size(cells_all[occ])
    if sizes.max() > 3.0 * sizes.min() or sizes.min() < 3:
        return None  # a degenerate perspective: not a table seen by a camera
    return lat


def _refine_about(link: np.ndarray, lat: Lattice, support: Support, centre: np.ndarray,
                  radius: float = np.inf, nearest_first: bool = False
                  ) -> tuple[Lattice, np.ndarray, bool]:
    """One :func:`refine` step over the cells ``support`` allows within ``radius`` px of
    ``centre`` (the :data:`MAX_REFINED` nearest), handed to it nearest first when
    ``nearest_first`` (RANSAC's draws follow the order of the points): (lattice, cells
    used, whether every supported cell lay within ``radius``)."""
    cells_all, centres = _supported(lat, support)
    if len(cells_all) == 0:
        return lat, cells_all, True
    d = np.linalg.norm(centres - centre, axis=1)
    near = d < radius
    # a busy cloth can "support" thousands of cells; a Tantrix of 56 tiles spans a few
    # hundred, so the nearest are enough (and keep the homography fit fast)
    chosen = np.nonzero(near)[0]
    if len(chosen) > MAX_REFINED or nearest_first:
        chosen = chosen[np.argsort(d[chosen])[:MAX_REFINED]]
    lat2, used = refine(link, lat, cells_all[chosen], occupied())
    return lat2, used, bool(near.all())


def link_mean(link: np.ndarray) -> np.ndarray | None:
    """The centre of mass (x, y px) of the link image ``link`` (H, W), where a search or a
    settling starts; ``None`` when it holds no link colour."""
    m = cv2.moments(link)
    if m["m00"] <= 0:
        return None
    return np.array([m["m10"] / m["m00"], m["m01"] / m["m00"]])


SETTLE_PASSES = 2
"""Refinement steps over the whole board that :func:`settle` makes."""

SETTLE_CELLS = 8
"""Fewest cells each of those steps must place (a homography is fixed by four)."""

SETTLED = 0.05
"""A step that moves none of the cells it placed this share of a cell ends the settling:
the next would move them less (a live frame's lattice mostly settles in one step, and
each step costs it about a millisecond)."""


def settle(link: np.ndarray, lat: Lattice) -> Lattice | None:
    """``lat`` refined :data:`SETTLE_PASSES` more times over every cell the link image
    ``link`` (H, W) supports at once, about the links' centre of mass; ``None`` when a
    step places fewer than :data:`SETTLE_CELLS` cells.

    :func:`_grow` refines from the middle outwards and stops once its circle holds every
    supported cell, so on a steep view the rows grown last, at the near rim, were placed
    by a homography fitted mostly to the middle: they can stay a third of a cell off and
    read poorly or not at all (real-texture-96: 23 tiles of 30 read, the bottom rows
    missed).  Refined again with those rows in, the homography takes their perspective.
    The search's score does not tell the settled lattice from the grown one reliably (on
    hard and real-texture 0-199 keeping the better-scoring one lost as many tiles as it
    gained); the reader reads on it and keeps the better read (``reader._read_settled``)."""
    h, w = link.shape
    cells = lat.cells_in(w, h)
    centre = link_mean(link)
    if len(cells) == 0 or centre is None:
        return None
    support = support_map(link, median_cell_size(lat, cells))
    for _ in range(SETTLE_PASSES):
        before = lat
        lat, used, _everywhere = _refine_about(link, lat, support, centre, nearest_first=True)
        if len(used) < SETTLE_CELLS:
            return None
        moved = np.linalg.norm(lat.centres(used) - before.centres(used), axis=1)
        if (moved < SETTLED * before.cell_size(used)).all():
            break
    return lat


def cells_on_mask(mask: np.ndarray, lat: Lattice, cells: np.ndarray) -> int:
    """How many of ``cells`` (N, 2) have their centre (rounded to a pixel) on ``mask``
    (H, W), a mask of the image ``lat`` maps to: about how many tiles the photo shows
    there when the lattice is right."""
    if len(cells) == 0:
        return 0
    xy = np.round(lat.centres(cells)).astype(int)
    h, w = mask.shape
    inside = (xy[:, 0] >= 0) & (xy[:, 0] < w) & (xy[:, 1] >= 0) & (xy[:, 1] < h)
    return int((mask[xy[inside, 1], xy[inside, 0]] > 0).sum())


def median_cell_size(lat: Lattice, cells: np.ndarray) -> float:
    """Median centre-to-corner size (image px) of ``cells`` (N, 2) under ``lat``; 10 px
    when there are none."""
    return float(median(lat.cell_size(cells))) if len(cells) else 10.0
