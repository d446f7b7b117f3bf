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
