"""The emulated Pico as the emulator's third kind of firmware (``--rp2040``), beside the
firmware under CPython and in the MicroPython unix VM: protocol bytes through two pipes, the
button, the strip and the display, as `companion_app.emulator.firmware.Firmware` has them.

The chip runs as fast as the emulation goes (a fraction of real time) and is not paced: a host
that talks to it should take its time from the chip (`DiceLink(..., clock=firmware.now)`); one
on real time sees a slow box (heartbeats seconds apart).
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import threading
from pathlib import Path
from typing import Any

from companion_app.emulator.firmware import firmware_module
from companion_app.emulator.rp2040 import Pico, strip_colours

TAP_S = 0.1  # a tap holds the button this long on the chip's clock


def boot_entropy(seed: int | None, boot: int) -> bytes | None:
    """Each boot's ring-oscillator bits: from ``seed`` (reproducible dice and boot ids on the
    emulated chip, not the same as the VM's for that seed), or random."""
    if seed is None:
        return None
    return hashlib.sha256(f"dicebox-rp2040:{seed}:{boot}".encode()).digest() * 2


class PicoFirmware:
    """The firmware on the emulated Pico. ``flash`` is the chip's whole flash image, made on
    the first boot and kept across a reset (a new `PicoFirmware` on the same file)."""

    def __init__(self, flash: Path, *, seed: int | None = None, boot: int = 0) -> None:
        self.pico = Pico(flash, entropy=boot_entropy(seed, boot))
        self._hw_host: Any = firmware_module("dicebox.hw_host")
        host_r, self.to_fw = os.pipe()
        self.from_fw, self._dev_w = os.pipe()
        os.set_blocking(self.to_fw, False)
        os.set_blocking(self.from_fw, False)
        self._host_r = host_r
        self._stopped = threading.Event()
        self.pico.on_serial = self._to_host
        threading.Thread(target=self._from_host, name="pico-serial", daemon=True).start()

    def now(self) -> float:
        return self.pico.now()

    def _to_host(self, data: bytes) -> None:
        with contextlib.suppress(OSError):
            os.write(self._dev_w, data)

    def _from_host(self) -> None:
        while not self._stopped.is_set():
            try:
                data = os.read(self._host_r, 4096)
            except OSError:
                return
            if not data:
                return
            self.pico.write(data)

    def tap(self) -> None:
        self.pico.tap(TAP_S)

    def leds(self) -> str | None:
        strips = self.pico.board.strips
        return str(self._hw_host.frame_text(strip_colours(strips[-1][1]))) if strips else None

    def screen(self) -> tuple[int, bytes] | None:
        frames = self.pico.board.frames
        return (len(frames), frames[-1][1]) if frames else None

    def stop(self) -> None:
        """Power off: the chip stops where it is; its flash file keeps what was written."""
        self._stopped.set()
        self.pico.close()
        for fd in (self.to_fw, self.from_fw, self._host_r, self._dev_w):
            with contextlib.suppress(OSError):
                os.close(fd)
