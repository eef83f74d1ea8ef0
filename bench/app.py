"""App cold start: a fresh process to a usable home screen under a private Xvfb, against a bare
Kivy hello-world window started the same way in the same run (the floor any Kivy app pays).

Both runs are timed by this process, from spawning the child to reading its ``READY`` line, and
interleaved (bare, app, bare, app, ...); the figure is the median. The app is started with its own
``--exit-when-ready``, the bare window through `bench.app_probe` (first frame after build).
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


def app_command(journal: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "companion_app",
        "--virtual-dice",
        "--exit-when-ready",
        "--journal",
        str(journal),
    ]


def time_to_ready(command: list[str], display: str) -> float:
    """Seconds from spawning ``command`` to its ``READY`` line on stdout."""
    env = {**os.environ, "DISPLAY": display, "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_ARGS": "1"}
    start = time.perf_counter()
    proc = subprocess.Popen(
        command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
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
    name = "cold start to the home screen (median)"
    if which("Xvfb") is None:
        why = f"{NOT_AVAILABLE}: Xvfb missing (apt-get install xvfb)"
        return [Row(SECTION, name, None, "s", "< 2.5 s", "-", why)]
    bare_cmd = [sys.executable, "-m", "bench.app_probe"]
    bare: list[float] = []
    ours: list[float] = []
    failure = ""
    with tempfile.TemporaryDirectory() as tmp, xvfb() as display:
        command = app_command(Path(tmp) / "journal.sqlite3")
        time_to_ready(bare_cmd, display)  # warm the file cache for both: every run is then alike
        for _ in range(sizes.runs):
            bare.append(time_to_ready(bare_cmd, display))
            if not failure:
                try:
                    ours.append(time_to_ready(command, display))
                except StartFailed as exc:
                    failure = str(exc)
    floor = median(bare)
    anchor = f"bare Kivy window: {floor:.2f} s"
    if not ours:
        return [Row(SECTION, name, None, "s", "< 2.5 s", anchor, f"app failed: {failure}")]
    value = median(ours)
    return [
        Row(
            SECTION,
            name,
            value,
            "s",
            "< 2.5 s",
            anchor,
            f"{verdict(value, below=2.5)} (+{value - floor:.2f} s over the floor)",
            {"app_s": ours, "bare_s": bare, "app_started_with": "--exit-when-ready"},
        )
    ]
