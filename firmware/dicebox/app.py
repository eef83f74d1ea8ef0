"""The asyncio runner: ties a `DiceBox` to a hardware layer with a few small tasks.

The hardware layer (`hw_rp2.Rp2Hardware` on the Pico, `hw_host.HostHardware` on a computer)
provides the methods of `Hardware`. No task ever blocks: serial reads return what is there,
serial writes take what fits, and each task sleeps between rounds.
"""

import asyncio

try:
    from typing import Any
except ImportError:
    pass

from .core import DiceBox
from .screen import Screen


class Hardware:
    """What the runner needs from the hardware. Subclasses implement every method."""

    def ticks_ms(self) -> int:
        """Milliseconds from a clock that never goes back and never wraps."""
        raise NotImplementedError

    def button_pressed(self) -> bool:
        """The roll button's level right now (True = held down)."""
        raise NotImplementedError

    def read(self) -> bytes | None:
        """Bytes received and waiting (b"" if none); None once the input has ended for good."""
        raise NotImplementedError

    def write(self, data: bytes) -> int:
        """Queue up to len(data) bytes for the host without blocking; return how many were taken."""
        raise NotImplementedError

    def show(self, frame: list) -> None:
        """Light the strip: one (r, g, b) per LED."""
        raise NotImplementedError

    def status_led(self, on: bool) -> None:
        raise NotImplementedError

    def display(self, buf: bytearray) -> None:
        """Show a 128x64 frame (MONO_VLSB bytes, `screen.Screen.buf`) on the OLED."""
        raise NotImplementedError

    def tone(self, hz: int) -> None:
        """Buzzer at ``hz`` (0 = silent)."""
        raise NotImplementedError

    def feed_watchdog(self) -> None:
        raise NotImplementedError

    def fault(self, where: str, exc: BaseException) -> None:
        """A task hit an unexpected exception (it carries on); report it if possible."""


async def sleep_ms(ms: int) -> None:
    fn = getattr(asyncio, "sleep_ms", None)  # MicroPython's, avoids float seconds
    if fn is not None:
        await fn(ms)
    else:
        await asyncio.sleep(ms / 1000)


class Runner:
    BUTTON_POLL_MS = 1  # button sampling period
    SERIAL_POLL_MS = 2  # serial read/write period
    TICK_MS = 10  # timers, LEDs, status LED, buzzer, watchdog
    DRAIN_MS = 300  # at end of input (host only): time allowed to flush pending output

    def __init__(self, box: DiceBox, hw: "Any") -> None:
        self.box = box
        self.hw = hw
        self.running = False
        self.faults = 0
        self._pending = b""
        self._frame = None  # type: list | None
        self._status = None  # type: bool | None
        self._tone = -1
        self.screen = Screen()
        self._screen_state = None  # type: tuple | None

    def stop(self) -> None:
        self.running = False

    def _fault(self, where: str, exc: BaseException) -> None:
        self.faults += 1
        self.hw.fault(where, exc)

    def flush(self) -> None:
        """Write as much pending output as the port takes right now."""
        hw = self.hw
        box = self.box
        while True:
            if not self._pending:
                line = box.next_line()
                if line is None:
                    return
                self._pending = line
            n = hw.write(self._pending)
            if n <= 0:
                return
            self._pending = self._pending[n:]

    def output_idle(self) -> bool:
        return not self._pending and not self.box.outbox

    async def _button_task(self) -> None:
        hw = self.hw
        box = self.box
        while self.running:
            try:
                if box.button(hw.button_pressed(), hw.ticks_ms()):
                    self.flush()  # the ROLL line goes out now, not on the next serial round
                    self.refresh(hw.ticks_ms())  # the display (without `box.on_roll`)
            except Exception as exc:
                self._fault("button", exc)
            await sleep_ms(self.BUTTON_POLL_MS)

    async def _serial_task(self) -> None:
        hw = self.hw
        box = self.box
        while self.running:
            try:
                data = hw.read()
                if data is None:
                    await self._drain()
                    self.running = False
                    return
                if data:
                    box.feed(data, hw.ticks_ms())
                self.flush()
            except Exception as exc:
                self._fault("serial", exc)
            await sleep_ms(self.SERIAL_POLL_MS)

    async def _drain(self) -> None:
        deadline = self.hw.ticks_ms() + self.DRAIN_MS
        while not self.output_idle() and self.hw.ticks_ms() < deadline:
            self.flush()
            await sleep_ms(self.SERIAL_POLL_MS)

    def refresh(self, now: int) -> bool:
        """Redraw the display if what it shows changed; True when a frame went out."""
        state = self.box.screen_state(now)
        if state == self._screen_state:
            return False
        self._screen_state = state
        self.screen.draw(state)
        self.hw.display(self.screen.buf)
        return True

    def tick(self) -> None:
        """One round of timers and outputs (also callable directly)."""
        hw = self.hw
        box = self.box
        now = hw.ticks_ms()
        box.tick(now)
        frame = box.frame(now)
        if frame != self._frame:
            self._frame = frame
            hw.show(frame)
        status = box.status_led(now)
        if status != self._status:
            self._status = status
            hw.status_led(status)
        tone = box.tone(now)  # before the display: a frame takes 25 ms over I2C
        if tone != self._tone:
            self._tone = tone
            hw.tone(tone)
        self.refresh(now)
        hw.feed_watchdog()

    async def _tick_task(self) -> None:
        while self.running:
            try:
                self.tick()
            except Exception as exc:
                self._fault("tick", exc)
            await sleep_ms(self.TICK_MS)

    async def run(self) -> None:
        """Run until `stop` is called or (on the host) the input ends."""
        self.running = True
        tasks = [
            asyncio.create_task(self._serial_task()),
            asyncio.create_task(self._button_task()),
            asyncio.create_task(self._tick_task()),
        ]
        while self.running:
            await sleep_ms(20)
        for task in tasks:
            task.cancel()
        await sleep_ms(0)
        self.flush()
        self.hw.tone(0)
