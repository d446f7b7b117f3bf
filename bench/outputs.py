"""Where benchmarks write their figures: one JSON (and optionally one Markdown) file each."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

RESULTS = Path(__file__).resolve().parent / "results"
"""Default folder of every benchmark's results (``bench/results``)."""


def write_json(path: str | Path, data: Any) -> Path:
    """Write ``data`` as indented JSON to ``path`` (folders made as needed)."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=1) + "\n")
    return path


def write_report(name: str, report: Any, markdown: str | None = None, folder: Path = RESULTS) -> Path:
    """``<folder>/<name>.json`` and, with ``markdown``, ``<folder>/<name>.md``; the JSON path."""
    path = write_json(Path(folder) / f"{name}.json", report)
    if markdown is not None:
        (Path(folder) / f"{name}.md").write_text(markdown)
    return path


def markdown_table(header: list[str], rows: list[list[Any]]) -> list[str]:
    """Lines of a Markdown table: ``header``, its rule, then one line per row of values."""
    return (["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
            + ["| " + " | ".join(str(v) for v in row) + " |" for row in rows])
