"""The link over a real pseudo-terminal to the emulated box: connect, rolls, unplug and replug,
a box reset mid-game, offline rolls, the virtual dice, a silent box."""

from __future__ import annotations

import itertools
import queue
import time
from collections.abc import Callable

import pytest
from device_helpers import RandomTable

from companion_app.device import protocol as p
from companion_app.device.box_state import BoxState
from companion_app.device.dice import open_box
from companion_app.device.discovery import DiceSource
from companion_app.device.events import (
    Connected,
    Disconnected,
    LinkEvent,
    OfflineRollsOffered,
    Reconnecting,
    RollArrived,
)
from companion_app.device.link import (
    BACKOFF_FIRST_S,
    BACKOFF_MAX_S,
    READ_TIMEOUT_S,
    DiceLink,
    discovery_opener,
    serial_opener,
)
from companion_app.emulator import Emulator, VirtualDiceBox
from companion_app.emulator.virtual import open_virtual_dice


def next_event(events: queue.Queue[LinkEvent], kind: type, timeout: float = 5.0) -> LinkEvent:
    """The next event of ``kind``; others on the way are dropped (and named if it never comes)."""
    return events_until(events, kind, timeout)[-1]


def events_until(
    events: queue.Queue[LinkEvent], kind: type, timeout: float = 5.0
) -> list[LinkEvent]:
    """The events up to the next one of ``kind``, that one last."""
    deadline = time.monotonic() + timeout
    passed: list[LinkEvent] = []
    while True:
        try:
            event = events.get(timeout=max(0.001, deadline - time.monotonic()))
        except queue.Empty:
            raise AssertionError(f"no {kind.__name__} within {timeout} s; got {passed}") from None
        passed.append(event)
        if isinstance(event, kind):
            return passed


def armed(link: DiceLink) -> None:
    """As the app does on connecting: arm, and wait until the box confirmed it (so it has heard
    the host and rolls online; its power-up HELLO alone may come before it heard us)."""
    link.want(BoxState((0, 8), True, None, "Red", (), 0))
    assert wait(lambda: link.state_confirmed)


def wait(condition: Callable[[], bool], timeout: float = 5.0) -> bool:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.002)
    return True


def test_connect_roll_acknowledge_over_a_pty() -> None:
    events: queue.Queue[LinkEvent] = queue.Queue()
    with Emulator(seed=7) as box, DiceLink(serial_opener(lambda: box.port), events.put) as link:
        connected = next_event(events, Connected)
        assert isinstance(connected, Connected)
        assert connected.info.device_id == "D1CE0000000000E1"
        assert connected.info.boot_id == box.boots[0] == "00070000"
        assert link.status == "Dice box D1CE0000000000E1 (firmware 1.1.0)"
        armed(link)
        box.press()
        arrived = next_event(events, RollArrived)
        assert isinstance(arrived, RollArrived)
        made = box.rolls[0]
        assert (arrived.roll.seq, arrived.roll.yellow, arrived.roll.red) == (
            1,
            made.yellow,
            made.red,
        )
        assert arrived.roll.event.value == made.event and not arrived.roll.offline
        link.acknowledge(arrived.roll)
        # the box's next heartbeat says it keeps nothing more for us
        assert wait(lambda: link.device_unacked == 0 and link.counters.lines > 4)
        assert link.counters.bad_frames == 0 and link.counters.duplicates == 0


def test_the_virtual_dice_are_an_emulated_box_behind_the_same_link() -> None:
    events: queue.Queue[LinkEvent] = queue.Queue()
    with (
        VirtualDiceBox(seed=2) as box,
        DiceLink(serial_opener(lambda: box.port), events.put) as link,
    ):
        next_event(events, Connected)
        armed(link)
        box.press()
        box_roll = next_event(events, RollArrived)
        assert isinstance(box_roll, RollArrived) and box_roll.roll.seq == 1
        assert box.leds() is not None and len(box.leds() or "") == 8


def test_explicit_port_through_the_discovery_opener() -> None:
    with Emulator(seed=1) as box:
        port = discovery_opener(box.port)()
        seen = bytearray()
        try:
            port.write(b"\r\n" + p.encode("PING", {"n": "42"}))
            deadline = time.monotonic() + 3.0
            while b"PONG n=42*" not in seen and time.monotonic() < deadline:
                seen += port.read(256)
        finally:
            port.close()
        assert b"PONG n=42*" in seen


def test_unplug_and_replug_reconnects_and_loses_nothing() -> None:
    """While the cable is out the link looks for the box again and again, waiting 0.05 s, 0.1 s,
    0.2 s ... never more than 1 s between looks: a replugged box is back at the next look."""
    events: queue.Queue[LinkEvent] = queue.Queue()
    with Emulator(seed=3) as box, DiceLink(serial_opener(lambda: box.port), events.put) as link:
        next_event(events, Connected)
        armed(link)
        box.press()
        first = next_event(events, RollArrived)
        assert isinstance(first, RollArrived)  # not acknowledged yet: the box keeps it
        box.unplug(replug_after_s=None)
        gone = next_event(events, Disconnected)
        assert isinstance(gone, Disconnected) and gone.reason.startswith("port closed")
        box.press()  # rolled while the cable is out
        looks = events_until(events, Reconnecting) + events_until(events, Reconnecting)
        box.replug()
        looks += events_until(events, Connected)
        again = looks.pop()
        delays = [e.delay_s for e in looks if isinstance(e, Reconnecting)]
        assert delays[:2] == [BACKOFF_FIRST_S, 2 * BACKOFF_FIRST_S]
        assert all(b == min(BACKOFF_MAX_S, 2 * a) for a, b in itertools.pairwise(delays))
        assert isinstance(again, Connected) and again.info.boot_id == box.boots[0]
        second = next_event(events, RollArrived)
        assert isinstance(second, RollArrived) and second.roll.seq == 2
        link.acknowledge(first.roll)
        link.acknowledge(second.roll)
        assert wait(lambda: link.device_unacked == 0, 3.0)
        assert link.counters.reconnects == 1 and link.counters.disconnects == 1
        assert link.counters.rolls == 2  # roll 1 came again after the replug: not passed on
        assert link.counters.duplicates >= 1


def test_a_table_rolls_through_repeated_unplugs() -> None:
    with Emulator(seed=4, unplug_every=3, resend_ms=100) as box, RandomTable(box, 4) as table:
        for _ in range(10):
            table.roll_once()
        assert box.unplugs == 3
        assert table.link.counters.reconnects == 3
    made = [(r.boot_id, r.seq, r.yellow, r.red, r.event) for r in box.rolls]
    applied = table.applied()
    assert applied == made


def test_box_reset_mid_game_new_boot_nothing_lost_or_doubled() -> None:
    with Emulator(seed=6, reset_after=4, resend_ms=100) as box, RandomTable(box, 6) as table:
        for _ in range(8):
            table.roll_once()
    boots = [e.info.boot_id for e in table.seen if isinstance(e, Connected)]
    assert boots[0] == "00060000" and boots[-1] == "00060001"
    made = [(r.boot_id, r.seq, r.yellow, r.red, r.event) for r in box.rolls]
    applied = table.applied()
    assert applied == made
    assert [seq for _boot, seq, *_ in made] == [1, 2, 3, 4, 1, 2, 3, 4]
    rolls = table.roll_actions()
    assert [(a.yellow, a.red, a.event.value) for a in rolls] == [m[2:] for m in made]


def test_rolls_made_with_no_host_are_offered_on_connect() -> None:
    events: queue.Queue[LinkEvent] = queue.Queue()
    with Emulator(seed=8) as box:
        for _ in range(3):
            box.press()
        assert wait(lambda: len(box.rolls) == 3)
        with DiceLink(serial_opener(lambda: box.port), events.put) as link:
            offered = next_event(events, OfflineRollsOffered)
            assert isinstance(offered, OfflineRollsOffered)
            assert [(r.seq, r.offline) for r in offered.rolls] == [(1, True), (2, True), (3, True)]
            assert [(r.yellow, r.red) for r in offered.rolls] == [
                (m.yellow, m.red) for m in box.rolls
            ]
            for roll in offered.rolls:
                link.acknowledge(roll)
            assert wait(lambda: link.device_unacked == 0, 3.0)
            assert link.counters.rolls == 3


class SimulatedClock:
    """Seconds that pass only when the silent port below says they do."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


class SilentPort:
    """Says HELLO once, then nothing: a box that hung without closing the port. Each read that
    finds nothing takes a read's timeout, on the simulated clock."""

    def __init__(self, clock: SimulatedClock) -> None:
        self.clock = clock
        self.data = [
            b"\n",
            p.encode_device(
                "HELLO",
                {
                    "fw": "1.0.0",
                    "proto": 1,
                    "dev": "AB",
                    "boot": "1",
                    "up": 0,
                    "unacked": 0,
                    "lost": 0,
                },
            ),
        ]

    def read(self, size: int = 1) -> bytes:
        if self.data:
            return self.data.pop(0)
        self.clock.now += READ_TIMEOUT_S
        return b""

    def write(self, data: bytes, /) -> int:
        return len(data)

    def close(self) -> None:
        pass


def test_a_silent_box_is_dropped_after_four_heartbeats() -> None:
    events: queue.Queue[LinkEvent] = queue.Queue()
    clock = SimulatedClock()
    at: dict[type, float] = {}

    def seen(event: LinkEvent) -> None:
        at.setdefault(type(event), clock.now)  # the first of each kind, on the port's clock
        events.put(event)

    with DiceLink(lambda: SilentPort(clock), seen, clock=clock) as link:
        assert isinstance(next_event(events, Connected), Connected)
        gone = next_event(events, Disconnected)
        assert isinstance(gone, Disconnected)
        assert gone.reason == "no heartbeat from the dice box for 4 s"
        assert 4.0 <= at[Disconnected] - at[Connected] <= 4.5 + READ_TIMEOUT_S
        assert isinstance(next_event(events, Connected), Connected)  # and it tries again
        assert link.counters.timeouts >= 1


def test_open_dice_gives_the_same_link_for_virtual_and_real_dice() -> None:
    events: queue.Queue[LinkEvent] = queue.Queue()
    virtual = open_virtual_dice(events.put, seed=5)
    try:
        assert virtual.is_virtual
        next_event(events, Connected)
        armed(virtual.link)
        virtual.press()
        roll = next_event(events, RollArrived)
        assert isinstance(roll, RollArrived) and roll.roll.seq == 1
    finally:
        virtual.close()
    with Emulator(seed=5) as box:
        real = open_box(DiceSource(box.port), events.put)
        try:
            connected = next_event(events, Connected)
            assert isinstance(connected, Connected) and connected.info.boot_id == "00050000"
            assert not real.is_virtual
            with pytest.raises(RuntimeError):
                real.press()
        finally:
            real.close()
