"""Table surfaces: procedural textures laid on the table plane.

A texture is a square BGR float32 patch that repeats over the table; ``period`` says how many
world units (tile circumradii) one patch covers.  The renderer looks each photo pixel up on the
plane, so the pattern follows the perspective of the shot.
"""
from __future__ import annotations

import cv2
import numpy as np

KINDS = ("light", "dark", "wood", "cloth-check", "cloth-stripe", "cloth-floral", "black-cloth",
         "carpet", "felt")


# plausible cloth dyes (BGR): whites, creams, reds, blues, greens, greys, yellows, browns
CLOTH = [(235, 238, 240), (200, 225, 235), (40, 40, 170), (60, 50, 120), (150, 90, 40),
         (90, 50, 20), (60, 130, 60), (50, 90, 40), (150, 150, 150), (80, 80, 80),
         (60, 190, 220), (40, 80, 130), (170, 170, 210), (200, 160, 120)]


def _cloth_pair(rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    i, j = rng.choice(len(CLOTH), 2, replace=False)
    jitter = rng.uniform(0.85, 1.1)
    return (np.array(CLOTH[i], np.float32) * jitter, np.array(CLOTH[j], np.float32) * jitter)


def _noise(rng: np.random.Generator, size: int, sigma: float) -> np.ndarray:
    """Wrapping smooth noise, zero mean, unit std."""
    if sigma > 4:  # smooth noise: make it small and scale it up (much faster)
        k = max(8, int(size / sigma * 4))
        small = _noise(rng, k, sigma * k / size)
        n = cv2.resize(np.tile(small, (3, 3)), (3 * size, 3 * size), interpolation=cv2.INTER_CUBIC)
        n = n[size:2 * size, size:2 * size]
        return (n - n.mean()) / (n.std() + 1e-6)
    n = rng.normal(0, 1, (size, size)).astype(np.float32)
    n = cv2.GaussianBlur(np.tile(n, (3, 3)), (0, 0), sigma)[size:2 * size, size:2 * size]
    return (n - n.mean()) / (n.std() + 1e-6)


def make_table(kind: str, rng: np.random.Generator, size: int = 512) -> tuple[np.ndarray, float, dict]:
    """A repeating table patch: (BGR float32 image, period in world units, description)."""
    fine = _noise(rng, size, 0.8)
    coarse = _noise(rng, size, size / 10)
    desc: dict = {"kind": kind}
    if kind == "light":
        base = np.full(3, rng.uniform(195, 245), np.float32) + rng.normal(0, 3, 3).astype(np.float32)
        base = base - rng.uniform(0, 25) * np.float32([1, 0.12, 0.0])  # warm/cream shift
        img = base + coarse[..., None] * 6 + fine[..., None] * 3
        period = 30.0
    elif kind == "dark":
        base = np.array(rng.uniform([40, 40, 40], [110, 100, 95]), np.float32)
        img = base + coarse[..., None] * 5 + fine[..., None] * 4
        period = 30.0
    elif kind == "black-cloth":
        base = np.array(rng.uniform([8, 8, 8], [28, 26, 26]), np.float32)
        weave = _noise(rng, size, 0.6)
        img = base + weave[..., None] * 3 + coarse[..., None] * 3
        period = 8.0
    elif kind == "wood":
        # grain: noise stretched hard along the planks, bent a little by a slow wobble
        k = size // 16
        streak = cv2.resize(rng.normal(0, 1, (size, k)).astype(np.float32), (size, size),
                            interpolation=cv2.INTER_CUBIC)
        streak = cv2.GaussianBlur(streak, (0, 0), 1.2)
        y, x = np.mgrid[0:size, 0:size].astype(np.float32) / size
        wobble = _noise(rng, size, size / 8) * 0.015
        rings = np.sin((y + wobble) * 2 * np.pi * rng.integers(6, 14) + _noise(rng, size, size / 20) * 0.8)
        t = np.clip(0.5 + 0.25 * rings + 0.18 * streak, 0, 1)[..., None]
        b = rng.uniform(55, 115)
        g = b * rng.uniform(1.3, 1.6)
        light = np.array([b, g, min(g * rng.uniform(1.15, 1.4), 235)], np.float32)
        dark = light * np.float32(rng.uniform(0.55, 0.75))
        img = dark + (light - dark) * t
        # plank joints
        joints = (np.abs(((y * 3) % 1) - 0.5) > 0.495).astype(np.float32)
        img *= (1 - 0.35 * cv2.GaussianBlur(joints, (0, 0), 0.8))[..., None]
        img += fine[..., None] * 2
        period = 24.0
    elif kind == "cloth-check":
        y, x = np.mgrid[0:size, 0:size].astype(np.float32) / size
        n = int(rng.integers(3, 9))
        a = ((x * n) % 1 < 0.5).astype(np.float32)
        b = ((y * n) % 1 < 0.5).astype(np.float32)
        c1, _ = _cloth_pair(rng)
        c2 = np.full(3, rng.uniform(200, 245), np.float32)
        mix = (a + b)[..., None] / 2
        img = c2 * (1 - mix) + c1 * mix + fine[..., None] * 6
        period = float(rng.uniform(6, 16))
    elif kind == "cloth-stripe":
        y, x = np.mgrid[0:size, 0:size].astype(np.float32) / size
        n = int(rng.integers(3, 10))
        a = (np.sin(x * 2 * np.pi * n) > rng.uniform(-0.5, 0.5)).astype(np.float32)
        a = cv2.GaussianBlur(a, (0, 0), 1.5)[..., None]
        c1, c2 = _cloth_pair(rng)
        img = c1 * a + c2 * (1 - a) + fine[..., None] * 6
        period = float(rng.uniform(6, 14))
    elif kind == "cloth-floral":
        # a busy print: blobs of saturated colours, some of them the links' own hues
        bg = _cloth_pair(rng)[0] * 0.3 + np.float32(rng.uniform(150, 230)) * 0.7
        img = np.zeros((size, size, 3), np.float32) + bg
        for _ in range(int(rng.integers(25, 60))):
            col = rng.choice([(30, 40, 190), (30, 170, 210), (50, 120, 40), (170, 80, 30),
                              (200, 200, 200), (40, 40, 40), (120, 60, 150)])
            col = np.array(col, np.float32) * rng.uniform(0.7, 1.1)
            cx, cy = rng.integers(0, size, 2)
            ax = int(rng.integers(size // 60, size // 12))
            ay = int(ax * rng.uniform(0.4, 1.0))
            for dx in (-size, 0, size):
                for dy in (-size, 0, size):
                    cv2.ellipse(img, (int(cx + dx), int(cy + dy)), (ax, ay),
                                float(rng.uniform(0, 180)), 0, 360, col.tolist(), -1, cv2.LINE_AA)
        img += fine[..., None] * 5
        period = float(rng.uniform(8, 20))
    elif kind == "carpet":
        base = np.array(rng.uniform(120, 200), np.float32) * np.float32([1, 1.02, 1.05])
        # looped pile: bright tufts with dark gaps between them
        tufts = np.tanh(_noise(rng, size, 1.6) * 1.5)
        img = base + tufts[..., None] * 30 + _noise(rng, size, 0.6)[..., None] * 10 \
            + coarse[..., None] * 6
        period = 6.0
    elif kind == "felt":
        base = np.array(rng.choice([(40, 90, 30), (90, 60, 30), (30, 40, 110)]), np.float32)
        img = base * rng.uniform(0.7, 1.2) + fine[..., None] * 5 + coarse[..., None] * 4
        period = 10.0
    else:
        raise ValueError(f"unknown table kind {kind!r}")
    return np.clip(img, 0, 255).astype(np.float32), period, desc


def lay_table(patch: np.ndarray, period: float, world_x: np.ndarray, world_y: np.ndarray,
              angle: float = 0.0) -> np.ndarray:
    """Look the repeating ``patch`` up at world coordinates (arrays of one shape) -> BGR."""
    size = patch.shape[0]
    c, s = np.cos(angle), np.sin(angle)
    u = (c * world_x - s * world_y) / period * size
    v = (s * world_x + c * world_y) / period * size
    u = np.mod(u, size).astype(np.float32)
    v = np.mod(v, size).astype(np.float32)
    return cv2.remap(patch, u, v, cv2.INTER_LINEAR, borderMode=cv2.BORDER_WRAP)
