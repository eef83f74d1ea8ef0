"""Helpers for the firmware tests: the firmware on sys.path, a simulated clock and dice box,
and the firmware running in the MicroPython unix VM behind pipes."""

from __future__ import annotations

import json
import os
import queue
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
from dicebox import hw_host  # noqa: E402, F401
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
    for key, _field_kind, _required in p.spec_fields(schema[kind]):
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
            msgs.append(p.decode(line[:-2], p.DEVICE_MESSAGES))
        return msgs


class VMBox:
    """The firmware (firmware/host_main.py) in a subprocess: protocol on stdin/stdout, button
    commands on a control pipe, LED frames on stderr (``--show-leds``)."""

    def __init__(self, interpreter: str, *args: str) -> None:
        self.proc, self._ctl_w = spawn_host_main(interpreter, list(args))
        self.lines: queue.Queue[bytes] = queue.Queue()
        self.leds: list[str] = []
        self.stderr: list[str] = []
        self.seen: list[tuple[str, dict[str, Any]]] = []
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
            self.stderr.append(text)
            if text.startswith("LEDS "):
                self.leds.append(text[5:])

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
        msg = p.decode(line[:-2], p.DEVICE_MESSAGES)
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

    def quiet(self, seconds: float, skip: tuple[str, ...] = ("HB",)) -> list:
        """Everything but ``skip`` that arrives within ``seconds``."""
        got = []
        deadline = time.monotonic() + seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                msg = self.next(left)
            except queue.Empty:
                break
            if msg[0] not in skip:
                got.append(msg)
        return got

    def wait_leds(self, text: str, timeout: float = 1.0) -> bool:
        """True once the strip shows ``text`` (frame_text form) as its latest frame."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.leds and self.leds[-1] == text:
                return True
            time.sleep(0.01)
        return False

    def close(self) -> int:
        os.close(self._ctl_w)
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        try:
            return self.proc.wait(timeout=5)
        finally:
            if self.proc.poll() is None:
                self.proc.kill()
