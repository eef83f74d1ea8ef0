"""Helpers for the firmware tests: the firmware on sys.path, a simulated clock and dice box,
and the firmware running in the MicroPython unix VM behind pipes."""

from __future__ import annotations

import asyncio
import json
import os
import queue
import selectors
import sys
import threading
import time
from pathlib import Path
from typing import Any

from companion_app.emulator.firmware import spawn_host_main

REPO = Path(__file__).resolve().parents[2]
FIRMWARE = REPO / "firmware"
VECTORS = REPO / "tests" / "protocol_vectors"
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))

# The firmware's modules, re-exported: tests import them from here, after the path is set.
import host_main  # noqa: E402, F401
from dicebox import hw_host  # noqa: E402
from dicebox import lights as L  # noqa: E402, F401
from dicebox import protocol as p  # noqa: E402
from dicebox import screen as S  # noqa: E402, F401
from dicebox import store as Store  # noqa: E402, F401
from dicebox.app import Runner  # noqa: E402, F401
from dicebox.button import Debouncer  # noqa: E402, F401
from dicebox.core import DiceBox  # noqa: E402
from dicebox.dice import Dice, Xoshiro128  # noqa: E402


def encode_message(kind: str, values: dict[str, Any], schema: dict[str, str]) -> bytes:
    """The canonical line for a decoded message: fields in schema order, absent ones left out.
    (Not in the firmware: the box only encodes what it sends, field by field.)"""
    pairs = []
    for item in schema[kind].split():  # "key:kind", "?" after an optional one
        key = item.rstrip("?")[:-2]
        if key in values:
            pairs.append((key, values[key]))
    return bytes(p.encode(kind, tuple(pairs)))


def rows(buf: bytes, width: int = 128, height: int = 64) -> list[str]:
    """A display frame (MONO_VLSB) as text rows, ``#`` lit and ``.`` dark: the golden files."""
    out = []
    for y in range(height):
        base = (y >> 3) * width
        bit = 1 << (y & 7)
        out.append("".join("#" if buf[base + x] & bit else "." for x in range(width)))
    return out


def load_vectors(name: str) -> list[dict[str, Any]]:
    with open(VECTORS / name, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def raw(text: str) -> bytes:
    return text.encode("latin-1")


class ScriptedDice(Dice):
    """Dice that return given (yellow, red, event) rolls in turn, then repeat the last."""

    def __init__(self, rolls: list[tuple[int, int, str]]) -> None:
        super().__init__(Xoshiro128(1).getrandbits)
        self.rolls = list(rolls)

    def _next(self) -> tuple[int, int, str]:
        return self.rolls.pop(0) if len(self.rolls) > 1 else self.rolls[0]

    def roll(self) -> tuple[int, int, str]:
        return self._next()

    def event(self) -> str:
        return self._next()[2]


class SimBox:
    """A DiceBox on simulated time, with helpers that speak the protocol to it."""

    def __init__(self, dice: Dice | None = None, seed: int = 7) -> None:
        self.now = 0
        self.box = DiceBox(
            dice if dice is not None else Dice(Xoshiro128(seed).getrandbits),
            "D1CE0000000000E1",
            "0000BEEF",
            self.now,
            8,
        )
        self.lines: list[bytes] = []

    def advance(self, ms: int, step: int = 10) -> None:
        end = self.now + ms
        while self.now < end:
            self.now = min(end, self.now + step)
            self.box.button(False, self.now)
            self.box.tick(self.now)

    def send(self, kind: str, fields: tuple[tuple[str, Any], ...] = ()) -> None:
        self.box.feed(p.encode(kind, fields), self.now)

    def press(self, hold_ms: int = 60, gap_ms: int = 60) -> None:
        """A clean press sampled every ms: down for hold_ms, then released for gap_ms."""
        for _ in range(hold_ms):
            self.box.button(True, self.now)
            self.now += 1
        for _ in range(gap_ms):
            self.box.button(False, self.now)
            self.now += 1
        self.box.tick(self.now)

    def out(self) -> list[tuple[str, dict[str, Any]]]:
        """Decoded lines written since the last call."""
        msgs = []
        while (line := self.box.next_line()) is not None:
            self.lines.append(line)
            assert line.endswith(b"\r\n")
            msgs.append(p.decode(line[:-2], hw_host.DEVICE_MESSAGES))
        return msgs


class SimulatedTimeSelector(selectors.DefaultSelector):
    """A selector that never waits: when no file is ready, the time it would have waited passes
    on the simulated clock (``now``, in seconds) instead."""

    def __init__(self) -> None:
        super().__init__()
        self.now = 0.0

    def select(self, timeout: float | None = None) -> list[Any]:
        ready = super().select(0)
        if not ready and timeout is not None:
            self.now += timeout
        return ready


class SimulatedTimeLoop(asyncio.SelectorEventLoop):
    """An event loop on simulated time: its clock moves only when every task is waiting, straight
    to the next timer. A test of timers takes no real time, and no real time bounds it."""

    def __init__(self) -> None:
        self.clock = SimulatedTimeSelector()
        super().__init__(self.clock)

    def time(self) -> float:
        return self.clock.now

    def ms(self) -> int:
        """The clock in whole milliseconds (a dice box's ``ticks_ms``)."""
        return round(self.clock.now * 1000)


class VMBox:
    """The firmware (firmware/host_main.py) in a subprocess: protocol on stdin/stdout, button
    commands on a control pipe, LED frames on stderr (``--show-leds``)."""

    def __init__(self, interpreter: str, *args: str) -> None:
        self.proc, self._ctl_w = spawn_host_main(interpreter, list(args))
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.leds: list[str] = []
        self.stderr: list[str] = []
        self.seen: list[tuple[str, dict[str, Any]]] = []
        self._stderr_grew = threading.Condition()
        threading.Thread(target=self._read_out, daemon=True).start()
        threading.Thread(target=self._read_err, daemon=True).start()

    def _read_out(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(line)

    def _read_err(self) -> None:
        assert self.proc.stderr is not None
        for line in self.proc.stderr:
            text = line.decode(errors="replace").rstrip("\n")
            with self._stderr_grew:
                self.stderr.append(text)
                if text.startswith("LEDS "):
                    self.leds.append(text[5:])
                self._stderr_grew.notify_all()

    def write(self, data: bytes) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send(self, kind: str, fields: tuple[tuple[str, Any], ...] = ()) -> None:
        self.write(p.encode(kind, fields))

    def control(self, command: str) -> None:
        os.write(self._ctl_w, command.encode() + b"\n")

    def next(self, timeout: float = 3.0) -> tuple[str, dict[str, Any]]:
        line = self.lines.get(timeout=timeout)
        assert line.endswith(b"\r\n"), line
        msg = p.decode(line[:-2], hw_host.DEVICE_MESSAGES)
        self.seen.append(msg)
        return msg

    def expect(self, kind: str, timeout: float = 3.0, skip: tuple[str, ...] = ("HB",)) -> dict:
        """The next message of ``kind``, skipping only the kinds in ``skip`` on the way."""
        deadline = time.monotonic() + timeout
        while True:
            got_kind, fields = self.next(max(0.01, deadline - time.monotonic()))
            if got_kind == kind:
                return fields
            assert got_kind in skip, f"expected {kind}, got {got_kind} {fields}"

    def until_pong(self, n: str = "sync") -> list[tuple[str, dict[str, Any]]]:
        """Everything but heartbeats the box says before it answers a PING sent now: the box
        answers lines in order, so this is all it had to say about what it was sent before."""
        self.send("PING", (("n", n),))
        got = []
        while (msg := self.next())[0] != "PONG" or msg[1].get("n") != n:
            if msg[0] != "HB":
                got.append(msg)
        return got

    def until_box_time(self, up_ms: int, timeout: float = 5.0) -> list[tuple[str, dict[str, Any]]]:
        """Everything but heartbeats the box says until its clock reads ``up_ms`` (a heartbeat
        says so): what it did up to then, on its own clock."""
        got = []
        while True:
            kind, fields = self.next(timeout)
            if kind == "HB" and fields["up"] >= up_ms:
                return got
            if kind != "HB":
                got.append((kind, fields))

    def wait_stderr(self, done: Any, timeout: float = 5.0) -> bool:
        """True once ``done()`` holds, checked each time the box writes to stderr (the LED frames
        among it); False if the box stays silent that long without it holding."""
        with self._stderr_grew:
            return bool(self._stderr_grew.wait_for(done, timeout))

    def wait_leds(self, text: str, timeout: float = 5.0) -> bool:
        """True once the strip shows ``text`` (frame_text form) as its latest frame."""
        return self.wait_stderr(lambda: bool(self.leds) and self.leds[-1] == text, timeout)

    def close(self) -> int:
        os.close(self._ctl_w)
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=5)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
