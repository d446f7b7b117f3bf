"""JSON output for people and programs: indented, but short lists kept on one line."""
from __future__ import annotations

import json
import sys
from typing import Any, TextIO


def dumps(obj: Any) -> str:
    """Indented JSON where lists of scalars (cells, colours) and short flat objects stay on one line."""
    return _dump(obj, 0)


_ONE_LINE = 110  # a flat object (a tile, a forced space) this short stays on one line


def _flat(obj: Any) -> bool:
    return isinstance(obj, list) and all(not isinstance(x, (list, dict)) for x in obj)


def _dump(obj: Any, depth: int) -> str:
    pad, inner = " " * depth, " " * (depth + 1)
    if isinstance(obj, dict):
        if not obj:
            return "{}"
        if all(not isinstance(v, (dict, list)) or _flat(v) for v in obj.values()):
            one_line = json.dumps(obj)
            if len(one_line) <= _ONE_LINE:
                return one_line
        items = [f"{inner}{json.dumps(str(k))}: {_dump(v, depth + 1)}" for k, v in obj.items()]
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(obj, list):
        if _flat(obj) or all(_flat(x) for x in obj) and len(obj) <= 12:
            return json.dumps(obj)
        return "[\n" + ",\n".join(inner + _dump(x, depth + 1) for x in obj) + "\n" + pad + "]"
    return json.dumps(obj)


def write(obj: Any, stream: TextIO | None = None) -> None:
    """Write ``obj`` as :func:`dumps` JSON plus a newline (to stdout by default)."""
    (stream or sys.stdout).write(dumps(obj) + "\n")
