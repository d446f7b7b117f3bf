"""Single-tile blobs: the fits kept for the last mask give what a fresh look gives, for any
size limit, and another mask is looked at afresh."""
import pytest
import cv2
import numpy as np

from vision import bodies, colours
from vision.lattice import CORNERS


def _mask(hexes):
    m = np.zeros((300, 400), np.uint8)
    for (cx, cy), size, turn in hexes:
        a = np.deg2rad(turn)
        R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        cv2.fillConvexPoly(m, np.round(CORNERS @ (size * R).T + [cx, cy]).astype(np.int32), 255)
    return m


def _key(found):
    return sorted((round(float(h.centre[0]), 3), round(float(h.centre[1]), 3), round(h.iou, 4)) for h in found)


def test_kept_fits_match_a_fresh_look():
    mask = _mask([((80, 80), 30, 10), ((250, 90), 12, 40), ((200, 220), 22, 0)])
    for min_size in (6.0, 15.0, 25.0, 6.0):
        kept = bodies.single_hexagons(mask, min_size=min_size)
        bodies._LAST_BLOBS = ()
        fresh = bodies.single_hexagons(mask, min_size=min_size)
        assert _key(kept) == _key(fresh)
    assert len(bodies.single_hexagons(mask, min_size=6.0)) == 3
    assert len(bodies.single_hexagons(mask, min_size=15.0)) == 2   # the 12 px one is too small
    # a caller changing a returned hexagon does not change the kept fit
    bodies.single_hexagons(mask)[0].centre[:] = -1
    assert all(h.centre.min() > 0 for h in bodies.single_hexagons(mask))


def test_another_mask_is_looked_at_afresh():
    first = bodies.single_hexagons(_mask([((80, 80), 30, 10)]))
    second = bodies.single_hexagons(_mask([((300, 200), 25, 30), ((100, 220), 20, 0)]))
    assert len(first) == 1 and len(second) == 2
    assert np.allclose(sorted(h.centre[0] for h in second), [100, 300], atol=1.5)


def test_body_hexagons_find_tiles_a_link_coloured_print_joins_in_the_tile_mask():
    # three black tiles with a blue link each, two thirds of a size apart, on a cloth
    # striped blue and brown: as link colour, the stripes join the tiles in the tile mask
    img = np.full((300, 400, 3), (40, 80, 150), np.uint8)          # brown (BGR)
    for x in range(-400, 400, 60):
        cv2.line(img, (x, 0), (x + 300, 300), (190, 110, 30), 25)   # blue stripes
    centres = [(120, 100), (120, 172), (182, 136)]                   # gaps of 20 px
    for c in centres:
        img[_mask([(c, 30, 0)]) > 0] = (20, 20, 20)
        cv2.line(img, (c[0] - 28, c[1]), (c[0] + 28, c[1]), (200, 90, 20), 6)  # a blue link
    lab = colours.to_lab(img)
    found = bodies.body_hexagons(bodies.dark_mask(lab), 30.0)
    assert len(found) == 3
    got = sorted((round(float(h.centre[0])), round(float(h.centre[1]))) for h in found)
    for (x, y), (cx, cy) in zip(got, sorted(centres)):
        assert abs(x - cx) <= 2 and abs(y - cy) <= 2
    assert all(0.9 < h.size / 30.0 < 1.1 for h in found)
    # the tile mask (bodies or link colour) makes none of them a single hexagon
    link = (colours.chroma(lab[..., 1], lab[..., 2]) > 40).astype(np.float32)
    assert not any(np.hypot(*(h.centre - c)) < 10 for h in bodies.single_hexagons(
        bodies.tile_mask(lab, link)) for c in centres)


def test_dark_and_tile_masks_split_each_photo_on_its_own():
    """The dark mask and the tile mask share one lightness split per Lab image: each image
    still gets its own (a second photo is not split at the first one's threshold)."""
    rng = np.random.default_rng(2)
    labs = []
    for light in (60.0, 190.0):
        lab = np.zeros((120, 160, 3), np.float32)
        lab[..., 0] = light
        lab[30:90, 40:120, 0] = 25.0  # a dark body
        lab[..., 1:] = rng.normal(0, 2, (120, 160, 2))
        labs.append(lab)
    link = np.zeros((120, 160), np.float32)
    for lab in labs + labs[::-1]:
        L8 = np.clip(lab[..., 0], 0, 255).astype(np.uint8)
        thr, _ = cv2.threshold(L8[::2, ::2], 0, 255, cv2.THRESH_BINARY + cv2.THRESH_OTSU)
        chroma = np.hypot(lab[..., 1], lab[..., 2])
        expected = (chroma < 10 + 0.08 * lab[..., 0]) & (lab[..., 0] < np.clip(thr, 70, 150))
        assert np.array_equal(bodies.dark_mask(lab), expected)
        kept = bodies.tile_mask(lab, link)
        bodies._LAST_SPLIT.clear()
        assert np.array_equal(kept, bodies.tile_mask(lab, link))


def test_link_spots_are_tile_sized_patches_of_link_colour():
    size = 20.0
    link = np.zeros((300, 400), np.float32)
    # one tile's links: three arcs' worth of colour in a tile-sized disc, with gaps
    cv2.circle(link, (100, 100), 15, 1.0, 5)
    cv2.line(link, (85, 100), (115, 100), 1.0, 5)
    # a long stripe of the cloth's print: far bigger than a tile
    cv2.rectangle(link, (200, 20), (390, 60), 1.0, -1)
    # a fleck: far smaller than a tile
    cv2.circle(link, (300, 250), 3, 1.0, -1)
    spots = bodies.link_spots(link, size)
    assert len(spots) == 1
    assert np.hypot(*(spots[0] - (100, 100))) < 3


def test_link_spots_keep_thin_links_of_a_small_tile():
    # a tile 0.8 of the cells across whose links are two pixels wide: reduced by
    # averaging they would fall under the threshold and the patch would be lost
    size = 40.0
    link = np.zeros((400, 400), np.float32)
    for r in (10, 18):
        cv2.circle(link, (200, 200), r, 1.0, 2)
    cv2.line(link, (178, 200), (222, 200), 1.0, 2)
    spots = bodies.link_spots(link, size)
    assert len(spots) == 1 and np.hypot(*(spots[0] - (200, 200))) < 4


def test_link_spots_measure_a_patch_by_the_tile_size_where_it_lies():
    # a loose tile beyond the board, farther from the camera, is 0.6 of the board's cells
    # across: its patch of links is too small for a cell's tile, not for a tile lying there
    size = 40.0
    link = np.zeros((400, 400), np.float32)
    cv2.circle(link, (200, 200), 11, 1.0, 2)
    cv2.line(link, (181, 200), (219, 200), 1.0, 2)
    assert bodies.link_spots(link, size) == []
    spots = bodies.link_spots(link, size, local=lambda pts: np.full(len(pts), 0.6 * size))
    assert len(spots) == 1 and np.hypot(*(spots[0] - (200, 200))) < 4
    # a bigger tile size there does not make the patch any smaller a share of a tile
    assert bodies.link_spots(link, size, local=lambda pts: np.full(len(pts), 1.3 * size)) == []


def test_link_spots_split_a_patch_of_two_tiles():
    size = 20.0
    link = np.zeros((200, 300), np.float32)
    for x in (100, 135):                        # two tiles' links, side by side
        cv2.circle(link, (x, 100), 14, 1.0, 4)
    spots = sorted(bodies.link_spots(link, size), key=lambda c: c[0])
    assert len(spots) == 2
    assert np.hypot(*(spots[0] - (100, 100))) < 5 and np.hypot(*(spots[1] - (135, 100))) < 5


def test_link_spots_leave_out_the_boards_cells():
    # a board of links (far bigger than a tile) and a loose tile's links a few pixels
    # from its rim: closed together they make one patch too big to be a tile's, so the
    # loose tile is found only once the board's cells are left out
    size = 20.0
    link = np.zeros((300, 400), np.float32)
    board = np.array([[60.0, 60.0], [200.0, 60.0], [200.0, 220.0], [60.0, 220.0]])
    for y in range(70, 220, 20):               # the board's links, a grid of strokes
        cv2.line(link, (65, y), (195, y), 1.0, 4)
    cv2.circle(link, (222, 140), 12, 1.0, 4)   # the loose tile, 10 px off the board
    assert bodies.link_spots(link, size) == []
    spots = bodies.link_spots(link, size, board=[board])
    assert len(spots) == 1 and np.hypot(*(spots[0] - (222, 140))) < 4


def test_link_spots_on_an_image_smaller_than_the_reduction():
    # a tiny crop looked at with the biggest spot size rounds to no pixel at all when
    # reduced (real tile 49 under a tungsten cast crashed the reader there): no spot
    link = np.ones((4, 30), np.float32)
    assert bodies.link_spots(link, 45.0) == []


def test_fit_hexagon_recovers_a_turned_and_squashed_hexagon():
    """The fit's affine map puts the unit hexagon's corners on the drawn hexagon's corners
    (up to which corner comes first): turned, squashed by tilt and sheared."""
    for turn, squash, shear in ((0.0, 1.0, 0.0), (17.0, 0.6, 0.0), (41.0, 0.8, 0.25)):
        a = np.radians(turn)
        R = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
        M = np.array([[1.0, shear], [0.0, squash]]) @ R * 40.0
        corners = CORNERS @ M.T + (120.0, 110.0)
        img = np.zeros((240, 240), np.uint8)
        cv2.fillConvexPoly(img, np.round(corners).astype(np.int32), 1)
        cnt = max(cv2.findContours(img, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)[0], key=cv2.contourArea)
        centre, fitted = bodies.fit_hexagon(cnt[:, 0, :].astype(np.float64), float(img.sum()))
        assert np.allclose(centre, (120.0, 110.0), atol=1.0)
        got = CORNERS @ fitted.T + centre
        # each drawn corner has a fitted one within a few per cent of the size
        dist = np.linalg.norm(got[:, None] - corners[None], axis=2).min(0)
        assert dist.max() < 0.06 * 40.0, (turn, squash, shear, dist.max())


def test_fit_hexagon_gives_none_for_a_line():
    line = np.array([[x, 50] for x in range(10, 60)], np.float64)
    assert bodies.fit_hexagon(line, 50.0) is None


def test_link_spots_past_most_are_a_print_and_none_is_given():
    # a cloth printed with tile-sized rings: five patches; with room for five they are
    # all given (as without a limit), with room for four none is, however many are deep
    size = 20.0
    link = np.zeros((200, 600), np.float32)
    for x in range(60, 600, 110):
        cv2.circle(link, (x, 100), 14, 1.0, 4)
    every = bodies.link_spots(link, size)
    assert len(every) == 5
    assert np.array_equal(np.array(bodies.link_spots(link, size, most=5)), np.array(every))
    assert bodies.link_spots(link, size, most=4) == []


def _notched_blobs() -> np.ndarray:
    """Three touching discs (a small group's merged bodies) with a link-wide notch cut
    into their rim, a thin slit through them, and a wide bay, on 600×700 px."""
    m = np.zeros((600, 700), np.uint8)
    for c in ((250, 300), (420, 300), (335, 450)):
        cv2.circle(m, c, 110, 1, -1)
    cv2.line(m, (140, 300), (230, 300), 0, 9)           # a notch 9 px wide
    cv2.line(m, (335, 340), (335, 560), 0, 5)           # a slit 5 px wide
    cv2.rectangle(m, (500, 250), (600, 350), 0, -1)     # a bay 100 px wide
    return m


@pytest.mark.parametrize("radius", [16, 30, 60])
def test_close_disc_agrees_with_the_elliptic_element(radius):
    m = _notched_blobs()
    want = cv2.morphologyEx(m, cv2.MORPH_CLOSE, cv2.getStructuringElement(
        cv2.MORPH_ELLIPSE, (2 * radius + 1, 2 * radius + 1)))
    got = bodies.close_disc(m, radius)
    assert got.dtype == np.uint8 and got.shape == m.shape
    # the two discs differ only at their rims: a few pixels along the closed bays
    assert (got != want).sum() <= 0.002 * want.sum()
    depth = [cv2.distanceTransform(x, cv2.DIST_L2, 5).max() for x in (want, got)]
    assert abs(depth[0] - depth[1]) <= 1.5


def test_close_disc_closes_what_is_narrower_than_the_disc():
    m = _notched_blobs()
    closed = bodies.close_disc(m, 20)
    assert closed[300, 185] == 1 and closed[450, 335] == 1       # notch and slit closed
    assert closed[300, 560] == 0                                  # the wide bay stays open
    assert closed[50, 50] == 0 and closed.sum() >= m.sum()


def test_close_disc_keeps_a_blob_touching_the_edge_as_the_elliptic_element_does():
    m = np.zeros((200, 200), np.uint8)
    m[:, :120] = 1
    m[90:95, 60:120] = 0                       # a slit from the blob's right side
    want = cv2.morphologyEx(m, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (41, 41)))
    got = bodies.close_disc(m, 20)
    assert got[:, 0].all() and got[92, 60:95].all()     # the edge is not eroded, the slit closes
    assert not got[:, 125:].any()
    assert (got != want).sum() <= 10
