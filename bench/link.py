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

Work per roll: `bench.work_probe` runs the whole app (game screen, virtual dice, phones on) under
a private Xvfb and counts, from a press to the frame after the roll is shown, the refreshes, the
box states computed, the state commands written to the box, the phones' publishes and the game
log's syncs, rebuilds and actions replayed. With ``BENCH_WORK_BASELINE`` set to a checkout of an
earlier tree of the project (``git archive``), the same probe runs on it too (in the same run) and
its figures are the anchor.
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
from typing import Any

from bench.table import NOT_AVAILABLE, Row, percentile, verdict

SECTION = "Link"
ROLL_TARGET_MS = 10.0
FRAME_TARGET_MS = 25.0


WORK_FIGURES = (
    "refreshes",
    "box states computed",
    "state commands written",
    "phone publishes",
    "log syncs",
    "log rebuilds",
    "actions replayed into a log",
)
BASELINE_ENV = "BENCH_WORK_BASELINE"


@dataclass
class Sizes:
    presses: int = 1000
    work_rolls: int = 40  # about half a second each: the app plays a random turn per roll


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


def run_probe(probe: str, count: int, *, timeout: float, tree: Path | None = None) -> Any:
    """``bench/<probe>.py COUNT OUT.json`` in a child process under a private Xvfb (on the
    project in ``tree``, this one by default); the JSON it wrote, once it reported no error."""
    from bench.app import xvfb

    with tempfile.TemporaryDirectory() as tmp, xvfb() as display:
        out = Path(tmp) / "out.json"
        env = {**os.environ, "DISPLAY": display, "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_ARGS": "1"}
        command = [sys.executable, str(Path(__file__).with_name(f"{probe}.py"))]
        if tree is None:
            command = [sys.executable, "-m", f"bench.{probe}"]
        else:
            env["PYTHONPATH"] = str(tree)  # the probe is this tree's; the project, the tree's
        result = subprocess.run(
            [*command, str(count), str(out)],
            cwd=tree,
            env=env,
            capture_output=True,
            text=True,
            timeout=timeout,
        )
        if result.returncode != 0 or not out.exists():
            last = result.stderr.strip().splitlines()[-1:] or [f"exit {result.returncode}"]
            raise RuntimeError(f"{probe}: {last[0][-150:]}")
        data = json.loads(out.read_text(encoding="utf-8"))
    if data["errors"]:
        raise RuntimeError(f"{probe}: {data['errors'][0]}")
    return data


def frame_samples(presses: int) -> list[float]:
    """Per-press milliseconds from `bench.ui_probe` under a private Xvfb."""
    samples: list[float] = run_probe("ui_probe", presses, timeout=120 + presses * 0.2)["samples_ms"]
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


def work_per_roll(rolls: int, tree: Path) -> dict[str, float]:
    """`bench.work_probe` on the project in ``tree`` under a private Xvfb: counts per roll."""
    per_roll: dict[str, float] = run_probe("work_probe", rolls, timeout=120 + rolls * 2, tree=tree)[
        "per_roll"
    ]
    return per_roll


def work_rows(rolls: int) -> list[Row]:
    label = "work per roll"
    if rolls <= 0:
        return []
    if which("Xvfb") is None:
        why = f"{NOT_AVAILABLE}: Xvfb missing (apt-get install xvfb)"
        return [Row(SECTION, label, None, "", "-", "-", why)]
    baseline = os.environ.get(BASELINE_ENV)
    try:
        after = work_per_roll(rolls, Path(__file__).resolve().parent.parent)
        before = work_per_roll(rolls, Path(baseline)) if baseline else None
    except (RuntimeError, OSError, subprocess.TimeoutExpired) as exc:
        return [Row(SECTION, label, None, "", "-", "-", f"failed: {exc}"[:150])]
    rows = []
    for figure in WORK_FIGURES:
        anchor = "-" if before is None else f"before: {before.get(figure, 0.0):.2f}"
        detail = {"rolls": rolls, "before": before}
        rows.append(
            Row(SECTION, f"{label}: {figure}", after.get(figure, 0.0), "", "-", anchor, "-", detail)
        )
    return rows


def run(sizes: Sizes) -> list[Row]:
    rows = roll_rows(sizes.presses)
    cpython_p99 = rows[-1].detail.get("cpython_p99_ms") if rows[-1].value is not None else None
    return rows + frame_rows(sizes.presses, cpython_p99) + work_rows(sizes.work_rolls)
