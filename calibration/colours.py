"""Colour profile: how the four link colours and the black tile body look under one light.

A :class:`ColourModel` holds, per class (``CLASSES`` = red, yellow, green, blue, black),
a Gaussian in CIE Lab (mean (3,), covariance (3, 3)), learned from a photo of known
tiles (:func:`learn`).  The reader asks it for class probabilities of Lab samples
(:meth:`ColourModel.probabilities`) or of a whole photo (:meth:`ColourModel.probability_image`),
or gives log-probabilities in the reader's own Lab encoding
(:meth:`ColourModel.log_probabilities`).

Lab is OpenCV's float Lab (:func:`to_lab`): L in 0..100, a and b roughly -128..127, D65
white; the same scale as ``skimage.color.rgb2lab``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

import cv2
import numpy as np

from referee.errors import BadInput
from referee.hexgrid import to_pixel
from referee.tiles import rotated_edges

from . import fields

CLASSES: tuple[str, ...] = ("red", "yellow", "green", "blue", "black")
"""Class order of every per-class array: the four link colours, then the tile body."""

REFERENCE_LAB = np.array([
    [19.2, 36.0, 27.5],    # red
    [59.8, -2.9, 59.3],    # yellow
    [28.7, -21.7, 13.4],   # green
    [13.4, 19.8, -40.2],   # blue
    [2.9, 0.7, -1.8],      # black
])
"""Typical Lab of each class under neutral light, used only to stand in for a class the
calibration photo does not show (tiles 1-10 have no green).  Measured on the 56 real
tile photos in ../shared/real_tiles (tests/test_calibration_colours.py re-measures them)."""

MIN_SAMPLES = 30
COV_FLOOR = 4.0
"""Lab units² added to each variance: keeps a class learned from few, very uniform
samples from claiming nothing but its exact shade."""

CHI2_3_99 = 11.345
"""99 % quantile of chi-square with 3 degrees of freedom: Mahalanobis² cut for inliers."""


def to_lab(image_bgr: np.ndarray) -> np.ndarray:
    """BGR uint8 image (H, W, 3) → float32 Lab (H, W, 3)."""
    if image_bgr.ndim != 3 or image_bgr.shape[2] != 3:
        raise BadInput("colour calibration needs a colour photo")
    return cv2.cvtColor(image_bgr.astype(np.float32) / 255.0, cv2.COLOR_BGR2Lab)


def _lab_to_linear_rgb(lab: np.ndarray) -> np.ndarray:
    rgb = cv2.cvtColor(np.asarray(lab, np.float32).reshape(-1, 1, 3), cv2.COLOR_Lab2RGB).reshape(-1, 3)
    rgb = np.clip(rgb, 0, 1)
    return np.where(rgb <= 0.04045, rgb / 12.92, ((rgb + 0.055) / 1.055) ** 2.4)


def _linear_rgb_to_lab(lin: np.ndarray) -> np.ndarray:
    lin = np.clip(lin, 0, 1)
    rgb = np.where(lin <= 0.0031308, lin * 12.92, 1.055 * lin ** (1 / 2.4) - 0.055).astype(np.float32)
    return cv2.cvtColor(rgb.reshape(-1, 1, 3), cv2.COLOR_RGB2Lab).reshape(-1, 3).astype(np.float64)


@dataclass
class ColourModel:
    """Per-class Gaussians in Lab.

    ``means`` (5, 3), ``covs`` (5, 3, 3), ``counts`` (5,) samples each class was learned
    from (0 = not seen in the calibration photo, predicted from the light's colour
    cast), ``gains``/``offsets`` (3,) the per-channel linear-RGB map from the reference
    light of ``REFERENCE_LAB`` to this light (observed = gain * reference + offset); used
    only to predict classes the calibration photo did not show.
    """

    means: np.ndarray
    covs: np.ndarray
    counts: np.ndarray
    gains: np.ndarray = field(default_factory=lambda: np.ones(3))
    offsets: np.ndarray = field(default_factory=lambda: np.zeros(3))
    link_chroma: float | None = None
    grey_ab: np.ndarray | None = None

    def __post_init__(self) -> None:
        self._inv = np.linalg.inv(self.covs)
        self._logdet = np.linalg.slogdet(self.covs)[1]

    @property
    def neutral_ab(self) -> np.ndarray:
        """Lab (a, b) of grey under this light, (2,).

        The tile body is the one surface known to be neutral in every photo; its darkest
        quarter (no sheen) gives the grey, as the reader measures it per photo.  Profiles
        without that figure fall back to the body's mean.
        """
        if self.grey_ab is not None:
            return np.asarray(self.grey_ab, np.float64).copy()
        return self.means[CLASSES.index("black"), 1:].copy()

    def reader_means(self) -> np.ndarray:
        """Link colour means (4, 3) in ``vision.colours``' feature space.

        That space is ((a - neutral) * s, (b - neutral) * s, L on 0..255) with the chroma
        scale s = clip(40 / typical link chroma, 0.5, 4) the reader sets per photo; the
        typical chroma (60th percentile) measured in the calibration photo stands in for it.
        """
        n = self.neutral_ab
        typical = self.link_chroma
        if typical is None:
            typical = float(np.percentile(np.hypot(*(self.means[:4, 1:] - n).T), 60))
        s = float(np.clip(40.0 / max(typical, 1.0), 0.5, 4.0))
        out = np.empty((4, 3))
        out[:, 0] = (self.means[:4, 1] - n[0]) * s
        out[:, 1] = (self.means[:4, 2] - n[1]) * s
        out[:, 2] = self.means[:4, 0] * 255.0 / 100.0
        return out

    @property
    def learned(self) -> tuple[str, ...]:
        """Classes measured in the calibration photo (the rest are predicted)."""
        return tuple(c for c, n in zip(CLASSES, self.counts) if n > 0)

    # -- evaluation -------------------------------------------------------------------
    def mahalanobis2(self, lab: np.ndarray) -> np.ndarray:
        """Squared Mahalanobis distance of Lab samples (N, 3) to each class: (N, 5).

        Samples with every distance above ``CHI2_3_99`` look like none of the classes
        (table cloth, glare) and are better left out than forced into one.
        """
        x = np.asarray(lab, np.float64).reshape(-1, 3)
        d = x[:, None, :] - self.means[None, :, :]
        return np.einsum("nki,kij,nkj->nk", d, self._inv, d)

    def log_likelihoods(self, lab: np.ndarray) -> np.ndarray:
        """Gaussian log-density of Lab samples (N, 3) under each class: (N, 5)."""
        return -0.5 * (self.mahalanobis2(lab) + self._logdet[None, :] + 3 * np.log(2 * np.pi))

    def probabilities(self, lab: np.ndarray, priors: np.ndarray | None = None) -> np.ndarray:
        """Posterior class probabilities of Lab samples (N, 3) → (N, 5), rows sum to 1.

        ``priors`` (5,) default to equal.  Columns follow ``CLASSES``.
        """
        ll = self.log_likelihoods(lab)
        if priors is not None:
            ll = ll + np.log(np.clip(np.asarray(priors, np.float64), 1e-12, None))[None, :]
        ll -= ll.max(axis=1, keepdims=True)
        p = np.exp(ll)
        return p / p.sum(axis=1, keepdims=True)

    def probability_image(self, image_bgr: np.ndarray) -> np.ndarray:
        """Per-pixel class probabilities of a BGR photo: (H, W, 5) float32."""
        lab = to_lab(image_bgr).reshape(-1, 3)
        h, w = image_bgr.shape[:2]
        out = np.empty((len(lab), len(CLASSES)), np.float32)
        step = 1 << 18  # bounded memory on 12 MP photos
        for i in range(0, len(lab), step):
            out[i:i + step] = self.probabilities(lab[i:i + step])
        return out.reshape(h, w, len(CLASSES))

    def classify(self, lab: np.ndarray) -> np.ndarray:
        """Most likely class index (into ``CLASSES``) per Lab sample (N, 3) → (N,)."""
        return np.argmax(self.log_likelihoods(lab), axis=1)

    def log_probabilities(self, samples: np.ndarray, encoding: str = "lab", floor: float = 0.02) -> np.ndarray:
        """Log class probabilities (..., 5) of Lab samples (..., 3), for a reader's identifier.

        ``encoding``: ``"lab"`` = :func:`to_lab` (L 0..100); ``"lab8"`` = OpenCV's 8-bit
        Lab with a and b re-centred on 0 (L 0..255), as ``vision.colours.to_lab`` makes.
        ``floor`` mixes in a uniform outlier share so one odd sample (glare, a finger)
        cannot veto a tile on its own.  Columns follow ``CLASSES``.
        """
        x = np.asarray(samples, np.float64)
        shape = x.shape[:-1]
        x = x.reshape(-1, 3)
        if encoding == "lab8":
            x = x * np.array([100.0 / 255.0, 1.0, 1.0])
        elif encoding != "lab":
            raise ValueError(f"unknown Lab encoding {encoding!r}")
        ll = self.log_likelihoods(x)
        ll = ll - np.logaddexp.reduce(ll, axis=1, keepdims=True)
        if floor > 0:
            ll = np.logaddexp(ll + np.log(1 - floor), np.log(floor / len(CLASSES)))
        return ll.reshape(shape + (len(CLASSES),))

    # -- JSON -----------------------------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        return {
            "space": "CIELab (OpenCV float: L 0..100)",
            "classes": {
                name: {"mean": np.round(self.means[i], 4).tolist(),
                       "cov": np.round(self.covs[i], 4).tolist(),
                       "samples": int(self.counts[i])}
                for i, name in enumerate(CLASSES)
            },
            "cast": {"gains": np.round(self.gains, 6).tolist(), "offsets": np.round(self.offsets, 6).tolist()},
            **({} if self.link_chroma is None else {"link_chroma": round(float(self.link_chroma), 3)}),
            **({} if self.grey_ab is None else {"grey_ab": np.round(self.grey_ab, 4).tolist()}),
        }

    @classmethod
    def from_json(cls, data: Any, where: str = "colours") -> "ColourModel":
        classes = fields.require(data, "classes", where)
        means, covs, counts = [], [], []
        for name in CLASSES:
            entry = fields.require(classes, name, f"{where}.classes")
            w = f"{where}.classes.{name}"
            means.append(fields.array(fields.require(entry, "mean", w), f"{w}.mean", (3,)))
            cov = fields.array(fields.require(entry, "cov", w), f"{w}.cov", (3, 3))
            if not np.allclose(cov, cov.T, atol=1e-3) or np.any(np.linalg.eigvalsh((cov + cov.T) / 2) <= 0):
                raise BadInput(f"profile: {w}.cov must be symmetric positive definite")
            covs.append((cov + cov.T) / 2)
            counts.append(fields.integer(entry.get("samples", 0), f"{w}.samples", minimum=0))
        gains, offsets = np.ones(3), np.zeros(3)
        if "cast" in data:
            gains = fields.array(fields.require(data["cast"], "gains", f"{where}.cast"), f"{where}.cast.gains", (3,))
            offsets = fields.array(fields.require(data["cast"], "offsets", f"{where}.cast"), f"{where}.cast.offsets", (3,))
            if np.any(gains <= 0):
                raise BadInput(f"profile: {where}.cast.gains must be positive")
        chroma = data.get("link_chroma")
        chroma = None if chroma is None else fields.number(chroma, f"{where}.link_chroma", positive=True)
        grey = data.get("grey_ab")
        grey = None if grey is None else fields.array(grey, f"{where}.grey_ab", (2,))
        return cls(np.array(means), np.array(covs), np.array(counts), gains, offsets, chroma, grey)


# -- learning -------------------------------------------------------------------------------

_APOTHEM = np.sqrt(3) / 2  # centre-to-edge for centre-to-corner 1


def _edge_sample_offsets() -> np.ndarray:
    """Hex-frame offsets (centre-to-corner = 1) on the link leaving each edge: (6, M, 2).

    Every link leaves its edge midpoint at right angles, so points a little inside the
    midpoint along the edge normal lie on that edge's link whatever its shape.
    """
    out = []
    for i in range(6):
        a = np.radians(-90 + 60 * i)
        n, t = np.array([np.cos(a), np.sin(a)]), np.array([-np.sin(a), np.cos(a)])
        pts = [n * d * _APOTHEM + t * s for d in (0.66, 0.74, 0.82) for s in (-0.05, 0.0, 0.05)]
        out.append(pts)
    return np.array(out)


def _body_sample_offsets() -> np.ndarray:
    """Hex-frame offsets on the black body near each corner: (6, M, 2).

    A corner is inside the tightest (corner) arc, which passes half a side from it, so
    the black there is never crossed by a link.
    """
    out = []
    for i in range(6):
        a = np.radians(-120 + 60 * i)  # corners sit between edge normals
        pts = [np.array([np.cos(a + da), np.sin(a + da)]) * d
               for d in (0.72, 0.78, 0.84) for da in np.radians((-3.0, 0.0, 3.0))]
        out.append(pts)
    return np.array(out)


def lattice_homography(cells: list[tuple[int, int]], pixels: np.ndarray) -> np.ndarray:
    """Homography from the hex frame (centre-to-corner = 1, ``referee.hexgrid.to_pixel``) to photo pixels.

    Needs 3+ tiles not in one row (3 gives an affine map, 4+ a full homography; 8+ a
    RANSAC fit that ignores a misplaced centre).
    """
    plane = np.array([to_pixel(c, 1.0) for c in cells], np.float64)
    if len(cells) < 3 or np.linalg.matrix_rank(plane - plane.mean(axis=0), tol=1e-6) < 2:
        raise BadInput("colour calibration needs at least 3 tiles with pixel centres, not all in one row")
    pix = np.asarray(pixels, np.float64)
    if len(cells) < 4:
        a, _ = cv2.estimateAffine2D(plane, pix)
        return np.vstack([a, [0, 0, 1]])
    h, _ = cv2.findHomography(plane, pix, cv2.RANSAC if len(cells) >= 8 else 0, 0.3 * _pitch(plane, pix))
    if h is None:
        raise BadInput("colour calibration: the tile centres do not fit a hex lattice")
    return h


def _pitch(plane: np.ndarray, pix: np.ndarray) -> float:
    """Rough photo pixels per hex-frame unit (median ratio of pairwise distances)."""
    i, j = np.triu_indices(len(plane), 1)
    dp = np.linalg.norm(plane[i] - plane[j], axis=1)
    dx = np.linalg.norm(pix[i] - pix[j], axis=1)
    return float(np.median(dx / np.maximum(dp, 1e-9)))


def collect_samples(image_bgr: np.ndarray, tiles: Iterable[tuple[tuple[int, int], int, int, tuple[float, float]]]
                    ) -> dict[str, np.ndarray]:
    """Lab samples (N, 3) per class name from a photo of known tiles.

    ``tiles``: ``((q, r), tile number, rotation, (x, y) pixel centre)`` per tile.
    """
    items = list(tiles)
    cells = [c for c, _, _, _ in items]
    h = lattice_homography(cells, np.array([p for _, _, _, p in items], np.float64))
    lab = cv2.GaussianBlur(to_lab(image_bgr), (0, 0), 1.0)
    height, width = lab.shape[:2]
    edge_off, body_off = _edge_sample_offsets(), _body_sample_offsets()
    buckets: dict[str, list[np.ndarray]] = {c: [] for c in CLASSES}

    def sample(points: np.ndarray) -> np.ndarray:
        px = cv2.perspectiveTransform(points.reshape(-1, 1, 2), h).reshape(-1, 2)
        x, y = np.round(px[:, 0]).astype(int), np.round(px[:, 1]).astype(int)
        ok = (x >= 0) & (x < width) & (y >= 0) & (y < height)
        return lab[y[ok], x[ok]]

    for cell, number, rotation, _ in items:
        centre = np.array(to_pixel(cell, 1.0))
        colours = rotated_edges(number, rotation)
        for i in range(6):
            buckets[colours[i]].append(sample(centre + edge_off[i]))
        buckets["black"].append(sample((centre + body_off).reshape(-1, 2)))
    return {c: (np.concatenate(v) if v else np.zeros((0, 3))) for c, v in buckets.items()}


def _robust_gaussian(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, int]:
    """Mean and covariance of the bulk of ``x`` (N, 3), ignoring stray samples.

    Starts from the median and a MAD scale, then refits three times on the samples
    within the 99 % Mahalanobis ellipsoid (samples of a neighbour's colour or of glare
    fall outside it).
    """
    mean = np.median(x, axis=0)
    mad = np.median(np.abs(x - mean), axis=0) * 1.4826
    cov = np.diag(np.maximum(mad, 1.0) ** 2)
    keep = np.ones(len(x), bool)
    for _ in range(4):
        d = x - mean
        m2 = np.einsum("ni,ij,nj->n", d, np.linalg.inv(cov), d)
        keep = m2 < CHI2_3_99
        if keep.sum() < 3:
            break
        mean = x[keep].mean(axis=0)
        cov = np.cov(x[keep].T) + np.eye(3) * COV_FLOOR
    return mean, cov, int(keep.sum())


def fit(samples: dict[str, np.ndarray]) -> ColourModel:
    """A :class:`ColourModel` from Lab samples per class name.

    Classes with fewer than ``MIN_SAMPLES`` samples are predicted: the light's colour
    cast is fitted as a gain per linear-RGB channel from the classes that were
    seen, and applied to the class's ``REFERENCE_LAB``; its covariance is the mean of
    the seen classes'.  ``BadInput`` if fewer than two classes were seen.
    """
    means = REFERENCE_LAB.copy()
    covs = np.repeat(np.eye(3)[None] * 25.0, len(CLASSES), axis=0)
    counts = np.zeros(len(CLASSES), int)
    for i, name in enumerate(CLASSES):
        x = np.asarray(samples.get(name, np.zeros((0, 3))), np.float64).reshape(-1, 3)
        if len(x) >= MIN_SAMPLES:
            means[i], covs[i], counts[i] = _robust_gaussian(x)
    seen = counts > 0
    if seen.sum() < 2:
        raise BadInput("colour calibration: the photo shows fewer than two classes clearly "
                       "(need tiles whose links and bodies are visible)")
    ref_lin = _lab_to_linear_rgb(REFERENCE_LAB)
    obs_lin = _lab_to_linear_rgb(means)
    # A change of light is close to a gain per linear-RGB channel (von Kries); a free
    # offset as well overfits the few (often 4) class means available.
    offsets = np.zeros(3)
    gains = np.array([float(ref_lin[seen, ch] @ obs_lin[seen, ch]) / max(float(ref_lin[seen, ch] @ ref_lin[seen, ch]), 1e-9)
                      for ch in range(3)])
    gains = np.maximum(gains, 0.05)
    if not seen.all():
        pred = _linear_rgb_to_lab(ref_lin[~seen] * gains + offsets)
        means[~seen] = pred
        covs[~seen] = covs[seen].mean(axis=0) * 1.5  # less sure about a class never seen
    # Typical link chroma (60th percentile, around the body's a/b), as a reader measures it.
    links = [np.asarray(samples[c], np.float64).reshape(-1, 3) for c in CLASSES[:4] if c in samples]
    links = np.concatenate(links) if links else np.zeros((0, 3))
    chroma = None
    if len(links) >= MIN_SAMPLES:
        ab = links[:, 1:] - means[CLASSES.index("black"), 1:]
        chroma = float(np.percentile(np.hypot(ab[:, 0], ab[:, 1]), 60))
    grey = None
    body = np.asarray(samples.get("black", np.zeros((0, 3))), np.float64).reshape(-1, 3)
    if len(body) >= MIN_SAMPLES:
        darkest = body[body[:, 0] <= np.percentile(body[:, 0], 25)]
        grey = np.median(darkest[:, 1:], axis=0)
    return ColourModel(means, covs, counts, gains, offsets, chroma, grey)


def learn(image_bgr: np.ndarray, tiles: Iterable[tuple[tuple[int, int], int, int, tuple[float, float]]]) -> ColourModel:
    """Learn a colour profile from a photo and its known tiles (see :func:`collect_samples`)."""
    return fit(collect_samples(image_bgr, tiles))


def tiles_of_board(board: Any, min_confidence: float = 0.0) -> list[tuple[tuple[int, int], int, int, tuple[float, float]]]:
    """``((q, r), tile, rotation, (x, y))`` for the tiles of a ``referee.board.Board`` with a pixel centre.

    Tiles whose ``confidence`` (when present) is below ``min_confidence`` are left out.
    """
    out = []
    for cell, placement in board.tiles.items():
        extra = board.extras.get(cell, {})
        pixel = extra.get("pixel")
        if pixel is None:
            continue
        conf = extra.get("confidence")
        if conf is not None and conf < min_confidence:
            continue
        out.append((cell, placement.tile, placement.rotation, (float(pixel[0]), float(pixel[1]))))
    return out


def edge_accuracy(model: ColourModel, image_bgr: np.ndarray,
                  tiles: Iterable[tuple[tuple[int, int], int, int, tuple[float, float]]]) -> tuple[int, int]:
    """(right, total): tile edges whose median edge sample ``model`` names correctly.

    ``tiles`` as for :func:`collect_samples` (the truth).  Samples are taken at the true
    tile centres, so this measures the colour model alone, not a reader's tile finding.
    ``(0, 0)`` when the tiles do not fix a lattice.
    """
    items = list(tiles)
    try:
        h = lattice_homography([t[0] for t in items], np.array([t[3] for t in items], np.float64).reshape(-1, 2))
    except BadInput:
        return 0, 0
    lab = to_lab(image_bgr)
    height, width = lab.shape[:2]
    offsets = _edge_sample_offsets()
    right = total = 0
    for cell, number, rotation, _ in items:
        centre = np.array(to_pixel(cell, 1.0))
        truth = rotated_edges(number, rotation)
        for i in range(6):
            p = cv2.perspectiveTransform((centre + offsets[i]).reshape(-1, 1, 2), h).reshape(-1, 2)
            x, y = np.round(p[:, 0]).astype(int), np.round(p[:, 1]).astype(int)
            ok = (x >= 0) & (x < width) & (y >= 0) & (y < height)
            if not ok.any():
                continue
            sample = np.median(lab[y[ok], x[ok]], axis=0)
            right += CLASSES[int(model.classify(sample[None])[0])] == truth[i]
            total += 1
    return right, total
