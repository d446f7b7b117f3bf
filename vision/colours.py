"""Per-photo colour models: how much a pixel looks like a link, and which colour it is.

Everything works in CIE Lab (OpenCV's 8-bit encoding, a and b centred on 0).  A photo's
light shifts all colours together, so the neutral point is estimated from the photo itself
(white balance), and the four link colours are then learnt per photo by EM on the edge
samples, started from the colours of real tiles (the real red, green and blue are dark).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from .order_stats import level_percentile, median, percentile

CLASSES = ("red", "yellow", "green", "blue", "black")
"""Colour classes of an edge sample; index 4 is the black tile body (or no link)."""

# Lab (a, b, L) of the link colours on real tiles and on the glossy game-pack tiles,
# measured on ../shared/real_tiles; a/b centred on 0, L 0..255.
PROTOTYPES = np.array([
    [38.0, 29.0, 60.0],    # red
    [-3.0, 60.0, 160.0],   # yellow
    [-24.0, 16.0, 80.0],   # green
    [18.0, -45.0, 45.0],   # blue
], np.float64)


PROTOTYPE_HUES = PROTOTYPES[:, :2] / np.linalg.norm(PROTOTYPES[:, :2], axis=1, keepdims=True)
"""(4, 2) unit a/b directions of the link colours' prototypes (their hues)."""


LIGHTEST_PERCENTILE = 90
"""Percentile of a photo's link samples' lightness taken as its yellow links' lightness:
yellow is by far the lightest link colour and three tiles of four carry it (measured on
hard and real-texture 0-59, this percentile is the yellow links' median L within ~5 in
all but a few photos, from L 37 in dim light to 230 in bright)."""

OUTLIER_D2 = 20.0
"""Squared normalised distance from the nearest link colour beyond which a sample is no link."""

HUE_WEIGHT = 6.0
"""Log-probability a link sample loses per unit of ``1 - cos`` of the angle between its hue
and a link colour's (in the a/b plane)."""

OUTLIER_SHARE = 0.02
"""Share of samples taken as outliers that no class explains (glare, a finger)."""


@dataclass
class ColourModel:
    """Per-photo link colour model.

    ``neutral``: Lab a/b of grey in this photo; ``means`` (4, 3) link colour means in the
    feature space of :func:`features`; ``spread`` their common standard deviation;
    ``chroma0`` the chroma below which a sample is taken as black body; ``absent`` a link
    colour (class index) this photo is taken to lack (``vision.missing_colour``), or None.
    """

    neutral: np.ndarray
    chroma_scale: float
    means: np.ndarray = field(default_factory=lambda: PROTOTYPES.copy())
    spread: np.ndarray = field(default_factory=lambda: np.array([9.0, 9.0, 30.0]))
    chroma0: float = 12.0
    absent: int | None = None


_LAB_OFFSET = (0.0, 128.0, 128.0, 0.0)
"""What 8-bit Lab's channels are taken off by to centre a and b on 0."""


def to_lab(image: np.ndarray) -> np.ndarray:
    """BGR uint8 → float32 Lab with a, b centred on 0 (H, W, 3)."""
    return centred(cv2.cvtColor(image, cv2.COLOR_BGR2Lab))


def centred(lab8: np.ndarray) -> np.ndarray:
    """OpenCV's 8-bit Lab (H, W, 3) uint8 → float32 Lab with a, b centred on 0, as
    :func:`to_lab` gives it."""
    # one pass (convert to float32 and centre together: OpenCV's subtraction with an
    # output type, a third of the time of a lookup table and a tenth of NumPy's; the same
    # whole numbers): this runs on every frame
    return cv2.subtract(lab8, _LAB_OFFSET, dtype=cv2.CV_32F)


def chroma(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """``sqrt(a² + b²)`` of two float32 arrays of one shape, float32, exactly rounded.

    (Not ``cv2.magnitude``: OpenCV 5's vectorised magnitude rounds a pixel differently
    depending on the buffer's memory alignment, so one photo gave two link images on
    different reads, and the lattice search, which breaks ties between the symmetric
    peaks of an autocorrelation, then read it two ways: real-texture-101 5 or 6 of 6.)
    """
    out = np.multiply(a, a, dtype=np.float32)
    out += np.multiply(b, b, dtype=np.float32)
    return np.sqrt(out, out=out)


SPLIT_TINT = 8.0
"""a/b distance between the darker and lighter halves of the darkest grey pixels above
which only the darker half is taken for the tile bodies (:func:`darkest_grey`)."""


def darkest_grey(lab: np.ndarray, dark: np.ndarray, step: int = 2) -> np.ndarray | None:
    """The photo's darkest grey pixels, taken for the tile bodies: bool mask over
    ``lab[::step, ::step]`` of the pixels of the dark mask ``dark`` (H, W) in the darkest
    quarter of lightness (not a dark table's lighter weave or shadows), or only the darker
    half of those when the two halves' median a/b lie more than :data:`SPLIT_TINT` apart;
    ``None`` when there are fewer than 50."""
    L = lab[::step, ::step, 0]
    sel = dark[::step, ::step] & (L <= level_percentile(L, 25))
    if sel.sum() < 50:
        return None
    # a dark grey table covering more of the photo than the tiles (the blue stripes of a
    # cloth under warm light, hard-9) fills the lighter part of that quarter: when the
    # darker and lighter halves differ in tint, the bodies are the darker half
    mid = median(L[sel])
    darker, lighter = sel & (L <= mid), sel & (L > mid)
    if darker.sum() < 50 or lighter.sum() < 50:   # (lightness in a few levels: no halves)
        return sel
    ab = lab[::step, ::step, 1:]
    lo, hi = median(ab[darker], axis=0), median(ab[lighter], axis=0)
    return darker if float(np.hypot(*(lo - hi))) > SPLIT_TINT else sel


def neutral_point(lab: np.ndarray, dark: np.ndarray | None = None) -> np.ndarray:
    """The photo's grey (a, b).

    The black tile bodies are the one surface known to be grey in every photo, so the
    median a/b of the darkest grey pixels is used; without a mask, the least colourful
    bright pixels.
    """
    if dark is not None:
        sel = darkest_grey(lab, dark)
        if sel is not None:
            return median(lab[::2, ::2, 1:][sel], axis=0).astype(np.float32)
    ab = lab[::4, ::4, 1:].reshape(-1, 2)
    L = lab[::4, ::4, 0].ravel()
    chroma = np.hypot(ab[:, 0], ab[:, 1])
    sel = (chroma < 25) & (L > percentile(L, 40))
    if sel.sum() < 50:
        return np.zeros(2, np.float32)
    return median(ab[sel], axis=0).astype(np.float32)


LINKED_GREY = (0.5, 3, 200)
"""Link image level of a clear link, reach (working px) beside such links, and fewest
pixels for :func:`beside_links`."""


def beside_links(link: np.ndarray, dark: np.ndarray) -> np.ndarray | None:
    """bool (H, W): the grey pixels of ``dark`` (bool, H × W) lying just beside clear links
    of ``link`` (0..1, H × W) and not lit as links themselves; ``None`` when there are too
    few (:data:`LINKED_GREY`).

    Links lie on the tile bodies, so these are the bodies' pixels even where a darker grey
    table took :func:`neutral_point` (dark green felt: against its grey the bodies look red,
    the link image lights whole tiles and shows no lattice).  Bodies lit as brightly as
    clear links are taken for links themselves: the pixels found are then the table's."""
    strong, reach, fewest = LINKED_GREY
    clear = (link > strong).astype(np.uint8)
    if int(clear.sum()) < fewest:
        return None
    k = 2 * reach + 1
    sel = cv2.dilate(clear, np.ones((k, k), np.uint8)).astype(bool) & dark & (link < strong)
    return sel if int(sel.sum()) >= fewest else None


def link_image(lab: np.ndarray, neutral: np.ndarray, gate: np.ndarray | None = None) -> np.ndarray:
    """How much each pixel looks like a coloured link, float32 0..1 (H, W).

    Saturation against the photo's neutral point, scaled by the photo's own strongest
    colour so that dim photos and dark real tiles still reach 1.  ``gate`` (0..1) suppresses pixels
    far from any tile body (a coloured table is not a link).
    """
    a = lab[..., 1] - neutral[0]
    b = lab[..., 2] - neutral[1]
    c = chroma(a, b)
    # also chroma relative to lightness (a saturation): the dark red, green and blue links
    # carry little chroma, above all in dim light, yet are as saturated as the yellow
    sat = c / (lab[..., 0] + 40.0)
    out = None
    for img, floor in ((c, 15.0), (sat, 0.12)):
        if gate is not None:
            img = img * gate
        ref = _link_level(img, floor, 0.2 * floor, 2.5 * floor)
        # (in place: three full-size passes without new arrays, the same arithmetic)
        norm = img * (2.0 / ref)
        norm -= 0.4
        np.clip(norm, 0.0, 1.0, out=norm)
        out = norm if out is None else np.maximum(out, norm, out=out)
    return out.astype(np.float32, copy=False)


def bright_image(lab: np.ndarray, gate: np.ndarray | None, k: int,
                 within: np.ndarray | None = None) -> np.ndarray:
    """How much each pixel is a link by its lightness alone, float32 0..1 (H, W).

    A link is lighter than the black body round it whatever its colour: the white top-hat
    of Lab lightness over a disc of ``k`` px keeps thin light strokes and drops the body
    and wide light areas.  Scaled like :func:`link_image` by the photo's 99th percentile
    (at least 10 lightness units); the lower 35 % of that scale is taken as body noise (a
    JPEG's blocks at quality 60 lift dark bodies a few units).  ``gate`` as there.

    ``within`` (bool (H, W), the tile mask): scale by the top-hat's
    :data:`OWN_LINK_SHARE` percentile over those pixels instead (at least
    :data:`OWN_LINK_FLOOR`): blurred small tiles' links stand a few units above their
    bodies, while a light cloth's specks set the photo's percentile (hard-171: 21 against
    7 over the tiles).
    """
    L = lab[..., 0].astype(np.float32)
    th = cv2.morphologyEx(L, cv2.MORPH_TOPHAT, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (k, k)))
    if gate is not None:
        th = th * gate
    if within is not None and within.any():
        ref = max(float(percentile(th[within], OWN_LINK_SHARE)), OWN_LINK_FLOOR)
    else:
        ref = _link_level(th, 10.0, 1.0, 10.0)
    norm = (th * (1.0 / ref) - 0.35) / 0.65
    return np.clip(norm, 0.0, 1.0).astype(np.float32)


OWN_LINK_SHARE = 90
"""Percentile of the top-hat over the tile mask that :func:`bright_image` scales by when
asked to (links cover well over a tenth of a tile's face)."""

OWN_LINK_FLOOR = 5.0
"""... never under this many lightness units (a bare mask of bodies and JPEG noise)."""


def _link_level(img: np.ndarray, floor: float, above: float, default: float) -> float:
    """The level a link image's values are scaled by: the 99th percentile of the values
    over ``above`` (on every other pixel; links cover a few per cent of a photo at least,
    so that percentile is a link), ``default`` when there are too few, never under
    ``floor``."""
    sub = img[::2, ::2]
    sub = sub[sub > above]
    return max(float(percentile(sub, 99)) if sub.size > 20 else default, floor)


def initial_model(lab: np.ndarray, dark: np.ndarray | None = None,
                  neutral: np.ndarray | None = None) -> ColourModel:
    """A first model for a photo: its neutral point (``neutral`` (2,) when already known,
    else :func:`neutral_point`) and chroma scale."""
    if neutral is None:
        neutral = neutral_point(lab, dark)
    return ColourModel(neutral=np.asarray(neutral, np.float32), chroma_scale=1.0)


def features(samples: np.ndarray, model: ColourModel) -> np.ndarray:
    """Lab samples (..., 3) → (a, b, L) features relative to the photo's neutral point."""
    f = np.empty(samples.shape, np.float64)
    f[..., 0] = (samples[..., 1] - model.neutral[0]) * model.chroma_scale
    f[..., 1] = (samples[..., 2] - model.neutral[1]) * model.chroma_scale
    f[..., 2] = samples[..., 0]
    return f


def scaled_chroma(samples: np.ndarray, model: ColourModel) -> np.ndarray:
    """Chroma (...) of Lab samples (..., 3) from the photo's grey, scaled as the model
    scales it: what :data:`ColourModel.chroma0` is measured against."""
    f = features(samples, model)
    return np.hypot(f[..., 0], f[..., 1])


def _link_share(chroma: np.ndarray, model: ColourModel) -> np.ndarray:
    """Chance that a sample of this scaled chroma is a link rather than black body."""
    return 1.0 / (1.0 + np.exp(-(chroma - model.chroma0) / (0.25 * model.chroma0)))


def link_chance(bgr: np.ndarray, model: ColourModel) -> np.ndarray:
    """How likely each pixel of ``bgr`` (H, W, 3, uint8) is a link rather than black body
    under the photo's learnt colours: the link share :func:`log_probs` gives a sample,
    float32 0..1 (H, W).

    Unlike :func:`link_image` (made before any tile is read, scaled by the photo's
    strongest colour) it knows how little chroma this photo's dark links carry: a dim
    blue or green link on a brown body, faint in the link image, stands out here.
    """
    return _link_share(scaled_chroma(to_lab(bgr).astype(np.float64), model), model).astype(np.float32)


GLARE_LIGHTNESS_SPREAD = 100.0
"""How much wider :func:`hue_model` takes the lightness spread: wide enough that lightness
no longer tells the link colours apart (rt-5's tile 39 under a glare spot: its green links
at L 220-250 against a learnt green of 87)."""


def hue_model(model: ColourModel) -> ColourModel:
    """``model`` telling colours apart by hue and chroma alone, for samples under glare.

    A glare veil lifts a sample's lightness towards white far more than it turns its hue,
    so a lifted link's lightness matches no learnt colour and its tile fits nothing,
    though its hues still show which tile it is.
    """
    return replace(model, spread=model.spread * np.array([1.0, 1.0, GLARE_LIGHTNESS_SPREAD]))


def log_probs(samples: np.ndarray, model: ColourModel) -> np.ndarray:
    """Log-probabilities (..., 5) of each Lab sample being red/yellow/green/blue/black.

    Link colours: Gaussians in (a, b, L); direction in the a/b plane dominates, so a dim
    or strongly lit photo that scales chroma keeps its hues.  Black: low chroma.  A small
    floor keeps one odd sample (glare, a finger) from vetoing a tile on its own.
    """
    f = features(samples, model)
    chroma = np.hypot(f[..., 0], f[..., 1])
    d = (f[..., None, :] - model.means) / model.spread  # (..., 4, 3)
    # hue term: angle between sample and class mean directions
    mean_dir = model.means[:, :2] / np.linalg.norm(model.means[:, :2], axis=1, keepdims=True)
    cos = (f[..., None, 0] * mean_dir[:, 0] + f[..., None, 1] * mean_dir[:, 1]) / np.maximum(chroma[..., None], 1e-6)
    ll = -0.5 * (d[..., 2] ** 2) * 0.5 + HUE_WEIGHT * (cos - 1.0) - 0.5 * (d[..., 0] ** 2 + d[..., 1] ** 2) * 0.15
    p_link = _link_share(chroma, model)
    ll = ll - np.logaddexp.reduce(ll, axis=-1, keepdims=True)
    # a colour far from every link colour of this photo (skin, a pen, a coin) belongs to
    # no class: that share of the probability is left out, so the tile's fit drops
    d2 = (d ** 2).sum(-1).min(-1)
    typical = 1.0 / (1.0 + np.exp((d2 - OUTLIER_D2) / 3.0))
    out = np.empty(samples.shape[:-1] + (5,), np.float64)
    out[..., :4] = ll + np.log(np.maximum(p_link[..., None] * typical[..., None], 1e-9))
    out[..., 4] = np.log(np.maximum(1 - p_link, 1e-9))
    # floor: mixture with a uniform 2 % outlier
    floor = np.log(OUTLIER_SHARE / 5)
    out = np.logaddexp(out + np.log(1 - OUTLIER_SHARE), floor)
    if model.absent is not None:
        # a colour the photo lacks explains a sample no better than an outlier does
        out[..., model.absent] = floor
    return out


def calibrate(model: ColourModel, samples: np.ndarray, labels: np.ndarray, weights: np.ndarray
              ) -> ColourModel:
    """Refit class means from edge samples with known (identified) colours.

    ``samples`` (N, 3) Lab, ``labels`` (N,) class index 0..3, ``weights`` (N,) trust.
    Classes with too few samples keep their old mean.
    """
    f = features(samples, model)
    means = model.means.copy()
    for c in range(4):
        sel = (labels == c) & (weights > 0.5)
        if sel.sum() >= 3:
            means[c] = 0.5 * means[c] + 0.5 * median(f[sel], axis=0)
    chroma = np.hypot(f[:, 0], f[:, 1])
    sel = weights > 0.5
    chroma0 = model.chroma0
    if sel.sum() >= 6:
        chroma0 = float(np.clip(0.4 * percentile(chroma[sel], 10), 5.0, 20.0))
    return replace(model, means=means, chroma0=chroma0)


def adapt_scale(model: ColourModel, samples: np.ndarray) -> ColourModel:
    """Scale chroma, and yellow's lightness, so the photo's link samples match the model.

    ``samples`` are Lab edge samples of occupied cells (mostly links).  Chroma is scaled
    to the prototypes' typical chroma, and yellow's lightness is set to the photo's
    lightest links' (:data:`LIGHTEST_PERCENTILE`): in dim light yellow links are as dark
    as green ones are in good light, and a fixed lightness calls them green.  (Scaling
    all four colours' lightness by the same gain was tried: hard 60 gained 6 tiles where
    this gains 9, real-texture 60 lost 1 where this gains 11.)
    """
    chroma = scaled_chroma(samples, model).ravel()
    if chroma.size < 6:
        return model
    typical = float(percentile(chroma, 60))
    scale = float(np.clip(40.0 / max(typical, 1.0), 0.5, 4.0))
    means = model.means.copy()
    lightest = float(percentile(samples[..., 0], LIGHTEST_PERCENTILE))
    y = CLASSES.index("yellow")
    means[y, 2] = np.clip(lightest, 0.25 * means[y, 2], 2.0 * means[y, 2])
    m = replace(model, chroma_scale=scale, means=means, spread=model.spread.copy())
    chroma = scaled_chroma(samples, m).ravel()
    m.chroma0 = float(np.clip(0.35 * percentile(chroma, 25), 5.0, 20.0))
    return m


def nearest_hue(lab: np.ndarray, neutral: np.ndarray) -> np.ndarray:
    """Index (H, W) int of the link colour (0..3, :data:`CLASSES`) whose prototype hue is
    nearest each pixel's a/b about ``neutral``, whatever its chroma."""
    a = lab[..., 1] - neutral[0]
    b = lab[..., 2] - neutral[1]
    # nearest hue = largest cosine with the prototype directions (no angles needed)
    cos = np.stack([a * np.float32(u[0]) + b * np.float32(u[1]) for u in PROTOTYPE_HUES], -1)
    return cos.argmax(-1)


def diversity_gate(lab: np.ndarray, neutral: np.ndarray, link: np.ndarray, window: int) -> np.ndarray:
    """float32 0..1 (H, W): where link colour of at least three different hues lies near.

    Every Tantrix tile carries three of the four link colours, while a table pattern in a
    link-like colour (a green check, red stripes) is mostly one hue; gating by hue variety
    within ``window`` px (about a tile) keeps the tiles and drops the pattern.
    """
    cls = nearest_hue(lab, neutral)
    on = link > 0.3
    k = max(5, int(window) | 1)
    score = np.zeros(link.shape, np.float32)
    for c in range(4):
        dens = cv2.boxFilter((on & (cls == c)).astype(np.float32), -1, (k, k))
        score += np.clip(dens / 0.005, 0.0, 1.0)
    return np.clip(score - 2.0, 0.0, 1.0)
