"""The report's findings in words for the page.

The sentences are the rules model's own (:func:`referee.textview.describe`, the same words
as ``tantrix analyze --format text``); this module only tags each with its kind so the
page can colour it.
"""
from __future__ import annotations

from typing import Any

from referee.textview import describe

_KINDS = (("mismatch", "mismatch"), ("restraint", "violation"), ("same-colour", "same"),
          ("double gobble", "double"), ("holes", "hole"), ("forced space", "forced"),
          ("controlled", "controlled"), ("no findings", "ok"))


def kind_of(sentence: str) -> str:
    for prefix, kind in _KINDS:
        if sentence.startswith(prefix):
            return kind
    return "other"


_SERIOUS = ("mismatch", "violation", "same", "hole", "double")


def findings(report: dict[str, Any]) -> list[dict[str, str]]:
    """``[{"kind", "text"}]``: one sentence per finding, broken rules first."""
    items = [{"kind": kind_of(s), "text": s} for s in describe(report)]
    return sorted(items, key=lambda f: f["kind"] not in _SERIOUS)
