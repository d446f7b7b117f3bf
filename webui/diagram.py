"""A clean SVG drawing of a board from the rules model (no photo involved).

Cell centres come from :func:`referee.hexgrid.to_pixel`, link colours and shapes from
:mod:`referee.tiles`; the analysis report supplies what to mark (mismatching edges, forced
spaces, holes...) and each colour's longest line and loop, which are drawn with a halo.
Every element carries ``data-*`` attributes so the page can make tiles clickable.
"""
from __future__ import annotations

import math
from html import escape
from typing import Any

from referee.board import Board
from referee.hexgrid import to_pixel
from referee.link_geometry import edge_midpoint, link_shape
from referee.tiles import rotated_edges

from .overlay import is_low

SIZE = 40.0  # centre-to-corner, SVG units

INK = {"red": "#d62828", "yellow": "#f2c500", "green": "#2a9d3f", "blue": "#1d5fd1"}


def _corner(cx: float, cy: float, k: int, size: float = SIZE) -> tuple[float, float]:
    a = math.radians(60 * k)
    return cx + size * math.cos(a), cy + size * math.sin(a)


def _edge_mid(cx: float, cy: float, edge: int) -> tuple[float, float]:
    x, y = SIZE * edge_midpoint(edge)
    return cx + float(x), cy + float(y)


def hex_points(cx: float, cy: float, size: float = SIZE) -> str:
    return " ".join(f"{x:.1f},{y:.1f}" for x, y in (_corner(cx, cy, k, size) for k in range(6)))


def link_path(cx: float, cy: float, a: int, b: int) -> str:
    """SVG path data of the link joining edges ``a`` and ``b`` of the hex at (cx, cy)."""
    # (the shape is referee.link_geometry's: the printed tiles' and the generator's)
    a, b, radius = link_shape(a, b)
    x1, y1 = _edge_mid(cx, cy, a)
    x2, y2 = _edge_mid(cx, cy, b)
    if radius is None:
        return f"M{x1:.1f},{y1:.1f} L{x2:.1f},{y2:.1f}"
    r = SIZE * radius
    return f"M{x1:.1f},{y1:.1f} A{r:.1f},{r:.1f} 0 0 0 {x2:.1f},{y2:.1f}"


def _links(number: int, rotation: int) -> dict[str, tuple[int, int]]:
    edges = rotated_edges(number, rotation)
    out: dict[str, list[int]] = {}
    for i, c in enumerate(edges):
        out.setdefault(c, []).append(i)
    return {c: (e[0], e[1]) for c, e in out.items()}


def _cells(items) -> set[tuple[int, int]]:
    return {(int(c[0]), int(c[1])) for c in items}


def board_svg(board: Board, report: dict[str, Any] | None = None,
              low_confidence: float = 0.0, new_cells: set | frozenset = frozenset(),
              flagged: set | frozenset = frozenset()) -> str:
    """The board as a standalone SVG string, marked up with ``report``'s findings;
    ``new_cells`` (tiles placed since the previous photo of a game) are outlined."""
    report = report or {}
    cells = set(board.tiles)
    marks: dict[str, set] = {
        "forced": _cells(s["cell"] for s in report.get("forced_spaces", [])),
        "double": _cells(report.get("double_gobbles", [])),
        "same": _cells(report.get("same_colour_forced", [])),
        "controlled": _cells(report.get("controlled_cells", [])),
        "hole": _cells(report.get("holes", [])),
    }
    unreadable = {(u["q"], u["r"]) for u in board.meta.get("unreadable") or []
                  if isinstance(u, dict) and isinstance(u.get("q"), int) and isinstance(u.get("r"), int)}
    unreadable -= cells
    marks["flagged"] = set(flagged) - cells
    empties = set().union(*marks.values())
    every = cells | empties | unreadable or {(0, 0)}
    pts = [to_pixel(c, SIZE) for c in every]
    pad = SIZE * 1.3
    x0 = min(p[0] for p in pts) - pad
    y0 = min(p[1] for p in pts) - pad
    w = max(p[0] for p in pts) + pad - x0
    h = max(p[1] for p in pts) + pad - y0
    # A board of one or two tiles should not fill the page: show at least ~7 cells across.
    minimum = SIZE * 10
    if w < minimum:
        x0, w = x0 - (minimum - w) / 2, minimum
    if h < minimum * 0.75:
        y0, h = y0 - (minimum * 0.75 - h) / 2, minimum * 0.75
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" class="board-diagram" '
           f'viewBox="{x0:.1f} {y0:.1f} {w:.1f} {h:.1f}" role="img" '
           f'aria-label="board diagram, {len(cells)} tiles">']

    for c in sorted(empties):
        cx, cy = to_pixel(c, SIZE)
        kinds = [k for k in ("hole", "same", "double", "forced", "controlled", "flagged") if c in marks[k]]
        out.append(f'<polygon class="empty {" ".join(kinds)}" data-q="{c[0]}" data-r="{c[1]}" '
                   f'points="{hex_points(cx, cy, SIZE - 1.5)}"><title>{escape(", ".join(kinds))} '
                   f'({c[0]}, {c[1]})</title></polygon>')

    for c in sorted(unreadable):
        cx, cy = to_pixel(c, SIZE)
        out.append(f'<g class="unreadable" data-q="{c[0]}" data-r="{c[1]}"><title>unreadable tile at '
                   f'({c[0]}, {c[1]}): click to say which</title>'
                   f'<polygon points="{hex_points(cx, cy, SIZE - 1.5)}"/>'
                   f'<text class="num" x="{cx:.1f}" y="{cy + 6:.1f}">?</text></g>')

    longest: dict[tuple[int, int], set[str]] = {}
    for colour, entry in report.get("colours", {}).items():
        for c in longest_cells(entry):
            longest.setdefault((int(c[0]), int(c[1])), set()).add(colour)

    for c in sorted(cells):
        p = board.tiles[c]
        cx, cy = to_pixel(c, SIZE)
        conf = board.extras.get(c, {}).get("confidence")
        low = is_low(board.extras.get(c, {}), low_confidence)
        cls = ("tile" + (" low" if low else "") + (" new" if c in new_cells else "")
               + (" flagged" if c in flagged else ""))
        title = f"tile {p.tile}, rotation {p.rotation} at ({c[0]}, {c[1]})"
        if isinstance(conf, (int, float)):
            title += f", confidence {conf:.2f}"
        out.append(f'<g class="{cls}" data-q="{c[0]}" data-r="{c[1]}" data-tile="{p.tile}" '
                   f'data-rotation="{p.rotation}"><title>{escape(title)}</title>')
        out.append(f'<polygon class="face" points="{hex_points(cx, cy, SIZE - 1)}"/>')
        for colour, (a, b) in _links(p.tile, p.rotation).items():
            d = link_path(cx, cy, a, b)
            if colour in longest.get(c, ()):
                out.append(f'<path class="halo" data-colour="{colour}" d="{d}"/>')
            out.append(f'<path class="link {colour}" stroke="{INK[colour]}" d="{d}"/>')
        out.append(f'<text class="num" x="{cx:.1f}" y="{cy + 4:.1f}">{p.tile}</text></g>')

    for m in report.get("mismatches", []):
        cell = (int(m["cell"][0]), int(m["cell"][1]))
        cx, cy = to_pixel(cell, SIZE)
        e = int(m["edge"])
        x1, y1 = _corner(cx, cy, (e + 4) % 6)
        x2, y2 = _corner(cx, cy, (e + 5) % 6)
        out.append(f'<line class="mismatch" x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}">'
                   f'<title>mismatch {escape(" / ".join(map(str, m["colours"])))}</title></line>')
    out.append("</svg>")
    return "".join(out)


def longest_cells(entry: dict[str, Any]) -> list:
    """Cells of a colour's longest line and of its longest loop (the report lists paths
    longest first; ``max`` keeps this independent of that order)."""
    line = max(entry.get("lines") or [], key=len, default=[])
    loop = max(entry.get("loops") or [], key=len, default=[])
    return list(line) + list(loop)
