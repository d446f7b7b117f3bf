"""The analysis report in plain sentences for the page (wording only; the findings
themselves are the report's)."""
from __future__ import annotations

from typing import Any


def _at(cell) -> str:
    return f"({cell[0]}, {cell[1]})"


def _cells(cells) -> str:
    cells = list(cells)
    shown = ", ".join(_at(c) for c in cells[:8])
    return shown + (f" and {len(cells) - 8} more" if len(cells) > 8 else "")


def findings(report: dict[str, Any]) -> list[dict[str, str]]:
    """``[{"kind", "text"}]``: one sentence per finding, the most serious first."""
    out: list[dict[str, str]] = []
    for m in report.get("mismatches", []):
        a, b = m["colours"]
        out.append({"kind": "mismatch",
                    "text": f"Colour mismatch between {_at(m['cell'])} and {_at(m['neighbour'])}: "
                            f"{a} meets {b}."})
    for v in report.get("restraint_violations", []):
        out.append({"kind": "violation",
                    "text": f"Restraint {v.get('rule')} broken at {_cells(v.get('cells', []))}: "
                            f"{v.get('reason', '')}".rstrip(": ")})
    same = report.get("same_colour_forced", [])
    if same:
        out.append({"kind": "same",
                    "text": f"Forced space{'s' if len(same) > 1 else ''} where three links of one "
                            f"colour meet (can never be filled): {_cells(same)}."})
    doubles = report.get("double_gobbles", [])
    if doubles:
        out.append({"kind": "double",
                    "text": f"Double gobble{'s' if len(doubles) > 1 else ''} (4 or more sides): "
                            f"{_cells(doubles)}."})
    holes = report.get("holes", [])
    if holes:
        out.append({"kind": "hole", "text": f"Hole: {len(holes)} enclosed empty cell"
                                            f"{'s' if len(holes) > 1 else ''} at {_cells(holes)}."})
    for s in report.get("forced_spaces", []):
        shown = [c for c in s["colours"] if c]
        out.append({"kind": "forced",
                    "text": f"Forced space at {_at(s['cell'])} with {s['neighbours']} sides "
                            f"({', '.join(shown)}): it must be filled when a tile fits."})
    controlled = report.get("controlled_cells", [])
    if controlled:
        out.append({"kind": "controlled",
                    "text": f"Controlled side: no free move at {_cells(controlled)}."})
    if not out:
        n = report.get("tiles", 0)
        out.append({"kind": "ok", "text": f"All {n} tiles match; no forced spaces, holes or "
                                          f"restraint problems." if n else "No tiles on the board."})
    return out
