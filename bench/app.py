"""App cold start: a fresh process to a usable home screen under a private Xvfb, against a bare
Kivy hello-world window started the same way in the same run (the floor any Kivy app pays).

Both runs are timed by this process, from spawning the child to reading its ``READY`` line, and
interleaved (bare, app, bare, app, ...); the figure is the median. The app is started with its own
``--exit-when-ready``, the bare window through `bench.app_probe` (first frame after build).
``BENCH_APP_BASELINE=<an earlier checkout>`` starts that tree's app too, interleaved the same
way, so a change's cost at start is read beside the tree before it (a language's catalogues).
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from shutil import which

from bench.table import NOT_AVAILABLE, Row, median, verdict
from tests.xvfb_display import xvfb as xvfb  # the one Xvfb helper, shared with the UI tests

SECTION = "App"
TIMEOUT_S = 60


@dataclass
class Sizes:
    runs: int = 5  # of each


class StartFailed(RuntimeError):
    pass


SIZES = ("1280x800", "800x480")
"""The app's cold start at today's 1280x800 and at the Raspberry Pi 7" display's 800x480."""


def app_command(journal: Path, size: str = "1280x800") -> list[str]:
    return [
        sys.executable,
        "-m",
        "companion_app",
        "--virtual-dice",
        "--exit-when-ready",
        "--size",
        size,
        "--journal",
        str(journal),
    ]


def time_to_ready(command: list[str], display: str, tree: Path | None = None) -> float:
    """Seconds from spawning ``command`` (in checkout ``tree``, else this one) to its ``READY``
    line on stdout."""
    env = {**os.environ, "DISPLAY": display, "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_ARGS": "1"}
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    start = time.perf_counter()
    proc = subprocess.Popen(
        command,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=tree,
    )
    assert proc.stdout is not None
    ready = None
    try:
        for line in proc.stdout:
            if line.startswith("READY"):
                ready = time.perf_counter() - start
                break
        proc.wait(timeout=TIMEOUT_S)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    if ready is None:
        err = proc.stderr.read() if proc.stderr else ""
        last = err.strip().splitlines()[-1:] or [f"exit code {proc.returncode}"]
        raise StartFailed(last[0][-160:])
    return ready


def run(sizes: Sizes) -> list[Row]:
    names = {size: f"cold start to the home screen at {size} (median)" for size in SIZES}
    if which("Xvfb") is None:
        why = f"{NOT_AVAILABLE}: Xvfb missing (apt-get install xvfb)"
        return [Row(SECTION, names[size], None, "s", "< 2.5 s", "-", why) for size in SIZES]
    bare_cmd = [sys.executable, "-m", "bench.app_probe"]
    bare: list[float] = []
    ours: dict[str, list[float]] = {size: [] for size in SIZES}
    tree = os.environ.get("BENCH_APP_BASELINE")
    before: list[float] = []
    failure = ""
    with tempfile.TemporaryDirectory() as tmp, xvfb() as display:
        commands = {size: app_command(Path(tmp) / "journal.sqlite3", size) for size in SIZES}
        time_to_ready(bare_cmd, display)  # warm the file cache for both: every run is then alike
        if tree:
            time_to_ready(commands[SIZES[0]], display, Path(tree))
        for _ in range(sizes.runs):
            bare.append(time_to_ready(bare_cmd, display))
            for size, command in commands.items():
                if not failure:
                    try:
                        ours[size].append(time_to_ready(command, display))
                    except StartFailed as exc:
                        failure = f"{size}: {exc}"
            if tree and not failure:
                before.append(time_to_ready(commands[SIZES[0]], display, Path(tree)))
    floor = median(bare)
    anchor = f"bare Kivy window: {floor:.2f} s"
    rows = _before_rows(ours[SIZES[0]], before, floor, tree or "")
    for size in SIZES:
        if not ours[size]:
            why = f"app failed: {failure}"
            rows.append(Row(SECTION, names[size], None, "s", "< 2.5 s", anchor, why))
            continue
        value = median(ours[size])
        rows.append(
            Row(
                SECTION,
                names[size],
                value,
                "s",
                "< 2.5 s",
                anchor,
                f"{verdict(value, below=2.5)} (+{value - floor:.2f} s over the floor)",
                {"app_s": ours[size], "bare_s": bare, "app_started_with": commands[size][3:]},
            )
        )
    return rows


def _before_rows(now: list[float], before: list[float], floor: float, tree: str) -> list[Row]:
    """With ``BENCH_APP_BASELINE``: this tree's cold start at 1280x800 beside that tree's."""
    if not now or not before:
        return []
    difference = median(now) - median(before)
    return [
        Row(
            SECTION,
            f"cold start at {SIZES[0]} beside the tree before (median)",
            median(now),
            "s",
            "within 0.1 s",
            f"the tree before: {median(before):.3f} s (bare Kivy window: {floor:.2f} s)",
            f"{difference:+.3f} s ({'meets' if difference <= 0.1 else 'misses'})",
            {"app_s": now, "before_s": before, "before_tree": tree},
        )
    ]
