"""The emulated dice box: real firmware behind a pseudo-terminal, with a wire that can fail.

`Emulator` owns the pty (the "USB port" a host opens), the firmware (`firmware.ThreadFirmware`
or `firmware.VmFirmware`) and one thread shuttling lines between them, where it injects faults,
unplugs and replugs the port (closes the pty and opens a new one) and resets the box (a new
firmware with a new boot id). It records every distinct roll the firmware made, before any
fault, as the truth tests compare against.

`VirtualDiceBox` is the same thing with the app's defaults: the virtual dice are an emulated box
opened through the same `DiceLink` as a real one.
"""

from __future__ import annotations

import contextlib
import errno
import os
import select
import tempfile
import threading
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from companion_app.device import protocol as p
from companion_app.emulator.faults import FaultInjector, FaultPlan
from companion_app.emulator.firmware import (
    Firmware,
    ThreadFirmware,
    VmFirmware,
    check_flash_file,
    firmware_args,
)

REPLUG_AFTER_S = 0.2
"""How long the port stays away on an unplug."""


@dataclass(frozen=True)
class MadeRoll:
    """A roll as the firmware sent it the first time (the wire has not touched it)."""

    boot_id: str
    seq: int
    yellow: int
    red: int
    event: str
    offline: bool
    alchemist: bool


class _LineBuffer:
    """Whole lines (terminator kept) out of a byte stream; partial lines wait, bounded."""

    def __init__(self) -> None:
        self._buf = b""

    def feed(self, data: bytes) -> list[bytes]:
        self._buf += data
        lines = []
        while True:
            cut = min(
                (i for i in (self._buf.find(b"\n"), self._buf.find(b"\r")) if i >= 0), default=-1
            )
            if cut < 0:
                break
            end = cut + 1
            if self._buf[cut : cut + 2] == b"\r\n":
                end += 1
            lines.append(self._buf[:end])
            self._buf = self._buf[end:]
        if len(self._buf) > 4 * p.MAX_LINE:
            lines.append(self._buf)  # endless line: pass it on as it is, unsplit
            self._buf = b""
        return lines


class Emulator:
    """A dice box emulated on this computer, reachable as a serial port at :attr:`port`.

    :param micropython: run the firmware in the MicroPython unix VM instead of this CPython.
    :param rp2040: run it on MicroPython's rp2 port on an emulated RP2040 (slower than real
        time; `rp2040.firmware`): no ``script``, ``resend_ms`` or ``device_id`` there, and
        ``seed`` gives each boot reproducible entropy; the chip's flash image is ``flash``'s
        name + ``.rp2040``.
    :param seed: reproducible dice (and boot ids); None: random.
    :param script: a dice script file (``yellow red event`` per line) instead of random dice.
    :param dice_mode: ``fair``, ``balanced`` or ``deck``: the box's dice mode at its first
        power-up (after a `reset` it keeps the mode of its flash record); None: the record's.
    :param faults: faults on the wire, both ways.
    :param unplug_every: unplug and replug the port after every N rolls (0: never).
    :param reset_after: restart the box once, right after its Nth roll went out (0: never).
    :param resend_ms: the firmware's resend period for unacknowledged rolls (default 2000).
    :param flash: the file holding the box's flash record (unacknowledged rolls, solo track),
        kept across `reset` like the Pico's flash; None: a temporary one, removed on `close`.
        A file there that is not a flash record is refused (ValueError), never overwritten.
    :param on_port: called with the new path after every (re)plug, the first one included.
    """

    def __init__(
        self,
        *,
        micropython: bool = False,
        rp2040: bool = False,
        seed: int | None = None,
        script: str | None = None,
        dice_mode: str | None = None,
        faults: FaultPlan | None = None,
        unplug_every: int = 0,
        reset_after: int = 0,
        resend_ms: int | None = None,
        device_id: str | None = None,
        on_port: Callable[[str], None] | None = None,
        flash: str | None = None,
    ) -> None:
        self.micropython = micropython
        self.rp2040 = rp2040
        if rp2040 and (script is not None or resend_ms is not None or device_id is not None):
            raise ValueError("the emulated RP2040 takes no script, resend period or device id")
        self.seed = seed
        self.script = script
        self.dice_mode = dice_mode
        self.faults = faults or FaultPlan()
        self.unplug_every = unplug_every
        self.reset_after = reset_after
        self.resend_ms = resend_ms
        self.device_id = device_id
        self.on_port = on_port
        self._flash_dir: tempfile.TemporaryDirectory[str] | None = None
        if flash is not None:
            check_flash_file(flash)
        else:
            self._flash_dir = tempfile.TemporaryDirectory(prefix="dicebox-flash-")
            flash = os.path.join(self._flash_dir.name, "dicebox.dat")
        self.flash = flash
        fault_seed = None if seed is None else seed * 7919 + 1
        self.to_host = FaultInjector(self.faults, fault_seed)
        self.to_box = FaultInjector(self.faults, None if fault_seed is None else fault_seed + 1)
        self.rolls: list[MadeRoll] = []
        self.boots: list[str] = []
        self.unplugs = 0
        self.resets = 0
        self._made: set[tuple[str, int]] = set()
        self._lock = threading.RLock()
        self._master: int | None = None
        self._slave: int | None = None
        self._port: str | None = None
        self._replug_at: float | None = None
        self._rolls_since_unplug = 0
        self._reset_done = False
        self._stop = threading.Event()
        self._from_fw = _LineBuffer()
        self._from_host = _LineBuffer()
        self._firmware: Firmware = self._start_firmware()
        self._plug()
        self._thread = threading.Thread(target=self._shuttle, name="dice-box-wire", daemon=True)
        self._thread.start()

    # ---- what a user of the emulator does ----------------------------------------------------

    @property
    def port(self) -> str | None:
        """The pseudo-terminal's path while plugged in, else None."""
        return self._port

    def press(self) -> None:
        """Press the roll button once."""
        self._firmware.tap()

    def now(self) -> float:
        """The box's clock in seconds: the emulated chip's own with ``rp2040`` (slower than
        real time; a host's timeouts belong on it), else this computer's monotonic clock."""
        now = getattr(self._firmware, "now", None)
        return float(now()) if now is not None else time.monotonic()

    def leds(self) -> str | None:
        """The strip as text: ``S`` ship, ``w`` wake, ``.`` sea, ``R`` alarm (see hw_host)."""
        return self._firmware.leds()

    def screen(self) -> tuple[int, bytes] | None:
        """The display: (frame number since the box started, 1,024 bytes MONO_VLSB)."""
        return self._firmware.screen()

    def unplug(self, replug_after_s: float | None = REPLUG_AFTER_S) -> None:
        """Pull the cable: the port disappears; it comes back (under a new path, perhaps)
        after ``replug_after_s`` (None: only on `replug`). The box keeps running."""
        with self._lock:
            if self._master is not None:
                self.unplugs += 1
            self._unplug()
            if replug_after_s is not None:
                self._replug_at = time.monotonic() + replug_after_s

    def replug(self) -> None:
        with self._lock:
            self._replug_at = None
            if self._master is None:
                self._plug()

    def reset(self) -> None:
        """Power-cycle the box: it boots with a new boot id and keeps only its flash (the
        unacknowledged rolls, offered again with their old boot id)."""
        with self._lock:
            self._firmware.stop()
            self.resets += 1
            self._from_fw = _LineBuffer()
            self._firmware = self._start_firmware()

    def close(self) -> None:
        self._stop.set()
        if threading.current_thread() is not self._thread:
            self._thread.join(timeout=2.0)
        with self._lock:
            self._unplug()
            self._firmware.stop()
        if self._flash_dir is not None:
            self._flash_dir.cleanup()

    def __enter__(self) -> Emulator:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ---- internals ---------------------------------------------------------------------------

    def _start_firmware(self) -> Firmware:
        boots = len(self.boots)
        boot_id = None
        seed = self.seed
        if seed is not None:
            boot_id = f"{seed & 0xFFFF:04X}{boots:04X}"
            seed += 1000 * boots
        args = firmware_args(
            seed=seed,
            boot_id=boot_id,
            device_id=self.device_id,
            script=self.script,
            resend_ms=self.resend_ms,
            flash=self.flash,
            dice_mode=self.dice_mode if not boots else None,
        )
        self.boots.append(boot_id or "?")
        if self.rp2040:
            from companion_app.emulator.rp2040.firmware import PicoFirmware

            return PicoFirmware(Path(self.flash + ".rp2040"), seed=self.seed, boot=boots)
        return VmFirmware(args) if self.micropython else ThreadFirmware(args)

    def _plug(self) -> None:
        master, slave = os.openpty()
        tty.setraw(slave)  # no echo, no line editing: bytes pass as they are
        os.set_blocking(master, False)
        self._master, self._slave = master, slave
        self._port = os.ttyname(slave)
        self._from_host = _LineBuffer()
        if self.on_port is not None:
            self.on_port(self._port)

    def _unplug(self) -> None:
        if self._master is None:
            return
        for fd in (self._master, self._slave):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._master = self._slave = None
        self._port = None

    def _shuttle(self) -> None:
        while not self._stop.is_set():
            with self._lock:
                master = self._master
                from_fw = self._firmware.from_fw
                if self._replug_at is not None and time.monotonic() >= self._replug_at:
                    self._replug_at = None
                    self._plug()
                    master = self._master
            watch = [from_fw] if master is None else [from_fw, master]
            try:
                ready, _, _ = select.select(watch, [], [], 0.01)
            except (OSError, ValueError):
                time.sleep(0.001)  # a descriptor closed under us by unplug or reset
                continue
            with self._lock:
                if self._firmware.from_fw in ready:
                    self._from_box(self._firmware.from_fw)
                if master is not None and master == self._master and master in ready:
                    self._from_port(master)

    def _from_box(self, fd: int) -> None:
        try:
            data = os.read(fd, 4096)
        except OSError:
            return
        for line in self._from_fw.feed(data):
            made = self._record(line)
            if self._master is not None:
                self._write(self._master, self.to_host.apply(line))
            if made:
                self._after_roll()

    def _from_port(self, fd: int) -> None:
        try:
            data = os.read(fd, 4096)
        except OSError as exc:
            if exc.errno in (errno.EAGAIN, errno.EWOULDBLOCK):
                return
            data = b""  # EIO: nobody has the port open right now; nothing to pass on
        for line in self._from_host.feed(data):
            out = self.to_box.apply(line)
            if out:
                # The box not reading (stopped, or its input full) loses the line.
                with contextlib.suppress(OSError):
                    os.write(self._firmware.to_fw, out)

    def _write(self, fd: int, data: bytes) -> None:
        """Write to the port; what does not fit is lost, as on USB when nobody reads."""
        while data:
            try:
                n = os.write(fd, data)
            except OSError:
                return
            data = data[n:]

    def _record(self, line: bytes) -> bool:
        try:
            message = p.decode(line.rstrip(b"\r\n"))
        except p.ProtocolError:
            return False
        if message.type == "HELLO":
            self.boots[-1] = message.text("boot")
            return False
        if message.type != "ROLL":
            return False
        # A roll kept in flash from an earlier boot names that boot.
        boot = message.text("boot") if "boot" in message.fields else self.boots[-1]
        key = (boot, message.number("seq"))
        if key in self._made:
            return False
        self._made.add(key)
        self.rolls.append(
            MadeRoll(
                key[0],
                key[1],
                message.number("y"),
                message.number("r"),
                message.text("e"),
                message.flag("off"),
                message.flag("alc"),
            )
        )
        return True

    def _after_roll(self) -> None:
        if self.reset_after and not self._reset_done and len(self.rolls) >= self.reset_after:
            self._reset_done = True
            self.reset()
        if self.unplug_every:
            self._rolls_since_unplug += 1
            if self._rolls_since_unplug >= self.unplug_every:
                self._rolls_since_unplug = 0
                self.unplug(REPLUG_AFTER_S)


class VirtualDiceBox(Emulator):
    """The app's virtual dice: an emulated box (CPython firmware, clean wire) in this process.

    Open :attr:`port` with the same `DiceLink` as a real box; `press` is the on-screen button.
    The path may change after `unplug`, so give the link an opener that asks for the current
    one: ``serial_opener(lambda: box.port)``.
    """

    def __init__(self, *, seed: int | None = None, script: str | None = None) -> None:
        super().__init__(seed=seed, script=script)
