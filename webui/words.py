"""The report's findings in words for the page.

The sentences and their kinds are the rules model's own (:func:`referee.textview.findings`,
the same words as ``tantrix analyze --format text``); this module only orders them for the
page, broken rules first.
"""
from __future__ import annotations

from typing import Any

from referee.textview import findings as _findings

_SERIOUS = ("mismatch", "violation", "same", "hole", "double")


def findings(report: dict[str, Any]) -> list[dict[str, str]]:
    """``[{"kind", "text"}]``: one sentence per finding, broken rules first."""
    items = [{"kind": kind, "text": text} for kind, text in _findings(report)]
    return sorted(items, key=lambda f: f["kind"] not in _SERIOUS)
