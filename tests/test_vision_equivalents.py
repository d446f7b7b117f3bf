"""Faster equivalents the reader uses give the plain computations' results (medians and
percentiles equal to NumPy's, log-sum-exp, readings, a lattice's cells kept while it is
unchanged, a glare veil cleared)."""
import numpy as np

from vision.identify import edge_labels, identify, log_sum_exp
from vision.lattice import Lattice
from vision.order_stats import _level_ranks, level_percentile, median, percentile, row_medians


def test_median_and_percentile_equal_numpys():
    rng = np.random.default_rng(3)
    for trial in range(400):
        dtype = (np.float32, np.float64)[trial % 2]
        shape = tuple(int(v) for v in rng.integers(1, 10, rng.integers(1, 4)))
        # ties (small integers) and spread values
        a = (rng.integers(0, 4, shape) * 1.5 if trial % 3 == 0 else rng.normal(size=shape) * 50).astype(dtype)
        for axis in [None, *range(a.ndim)]:
            want, got = np.median(a, axis=axis), median(a, axis=axis)
            assert np.asarray(got).dtype == np.asarray(want).dtype
            assert np.array_equal(got, want)
        for q in (0, 10, 25, 40, 60, 99, 100):
            want, got = np.percentile(a, q), percentile(a, q)
            assert np.asarray(got).dtype == np.asarray(want).dtype and got == want


def test_median_of_many_whole_numbers_equals_numpys():
    # Lab samples: tens of thousands of whole numbers in a few dozen values, odd and even
    # counts, flat and along either axis of (N, 2) (the reader's neutral-point medians)
    rng = np.random.default_rng(6)
    for n in (27001, 27002, 3):
        a = rng.integers(-20, 20, (n, 2)).astype(np.float32)
        for axis in (None, 0):
            assert np.array_equal(median(a, axis=axis), np.median(a, axis=axis))
        assert np.array_equal(median(np.ascontiguousarray(a.T), axis=1), np.median(a.T, axis=1))


def test_counted_percentiles_of_lab_levels_equal_numpys():
    # whole numbers (8-bit Lab levels, a and b centred) are counted, not partitioned;
    # anything else (halves, a spread wider than the counts cover) falls back
    rng = np.random.default_rng(7)
    for trial in range(300):
        n = int(rng.integers(1, 3000))
        dtype = (np.float32, np.float64)[trial % 2]
        a = rng.integers(-128, 128, (n, 2)).astype(dtype)
        if trial % 5 == 1:
            a = a + 0.5
        if trial % 5 == 2:
            a = a * 1000
        for q in (0, 1, 25, 33.3, 50, 99, 100):
            want, got = np.percentile(a[:, 0], q), level_percentile(a[:, 0], q)
            assert np.asarray(got).dtype == np.asarray(want).dtype and got == want
    # a strided lightness plane, as the reader's darkest grey takes it
    lab = rng.integers(0, 256, (90, 160, 3)).astype(np.float32)
    plane = lab[::2, ::2, 0]
    assert _level_ranks(plane) is not None  # (counted, not fallen back)
    assert level_percentile(plane, 25) == np.percentile(plane, 25)
    assert _level_ranks(plane + 0.5) is None and _level_ranks(plane * 1000) is None


def test_row_medians_equal_nanmedian_over_the_kept_entries():
    rng = np.random.default_rng(4)
    for trial in range(200):
        n, k = (int(v) for v in rng.integers(1, 12, 2))
        a = (rng.integers(0, 4, (n, k)) * 1.5 if trial % 3 == 0 else rng.normal(size=(n, k)) * 50)
        keep = rng.random((n, k)) < rng.random()
        want = np.full(n, np.nan)
        for i in range(n):
            if keep[i].any():
                want[i] = np.median(a[i, keep[i]])
        assert np.array_equal(row_medians(a, keep), want, equal_nan=True)


def test_log_sum_exp_rows_and_all_impossible_row():
    x = np.log(np.array([[0.2, 0.3, 0.5], [1.0, 1e-300, 1e-300]]))
    x = np.vstack([x, np.full((1, 3), -np.inf)])
    got = log_sum_exp(x)
    assert np.allclose(got[:2], [0.0, 0.0], atol=1e-12)
    assert got[2] == -np.inf


def test_readings_and_edge_labels_agree():
    rng = np.random.default_rng(5)
    logp = np.log(rng.dirichlet(np.ones(5) * 0.3, size=(20, 6)))
    readings = identify(logp)
    labels = edge_labels(readings)
    probs = np.exp(logp)
    for r, lab, p in zip(readings, labels, probs):
        assert r.fit == 0.0 or np.isclose(r.fit, p[np.arange(6), lab].mean())
    assert edge_labels([]).shape == (0, 6)


def test_cells_of_a_lattice_are_kept_until_it_changes():
    lat = Lattice(np.array([[20.0, 0, 100], [0, 20.0, 80], [0, 0, 1]]))
    first = lat.cells_in(400, 300)
    assert lat.cells_in(400, 300) is first and not first.flags.writeable
    moved = Lattice(lat.H + np.array([[0, 0, 30.0], [0, 0, 0], [0, 0, 0]]))
    assert not np.array_equal(moved.cells_in(400, 300), first) or len(first) == 0
    assert len(lat.cells_in(200, 150)) < len(first)


def _at_offset(a: np.ndarray, offset: int) -> np.ndarray:
    """A copy of ``a`` whose data starts ``offset`` bytes past a 64-byte boundary."""
    buf = np.empty(a.nbytes + 128, np.uint8)
    start = (-buf.ctypes.data) % 64 + offset
    out = buf[start:start + a.nbytes].view(a.dtype).reshape(a.shape)
    out[...] = a
    return out


def test_link_image_does_not_depend_on_where_the_photo_lies_in_memory():
    """One photo, one link image: the chroma is computed exactly (cv2.magnitude rounds by
    memory alignment, and real-texture-101 was read two ways on different runs)."""
    import cv2
    from pathlib import Path
    from vision import colours, reader
    img = cv2.imread(str(Path(__file__).resolve().parents[1] / "sample_images" / "tight_group.jpg"))
    lab = colours.to_lab(img)
    links = [reader.link_and_mask(_at_offset(lab, off))[1] for off in (0, 4, 8, 16, 32, 48)]
    assert all(np.array_equal(links[0], other) for other in links[1:])
    a, b = lab[..., 1].copy(), lab[..., 2].copy()
    assert np.array_equal(colours.chroma(a, b), np.sqrt(a * a + b * b))


def test_candidate_scores_equal_the_plain_sum_over_edges():
    from vision.identify import CANDIDATES, candidate_scores
    rng = np.random.default_rng(11)
    e = np.arange(6)[None, None, :]
    for n in (1, 7, 60, 200):
        logp = np.log(rng.dirichlet(np.ones(5) * 0.4, size=(n, 6)))
        logp[rng.random(logp.shape) < 0.05] *= 1e3   # far outliers: large and small terms mixed
        assert np.array_equal(candidate_scores(logp), logp[:, e, CANDIDATES].sum(-1))


def test_loose_hexagons_at_once_equal_one_at_a_time():
    """Shifts and samples of several one-cell lattices taken together (one homography per
    cell) are those of each lattice on its own."""
    import cv2

    from vision.lattice import hexagon_shifts, local_shifts
    from vision.sampling import sample_cells, sample_hexagons
    rng = np.random.default_rng(7)
    link = cv2.GaussianBlur(rng.random((120, 160)).astype(np.float32), (0, 0), 2.0)
    bgr = rng.integers(0, 256, (240, 320, 3)).astype(np.uint8)
    Hs = []
    for _ in range(9):
        a = rng.uniform(0, np.pi)
        M = rng.uniform(6, 14) * np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        H = np.eye(3)
        H[:2, :2], H[:2, 2] = M @ (np.eye(2) + rng.normal(0, 0.1, (2, 2))), rng.uniform(20, 100, 2)
        H[2, :2] = rng.normal(0, 1e-3, 2)
        Hs.append(H)
    Hs = np.array(Hs)
    one = np.zeros((1, 2), int)
    shifts = hexagon_shifts(link, Hs)
    S = np.diag([2.0, 2.0, 1.0])
    edges, corners = sample_hexagons(bgr, S @ Hs, shifts)
    for i, H in enumerate(Hs):
        sh, _ = local_shifts(link, Lattice(H), one)
        assert np.array_equal(shifts[i], sh[0])
        e, c = sample_cells(bgr, Lattice(S @ H), one, sh)
        assert np.array_equal(edges[i], e[0]) and np.array_equal(corners[i], c[0])
    assert hexagon_shifts(link, np.zeros((0, 3, 3))).shape == (0, 2)


def test_centres_kept_with_a_lattices_cells_are_those_computed_afresh():
    lat = Lattice(np.array([[21.0, -4.0, 300.0], [3.0, 18.0, 200.0], [2e-4, -1e-4, 1.0]]))
    for window in (None, (100.0, 50.0, 420.0, 300.0)):
        cells, centres = lat.cells_and_centres_in(640, 400, window=window)
        assert len(cells) > 0 and np.array_equal(centres, lat.centres(cells))
        assert lat.cells_in(640, 400, window=window) is cells


def test_lab_conversion_centres_a_and_b_exactly():
    import cv2

    from vision.colours import to_lab
    rng = np.random.default_rng(2)
    for shape in ((37, 53, 3), (5, 1, 3), (1, 1, 3)):
        bgr = rng.integers(0, 256, shape).astype(np.uint8)
        lab8 = cv2.cvtColor(bgr, cv2.COLOR_BGR2Lab).astype(np.float32)
        got = to_lab(bgr)
        assert got.dtype == np.float32 and got.shape == shape
        assert np.array_equal(got, lab8 - np.array([0, 128, 128], np.float32))


def test_clear_veil_equals_the_plain_dark_channel_expression():
    # clear_veil takes the planes' minimum with OpenCV and divides in place; the plain
    # computation (numpy's min over channels, whole-array expressions) gives the same pixels
    import cv2

    from vision import haze
    from vision.sampling import MAX_VEIL
    rng = np.random.default_rng(11)
    for shape in ((37, 53, 3), (120, 90, 3)):
        bgr = rng.integers(0, 256, shape).astype(np.uint8)
        bgr[: shape[0] // 2] = np.maximum(bgr[: shape[0] // 2], 150)  # a veiled half
        k = max(3, round(max(shape[:2]) / 100)) | 1
        dark = cv2.erode(bgr.min(axis=2), np.ones((k, k), np.uint8)).astype(np.float32)
        a = np.minimum(cv2.blur(dark, (2 * k + 1, 2 * k + 1)) * (1.0 / 255.0), MAX_VEIL)[..., None]
        want = np.clip((bgr.astype(np.float32) - 255.0 * a) / (1.0 - a), 0, 255).astype(np.uint8)
        got = haze.clear_veil(bgr)
        assert got.dtype == np.uint8 and np.array_equal(got, want)
        assert not np.array_equal(got, bgr)  # the veiled half was cleared
