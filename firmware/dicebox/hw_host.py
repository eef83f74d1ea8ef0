"""Host stand-in for the Pico's hardware, for CPython and the MicroPython unix VM.

- Serial: `StreamSerial` over file descriptors or file objects (stdin/stdout, a pipe, a pty),
  never blocking; `MemorySerial` for running the firmware in-process with byte buffers.
- Button: `HostButton`, a level driven by calls (`down`, `up`, `press`, `pattern`), e.g. from a
  control stream (`ControlReader`), whose ``tap`` is a press already debounced (an emulator's key).
- Dice: `ScriptedDice`, fixed rolls from a script, for reproducible emulator runs.
- LEDs: the frames shown are recorded (`HostHardware.frames`), optionally printed as text.
- Display: the latest frame is kept (`HostHardware.screen`), optionally printed as hex.
"""

import os
import select
import sys
import time

try:
    from typing import Any
except ImportError:
    pass

from .app import Hardware
from .dice import Dice
from .protocol import EVENTS

# What the box sends, "key:kind" as in `protocol.HOST_MESSAGES`: read only by hosts and tests
# (`protocol.decode(line, DEVICE_MESSAGES)`), so it is here and not in the box's heap.
DEVICE_MESSAGES = {
    "HELLO": "fw:t proto:u dev:x boot:x up:u unacked:u lost:u dice:t? draws:u?",
    "ROLL": "seq:u y:d r:d e:e t:u off:b? alc:b? boot:x?",
    "OFFLINE": "n:u first:u last:u",
    "HB": "up:u last:u unacked:u armed:b",
    "PRESS": "armed:b t:u full:b?",
    "OK": "cmd:t dice:t?",
    "ERR": "code:t cmd:t? want:x?",
    "PONG": "n:t?",
}

_CPYTHON = hasattr(os, "read")  # MicroPython's unix port has no os.read/os.write


def _fileno(stream: "Any") -> int:
    return stream if isinstance(stream, int) else stream.fileno()


class Clock:
    """Monotonic milliseconds from an arbitrary start; handles MicroPython's ticks wrap-around."""

    def __init__(self) -> None:
        self._ticks = getattr(time, "ticks_ms", None)  # MicroPython
        self._diff = getattr(time, "ticks_diff", None)
        self._mono_ns = getattr(time, "monotonic_ns", None)  # CPython
        self._last = self._raw()
        self._ms = 0

    def _raw(self) -> int:
        if self._ticks is not None:
            return self._ticks()
        assert self._mono_ns is not None
        return self._mono_ns() // 1000000

    def __call__(self) -> int:
        raw = self._raw()
        if self._diff is not None:
            self._ms += self._diff(raw, self._last)
        else:
            self._ms += raw - self._last
        self._last = raw
        return self._ms


class _Reader:
    """Non-blocking reads from a file descriptor / stream; `read()` -> bytes, b"" or None (EOF)."""

    MAX_READ = 512

    def __init__(self, stream: "Any") -> None:
        self._eof = False
        if _CPYTHON:
            self._fd = _fileno(stream)
        else:
            if isinstance(stream, int):
                stream = open(stream, "rb")
            self._stream = getattr(stream, "buffer", stream)
            self._poll = select.poll()
            self._poll.register(stream, select.POLLIN)

    def read(self) -> bytes | None:
        if self._eof:
            return None
        if _CPYTHON:
            ready, _, _ = select.select([self._fd], [], [], 0)
            if not ready:
                return b""
            try:
                data = os.read(self._fd, self.MAX_READ)
            except OSError:  # e.g. EIO on a pty whose other side closed
                data = b""
            if not data:
                self._eof = True
                return None
            return data
        # MicroPython: read(n) on a stream waits for all n bytes, so take one byte at a time
        # while poll says more is there.
        out = bytearray()
        while len(out) < self.MAX_READ:
            events = self._poll.poll(0)
            if not events:
                break
            flags = events[0][1]
            if not flags & select.POLLIN:
                if flags & (select.POLLHUP | select.POLLERR):
                    self._eof = True
                break
            byte = self._stream.read(1)
            if not byte:
                self._eof = True
                break
            out += byte
        if not out and self._eof:
            return None
        return bytes(out)


class StreamSerial:
    """The dice box's USB serial over two host streams (or one read/write fd, e.g. a pty)."""

    def __init__(self, rx: "Any", tx: "Any") -> None:
        self._reader = _Reader(rx)
        if _CPYTHON:
            self._tx_fd = _fileno(tx)
        else:
            if isinstance(tx, int):
                tx = open(tx, "wb")
            self._tx = getattr(tx, "buffer", tx)
            self._tx_poll = select.poll()
            self._tx_poll.register(tx, select.POLLOUT)

    def read(self) -> bytes | None:
        return self._reader.read()

    def write(self, data: bytes) -> int:
        """Take what the other side has room for; 0 when it is not reading (like an rp2 port)."""
        try:
            if _CPYTHON:
                _, ready, _ = select.select([], [self._tx_fd], [], 0)
                if not ready:
                    return 0
                return os.write(self._tx_fd, data)
            if not self._tx_poll.poll(0):
                return 0
            n = self._tx.write(data)
            if hasattr(self._tx, "flush"):
                self._tx.flush()
            return len(data) if n is None else n
        except OSError:
            return 0


class MemorySerial:
    """In-process serial: `to_device` is fed by the host side, `from_device` collects output."""

    def __init__(self) -> None:
        self.to_device = bytearray()
        self.from_device = bytearray()
        self.closed = False
        self.reading = True  # False: behave like a host that stopped reading (writes take 0)

    def inject(self, data: bytes) -> None:
        self.to_device += data

    def take(self) -> bytes:
        out = bytes(self.from_device)
        self.from_device[:] = b""
        return out

    def read(self) -> bytes | None:
        if self.to_device:
            data = bytes(self.to_device)
            self.to_device[:] = b""
            return data
        return None if self.closed else b""

    def write(self, data: bytes) -> int:
        if not self.reading:
            return 0
        self.from_device += data
        return len(data)


class HostButton:
    """The roll button as a level over time. Scheduled changes apply when their time comes."""

    def __init__(self, clock: "Any") -> None:
        self._clock = clock
        self._level = False
        self._changes = []  # type: list[tuple]

    def down(self) -> None:
        self._changes = []
        self._level = True

    def up(self) -> None:
        self._changes = []
        self._level = False

    def press(self, hold_ms: int = 80) -> None:
        """A clean press held for ``hold_ms``."""
        self.pattern(((1, hold_ms), (0, 0)))

    def pattern(self, segments: "Any") -> None:
        """Levels in a row: ((level, ms), ...) starting now, e.g. bounce then hold then release."""
        t = self._clock()
        changes = []
        for level, ms in segments:
            changes.append((t, bool(level)))
            t += ms
        self._changes = changes

    def pressed(self) -> bool:
        now = self._clock()
        changes = self._changes
        while changes and changes[0][0] <= now:
            self._level = changes.pop(0)[1]
        return self._level


class ControlReader:
    """Button commands, one per line, from a stream: ``press [hold_ms]``, ``down``, ``up``,
    ``pattern L:MS,L:MS,...`` (L is 1 pressed / 0 released), ``tap`` and ``quit``.

    ``tap`` is one clean press handed straight to ``on_tap`` (set by the runner's owner), past
    the debouncer's 80 ms lock-out: an emulator's key press is already clean, and tests can
    roll as fast as the link answers."""

    def __init__(self, stream: "Any", button: HostButton) -> None:
        self._reader = _Reader(stream)
        self._button = button
        self._buf = b""
        self.quit = False
        self.on_tap = None  # type: Any

    def poll(self) -> None:
        data = self._reader.read()
        if data is None:
            return
        self._buf += data
        while b"\n" in self._buf:
            line, self._buf = self._buf.split(b"\n", 1)
            self.command(line.decode().strip())

    def command(self, text: str) -> None:
        words = text.split()
        if not words:
            return
        cmd = words[0]
        try:
            if cmd == "press":
                self._button.press(int(words[1]) if len(words) > 1 else 80)
            elif cmd == "down":
                self._button.down()
            elif cmd == "up":
                self._button.up()
            elif cmd == "pattern":
                segments = []
                for part in words[1].split(","):
                    level, ms = part.split(":")
                    segments.append((int(level), int(ms)))
                self._button.pattern(segments)
            elif cmd == "tap":
                if self.on_tap is not None:
                    self.on_tap()
            elif cmd == "quit":
                self.quit = True
        except (ValueError, IndexError):
            sys.stderr.write(f"control: cannot read {text!r}\n")


class ScriptedDice(Dice):
    """Rolls from a script, in turn, starting over after the last. One roll per line:
    ``yellow red event`` (e.g. ``3 5 ship``); blank lines and ``#`` comments are skipped.
    An Alchemist press takes only the event of the next scripted roll."""

    def __init__(self, rolls: list) -> None:
        super().__init__(lambda k: 0)
        if not rolls:
            raise ValueError("the dice script has no rolls")
        self.rolls = rolls
        self._next = 0

    @staticmethod
    def parse(text: str) -> list:
        rolls = []
        number = 0
        for line in text.split("\n"):
            number += 1
            words = line.split("#", 1)[0].split()
            if not words:
                continue
            ok = len(words) == 3 and words[0] in "123456" and words[1] in "123456"
            if not (ok and len(words[0]) == 1 and len(words[1]) == 1 and words[2] in EVENTS):
                raise ValueError(f"dice script line {number}: want 'yellow red event'")
            rolls.append((int(words[0]), int(words[1]), words[2]))
        return rolls

    @classmethod
    def from_file(cls, path: str) -> "ScriptedDice":
        with open(path) as f:
            return cls(cls.parse(f.read()))

    def _take(self) -> tuple:
        roll = self.rolls[self._next % len(self.rolls)]
        self._next += 1
        return roll

    def roll(self) -> tuple:
        return self._take()

    def event(self) -> str:
        return self._take()[2]


def frame_text(frame: list) -> str:
    """One character per LED: . off/sea, S ship, w wake, R red, Y/B/G castle, A amber, W white."""
    out = []
    for r, g, b in frame:
        top = max(r, g, b)
        if top == 0:
            out.append(".")
        elif top < 20:
            out.append("w" if r > b else ".")
        elif r > 40 and g > 40 and b > 40:
            out.append("W")
        elif r > 40 and g > 40:
            out.append("S" if b > 0 else "Y")
        elif r >= g and r >= b:
            out.append("A" if g > 20 else "R")
        elif b >= g:
            out.append("B")
        else:
            out.append("G")
    return "".join(out)


class HostHardware(Hardware):
    """All of the dice box's hardware, simulated. ``frames`` records (ms, frame) on each change."""

    MAX_FRAMES = 2000

    def __init__(
        self,
        serial: "Any",
        clock: "Any" = None,
        button: HostButton | None = None,
        control: ControlReader | None = None,
        show_leds: bool = False,
        show_display: bool = False,
    ) -> None:
        self.clock = clock if clock is not None else Clock()
        self.serial = serial
        self.button = button if button is not None else HostButton(self.clock)
        self.control = control
        self.show_leds = show_leds
        self.show_display = show_display
        self.screen = b""  # the display's latest frame (MONO_VLSB bytes)
        self.screen_frames = 0  # frames sent to the display
        self.screen_ms = -1  # when the latest one was sent
        self.frames = []  # type: list[tuple]
        self.frame = []  # type: list
        self.status = False
        self.hz = 0
        self.watchdog_feeds = 0
        self.errors = []  # type: list[str]

    def ticks_ms(self) -> int:
        return self.clock()

    def button_pressed(self) -> bool:
        if self.control is not None:
            self.control.poll()
        return self.button.pressed()

    def read(self) -> bytes | None:
        if self.control is not None and self.control.quit:
            return None
        return self.serial.read()

    def write(self, data: bytes) -> int:
        return self.serial.write(data)

    def show(self, frame: list) -> None:
        self.frame = frame
        if len(self.frames) >= self.MAX_FRAMES:
            self.frames.pop(0)
        self.frames.append((self.clock(), frame))
        if self.show_leds:
            sys.stderr.write(f"LEDS {frame_text(frame)}\n")

    def status_led(self, on: bool) -> None:
        self.status = on

    def display(self, buf: bytearray) -> None:
        self.screen = bytes(buf)
        self.screen_frames += 1
        self.screen_ms = self.clock()
        if self.show_display:
            sys.stderr.write("OLED " + self.screen.hex() + "\n")

    def tone(self, hz: int) -> None:
        self.hz = hz

    def feed_watchdog(self) -> None:
        self.watchdog_feeds += 1

    def fault(self, where: str, exc: BaseException) -> None:
        text = f"{where}: {exc!r}"
        self.errors.append(text)
        sys.stderr.write(f"dicebox fault in {text}\n")


def entropy(n: int) -> bytes:
    return os.urandom(n)
