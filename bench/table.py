"""One row per figure, the printed table and results.json."""

from __future__ import annotations

import json
import os
import platform
import statistics
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

NOT_AVAILABLE = "not available"


@dataclass
class Row:
    """A measured figure. ``value`` is None when the thing to measure does not exist yet."""

    section: str
    name: str
    value: float | None
    unit: str
    target: str = "-"  # e.g. "< 100 ms", "≥ 1.0"
    anchor: str = "-"  # what it is compared with, measured in the same run
    verdict: str = "-"  # "meets", "misses", a ratio, or why it is not available
    detail: dict[str, Any] = field(default_factory=dict)

    def shown_value(self) -> str:
        if self.value is None:
            return NOT_AVAILABLE
        return f"{fmt(self.value)} {self.unit}".strip()


def fmt(value: float) -> str:
    """A number with about three significant digits."""
    if value == 0 or abs(value) >= 100:
        return f"{value:,.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}"
    if abs(value) >= 1:
        return f"{value:.2f}"
    if abs(value) >= 0.001:
        return f"{value:.3g}"
    return f"{value:.2e}"


def verdict(value: float | None, *, below: float | None = None, above: float | None = None) -> str:
    """'meets' or 'misses' for a target of ``value < below`` or ``value > above``."""
    if value is None:
        return NOT_AVAILABLE
    if below is not None and not value < below:
        return "misses"
    if above is not None and not value > above:
        return "misses"
    return "meets"


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0..100) by nearest rank."""
    ordered = sorted(values)
    if not ordered:
        raise ValueError("no values")
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def median(values: Sequence[float]) -> float:
    return statistics.median(values)


def render(rows: Sequence[Row]) -> str:
    header = ("figure", "value", "target", "anchor (same run)", "ratio / verdict")
    lines = [header] + [
        (f"{r.section}: {r.name}", r.shown_value(), r.target, r.anchor, r.verdict) for r in rows
    ]
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]

    def one(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([one(lines[0]), rule, *(one(line) for line in lines[1:])])


def machine() -> dict[str, Any]:
    load = os.getloadavg() if hasattr(os, "getloadavg") else (-1.0, -1.0, -1.0)
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average_1m_at_start": round(load[0], 2),
    }


def write_json(path: Path, rows: Sequence[Row], *, meta: dict[str, Any]) -> None:
    data = {
        "generated_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        **meta,
        "rows": [asdict(r) for r in rows],
    }
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
