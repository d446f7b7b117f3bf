"""Calibration of one table setup: camera lens, table plane and colours under its light.

``profile`` (the JSON file passed with ``--profile``), ``camera`` (intrinsics, printable
board, undistortion), ``table`` (fixed-camera plane homography, rectification),
``colours`` (per-class Lab models), ``synthetic`` (rendered scenes for tests/benchmarks).
Depends on ``referee`` only, never on ``vision`` or ``webui``.
"""
