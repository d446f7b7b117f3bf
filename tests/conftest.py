"""Shared fixtures: paths to the shared reference material and bundled samples."""
from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
SAMPLES = ROOT / "sample_images"


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.fail(f"../shared is missing (expected at {SHARED})")
    return SHARED


@pytest.fixture
def bench_scene(tmp_path):
    """Render a benchmark scene: ``bench_scene(tier, index) -> (path, truth, expected)``.

    The scene is the one `bench/datasets.py` makes for that tier and index (fixed seed),
    written as a JPEG under the test's tmp_path; ``truth`` is the renderer's truth dict and
    ``expected`` the true position as a Board."""
    scenegen = pytest.importorskip("scenegen")
    from bench.datasets import scene_spec
    from referee.board import board_from_json

    def render(tier: str, index: int):
        board, params, seed, _kind = scene_spec(tier, index)
        path = tmp_path / f"{tier}-{index}.jpg"
        truth = scenegen.render_to_file(board, str(path), params, seed)
        expected = board_from_json({"tiles": [{k: t[k] for k in ("q", "r", "tile", "rotation")}
                                              for t in truth["tiles"]]})
        return path, truth, expected
    return render


@pytest.fixture(scope="module")
def easy_tier(tmp_path_factory):
    """The first three images of the easy tier, generated into a private cache:
    ``(cache root, [photo paths])``."""
    from bench import datasets
    root = tmp_path_factory.mktemp("data")
    mp = pytest.MonkeyPatch()
    mp.setenv("TANTRIX_DATA", str(root))
    paths = datasets.ensure_tier("easy", 3, progress=False)
    yield root, paths
    mp.undo()
