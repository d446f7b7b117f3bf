"""Lattice geometry helpers: results kept between calls (an inverse, a support map) are
those of a fresh computation, and follow a new homography or image."""
import cv2
import pytest
import numpy as np
from dataclasses import replace

from vision.lattice import BASIS, Lattice, support_map


def test_to_plane_inverts_to_image_after_the_homography_is_replaced():
    lat = Lattice(np.array([[20.0, 3.0, 100.0], [2.0, 18.0, 50.0], [1e-4, 2e-4, 1.0]]))
    pts = np.array([[0.0, 0.0], [3.0, -2.0], [-5.5, 4.25]])
    assert np.allclose(lat.to_plane(lat.to_image(pts)), pts)
    moved = replace(lat, H=np.diag([2.0, 0.5, 1.0]) @ lat.H)
    assert np.allclose(moved.to_plane(moved.to_image(pts)), pts)
    assert not np.allclose(moved.to_plane(lat.to_image(pts)), pts)
    cells = np.array([[0, 0], [2, -1], [-3, 4]])
    assert np.array_equal(moved.cell_at(moved.centres(cells)), cells)


def test_cell_size_is_the_local_scale_of_the_map():
    lat = Lattice(np.array([[21.0, -6.0, 300.0], [5.0, 19.0, 200.0], [0.0, 0.0, 1.0]]))
    det = abs(np.linalg.det(lat.H[:2, :2]))
    assert np.allclose(lat.cell_size(np.array([[0, 0], [4, -7]])), np.sqrt(det))


def test_support_map_is_kept_only_for_the_same_image_and_window():
    rng = np.random.default_rng(5)
    a = (rng.random((90, 140)) ** 8).astype(np.float32)
    b = (rng.random((90, 140)) ** 8).astype(np.float32)

    def fresh(link, size):
        k = max(3, int(size * 2) | 1)
        return cv2.boxFilter((link > 0.3).astype(np.float32), -1, (k, k)) > 0.01

    for link, size in [(a, 6.0), (a, 6.0), (a, 11.0), (b, 11.0), (a, 11.0), (a, 30.0), (a, 7.0)]:
        assert np.array_equal(everywhere(support_map(link, size)), fresh(link, size))


def everywhere(support) -> np.ndarray:
    """A :class:`vision.lattice.Support` asked at every pixel, as a bool image."""
    h, w = support.shape
    ys, xs = np.mgrid[0:h, 0:w]
    return support.at(xs.ravel(), ys.ravel()).reshape(h, w)


def test_a_lattice_whose_horizon_crosses_the_image_gives_the_cells_before_it():
    # a steeply tilted lattice fitted to a small board: its horizon (plane y = -1 / 0.025)
    # runs across the image at row 720; the rows below see the plane from behind
    from vision.lattice import MIN_CELL_PX
    lat = Lattice(np.array([[18.0, 0.0, 300.0], [0.0, 18.0, 400.0], [0.0, 0.025, 1.0]]), steep=True)
    w, h = 600, 800
    cells, centres = lat.cells_and_centres_in(w, h)
    assert ((centres >= 0) & (centres < [w, h])).all()
    assert (lat.cell_size(cells) >= MIN_CELL_PX).all()
    # the cells round the lattice's origin, where the board is, are all there ...
    near = {(q, r) for q in range(-3, 4) for r in range(-3, 4)}
    assert near <= {tuple(c) for c in cells}
    # ... and none lies beyond the horizon (the plane seen mirrored)
    plane = cells @ BASIS.T
    assert (0.025 * plane[:, 1] + 1.0 > 0).all()


def test_autocorrelation_rings_to_a_fraction_of_a_pixel():
    from vision.lattice import autocorr_bases
    # a link image periodic with a non-whole period (a lattice 13.37 px across)
    size = 13.37 / 3 ** 0.5
    lat = Lattice(np.array([[size, 0.0, 0.0], [0.0, size, 0.0], [0.0, 0.0, 1.0]]))
    yy, xx = np.mgrid[0:256, 0:256].astype(np.float64)
    plane = lat.to_plane(np.stack([xx.ravel(), yy.ravel()], 1))
    from vision.lattice import MIDPOINTS
    centre = lat.cell_at(np.stack([xx.ravel(), yy.ravel()], 1)) @ BASIS.T
    d = np.full(len(plane), np.inf)
    for m in MIDPOINTS:
        d = np.minimum(d, np.linalg.norm(plane - centre - m, axis=1))
    link = np.exp(-(d / 0.25) ** 2).reshape(256, 256).astype(np.float32)
    want = sorted(np.linalg.norm((BASIS * size).T, axis=1))

    def error(bases):
        return min(abs(np.linalg.norm(b, axis=0) - want).max() for b in bases)

    whole, fine = autocorr_bases(link), autocorr_bases(link, subpixel=True)
    assert error(fine) < 0.2
    assert error(fine) < error(whole)


def test_fitted_to_moves_the_lattice_where_the_cells_were_found():
    from vision.lattice import fitted_to
    true = Lattice(np.array([[20.0, 3.0, 300.0], [-2.0, 14.0, 200.0], [0.0002, 0.001, 1.0]]))
    off = Lattice(np.array([[21.0, 2.0, 303.0], [-1.0, 15.0, 198.0], [0.0, 0.0, 1.0]]))
    cells = np.array([(q, r) for q in range(-3, 4) for r in range(-3, 4)])
    plane = cells @ BASIS.T
    # each cell's shift: where the true lattice puts its centre, in the off lattice's plane
    shifts = off.to_plane(true.centres(cells)) - plane
    fit = fitted_to(off, cells, shifts)
    assert np.abs(fit.centres(cells) - true.centres(cells)).max() < 1e-3
    far = np.array([[8, -6], [-7, 9]])
    assert np.abs(fit.centres(far) - true.centres(far)).max() < 1e-3
    assert fit.score == off.score


def test_faint_links_lower_the_bar_for_a_tile_within_the_block_only():
    from vision import lattice
    assert lattice.occupied() == lattice.OCCUPIED
    with lattice.faint_links():
        assert lattice.occupied() == lattice.FAINT_OCCUPIED < lattice.OCCUPIED
    assert lattice.occupied() == lattice.OCCUPIED


def _drawn_lattice(base: np.ndarray, offset: np.ndarray, shape=(240, 320)) -> np.ndarray:
    """A link image of the Tantrix pattern on the lattice (``base``: neighbour vectors,
    columns; ``offset``: cell (0, 0)'s centre): bright edge midpoints, dark elsewhere."""
    from vision.lattice import MIDPOINTS
    link = np.zeros(shape, np.float32)
    to_image = base @ np.linalg.inv(BASIS)
    for q in range(-12, 13):
        for r in range(-12, 13):
            centre = to_image @ (BASIS @ np.array([q, r])) + offset
            for m in MIDPOINTS:
                x, y = to_image @ m * 0.85 + centre
                cv2.circle(link, (int(round(x)), int(round(y))), 2, 1.0, -1)
    return link


def test_fold_phase_finds_the_offset_of_a_drawn_lattice():
    from vision.lattice import fold_phase
    from vision.search import turn
    base = 22.0 * turn(17.0) @ BASIS
    offset = np.array([151.0, 118.0])
    link = _drawn_lattice(base, offset)
    found, ncc = fold_phase(link, base, np.array([160.0, 120.0]), 2.5 * 22.0 * np.sqrt(3))
    assert ncc > 0.5
    # the offset found is cell (0, 0)'s centre or another cell's, to a fold bin or so
    cells = np.linalg.solve(base @ np.linalg.inv(BASIS), found - offset) @ np.linalg.inv(BASIS).T
    assert np.abs(cells - np.round(cells)).max() < 0.08
    # a lattice turned 20° off folds the pattern into a blur
    _, worse = fold_phase(link, 22.0 * turn(37.0) @ BASIS, np.array([160.0, 120.0]), 95.0)
    assert worse < 0.5 * ncc


def test_blob_agreements_of_many_lattices_are_each_lattices_own():
    from vision import bodies, search
    from vision.lattice import affine_from_basis
    blobs = [bodies.Hexagon(np.array([150.0, 150.0]), 30.0 * search.turn(10.0), 0.97),
             bodies.Hexagon(np.array([260.0, 90.0]), 14.0 * np.eye(2), 0.95),
             bodies.Hexagon(np.array([40.0, 220.0]), 30.0 * np.eye(2), 0.5)]   # not clean
    lats = [Lattice(affine_from_basis(s * search.turn(a) @ BASIS, np.array([150.0, 150.0])))
            for s in (14.0, 30.0, 31.0, 45.0) for a in (0.0, 10.0, 33.0)]
    lats.append(Lattice(np.array([[30.0, 2.0, 150.0], [-1.0, 29.0, 150.0], [1e-4, -2e-4, 1.0]])))
    together = search.blob_agreements(lats, blobs)
    alone = [search.blob_agreement(lat, blobs) for lat in lats]
    assert together.tolist() == alone
    # the cell on the first blob, turned its way, earns the bonus; far sizes cost
    assert alone[4] == pytest.approx(0.1 - 0.5)
    assert alone[0] == -0.5 and alone[9] == -1.0
    assert search.blob_agreements([], blobs).shape == (0,)


def _drawn_board(lat: Lattice, cells: np.ndarray, shape=(480, 640)) -> np.ndarray:
    """A link image of tiles on ``cells`` (N, 2) under ``lat``: a bright dot at each edge
    midpoint, a fifth of a cell across, where each tile's links end."""
    from vision.lattice import MIDPOINTS
    link = np.zeros(shape, np.float32)
    plane = cells.astype(np.float64) @ BASIS.T
    for c, size in zip(plane, lat.cell_size(cells)):
        for x, y in lat.to_image(c + 0.85 * MIDPOINTS):
            cv2.circle(link, (int(round(x)), int(round(y))), max(2, int(0.2 * size)), 1.0, -1)
    return link


def test_settle_gives_a_steep_board_its_perspective_from_every_row():
    from vision.lattice import settle
    # a board of 37 tiles seen steeply: its near rows a third larger than its far ones
    true = Lattice(np.array([[24.0, -8.0, 320.0], [-3.0, 18.0, 250.0], [-0.004, -0.02, 1.0]]))
    board = np.array([(q, r) for q in range(-3, 4) for r in range(-3, 4) if abs(q + r) <= 3])
    link = _drawn_board(true, board)
    # the lattice as grown from the middle: an affine map fitted to the middle seven cells,
    # right there, without the perspective, so the rim lies half a cell off
    middle = board[np.abs(np.c_[board, board.sum(1)]).max(1) <= 1]
    plane = np.hstack([middle @ BASIS.T, np.ones((len(middle), 1))])
    A = np.linalg.lstsq(plane, true.centres(middle), rcond=None)[0].T
    grown = Lattice(np.vstack([A, [0.0, 0.0, 1.0]]))
    size = true.cell_size(board)
    off = np.linalg.norm(grown.centres(board) - true.centres(board), axis=1) / size
    assert off.max() > 0.4 and size.max() > 1.3 * size.min()
    settled = settle(link, grown)
    assert settled is not None
    after = np.linalg.norm(settled.centres(board) - true.centres(board), axis=1) / size
    assert after.max() < 0.1
    # no links, nothing to settle on
    assert settle(np.zeros_like(link), grown) is None


def test_cells_off_the_row_are_counted_in_all_three_directions():
    from vision.lattice import off_the_row
    along_q = [[q, 0] for q in range(-3, 6)]
    along_r = [[2, r] for r in range(5)]
    slant = [[q, -q] for q in range(8)]                    # constant q + r
    assert off_the_row(along_q) == off_the_row(along_r) == off_the_row(slant) == 0
    assert off_the_row(along_q + [[0, 1]]) == 1
    assert off_the_row(along_q + [[0, 1], [3, -1]]) == 2
    assert off_the_row([[0, 0], [1, 0], [0, 1], [1, 1]]) == 2
    assert off_the_row(np.zeros((0, 2))) == 0


@pytest.mark.parametrize("length", [5, 9])
def test_a_row_of_cells_refits_the_lattice_along_it_or_not_at_all(length):
    # a straight line of tiles: a homography (or an affine map) fitted to cells in one row
    # is singular, wild or left undone; eight cells or more move, turn and scale the
    # lattice along the row, keeping its perspective, fewer leave it where it was, and a
    # refit to where such cells were found is refused
    from vision import lattice
    from vision.lattice import MIDPOINTS
    lat = Lattice(np.array([[30.0, 4.0, 400.0], [-3.0, 31.0, 300.0], [1e-5, 2e-5, 1.0]]))
    cells = np.array([[q, 0] for q in range(-(length // 2), length - length // 2)])
    true = Lattice(np.array([[1.0, 0.0, 3.0], [0.0, 1.0, -2.0], [0.0, 0.0, 1.0]]) @ lat.H)
    link = np.zeros((600, 800), np.float32)
    for c in cells.astype(np.float64) @ BASIS.T:
        for x, y in true.to_image(c + 0.9 * MIDPOINTS):   # each tile's links, none at corners
            cv2.circle(link, (int(round(x)), int(round(y))), 4, 1.0, -1)
    fit, used = lattice.refine(link, lat, cells, 0.2)
    assert len(used) == len(cells)
    near = np.array([[q, r] for q in range(-3, 4) for r in (-1, 0, 1)])
    before = np.linalg.norm(lat.centres(near) - true.centres(near), axis=1).max()
    after = np.linalg.norm(fit.centres(near) - true.centres(near), axis=1).max()
    assert before > 3.5
    if length >= 8:
        assert after < 2.0
    else:
        assert np.array_equal(fit.H, lat.H)
    assert lattice.fitted_to(lat, cells, np.zeros((len(cells), 2))) is None


@pytest.mark.parametrize("stray", [(0, 1), (2, -1), (-1, 1)])
@pytest.mark.parametrize("length", [7, 10])
def test_a_row_and_a_stray_cell_refit_no_wild_lattice(stray, length):
    # a line of tiles and one cell beside it, found a quarter of a cell off: a homography
    # or an affine map fitted to them is free across the row, and RANSAC gave maps that
    # put the cells beside the row 200-330 px away (or singular ones: the reader crashed)
    from vision import lattice
    from vision.lattice import MIDPOINTS
    lat = Lattice(np.array([[30.0, 4.0, 400.0], [-3.0, 31.0, 300.0], [1e-5, 2e-5, 1.0]]))
    true = Lattice(np.array([[1.0, 0.0, 3.0], [0.0, 1.0, -2.0], [0.0, 0.0, 1.0]]) @ lat.H)
    cells = np.array([[q, 0] for q in range(-(length // 2), length - length // 2)] + [stray])
    link = np.zeros((600, 900), np.float32)
    for k, c in enumerate(cells.astype(np.float64) @ BASIS.T):
        off = np.array([0.25, 0.1]) if k == len(cells) - 1 else 0.0
        for x, y in true.to_image(c + off + 0.9 * MIDPOINTS):
            cv2.circle(link, (int(round(x)), int(round(y))), 4, 1.0, -1)
    fit, used = lattice.refine(link, lat, cells, 0.2)
    assert len(used) == len(cells)
    near = np.array([[q, r] for q in range(-3, 4) for r in (-1, 0, 1)])
    assert np.linalg.norm(fit.centres(near) - true.centres(near), axis=1).max() < 2.0
    assert lattice.fitted_to(lat, cells, np.zeros((len(cells), 2))) is None


def test_cell_hexagons_are_the_cells_corners_moved_and_scaled_in_the_image():
    from vision.lattice import CORNERS
    lat = Lattice(np.array([[20.0, 3.0, 100.0], [2.0, 18.0, 50.0], [1e-4, 2e-4, 1.0]]))
    cells = np.array([[0, 0], [2, -1]])
    shifts = np.array([[0.1, -0.2], [0.0, 0.3]])
    got = lat.hexagons(cells, shifts, scale=0.8)
    assert got.shape == (2, 6, 2)
    for c, s, h in zip(cells, shifts, got):
        middle = c @ BASIS.T + s
        assert np.allclose(h, lat.to_image(middle + 0.8 * CORNERS))
        # the hexagon surrounds its cell's (shifted) centre in the image
        assert cv2.pointPolygonTest(h.astype(np.float32), tuple(map(float, lat.to_image(middle))), False) > 0
    assert np.allclose(lat.hexagons(cells)[0], lat.to_image(CORNERS))
