"""Faster equivalents the reader uses give the plain computations' results (medians and
percentiles equal to NumPy's, log-sum-exp, readings, a lattice's cells kept while it is unchanged)."""
import numpy as np

from vision.identify import edge_labels, identify, log_sum_exp
from vision.lattice import Lattice
from vision.order_stats import median, percentile


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
