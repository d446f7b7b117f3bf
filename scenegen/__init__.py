"""Synthetic table photographs with ground truth (shares no code with ``vision``).

``render(board, params=None, seed=0) -> (image, truth)`` photographs a board;
``random_params(tier, rng)`` draws the shot's conditions for a benchmark tier.
"""
from .params import TIERS, default_params, random_params
from .render import render, render_scene, render_to_file

__all__ = ["TIERS", "default_params", "random_params", "render", "render_scene", "render_to_file"]
