"""Link latency: emulated button press → roll applied in the rules core over a real pty (p50/p99
over 1,000 presses), and press → next UI frame.

Press → applied uses the device link's own measurement,
`companion_app.emulator.latency.measure_press_to_applied`: the emulated box runs the real firmware
behind a pseudo-terminal, the `DiceLink` reader thread decodes the ROLL and `DiceTable` applies it
to the game. The figure is with the firmware in the MicroPython VM (as on the box); the anchor is
the same path with the firmware on CPython, measured in the same run. Percentiles are taken here
(nearest rank) from the per-press samples.

Press → next UI frame: `bench.ui_probe` in a child process under a private Xvfb, through the
app's own `DiceController` (virtual dice: the emulated box with the firmware on CPython) to the
first frame flipped after the roll is applied; its anchor is press → applied over the pty with the
same firmware, from this run.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from shutil import which

from bench.table import NOT_AVAILABLE, Row, percentile, verdict

SECTION = "Link"
ROLL_TARGET_MS = 10.0
FRAME_TARGET_MS = 25.0


@dataclass
class Sizes:
    presses: int = 1000


def p50_p99(samples_ms: Sequence[float]) -> tuple[float, float]:
    return percentile(samples_ms, 50), percentile(samples_ms, 99)


def roll_rows(presses: int) -> list[Row]:
    from companion_app.emulator.latency import measure_press_to_applied

    label = "press → roll applied (pty)"
    vm = measure_press_to_applied(presses, micropython=True).samples_ms
    cpython = measure_press_to_applied(presses, micropython=False).samples_ms
    p50, p99 = p50_p99(vm)
    c50, c99 = p50_p99(cpython)
    detail = {
        "presses": len(vm),
        "max_ms": max(vm),
        "cpython_p99_ms": c99,
        "cpython_max_ms": max(cpython),
    }
    return [
        Row(
            SECTION,
            f"{label} p50, firmware in the VM",
            p50,
            "ms",
            "-",
            f"firmware on CPython: {c50:.2f} ms",
            "-",
            detail,
        ),
        Row(
            SECTION,
            f"{label} p99, firmware in the VM",
            p99,
            "ms",
            f"p99 < {ROLL_TARGET_MS:g} ms",
            f"firmware on CPython: {c99:.2f} ms",
            verdict(p99, below=ROLL_TARGET_MS),
            detail,
        ),
    ]


def frame_samples(presses: int) -> list[float]:
    """Per-press milliseconds from `bench.ui_probe` under a private Xvfb."""
    from bench.app import xvfb

    with tempfile.TemporaryDirectory() as tmp, xvfb() as display:
        out = Path(tmp) / "frames.json"
        env = {**os.environ, "DISPLAY": display, "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_ARGS": "1"}
        result = subprocess.run(
            [sys.executable, "-m", "bench.ui_probe", str(presses), str(out)],
            env=env,
            capture_output=True,
            text=True,
            timeout=120 + presses * 0.2,
        )
        if result.returncode != 0 or not out.exists():
            last = result.stderr.strip().splitlines()[-1:] or [f"exit {result.returncode}"]
            raise RuntimeError(f"ui_probe: {last[0][-150:]}")
        data = json.loads(out.read_text(encoding="utf-8"))
    if data["errors"]:
        raise RuntimeError(f"ui_probe: {data['errors'][0]}")
    samples: list[float] = data["samples_ms"]
    return samples


def frame_rows(presses: int, pty_cpython_p99: float | None) -> list[Row]:
    label = "press → next UI frame"
    target = f"p99 < {FRAME_TARGET_MS:g} ms"
    if which("Xvfb") is None:
        why = f"{NOT_AVAILABLE}: Xvfb missing (apt-get install xvfb)"
        return [Row(SECTION, f"{label} p99", None, "ms", target, "-", why)]
    try:
        samples = frame_samples(presses)
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
        why = f"failed: {exc}"[:150]
        return [Row(SECTION, f"{label} p99", None, "ms", target, "-", why)]
    p50, p99 = p50_p99(samples)
    anchor = (
        f"press → applied (pty, CPython firmware) p99: {pty_cpython_p99:.2f} ms"
        if pty_cpython_p99 is not None
        else "-"
    )
    detail = {"presses": len(samples), "max_ms": max(samples), "window": "bare Kivy label"}
    return [
        Row(SECTION, f"{label} p50", p50, "ms", "-", "-", "-", detail),
        Row(
            SECTION,
            f"{label} p99",
            p99,
            "ms",
            target,
            anchor,
            verdict(p99, below=FRAME_TARGET_MS),
            detail,
        ),
    ]


def run(sizes: Sizes) -> list[Row]:
    rows = roll_rows(sizes.presses)
    cpython_p99 = rows[-1].detail.get("cpython_p99_ms") if rows[-1].value is not None else None
    return rows + frame_rows(sizes.presses, cpython_p99)
