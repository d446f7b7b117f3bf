"""Tile faces checked along their links' paths (vision.faces): a face shows every link
its reading claims; a face-down tile's back, read from its edges as some tile, does not."""
import numpy as np
import pytest

from referee.tiles import TILES, rotated_edges
from scenegen.tileface import draw_back, draw_face
from vision import colours, faces, loose
from vision.lattice import MIDPOINTS, SQ3
from vision.reader import read_photo

RADIUS = 40  # circumradius of the drawn tiles, texture px


def _photo(tile_image: np.ndarray) -> np.ndarray:
    """A drawn tile (BGR float) on a light table, as a uint8 photo."""
    img = np.full(tile_image.shape, 200, np.float32)
    body = tile_image.sum(-1) > 0
    img[body] = tile_image[body]
    return np.clip(img, 0, 255).astype(np.uint8)


def _plane_to_texture() -> np.ndarray:
    """Plane (circumradius 1, centre 0) → texture px of scenegen's drawn tiles."""
    c = RADIUS + 2
    return np.array([[RADIUS, 0, c], [0, RADIUS, c], [0, 0, 1]], np.float64)


def _model(photo: np.ndarray) -> colours.ColourModel:
    lab = colours.to_lab(photo)
    return colours.initial_model(lab, lab[..., 0] < 60)


@pytest.mark.parametrize("number", [1, 10, 22, 35, 49, 56])
def test_paths_run_inside_the_tile_between_their_edges(number):
    for rotation in range(6):
        pts, cls = faces.link_paths(number, rotation)
        assert pts.shape == (3 * len(faces.PATH_STEPS), 2)
        assert np.linalg.norm(pts, axis=1).max() < SQ3 / 2
        # each path starts near one end of its colour and ends near the other
        edges = rotated_edges(number, rotation)
        for k in range(3):
            path = pts[k * len(faces.PATH_STEPS):(k + 1) * len(faces.PATH_STEPS)]
            colour = colours.CLASSES[cls[k * len(faces.PATH_STEPS)]]
            ends = [MIDPOINTS[i] for i in range(6) if edges[i] == colour]
            near = sorted(np.linalg.norm(e - path[0]) for e in ends)
            assert near[0] < 0.45 and min(np.linalg.norm(e - path[-1]) for e in ends) < 0.45


def test_every_drawn_face_shows_its_own_paths():
    H = _plane_to_texture()
    shown = []
    for number in range(1, 57):
        face, _alpha = draw_face(number, RADIUS)
        photo = _photo(face)
        model = _model(photo)
        shares = faces.link_shares(photo, H, np.zeros((1, 2)), [(number, 0)], model)[0]
        # (where two links cross, the one beneath is hidden at a point or two)
        assert shares.min() >= 4 / 6, (number, shares)
        assert faces.face_up(photo, H, np.zeros((1, 2)), [(number, 0)], model).all()
        shown.append(shares.mean())
    assert np.mean(shown) > 0.95


@pytest.mark.parametrize("number", [1, 13, 26, 35, 48, 56])
def test_body_points_lie_inside_the_tile_clear_of_its_links(number):
    for rotation in range(6):
        pts = faces.body_points(number, rotation)
        assert len(pts) >= 12
        # inside the hexagon (its edges' midpoints lie SQ3 / 2 from the centre)
        assert (pts @ MIDPOINTS.T).max() <= 0.8 * (SQ3 / 2) ** 2 + 1e-9
        paths, _cls = faces.link_paths(number, rotation)
        assert np.linalg.norm(pts[:, None] - paths[None], axis=2).min() >= faces.BODY_CLEARANCE - 0.02


def test_every_drawn_face_shows_its_body_between_its_links():
    H = _plane_to_texture()
    for number in range(1, 57):
        face, _alpha = draw_face(number, RADIUS)
        photo = _photo(face)
        shares = faces.body_shares(photo, H, np.zeros((6, 2)), [(number, r) for r in range(6)],
                                   _model(photo))
        assert shares[0] >= 0.9, (number, shares)


def test_a_cluster_of_coloured_spots_shows_no_body():
    # bench.scattered_bench scene 13: a flower of a cloth's print (blue, magenta and green
    # petals on orange) fitted a hexagon and read as loose tile 26 at confidence 0.78; its
    # paths passed (faces.face_up), but there is no black between them
    import cv2
    photo = np.full((2 * RADIUS + 5, 2 * RADIUS + 5, 3), (80, 130, 200), np.uint8)
    c = RADIUS + 2
    cv2.ellipse(photo, (c - 8, c - 22), (22, 14), 10, 0, 360, (150, 90, 30), -1)
    cv2.ellipse(photo, (c - 10, c + 10), (20, 28), 0, 0, 360, (110, 40, 150), -1)
    cv2.ellipse(photo, (c + 18, c), (14, 30), 5, 0, 360, (40, 130, 30), -1)
    lab = colours.to_lab(photo)
    model = colours.initial_model(lab, neutral=np.zeros(2))
    placements = [(t, r) for t in TILES for r in range(6)]
    shares = faces.body_shares(photo, _plane_to_texture(), np.zeros((len(placements), 2)),
                               placements, model)
    assert shares.max() < loose.UNSURE_BODY


def test_a_drawn_back_shows_no_tiles_paths():
    H = _plane_to_texture()
    for number in (3, 9, 20, 32, 33, 49):
        back, _alpha = draw_back(number, RADIUS)
        photo = _photo(back.astype(np.float32))
        model = _model(photo)
        placements = [(t, r) for t in TILES for r in range(6)]
        up = faces.face_up(photo, H, np.zeros((len(placements), 2)), placements, model)
        assert not up.any(), number


@pytest.mark.parametrize("tier,index", [("hard", 57), ("real-texture", 26), ("real-texture", 51)])
def test_no_loose_tile_is_read_on_a_face_down_tile(bench_scene, tier, index):
    # a face-down tile's number (hard-57: a big yellow 20 between a green and a red cloth
    # stripe) read from the six link ends as some tile, at confidence up to 0.9994
    path, truth, _expected = bench_scene(tier, index)
    read = read_photo(str(path))
    backs = np.array([t["pixel"] for t in truth["face_down"]])
    width = truth["render"]["tile_px"]
    assert len(backs)
    for item in read.loose:
        assert np.linalg.norm(backs - item["pixel"], axis=1).min() > 0.5 * width, item
    # the true loose tiles read before are still read
    true_loose = {t["tile"] for t in truth["loose"]}
    assert {it["tile"] for it in read.loose} <= true_loose


def test_a_path_under_a_skin_coloured_cover_shows_nothing_when_only_sure_points_count():
    # a hand's skin reads as a faint yellow: a tile's rival whose yellow link runs under the
    # hand seemed to show it (the rendered hand scene of test_covered_tile_is_not_guessed)
    from vision import cover
    H = _plane_to_texture()
    number = 2
    face, _alpha = draw_face(number, RADIUS)
    photo = _photo(face)
    model = _model(photo)
    pts, cls = faces.link_paths(number, 0)
    yellow = cls == colours.CLASSES.index("yellow")
    xy = pts[yellow] @ H[:2, :2].T + H[:2, 2]
    skin = photo.copy()
    for x, y in xy:
        # (a skin tone: lighter and less saturated than the yellow link)
        skin[int(y) - 5:int(y) + 6, int(x) - 5:int(x) + 6] = (120, 150, 180)
    path = int(np.flatnonzero(yellow)[0]) // len(faces.PATH_STEPS)
    loose = faces.link_shares(skin, H, np.zeros((1, 2)), [(number, 0)], model)[0]
    sure = faces.link_shares(skin, H, np.zeros((1, 2)), [(number, 0)], model,
                             least_sure=cover.SHOWN)[0]
    assert loose[path] > 0.5
    assert sure[path] == 0
    # the links nothing covers still show
    assert np.delete(sure, path).min() >= 4 / 6
