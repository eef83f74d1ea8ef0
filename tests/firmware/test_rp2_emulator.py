"""``python -m companion_app.emulator --rp2040``: the emulator's third kind of box, the firmware
on the emulated Pico behind a pty, as a host sees it (bounded by the chip's clock)."""

from __future__ import annotations

import os
import select

import pytest

from companion_app.device import protocol as p
from companion_app.emulator import Emulator

pytestmark = [pytest.mark.rp2040, pytest.mark.slow]


class Client:
    """A plain protocol client on the box's port (docs/protocol.md), no `DiceLink`."""

    def __init__(self, box: Emulator) -> None:
        assert box.port is not None
        self.box = box
        self.fd = os.open(box.port, os.O_RDWR | os.O_NOCTTY)
        self.buf = b""

    def send(self, kind: str, fields: dict[str, object] | None = None) -> None:
        os.write(self.fd, p.encode(kind, fields))

    def line(self, kind: str, chip_s: float) -> dict | None:
        """The next protocol line of ``kind`` (others skipped), or None when the chip's clock
        passes ``chip_s`` more seconds first."""
        limit = self.box.now() + chip_s
        while self.box.now() < limit:
            while b"\n" in self.buf:
                raw, self.buf = self.buf.split(b"\n", 1)
                if raw.startswith(kind.encode() + b" "):
                    return dict(p.decode(raw.rstrip(b"\r")).fields)
            if select.select([self.fd], [], [], 0.1)[0]:
                self.buf += os.read(self.fd, 4096)
        return None

    def close(self) -> None:
        os.close(self.fd)


def test_each_press_rolls_once_behind_a_pty() -> None:
    """A client that acknowledges each roll and presses again at once, as a player at the
    table may: every press is one roll (the tap's hold ran on the host's clock, and a press
    that came while the last one was still held was merged into it: every other one lost)."""
    with Emulator(rp2040=True, seed=3) as box:
        client = Client(box)
        try:
            client.send("HELLO", {"proto": 1})
            hello = client.line("HELLO", 5.0)
            assert hello is not None
            # the box's button counts once it has read released a moment after power-up
            while (hb := client.line("HB", 3.0)) is not None and hb["up"] < 500:
                pass
            rolls = []
            for press in range(1, 6):
                box.press()
                roll = client.line("ROLL", 2.0)
                assert roll is not None, f"press {press} gave no roll"
                rolls.append((roll["boot"], roll["seq"]))
                client.send("ACK", {"seq": roll["seq"]})
            assert client.line("ROLL", 0.5) is None  # no press rolled twice
        finally:
            client.close()
        assert rolls == [(hello["boot"], seq) for seq in range(1, 6)]
        assert box.leds() is not None and box.screen() is not None
        assert [(r.boot_id, r.seq) for r in box.rolls] == rolls
