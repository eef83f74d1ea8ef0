"""``python -m companion_app.emulator --rp2040``: the emulator's third kind of box, the firmware
on the emulated Pico behind a pty, as a host sees it (reads block until the box speaks; the
suite's timeout is the only wall-clock bound)."""

from __future__ import annotations

import os

import pytest

from companion_app.device import protocol as p
from companion_app.emulator import Emulator

pytestmark = [pytest.mark.rp2040, pytest.mark.slow]


def read_line(fd: int, kind: str) -> dict:
    """The next protocol line of ``kind`` from the port (others skipped)."""
    buf = b""
    while True:
        buf += os.read(fd, 1)
        if buf.endswith(b"\n"):
            line, buf = buf.rstrip(b"\r\n"), b""
            if line.startswith(kind.encode() + b" "):
                return dict(p.decode(line).fields)


def test_the_rp2040_mode_rolls_behind_a_pty() -> None:
    with Emulator(rp2040=True, seed=4) as box:
        assert box.port is not None
        fd = os.open(box.port, os.O_RDWR | os.O_NOCTTY)
        try:
            os.write(fd, p.encode("HELLO", {"proto": 1}))
            hello = read_line(fd, "HELLO")
            # the box's button counts once it has read released a moment after power-up
            while read_line(fd, "HB")["up"] < 500:
                pass
            box.press()
            roll = read_line(fd, "ROLL")
        finally:
            os.close(fd)
        assert (roll["boot"], roll["seq"]) == (hello["boot"], 1)
        assert box.leds() is not None and box.screen() is not None
        assert [(r.boot_id, r.seq) for r in box.rolls][:1] == [(hello["boot"], 1)]
