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


def load_average() -> float:
    """The 1-minute load average (-1 where the system has none)."""
    return round(os.getloadavg()[0], 2) if hasattr(os, "getloadavg") else -1.0


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as cpuinfo:
            for line in cpuinfo:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def machine() -> dict[str, Any]:
    """The machine a run measures, with its load when the run starts (the end is added)."""
    return {
        "python": platform.python_version(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "cpu_model": cpu_model(),
        "load_average_1m_at_start": load_average(),
    }


def describe_run(data: dict[str, Any]) -> str:
    """One line: when and on what a results file was measured (what it did not record left
    out)."""
    info = data.get("machine") or {}
    model = info.get("cpu_model")
    cores = f"{info.get('cpus', '?')} cores" + (f" ({model})" if model else "")
    load = f"load average {info.get('load_average_1m_at_start', '?')} at the start"
    if "load_average_1m_at_end" in info:
        load += f", {info['load_average_1m_at_end']} at the end"
    when = data.get("generated_utc", "an unrecorded date")
    minutes = data.get("total_s")
    took = f", {float(minutes) / 60:.1f} minutes" if isinstance(minutes, int | float) else ""
    kind = " (quick sizes: checks the harness only)" if data.get("quick") else ""
    return f"{when}, {cores}, Python {info.get('python', '?')}; {load}{took}{kind}"


def markdown(data: dict[str, Any]) -> str:
    """The README's table from a results file: the run stated once, each row beside its
    anchor from the same run."""
    lines = [
        f"Measured {describe_run(data)}.",
        "",
        "| figure | value | target | anchor (same run) | ratio / verdict |",
        "|---|---|---|---|---|",
    ]
    for raw in data.get("rows", []):
        row = Row(**{k: raw[k] for k in ROW_FIELDS if k in raw})
        cells = (
            f"{row.section}: {row.name}",
            row.shown_value(),
            row.target,
            row.anchor,
            row.verdict,
        )
        lines.append("| " + " | ".join(c.replace("|", "/") for c in cells) + " |")
    return "\n".join(lines)


ROW_FIELDS = ("section", "name", "value", "unit", "target", "anchor", "verdict", "detail")

REGRESSION = 0.10
"""A figure more than this much worse than in the committed results is a warning."""
LOWER_IS_BETTER = frozenset({"ms", "µs", "s", "KB", "taps"})


def better(unit: str) -> str | None:
    """'lower', 'higher' or None (not compared: p-values, counts of faults, points)."""
    if unit in LOWER_IS_BETTER:
        return "lower"
    if unit.endswith("/s"):
        return "higher"
    return None


def regressions(
    committed: dict[str, Any],
    rows: Sequence[Row],
    *,
    quick: bool = False,
    limit: float = REGRESSION,
) -> list[str]:
    """A warning per figure more than ``limit`` worse than the same figure in ``committed``
    (a run of the same sizes: a quick run is compared only with a quick one; a figure that
    file lacks is not compared)."""
    if bool(committed.get("quick")) != quick:
        return []
    before = {
        (r.get("section"), r.get("name")): r
        for r in committed.get("rows", [])
        if isinstance(r, dict)
    }
    warnings = []
    for row in rows:
        old = before.get((row.section, row.name))
        direction = better(row.unit)
        if old is None or direction is None or row.value is None or old.get("unit") != row.unit:
            continue
        was = old.get("value")
        if not isinstance(was, int | float) or isinstance(was, bool) or was <= 0:
            continue
        change = (row.value - was) / was
        worse = change > limit if direction == "lower" else change < -limit
        if worse:
            warnings.append(
                f"{row.section}: {row.name}: {fmt(row.value)} {row.unit} against "
                f"{fmt(was)} {row.unit} committed ({change:+.0%}; {direction} is better)"
            )
    return warnings


def write_json(path: Path, rows: Sequence[Row], *, meta: dict[str, Any]) -> None:
    data = {
        "generated_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        **meta,
        "rows": [asdict(r) for r in rows],
    }
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    os.replace(tmp, path)
