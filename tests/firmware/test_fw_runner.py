"""The asyncio runner embedded in-process under CPython with injected streams, on a simulated
clock (the box's and the event loop's), and the Pico hardware layer's logic against stand-ins for
machine/neopixel and pipes for the USB port."""

from __future__ import annotations

import asyncio
import os
import sys
import time
import types
from typing import Any

import pytest
from fwtools import DiceBox, Runner, SimulatedTimeLoop, host_main, hw_host, p


def decode_all(data: bytes) -> list[tuple[str, dict[str, Any]]]:
    return [p.decode(line, hw_host.DEVICE_MESSAGES) for line in p.LineSplitter().feed(data)]


def make(serial: Any, seed: int = 7) -> tuple[DiceBox, hw_host.HostHardware, Runner]:
    opts = host_main.parse_args(["--seed", str(seed), "--boot-id", "0000BEEF"])
    return host_main.build(opts, serial)


@pytest.fixture
def loop(monkeypatch: pytest.MonkeyPatch) -> Any:
    """An event loop on simulated time; a box built while it is set up reads the same clock."""
    simulated = SimulatedTimeLoop()
    monkeypatch.setattr(hw_host, "Clock", lambda: simulated.ms)
    yield simulated
    simulated.close()


async def until(predicate: Any, timeout: float = 2.0) -> None:
    """Wait (on the loop's clock) until ``predicate`` holds."""
    clock = asyncio.get_running_loop()
    deadline = clock.time() + timeout
    while not predicate():
        assert clock.time() < deadline, "timed out"
        await asyncio.sleep(0.005)


def test_in_process_with_memory_serial(loop: SimulatedTimeLoop) -> None:
    serial = hw_host.MemorySerial()
    box, hw, runner = make(serial)
    got: list[tuple[str, dict[str, Any]]] = []

    def messages(kind: str) -> list[dict[str, Any]]:
        got.extend(decode_all(serial.take()))
        return [f for k, f in got if k == kind]

    async def scenario() -> None:
        task = asyncio.create_task(runner.run())
        await until(lambda: bool(messages("HELLO")))
        serial.inject(p.encode("HELLO") + p.encode("TRACK", (("pos", 2), ("len", 7))))
        await until(lambda: len(messages("HELLO")) == 2 and bool(messages("OK")))
        await asyncio.sleep(0.05)
        hw.button.press(40)
        await until(lambda: bool(messages("ROLL")))
        serial.inject(b"\x03\x03\r\n" + p.encode("PING", (("n", "after"),)))  # Ctrl-C: a byte
        await until(lambda: bool(messages("PONG")))
        serial.closed = True  # end of input: the runner drains its output and stops
        await asyncio.wait_for(task, 2)

    loop.run_until_complete(scenario())
    assert messages("ROLL")[0]["seq"] == 1 and "off" not in messages("ROLL")[0]
    assert messages("PONG") == [{"n": "after"}]
    assert messages("ERR") == [{"code": "frame"}]  # the line that carried the Ctrl-Cs
    assert hw_host.frame_text(hw.frames[0][1]) == "S......."
    assert any(hw_host.frame_text(f).startswith("wwS") for _, f in hw.frames)
    assert hw.watchdog_feeds > 5 and hw.status and runner.faults == 0
    assert box.ring[0].seq == 1  # not acknowledged: still kept


def test_host_not_reading_never_blocks_and_loses_no_roll(loop: SimulatedTimeLoop) -> None:
    serial = hw_host.MemorySerial()
    serial.reading = False  # port open, nobody reads: writes take nothing
    box, hw, runner = make(serial)

    async def scenario() -> None:
        task = asyncio.create_task(runner.run())
        await asyncio.sleep(0.05)
        stuck_at, fed = loop.ms(), hw.watchdog_feeds
        for _ in range(3):
            hw.button.press(30)
            await asyncio.sleep(0.15)
        assert box.seq == 3  # presses still register while output is stuck
        # and every task kept its pace: the watchdog was fed each 10 ms round all along
        assert hw.watchdog_feeds - fed >= (loop.ms() - stuck_at) // Runner.TICK_MS - 1
        serial.reading = True
        serial.inject(p.encode("HELLO"))
        await until(lambda: b"OFFLINE" in serial.from_device)
        await asyncio.sleep(0.05)
        serial.closed = True
        await asyncio.wait_for(task, 2)

    loop.run_until_complete(scenario())
    msgs = decode_all(serial.take())
    rolls = [f for k, f in msgs if k == "ROLL"]
    assert [r["seq"] for r in rolls][-3:] == [1, 2, 3]
    assert all(r["off"] == 1 for r in rolls)
    assert ("OFFLINE", {"n": 3, "first": 1, "last": 3}) in msgs
    assert len(box.outbox) <= box.OUTBOX_LINES


def test_stream_serial_over_pipes(loop: SimulatedTimeLoop) -> None:
    to_dev_r, to_dev_w = os.pipe()
    from_dev_r, from_dev_w = os.pipe()
    serial = hw_host.StreamSerial(to_dev_r, from_dev_w)
    _box, _hw, runner = make(serial)
    os.write(to_dev_w, p.encode("PING", (("n", "pipe"),)))
    os.close(to_dev_w)  # input ends after the ping

    loop.run_until_complete(asyncio.wait_for(runner.run(), 3))
    os.close(from_dev_w)
    with os.fdopen(from_dev_r, "rb") as f:
        msgs = decode_all(f.read())
    os.close(to_dev_r)
    assert [k for k, _ in msgs][:2] == ["HELLO", "HELLO"]
    assert ("PONG", {"n": "pipe"}) in msgs


# ---- the Pico hardware layer with stand-ins -----------------------------------------------------
class FakePin:
    IN, OUT, PULL_UP = 0, 1, 2
    levels: dict[Any, int] = {}

    def __init__(self, pin: Any, mode: int = 0, pull: int = 0) -> None:
        self.pin = pin

    def value(self, v: int | None = None) -> int:
        if v is not None:
            FakePin.levels[self.pin] = v
        return FakePin.levels.get(self.pin, 1)


class FakeStrip:
    writes: list[list[Any]] = []

    def __init__(self, pin: Any, n: int) -> None:
        self.pixels = [(0, 0, 0)] * n

    def __setitem__(self, i: int, v: Any) -> None:
        self.pixels[i] = v

    def write(self) -> None:
        FakeStrip.writes.append(list(self.pixels))


class FakeI2C:
    """Records every write to the bus as (address, bytes); ``fail`` makes a write raise OSError
    (no ACK from the address: no display plugged in)."""

    writes: list[tuple[int, bytes]] = []
    fail = False

    def __init__(self, bus: int, sda: Any = None, scl: Any = None, freq: int = 0) -> None:
        self.bus = bus

    def writeto(self, addr: int, data: bytes) -> int:
        if FakeI2C.fail:
            raise OSError(19, "ENODEV")
        FakeI2C.writes.append((addr, bytes(data)))
        return len(data)


class FakeStdio:
    def __init__(self, fd: int, mode: str) -> None:
        self.buffer = open(fd, mode, buffering=0)  # noqa: SIM115

    def fileno(self) -> int:
        return self.buffer.fileno()


@pytest.fixture
def rp2(monkeypatch: pytest.MonkeyPatch) -> Any:
    ticks = {"now": (1 << 30) - 50}  # 50 ms before ticks_ms wraps around
    machine = types.SimpleNamespace(
        Pin=FakePin,
        I2C=FakeI2C,
        WDT=lambda timeout: types.SimpleNamespace(feed=lambda: None, timeout=timeout),
        PWM=None,
        unique_id=lambda: b"\xe6\x61\x41\x04\x03\x2f\x4a\x2b",
        reset=lambda: None,
    )
    intr: list[int] = []
    monkeypatch.setitem(sys.modules, "machine", machine)
    monkeypatch.setitem(sys.modules, "neopixel", types.SimpleNamespace(NeoPixel=FakeStrip))
    monkeypatch.setitem(sys.modules, "micropython", types.SimpleNamespace(kbd_intr=intr.append))
    monkeypatch.setattr(time, "ticks_ms", lambda: ticks["now"], raising=False)
    monkeypatch.setattr(
        time,
        "ticks_diff",
        lambda a, b: ((a - b + (1 << 29)) & ((1 << 30) - 1)) - (1 << 29),
        raising=False,
    )
    rx_r, rx_w = os.pipe()
    tx_r, tx_w = os.pipe()
    os.set_blocking(tx_w, False)
    monkeypatch.setattr(sys, "stdin", FakeStdio(rx_r, "rb"))
    monkeypatch.setattr(sys, "stdout", FakeStdio(tx_w, "wb"))
    sys.modules.pop("dicebox.hw_rp2", None)
    FakeI2C.writes = []
    FakeI2C.fail = False
    from dicebox import hw_rp2

    hw = hw_rp2.Rp2Hardware()
    yield types.SimpleNamespace(hw=hw, ticks=ticks, rx=rx_w, tx=tx_r, tx_w=tx_w, intr=intr)
    sys.modules.pop("dicebox.hw_rp2", None)
    for fd in (rx_w, tx_r):
        os.close(fd)


def test_rp2_layer_turns_off_ctrl_c_and_reads_the_pins(rp2: Any) -> None:
    assert rp2.intr == [-1]
    assert rp2.hw.device_id() == "E6614104032F4A2B"
    assert rp2.hw.button_pressed() is False  # pulled up
    FakePin.levels[15] = 0
    assert rp2.hw.button_pressed() is True
    FakePin.levels[15] = 1
    rp2.hw.show([(1, 2, 3)] * 8)
    assert FakeStrip.writes[-1] == [(1, 2, 3)] * 8


def test_rp2_clock_survives_ticks_wraparound(rp2: Any) -> None:
    readings = []
    for _ in range(10):
        rp2.ticks["now"] = (rp2.ticks["now"] + 20) & ((1 << 30) - 1)
        readings.append(rp2.hw.ticks_ms())
    assert readings == list(range(20, 220, 20))


def test_rp2_reads_what_is_there_and_writes_without_blocking(rp2: Any) -> None:
    assert rp2.hw.read() == b""
    os.write(rp2.rx, b"PING*6427\r\n")
    assert rp2.hw.read() == b"PING*6427\r\n"
    line = p.encode("HB", (("up", 1), ("last", 0), ("unacked", 0), ("armed", 1)))
    assert rp2.hw.write(line) == len(line)
    assert os.read(rp2.tx, 100) == line
    # nobody reads: fill the pipe, then a write takes nothing (and returns at once)
    for _ in range(1000):  # a pipe holds 64 KiB
        try:
            os.write(rp2.tx_w, b"x" * 4096)
        except BlockingIOError:
            break
    else:
        pytest.fail("the pipe never filled")
    waits: list[int] = []
    port = rp2.hw._tx

    class Watched:
        def poll(self, timeout: int = -1) -> Any:
            waits.append(timeout)
            return port.poll(timeout)

    rp2.hw._tx = Watched()
    assert rp2.hw.write(line) == 0
    assert waits == [0]  # asked once, without waiting, and nothing written


def test_rp2_display_sends_eight_pages_of_the_frame(rp2: Any) -> None:
    init = FakeI2C.writes[:]
    assert init and all(a == 0x3C and d[0] == 0x80 for a, d in init)  # commands only
    assert init[-1][1] == b"\x80\xaf"  # ends with "display on"
    FakeI2C.writes.clear()
    frame = bytearray(range(256)) * 4
    rp2.hw.display(frame)
    data = [d for _, d in FakeI2C.writes if d[0] == 0x40]
    assert [d[1:] for d in data] == [bytes(frame[i * 128 : i * 128 + 128]) for i in range(8)]
    pages = [d[1] for _, d in FakeI2C.writes if d[0] == 0x80 and d[1] & 0xF8 == 0xB0]
    assert pages == [0xB0 + i for i in range(8)]


def test_rp2_without_a_display_carries_on(rp2: Any) -> None:
    FakeI2C.fail = True
    from dicebox import hw_rp2

    oled = hw_rp2.Oled(FakeI2C(0), 0x3C, 0)
    assert oled.ok is False
    oled.show(bytearray(1024))  # nothing raised, nothing sent
    FakeI2C.fail = False
    rp2.hw.display(bytearray(1024))
    rp2.hw._oled.ok = True
    FakeI2C.fail = True
    rp2.hw.display(bytearray(1024))  # unplugged while running: off from now on, no exception
    assert rp2.hw._oled.ok is False
