"""Link latency: emulated button press → roll applied in the rules core over a real pty (p50/p99
over 1,000 presses), and press → next UI frame.

The measuring functions belong to the device link and emulator (`companion_app.emulator`) and to
the app; this module finds them and reports "not available" until they exist. A latency function
is any public callable of those modules whose name contains ``latency`` (press → roll) or
``frame_latency`` (press → frame); it is called with ``presses=N`` and may return the per-press
times in seconds, or a mapping with ``p50``/``p99`` (seconds, or ``p50_ms``/``p99_ms``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bench.table import NOT_AVAILABLE, Row, percentile, verdict

SECTION = "Link"
PLACES = ("companion_app.emulator.bench", "companion_app.emulator", "companion_app.device.bench")
FRAME_PLACES = ("companion_app.app.bench", *PLACES)


@dataclass
class Sizes:
    presses: int = 1000


def find(places: Sequence[str], want: Callable[[str], bool]) -> Callable[..., Any] | None:
    for place in places:
        try:
            module = importlib.import_module(place)
        except ImportError:
            continue
        for name in sorted(dir(module)):
            if not name.startswith("_") and want(name) and callable(getattr(module, name)):
                found: Callable[..., Any] = getattr(module, name)
                return found
    return None


def p50_p99_ms(result: object) -> tuple[float, float]:
    if isinstance(result, Mapping):
        if "p50_ms" in result:
            return float(result["p50_ms"]), float(result["p99_ms"])
        return float(result["p50"]) * 1000, float(result["p99"]) * 1000
    if isinstance(result, Sequence):
        times = [float(t) for t in result]
        return percentile(times, 50) * 1000, percentile(times, 99) * 1000
    raise TypeError(f"latency function returned {type(result).__name__}")


def _rows(label: str, fn: Callable[..., Any] | None, presses: int, target_ms: float) -> list[Row]:
    target = f"p99 < {target_ms:g} ms"
    if fn is None:
        why = f"{NOT_AVAILABLE} (no latency function yet)"
        return [Row(SECTION, f"{label} p99", None, "ms", target, "-", why)]
    p50, p99 = p50_p99_ms(fn(presses=presses))
    source = f"{fn.__module__}.{fn.__name__}"
    return [
        Row(SECTION, f"{label} p50", p50, "ms", "-", source, "-"),
        Row(SECTION, f"{label} p99", p99, "ms", target, source, verdict(p99, below=target_ms)),
    ]


def run(sizes: Sizes) -> list[Row]:
    def roll(name: str) -> bool:
        return "latency" in name and "frame" not in name

    def frame(name: str) -> bool:
        return "frame_latency" in name

    rows = _rows("press → roll applied (pty)", find(PLACES, roll), sizes.presses, 10)
    rows += _rows("press → next UI frame", find(FRAME_PLACES, frame), sizes.presses, 25)
    return rows
