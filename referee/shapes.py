"""Shape words on sets of cells: pyramid, triangle, circle, congruence, "inside".

All tests are made up to translation and rotation by multiples of 60° (CONTRACT.md);
:func:`congruent` also allows mirroring when asked.
"""
from __future__ import annotations

from typing import Iterable

from .hexgrid import DIRECTIONS, Cell, neighbours, rotate_cell


def pyramid_cells(rows: int) -> frozenset[Cell]:
    """The pyramid of ``rows`` rows in its reference frame: q ≥ 0, r ≥ 0, q + r ≤ rows - 1."""
    return frozenset((q, r) for q in range(rows) for r in range(rows) if q + r <= rows - 1)


def triangle_border(rows: int) -> frozenset[Cell]:
    """The cells on the border of a pyramid of ``rows`` rows (a triangle-shaped loop)."""
    cells = pyramid_cells(rows)
    return frozenset(c for c in cells if any(n not in cells for n in neighbours(c)))


def normalised(cells: Iterable[Cell]) -> frozenset[Cell]:
    """``cells`` shifted so the smallest q and the smallest r are both 0."""
    cells = list(cells)
    if not cells:
        return frozenset()
    q0 = min(c[0] for c in cells)
    r0 = min(c[1] for c in cells)
    return frozenset((q - q0, r - r0) for q, r in cells)


def orientations(cells: Iterable[Cell], mirror: bool = False) -> list[frozenset[Cell]]:
    """The six turned (twelve with ``mirror``) normalised copies of ``cells``."""
    cells = list(cells)
    out = [normalised(rotate_cell(c, k) for c in cells) for k in range(6)]
    if mirror:
        flipped = [(c[0] + c[1], -c[1]) for c in cells]  # reflection across the q axis
        out += [normalised(rotate_cell(c, k) for c in flipped) for k in range(6)]
    return out


def congruent(a: Iterable[Cell], b: Iterable[Cell], mirror: bool = True) -> bool:
    """True when ``b`` is ``a`` moved, turned (and, with ``mirror``, flipped)."""
    a, b = list(a), list(b)
    if len(a) != len(b):
        return False
    nb = normalised(b)
    return any(o == nb for o in orientations(a, mirror))


def pyramid_rows(cells: Iterable[Cell]) -> int | None:
    """Rows of the pyramid that ``cells`` form in some orientation, else ``None``."""
    cells = list(cells)
    n = len(cells)
    rows = 1
    while rows * (rows + 1) // 2 < n:
        rows += 1
    if rows * (rows + 1) // 2 != n:
        return None
    target = pyramid_cells(rows)
    return rows if any(o == target for o in orientations(cells)) else None


def pyramid_placements(rows: int, inside: Iterable[Cell] = ()) -> list[frozenset[Cell]]:
    """Every pyramid of ``rows`` rows on the grid that contains all of ``inside``.

    With nothing inside, the single reference pyramid.  Each orientation and shift that
    covers ``inside`` is listed once.
    """
    inside = list(inside)
    base = pyramid_cells(rows)
    if not inside:
        return [base]
    found: set[frozenset[Cell]] = set()
    anchor = inside[0]
    for k in range(6):
        turned = [rotate_cell(c, k) for c in base]
        for c in turned:
            dq, dr = anchor[0] - c[0], anchor[1] - c[1]
            moved = frozenset((q + dq, r + dr) for q, r in turned)
            if all(x in moved for x in inside):
                found.add(moved)
    return sorted(found, key=sorted)


def is_circle(cells: Iterable[Cell]) -> bool:
    """True when ``cells`` are the six cells around one cell (a 6-tile ring)."""
    cells = set(cells)
    if len(cells) != 6:
        return False
    q = sum(c[0] for c in cells)
    r = sum(c[1] for c in cells)
    if q % 6 or r % 6:
        return False
    centre = (q // 6, r // 6)
    return set(neighbours(centre)) == cells


def is_triangle(cells: Iterable[Cell], size: int | None = None) -> bool:
    """True when ``cells`` are the border of a triangle of cells (3, 6, 9... cells).

    ``size`` asks for that many cells exactly.
    """
    cells = list(cells)
    n = len(cells)
    if n < 3 or n % 3 or (size is not None and n != size):
        return False
    target = triangle_border(n // 3 + 1)
    return any(o == target for o in orientations(cells))


def enclosed_by(ring_cells: Iterable[Cell], cells: Iterable[Cell]) -> bool:
    """True when every cell of ``cells`` is cut off from far away by ``ring_cells``.

    Flood fills from outside the bounding box of both sets through cells not in
    ``ring_cells``; ``cells`` lying in ``ring_cells`` count as not enclosed.
    """
    ring = set(ring_cells)
    cells = set(cells)
    if not cells or cells & ring:
        return False
    allc = ring | cells
    q0 = min(c[0] for c in allc) - 1
    q1 = max(c[0] for c in allc) + 1
    r0 = min(c[1] for c in allc) - 1
    r1 = max(c[1] for c in allc) + 1
    seen = {(q0, r0)}
    stack = [(q0, r0)]
    while stack:
        q, r = stack.pop()
        for dq, dr in DIRECTIONS:
            n = (q + dq, r + dr)
            if q0 <= n[0] <= q1 and r0 <= n[1] <= r1 and n not in seen and n not in ring:
                if n in cells:
                    return False
                seen.add(n)
                stack.append(n)
    return True
