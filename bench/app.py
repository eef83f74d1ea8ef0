"""App cold start: a fresh process to a usable home screen under a private Xvfb, against a bare
Kivy hello-world window of the same size started the same way in the same run (the floor any
Kivy app pays).

Both runs are timed by this process, from spawning the child to reading its ``READY`` line, and
interleaved (bare, app, bare, app, ...); the figure is the median. The app is started with its own
``--exit-when-ready``, the bare window through `bench.app_probe` (first frame after build).
``BENCH_APP_BASELINE=<an earlier checkout>`` starts that tree's app too, at both sizes,
interleaved the same way, so a change's cost at start is read beside the tree before it.

Every child runs from compiled bytecode, as the installed app does (pip compiles it when it
installs the wheel): the children write it to a private cache (``PYTHONPYCACHEPREFIX``) in a
first start of each that is not timed, whatever ``PYTHONDONTWRITEBYTECODE`` says, so a checkout
that keeps no bytecode is not timed compiling its sources.
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

from bench.table import NOT_AVAILABLE, Row, median
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


def time_to_ready(
    command: list[str],
    display: str,
    tree: Path | None = None,
    *,
    bytecode: Path | None = None,
    cpu: list[float] | None = None,
) -> float:
    """Seconds from spawning ``command`` (in checkout ``tree``, else this one) to its ``READY``
    line on stdout; ``bytecode``: the folder its compiled modules are kept in. The processor
    time the child had used when its ``READY`` line was read is added to ``cpu`` if given (from
    /proc): on a loaded machine it tells two trees apart where wall time is noise."""
    env = {**os.environ, "DISPLAY": display, "KIVY_NO_CONSOLELOG": "1", "KIVY_NO_ARGS": "1"}
    if bytecode is not None:
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(bytecode)
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
                used = _processor_time(proc.pid)
                if cpu is not None and used is not None:
                    cpu.append(used)
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


def _processor_time(pid: int) -> float | None:
    """Seconds of processor time (user + system) process ``pid`` has used so far."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except (OSError, IndexError):
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(sizes: Sizes) -> list[Row]:
    names = {size: f"cold start to the home screen at {size} (median)" for size in SIZES}
    if which("Xvfb") is None:
        why = f"{NOT_AVAILABLE}: Xvfb missing (apt-get install xvfb)"
        return [Row(SECTION, names[size], None, "s", "≤ floor + 0.2 s", "-", why) for size in SIZES]
    bare_cmd = {size: [sys.executable, "-m", "bench.app_probe", size] for size in SIZES}
    bare: dict[str, list[float]] = {size: [] for size in SIZES}
    ours: dict[str, list[float]] = {size: [] for size in SIZES}
    baseline = os.environ.get("BENCH_APP_BASELINE")
    tree = Path(baseline) if baseline else None
    before: dict[str, list[float]] = {size: [] for size in SIZES}
    cpu: dict[str, list[float]] = {size: [] for size in SIZES}
    cpu_bare: dict[str, list[float]] = {size: [] for size in SIZES}
    cpu_before: dict[str, list[float]] = {size: [] for size in SIZES}
    failure = ""
    with tempfile.TemporaryDirectory() as tmp, xvfb() as display:
        bytecode = Path(tmp) / "bytecode"
        commands = {size: app_command(Path(tmp) / "journal.sqlite3", size) for size in SIZES}
        # A first start of each, not timed: its bytecode written, the file cache warm.
        time_to_ready(bare_cmd[SIZES[0]], display, bytecode=bytecode)
        time_to_ready(commands[SIZES[0]], display, bytecode=bytecode)
        if tree:
            time_to_ready(commands[SIZES[0]], display, tree, bytecode=bytecode)
        for _ in range(sizes.runs):
            for size, command in commands.items():
                if failure:
                    break
                bare[size].append(
                    time_to_ready(bare_cmd[size], display, bytecode=bytecode, cpu=cpu_bare[size])
                )
                try:
                    ours[size].append(
                        time_to_ready(command, display, bytecode=bytecode, cpu=cpu[size])
                    )
                    if tree:
                        before[size].append(
                            time_to_ready(
                                command, display, tree, bytecode=bytecode, cpu=cpu_before[size]
                            )
                        )
                except StartFailed as exc:
                    failure = f"{size}: {exc}"
    rows = []
    for size in SIZES:
        if not bare[size]:
            continue
        floor = median(bare[size])
        anchor = f"bare Kivy window of that size: {floor:.2f} s"
        if not ours[size]:
            why = f"app failed: {failure}"
            rows.append(Row(SECTION, names[size], None, "s", "≤ floor + 0.2 s", anchor, why))
            continue
        value = median(ours[size])
        over = value - floor
        processor = ""
        if cpu[size] and cpu_bare[size]:
            extra = median(cpu[size]) - median(cpu_bare[size])
            processor = f"; processor time +{extra:.2f} s over the floor's"
        rows.append(
            Row(
                SECTION,
                names[size],
                value,
                "s",
                "≤ floor + 0.2 s",
                anchor,
                f"{'meets' if over <= 0.2 else 'misses'} (+{over:.2f} s over the floor{processor})",
                {
                    "app_s": ours[size],
                    "bare_s": bare[size],
                    "app_cpu_s": cpu[size],
                    "bare_cpu_s": cpu_bare[size],
                    "app_started_with": commands[size][3:],
                },
            )
        )
        rows += _before_rows(
            size,
            ours[size],
            before[size],
            bare[size],
            str(tree or ""),
            (cpu[size], cpu_before[size]),
        )
    return rows


def _before_rows(
    size: str,
    now: list[float],
    before: list[float],
    bare: list[float],
    tree: str,
    cpu: tuple[list[float], list[float]],
) -> list[Row]:
    """With ``BENCH_APP_BASELINE``: this tree's cold start beside that tree's, run by run."""
    if not now or not before:
        return []
    floor = median(bare)
    difference = median(now) - median(before)
    processor = ""
    if cpu[0] and cpu[1]:
        processor = f"; processor time {median(cpu[0]):.2f} s against {median(cpu[1]):.2f} s"
    return [
        Row(
            SECTION,
            f"cold start at {size} beside the tree before (median)",
            median(now),
            "s",
            "-",
            f"the tree before: {median(before):.3f} s (+{median(before) - floor:.2f} s over "
            f"the floor)",
            f"{difference:+.3f} s{processor}",
            {
                "app_s": now,
                "before_s": before,
                "bare_s": bare,
                "app_cpu_s": cpu[0],
                "before_cpu_s": cpu[1],
                "before_tree": tree,
            },
        )
    ]
