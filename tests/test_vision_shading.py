"""A shadow over part of the board is taken off the cells' colour samples (vision.shading)."""
import numpy as np

from referee.tiles import rotated_edges
from vision import shading

# Lab (8-bit lightness, a/b about the grey) of the real photos' links in good light
LAB = {"red": (128.0, 40.0, 30.0), "yellow": (245.0, -3.0, 70.0),
       "green": (150.0, -30.0, 20.0), "blue": (164.0, 10.0, -40.0)}
NEUTRAL = np.zeros(2)


def _board(radius: int = 3):
    """Cells within ``radius`` of the origin, each holding one of the tiles 1.. in turn,
    and their edge samples (N, 6, 3) in even light."""
    cells = np.array([(q, r) for q in range(-radius, radius + 1) for r in range(-radius, radius + 1)
                      if abs(q + r) <= radius])
    edges = np.array([[LAB[c] for c in rotated_edges(1 + i % 56, i % 6)] for i in range(len(cells))])
    return cells, edges


def _in_light(edges: np.ndarray, share: float) -> np.ndarray:
    """Samples as seen in ``share`` of the light (Lab's L* + 16 and a/b go with its cube root)."""
    k = share ** (1 / 3)
    out = edges.copy()
    out[..., 0] = (edges[..., 0] + shading.L_OFFSET) * k - shading.L_OFFSET
    out[..., 1:] = edges[..., 1:] * k
    return out


def test_an_evenly_lit_board_is_left_as_sampled():
    cells, edges = _board()
    gains = shading.cell_gains(cells, edges, np.ones(len(cells), bool), NEUTRAL)
    assert (gains == 1.0).all()
    assert shading.lifted(edges, gains, NEUTRAL) is edges


def test_a_dim_board_lit_evenly_is_left_as_sampled():
    # (the whole photo darker: the colour model's own scaling takes that off)
    cells, edges = _board()
    gains = shading.cell_gains(cells, _in_light(edges, 0.1), np.ones(len(cells), bool), NEUTRAL)
    assert (gains == 1.0).all()


def test_cells_under_a_shadow_are_lifted_to_the_boards_light():
    cells, edges = _board()
    dark = cells[:, 0] < 0
    seen = edges.copy()
    seen[dark] = _in_light(edges[dark], 0.07)     # a shadow to 7 % of the light
    gains = shading.cell_gains(cells, seen, np.ones(len(cells), bool), NEUTRAL)
    assert (gains[~dark] == 1.0).all()
    want = 0.07 ** (-1 / 3)
    # cells past the shadow's edge are told their light by their neighbours in the shadow
    assert np.allclose(gains[cells[:, 0] <= -2], want, rtol=0.1)
    back = shading.lifted(seen, gains, NEUTRAL)
    deep = cells[:, 0] <= -2
    assert np.abs(back[deep][..., 0] - edges[deep][..., 0]).max() < 0.1 * 255
    # (chroma is lifted, less than lightness, and every sample keeps its hue)
    chroma = np.hypot(*np.moveaxis(back[deep][..., 1:], -1, 0))
    assert (chroma > np.hypot(*np.moveaxis(seen[deep][..., 1:], -1, 0))).all()
    cos = (back[deep][..., 1:] * edges[deep][..., 1:]).sum(-1) / (
        chroma * np.hypot(*np.moveaxis(edges[deep][..., 1:], -1, 0)))
    assert (cos > 0.999).all()


def test_too_few_tiles_say_nothing_of_the_light():
    cells, edges = _board(1)
    clear = np.zeros(len(cells), bool)
    clear[:2] = True
    seen = edges.copy()
    seen[1] = _in_light(edges[1], 0.05)
    assert (shading.cell_gains(cells, seen, clear, NEUTRAL) == 1.0).all()


def test_lifting_keeps_each_samples_hue_about_the_grey():
    neutral = np.array([3.0, -2.0])
    samples = np.array([[[90.0, 20.0, 12.0], [60.0, -10.0, 30.0]]])
    out = shading.lifted(samples, np.array([2.0]), neutral)
    before = samples[0, :, 1:] - neutral
    after = out[0, :, 1:] - neutral
    assert np.allclose(after, np.sqrt(2.0) * before)
    assert np.allclose(out[0, :, 0] + shading.L_OFFSET, 2.0 * (samples[0, :, 0] + shading.L_OFFSET))
