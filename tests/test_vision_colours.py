"""The per-photo colour model: dim light must not turn yellow links green."""
import numpy as np
import pytest

from referee.compare import best_alignment, same_position
from referee.tiles import rotated_edges
from vision import colours, identify, missing_colour, read_photo, reader

# Lab (L, a, b; a and b centred on 0) of link samples measured on a dim benchmark photo
# (hard-40, exposure 0.38): its yellow is as dark as green is in good light
DIM = {"red": (41.0, 30.0, 15.0), "yellow": (72.0, -12.0, 43.0), "green": (33.0, -17.0, 10.0),
       "blue": (43.0, -7.5, -39.0)}


def _samples(counts: dict[str, int]) -> np.ndarray:
    rng = np.random.default_rng(0)
    rows = [np.array(DIM[c]) + rng.normal(0, 2.0, (n, 3)) for c, n in counts.items()]
    return np.vstack(rows)


def _class(model: colours.ColourModel, colour: str) -> str:
    logp = colours.log_probs(np.array([DIM[colour]]), model)[0]
    return colours.CLASSES[int(np.argmax(logp[:4]))]


def test_dim_yellow_reads_yellow_once_the_lightness_is_learnt():
    # three tiles in four carry yellow: the lightest links of the photo are its yellows
    samples = _samples({"red": 40, "yellow": 40, "green": 10, "blue": 40})
    first = colours.initial_model(np.zeros((4, 4, 3), np.float32))
    first.neutral = np.zeros(2, np.float32)
    model = colours.adapt_scale(first, samples)
    assert abs(model.means[1, 2] - DIM["yellow"][0]) < 5
    assert [_class(model, c) for c in ("red", "yellow", "green", "blue")] == [
        "red", "yellow", "green", "blue"]


def test_green_stays_green_on_a_board_without_yellow():
    # no yellow at all: the lightest links are green, and their hue still says green
    samples = _samples({"red": 40, "green": 40, "blue": 40})
    first = colours.initial_model(np.zeros((4, 4, 3), np.float32))
    first.neutral = np.zeros(2, np.float32)
    model = colours.adapt_scale(first, samples)
    assert _class(model, "green") == "green"


def test_dim_puzzle_photo_read_exactly(bench_scene):
    # hard-40: 15 puzzle tiles (mostly red, yellow and blue) in dim light on felt; with a
    # fixed yellow lightness every yellow link was read green (tiles 14 -> 28, 7 -> 37 ...)
    path, _truth, expected = bench_scene("hard", 40)
    read = read_photo(str(path))
    assert best_alignment(expected, read)[2] == len(expected)
    assert same_position(expected, read)


def test_blurred_yellow_read_green_still_gives_the_free_tile(bench_scene):
    # hard-46: 44 tiles of 26 px, motion-blurred, on a carpet.  Four cells whose yellow
    # links blur towards green fit a tile already held surely by a clear cell slightly
    # better than their own; judged among the numbers left, they read right (they were
    # unreadable, 39 of 44), and none is reported as a loose tile.  The last tile, at the
    # board's edge with two corner samples on the carpet, is held by its neighbours (it
    # was unreadable, 43 of 44)
    path, _truth, expected = bench_scene("hard", 46)
    read = read_photo(str(path))
    assert best_alignment(expected, read)[2] == len(expected) == 44
    assert same_position(expected, read)


def test_a_stripe_fitting_a_board_tile_is_no_loose_tile(bench_scene):
    # hard-8: 40 tiles on a striped cloth, no loose tile.  A patch of stripes off the board
    # reads best as a tile the board holds; the next free tile fits it well enough to be
    # confident once held numbers are no rivals, but a pushed reading is never loose
    path, truth, expected = bench_scene("hard", 8)
    assert not truth.get("loose")
    read = read_photo(str(path))
    assert best_alignment(expected, read)[2] == len(expected) == len(read)
    assert read.loose == []


def test_bodies_tinted_off_the_tables_grey_are_read_with_their_own(bench_scene):
    # real-texture-113: 53 tiles in warm light on dark felt.  The photo's grey comes from
    # its darkest grey pixels, the felt; the tinted bodies stand out from it as link colour,
    # so the lattice was fitted to one part of the board (34 read).  Read again with the
    # bodies' own grey, the whole board reads
    path, _truth, expected = bench_scene("real-texture", 113)
    scene, read = reader.read(str(path))
    right = best_alignment(expected, read)[2]
    assert scene.body_grey
    assert right >= 50
    assert len(read) - right == 0


def test_pixels_beside_links_are_the_bodies_not_a_darker_greenish_felt():
    # a dark green felt darker than the tiles fills most of the photo, so the photo's grey
    # (its darkest grey pixels) is the felt's; the pixels just beside the yellow links are
    # the bodies', and their grey is the bodies' own
    cv2 = pytest.importorskip("cv2")
    img = np.full((200, 300, 3), (20, 30, 20), np.uint8)          # BGR dark green felt
    for x0 in (40, 170):
        img[60:140, x0:x0 + 90] = (40, 42, 46)                     # warm dark grey bodies
        img[95:105, x0 + 10:x0 + 80] = (40, 200, 230)              # a yellow link
    lab = colours.to_lab(img)
    dark = np.ones(img.shape[:2], bool)
    felt = colours.neutral_point(lab, dark)
    body = np.asarray(colours.to_lab(np.full((1, 1, 3), (40, 42, 46), np.uint8))[0, 0, 1:])
    link = colours.link_image(lab, felt)
    beside = colours.beside_links(link, dark)
    assert beside is not None
    got = np.median(lab[..., 1:][beside], axis=0)
    assert np.hypot(*(got - body)) < 2.0
    assert np.hypot(*(felt - body)) > reader.BODY_APART     # the photo's grey missed them
    assert np.median(link[beside]) >= reader.LIT_BESIDE     # and lights the bodies
    # no clear link, no bodies found
    assert colours.beside_links(np.zeros_like(link), dark) is None


def test_bodies_greyer_than_a_dark_felt_find_their_lattice_without_the_full_search(
        bench_scene, monkeypatch):
    # video-720p-2: 55 tiles of 44 px on dark green felt, dim and warm.  The felt is the
    # photo's darkest grey; against it the bodies look red, light up the link image and
    # hide the cells' ring, so every hypothesis used to be ranked (0.24 s of a 720p frame)
    # before the bodies' own grey read the board.  With the grey beside the links the
    # usually right hypotheses find it at once.
    from vision import search
    path, _truth, expected = bench_scene("video-720p", 2)
    ranked = []
    seeds = search._seeds
    monkeypatch.setattr(search, "_seeds", lambda *a, **k: ranked.append(1) or seeds(*a, **k))
    scene, read = reader.read(str(path))
    assert ranked == []
    assert scene.body_grey
    assert best_alignment(expected, read)[2] == len(expected) == len(read.tiles)


def _three_colour_edges() -> np.ndarray:
    """Edge samples (N, 6, 3) Lab of tiles 1-10 (red, yellow and blue links only) whose
    blue links a glare spot washes out by degrees, from blue towards a pale green-grey
    (modelled on carpet13 under the real-photo benchmark's glare spot, a little stronger)."""
    from referee.tiles import rotated_edges
    rng = np.random.default_rng(1)
    lab = {"red": (130.0, 67.0, 44.0), "yellow": (240.0, -18.0, 94.0)}
    cells = []
    for n in range(1, 11):
        edges = []
        for c in rotated_edges(n, n % 6):
            if c == "blue":
                t = rng.uniform(0.0, 1.0)
                edges.append((178.0 + 46.0 * t, -2.0 - 22.0 * t, -39.0 + 34.0 * t))
            else:
                edges.append(np.array(lab[c]) + rng.normal(0, [6.0, 3.0, 3.0]))
        cells.append(edges)
    return np.array(cells, np.float64)


def test_a_colour_the_photo_lacks_explains_nothing():
    model = colours.initial_model(np.zeros((4, 4, 3), np.float32))
    model.neutral = np.zeros(2, np.float32)
    green = np.array([DIM["green"]])
    lacking = colours.log_probs(green, missing_colour.without(model, missing_colour.GREEN))[0]
    assert lacking[missing_colour.GREEN] == np.log(colours.OUTLIER_SHARE / 5)
    assert colours.log_probs(green, model)[0][missing_colour.GREEN] > lacking[missing_colour.GREEN]


def test_three_colour_board_whose_pale_blue_splits_is_read_without_green():
    # four link colours learnt from these cells split the blue links between green and
    # blue (tiles 1, 2, 4, 5 and 10 read as their green twins); read as a board without
    # green, every cell gives its tile
    edges = _three_colour_edges()
    first = colours.initial_model(np.zeros((4, 4, 3), np.float32))
    first.neutral = np.zeros(2, np.float32)
    start = colours.adapt_scale(first, edges.reshape(-1, 3))
    learn = np.ones(len(edges), bool)
    model = reader.learn_colours(start, edges, learn)
    assert _tiles(edges, model) == list(range(1, 11))
    assert model.absent == missing_colour.GREEN



# Lab (L, a, b; a and b centred on 0) of link samples measured on hard-196: a warm lamp the
# camera did not balance leaves its blue links nearly grey, short of green in hue
WARM = {"red": (94.0, 51.0, 40.0), "yellow": (166.0, 13.0, 69.0), "green": (86.0, -21.0, 28.0),
        "blue": (80.0, -9.0, 4.0)}


def _four_colour_edges(colours_lab: dict[str, tuple[float, float, float]],
                       numbers: list[int]) -> np.ndarray:
    """Edge samples (N, 6, 3) Lab of tiles ``numbers`` whose links show ``colours_lab``."""
    from referee.tiles import rotated_edges
    rng = np.random.default_rng(2)
    return np.array([[np.array(colours_lab[c]) + rng.normal(0, [4.0, 2.0, 2.0])
                      for c in rotated_edges(n, n % 6)] for n in numbers], np.float64)


def _start(edges: np.ndarray) -> colours.ColourModel:
    """The prototypes, scaled to the chroma of ``edges`` (N, 6, 3) Lab (grey at 0)."""
    first = colours.initial_model(np.zeros((4, 4, 3), np.float32))
    first.neutral = np.zeros(2, np.float32)
    return colours.adapt_scale(first, edges.reshape(-1, 3))


def _learnt(edges: np.ndarray) -> colours.ColourModel:
    return reader.learn_colours(_start(edges), edges, np.ones(len(edges), bool))


def _tiles(edges: np.ndarray, model: colours.ColourModel) -> list[int]:
    """The tile numbers ``model`` reads on the cells of ``edges``."""
    return [r.tile for r in identify.identify(colours.log_probs(edges, model))]


def test_grey_blue_links_named_green_are_split_off_as_blue():
    # hard-196's learnt colours (feature units): green took its nearly grey blue links too
    # (-8, -1) and blue was left at its prototype, naming nothing
    model = colours.ColourModel(neutral=np.zeros(2, np.float32), chroma_scale=1.0)
    model.means = model.means.copy()
    model.means[missing_colour.GREEN] = (-12.0, 8.0, 84.0)
    model.chroma0 = 5.0    # learnt from the photo's links: the grey-blue ones count as link
    rng = np.random.default_rng(3)
    green = np.array([80.0, -17.0, 18.0]) + rng.normal(0, [4.0, 2.0, 2.0], (42, 3))
    grey_blue = np.array([82.0, -8.0, -1.0]) + rng.normal(0, [4.0, 2.0, 2.0], (42, 3))
    edges = np.vstack([green, grey_blue]).reshape(-1, 6, 3)
    assert missing_colour.unused(model, edges) == missing_colour.BLUE
    halves = missing_colour.split(model, edges, missing_colour.BLUE)
    assert np.allclose(halves.means[missing_colour.GREEN, :2], (-17, 18), atol=2)
    assert np.allclose(halves.means[missing_colour.BLUE, :2], (-8, -1), atol=2)
    named = colours.log_probs(np.vstack([green, grey_blue]), halves).argmax(-1)
    assert (named[:42] == missing_colour.GREEN).mean() > 0.9
    assert (named[42:] == missing_colour.BLUE).mean() > 0.9


def test_a_board_without_green_is_not_split_in_two():
    # a Discovery puzzle's tiles carry red, yellow and blue only: green is unused there by
    # nature, and halving the blue cluster would give each tile's blue pair two names
    from referee.tiles import TILES
    numbers = [n for n in range(1, 57) if "green" not in TILES[n].edges]
    edges = _four_colour_edges(WARM | {"blue": (60.0, -5.0, -40.0)}, numbers)
    model = _learnt(edges)
    assert model.absent is None or model.absent == missing_colour.GREEN
    assert _tiles(edges, model) == numbers


def test_a_board_under_a_warm_lamp_with_grey_blue_links_is_read(bench_scene):
    # hard-196: 28 tiles in 2760 K light that the camera hardly balanced, its blue links
    # nearly grey; learnt as four colours, green took them and 7 tiles were read
    path, _truth, expected = bench_scene("hard", 196)
    read = read_photo(str(path))
    right = best_alignment(expected, read)[2]
    assert right >= 22
    assert len(read) - right <= 1


# a Discovery puzzle's pale blue links over-exposed (carpet13 brightened 1.6 times): nearer
# green's hue than blue's, as the learnt green cluster is
PALE = {"red": (120.0, 45.0, 30.0), "yellow": (200.0, -5.0, 60.0), "green": (180.0, -16.0, 2.0),
        "blue": (180.0, -16.0, 2.0)}


def test_discovery_run_takes_tiles_one_to_n_but_for_one():
    assert missing_colour.discovery_run([3, 1, 2])
    assert missing_colour.discovery_run([1, 2, 3, 4, 6])          # tile 5 read too faintly
    assert missing_colour.discovery_run([2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12])
    assert not missing_colour.discovery_run([1, 2])               # no puzzle is two tiles
    assert not missing_colour.discovery_run([1, 2, 3, 4, 7])      # two missing
    assert not missing_colour.discovery_run([15, 16, 17, 18])
    assert not missing_colour.discovery_run([1, 1, 2])


def test_as_blue_reads_each_tile_as_its_twin_without_green():
    from referee.tiles import TILES
    model = colours.ColourModel(neutral=np.zeros(2, np.float32), chroma_scale=1.0)
    model.means = model.means.copy()
    model.means[missing_colour.GREEN] = PALE["green"][1:] + (PALE["green"][0],)
    blue = missing_colour.as_blue(model)
    assert blue.absent == missing_colour.GREEN
    assert np.array_equal(blue.means[missing_colour.BLUE], model.means[missing_colour.GREEN])
    for n in (17, 22, 32):
        twin = [c if c != "green" else "blue" for c in TILES[n].edges]
        assert any(list(TILES[m].edges) == twin for m in range(1, 15))
        assert list(TILES[missing_colour.TWINS[n]].edges) == twin
        assert missing_colour.TWINS[missing_colour.TWINS[n]] == n


def test_a_discovery_board_whose_blue_looks_green_is_read_as_tiles_one_to_n():
    # tiles 1..8 whose pale blue links sit nearer green's hue: the four-colour model names
    # them green (the twins 15..35 read); renamed blue, the cells read tiles 1 to 8
    edges = _four_colour_edges(PALE, list(range(1, 9)))
    model = _learnt(edges)
    assert model.absent == missing_colour.GREEN
    assert _tiles(edges, model) == list(range(1, 9))


def test_a_board_of_green_tiles_is_not_renamed_blue():
    # tiles without blue whose twins are no run from 1 (17, 22, 32, 35, 21 -> 1, 2, 4, 6,
    # 14): their green links stay green though they look as pale
    numbers = [17, 22, 32, 35, 21]
    edges = _four_colour_edges(PALE, numbers)
    model = _learnt(edges)
    assert model.absent != missing_colour.GREEN
    assert _tiles(edges, model) == numbers


# a Discovery puzzle's links in good light (Lab; a and b centred on 0), green links clearly green
CLEAR = {"red": (120.0, 45.0, 30.0), "yellow": (200.0, -5.0, 60.0), "green": (130.0, -30.0, 25.0),
         "blue": (120.0, 5.0, -40.0)}


def test_a_green_tile_laid_in_a_discovery_puzzle_is_still_read():
    # tiles 1..8 with tile 15 laid in place of 5 (its twin): the cells are mostly tiles
    # without green and would be a Discovery run without green, but the fourth colour
    # explains tile 15's green edges, so the wrong tile stays for the referee to see
    numbers = [1, 2, 3, 4, 15, 6, 7, 8]
    edges = _four_colour_edges(CLEAR, numbers)
    model = _learnt(edges)
    assert model.absent is None
    assert _tiles(edges, model) == numbers


def test_blue_run_asks_more_of_the_colour_the_less_the_run_can_tell():
    model = colours.ColourModel(neutral=np.zeros(2, np.float32), chroma_scale=1.0)
    model.means = model.means.copy()
    assert missing_colour.green_lean(model) == pytest.approx(0.0)
    green, pale, cyan = (-30.0, 25.0, 130.0), (-16.0, 2.0, 180.0), (-20.0, -12.0, 180.0)
    model.means[missing_colour.GREEN] = pale
    assert 20 < missing_colour.green_lean(model) < 34          # carpet13 over-exposed
    model.means[missing_colour.GREEN] = cyan
    assert missing_colour.green_lean(model) > 34               # carpet13 under a cold cast
    for colour, small, eleven, fourteen in ((green, True, False, False), (pale, True, True, False),
                                            (cyan, True, True, True)):
        model.means[missing_colour.GREEN] = colour
        assert missing_colour.blue_run(model, list(range(1, 9))) is small
        assert missing_colour.blue_run(model, list(range(1, 12))) is eleven
        assert missing_colour.blue_run(model, list(range(1, 15))) is fourteen
        assert not missing_colour.blue_run(model, [1, 2, 4, 6, 14])  # no run at all


RED_YELLOW_GREEN = [15, 16, 17, 18, 19, 20, 21, 22, 23, 31, 32, 33, 34, 35]
"""The tiles without blue: a Tantrix Solitaire set (``referee.solitaire``)."""


def test_a_full_red_yellow_green_set_is_not_renamed_blue():
    # the twins of all 14 tiles without blue are tiles 1 to 14, a Discovery run whatever
    # was laid: a finished Solitaire game in clear green was read as tiles 1 to 14
    edges = _four_colour_edges(CLEAR, RED_YELLOW_GREEN)
    model = _learnt(edges)
    assert model.absent != missing_colour.GREEN
    assert _tiles(edges, model) == RED_YELLOW_GREEN


def test_a_finished_red_yellow_green_solitaire_game_is_read_by_photo():
    from bench.make_samples import _params, grown_from
    scenegen = pytest.importorskip("scenegen")
    board = grown_from(tuple(RED_YELLOW_GREEN), seed=0)
    image, _truth = scenegen.render(board, _params(), seed=0)
    read = read_photo(image)
    assert sorted(p.tile for p in read.tiles.values()) == RED_YELLOW_GREEN
    assert best_alignment(board, read)[2] == len(RED_YELLOW_GREEN)


def test_bright_image_keeps_thin_light_strokes_and_drops_bodies_and_wide_light_areas():
    from vision.colours import bright_image
    rng = np.random.default_rng(3)
    lab = np.zeros((120, 160, 3), np.float32)
    lab[..., 0] = 40 + rng.normal(0, 2, (120, 160))   # a dark body, a little noisy
    lab[30:34, 10:70, 0] = 75                           # a thin link, 4 px wide
    lab[60:110, 90:150, 0] = 90                         # a wide light patch (a table)
    img = bright_image(lab, None, 15)
    assert img.dtype == np.float32 and img.shape == (120, 160)
    assert img[31:33, 20:60].mean() > 0.9
    assert img[70:100, 100:140].max() == 0.0
    assert img[50:55, 10:70].max() == 0.0


@pytest.mark.parametrize("numbers, absent", [
    (list(range(1, 9)), missing_colour.GREEN),      # a Discovery puzzle: green names no link
    ([1, 2, 3, 15, 22, 30, 41, 50], None),          # four colours
])
def test_a_discovery_board_showing_no_green_is_read_without_green(numbers, absent):
    # tiles 1..8 in good light: green names no link, so the photo is taken to lack it and
    # no cell read later can take a green twin; a board with green keeps it
    edges = _four_colour_edges(CLEAR, numbers)
    model = _learnt(edges)
    assert model.absent == absent
    assert _tiles(edges, model) == numbers


def test_a_tile_whose_blue_glare_washed_out_is_not_read_as_its_green_twin():
    # discovery10 under a cold cast, dimmed: tile 8's blue pair light and nearly grey
    # (L above the yellow links'), nearer green's hue than blue's; read as its twin 31
    numbers = list(range(1, 11))
    edges = _four_colour_edges(CLEAR, numbers)
    washed = np.array([215.0, -30.0, -8.0])
    blue = [k for k, c in enumerate(rotated_edges(8, 8 % 6)) if c == "blue"]
    edges[7, blue] = washed + np.array([[0.0, 0.5, -0.5], [3.0, -0.5, 0.5]])
    four = reader._refit_colours(_start(edges), edges, np.ones(len(edges), bool))
    # (the four-colour model reads the washed pair green; no green link is that light)
    assert _tiles(edges, four)[7] == 31
    assert missing_colour.washed_green(four, edges, colours.log_probs(edges, four))
    model = _learnt(edges)
    assert model.absent == missing_colour.GREEN
    assert _tiles(edges, model) == numbers


def test_washed_green_tells_light_samples_from_green_links():
    model = colours.ColourModel(neutral=np.zeros(2, np.float32), chroma_scale=1.0)
    model.means = model.means.copy()
    model.means[missing_colour.YELLOW, 2] = 200.0
    green = np.array([[[130.0, -30.0, 25.0]] * 6])
    light = np.array([[[190.0, -30.0, 25.0]] * 6])
    def washed(m: colours.ColourModel, edges: np.ndarray) -> bool:
        return missing_colour.washed_green(m, edges, colours.log_probs(edges, m))
    assert not washed(model, green)
    assert washed(model, light)
    assert not washed(missing_colour.without(model, missing_colour.GREEN), light)


def test_the_grey_is_the_bodies_when_a_dark_grey_cloth_fills_the_darkest_quarter():
    """Tile bodies (dark, a little warm) on 7.5 % of the photo, a cloth's dark blue-grey
    stripes on 40 % and a light cloth on the rest: the darkest quarter of the photo is
    mostly stripes, and their tint must not be taken for the grey (hard-9)."""
    lab = np.zeros((200, 200, 3), np.float32)
    lab[...] = (85.0, 2.0, 15.0)                      # beige cloth
    lab[:80] = (70.0, -4.0, -10.0)                    # blue-grey stripes: dark mask, not bodies
    lab[140:195, 100:155] = (30.0, 4.0, 6.0)          # tile bodies
    rng = np.random.default_rng(1)
    lab[..., 0] += rng.normal(0, 2.0, lab.shape[:2]).astype(np.float32)
    dark = np.ones(lab.shape[:2], bool)
    dark[80:] = False
    dark[140:195, 100:155] = True
    grey = colours.neutral_point(lab, dark)
    assert np.allclose(grey, (4.0, 6.0), atol=1.0), grey
    # one uniform dark surface: nothing to split, its own tint is the grey
    lab[140:195, 100:155] = (70.0, -4.0, -10.0)
    assert np.allclose(colours.neutral_point(lab, dark), (-4.0, -10.0), atol=1.0)


def test_a_link_glare_lifts_towards_white_is_named_by_its_hue_alone():
    # glare lifts a link's lightness far past any learnt colour's (real-texture-5's green
    # links at L 220-250 against a learnt 87) while its hue holds: the full model leaves
    # such a sample to no colour, the hue model names it
    model = colours.ColourModel(neutral=np.zeros(2, np.float32), chroma_scale=1.0)
    lifted = colours.PROTOTYPES[:, [2, 0, 1]].copy()  # Lab: L, a, b
    lifted[:, 0] = 245.0
    plain = np.exp(colours.log_probs(lifted, model))
    by_hue = np.exp(colours.log_probs(lifted, colours.hue_model(model)))
    truth = np.arange(4)
    assert (by_hue.argmax(1) == truth).all()
    assert (by_hue[truth, truth] > 0.9).all()
    # (yellow is light anyway; the dark colours' lift leaves them to no colour)
    assert (plain[truth[[0, 2, 3]], truth[[0, 2, 3]]] < 0.5).all()
