"""A pinhole camera looking at the table, plus radial lens distortion.

World frame: the table is the plane ``Z = 0`` with ``X`` east and ``Y`` south (the board's
hexgrid frame, unit = tile circumradius), ``Z`` pointing *into* the table, so points above
the table have negative ``Z``.  Camera frame: x right, y down, z forward (OpenCV).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np


def _rx(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1, 0, 0], [0, c, -s], [0, s, c]])


def _rz(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1]])


@dataclass
class Camera:
    """Intrinsics, pose and distortion of one shot.

    ``tilt_deg`` is the angle between the optical axis and the table normal, ``azimuth_deg``
    the compass direction the camera leans from, ``roll_deg`` the turn about the optical
    axis; the point ``target`` (world X, Y) is on the optical axis at ``distance``.
    ``k1``, ``k2`` map a distorted pixel to an undistorted one:
    ``p_u = c + (p_d - c) * (1 + k1 r^2 + k2 r^4)`` with ``r`` = distance from the image
    centre divided by half the image diagonal.
    """

    width: int
    height: int
    focal: float
    tilt_deg: float
    azimuth_deg: float
    roll_deg: float
    distance: float
    target: tuple[float, float]
    k1: float = 0.0
    k2: float = 0.0

    @property
    def rotation(self) -> np.ndarray:
        return (_rz(math.radians(self.roll_deg)) @ _rx(math.radians(self.tilt_deg))
                @ _rz(math.radians(self.azimuth_deg)))

    @property
    def K(self) -> np.ndarray:
        return np.array([[self.focal, 0, self.width / 2], [0, self.focal, self.height / 2],
                         [0, 0, 1.0]])

    @property
    def centre(self) -> np.ndarray:
        """Camera position in world coordinates."""
        T = np.array([self.target[0], self.target[1], 0.0])
        return T - self.rotation.T @ np.array([0, 0, self.distance])

    def homography(self, z: float = 0.0) -> np.ndarray:
        """3×3 map from world (X, Y) on the plane ``Z = z`` to undistorted pixels."""
        R = self.rotation
        t = -R @ self.centre
        H = self.K @ np.column_stack([R[:, 0], R[:, 1], t + z * R[:, 2]])
        return H / H[2, 2]

    def depth(self, xy: np.ndarray, z: float = 0.0) -> np.ndarray:
        """Distance along the optical axis of world points (N, 2) on plane ``Z = z``."""
        R = self.rotation
        P = np.column_stack([xy, np.full(len(xy), z)]) - self.centre
        return P @ R[2]

    # -- distortion ------------------------------------------------------------
    def _norm(self) -> float:
        return math.hypot(self.width, self.height) / 2

    def undistort_points(self, pts: np.ndarray) -> np.ndarray:
        """Distorted pixel positions (N, 2) -> ideal pinhole positions."""
        c = np.array([self.width / 2, self.height / 2])
        d = (pts - c) / self._norm()
        r2 = (d ** 2).sum(axis=1, keepdims=True)
        return c + (pts - c) * (1 + self.k1 * r2 + self.k2 * r2 ** 2)

    def distort_points(self, pts: np.ndarray) -> np.ndarray:
        """Ideal pinhole positions (N, 2) -> where they land in the distorted photo."""
        pts = np.asarray(pts, float)
        out = pts.copy()
        c = np.array([self.width / 2, self.height / 2])
        for _ in range(30):  # fixed-point inversion of undistort_points
            d = (out - c) / self._norm()
            r2 = (d ** 2).sum(axis=1, keepdims=True)
            out = c + (pts - c) / (1 + self.k1 * r2 + self.k2 * r2 ** 2)
        return out

    def project(self, xy: np.ndarray, z: float = 0.0) -> np.ndarray:
        """World points (N, 2) on plane ``Z = z`` -> pixels in the (distorted) photo."""
        xy = np.asarray(xy, float).reshape(-1, 2)
        H = self.homography(z)
        p = np.column_stack([xy, np.ones(len(xy))]) @ H.T
        return self.distort_points(p[:, :2] / p[:, 2:3])

    def project_ideal(self, xy: np.ndarray, z: float = 0.0) -> np.ndarray:
        """As :meth:`project` but without lens distortion."""
        xy = np.asarray(xy, float).reshape(-1, 2)
        H = self.homography(z)
        p = np.column_stack([xy, np.ones(len(xy))]) @ H.T
        return p[:, :2] / p[:, 2:3]

    def distortion_maps(self) -> tuple[np.ndarray, np.ndarray]:
        """cv2.remap maps that turn the ideal pinhole image into the distorted photo."""
        ys, xs = np.mgrid[0:self.height, 0:self.width].astype(np.float32)
        c = np.float32([self.width / 2, self.height / 2])
        n = np.float32(self._norm())
        dx, dy = (xs - c[0]) / n, (ys - c[1]) / n
        r2 = dx * dx + dy * dy
        f = 1 + np.float32(self.k1) * r2 + np.float32(self.k2) * r2 * r2
        return (c[0] + (xs - c[0]) * f).astype(np.float32), (c[1] + (ys - c[1]) * f).astype(np.float32)
