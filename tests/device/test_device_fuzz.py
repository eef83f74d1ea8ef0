"""Hypothesis over random and mutated input: nothing escapes the link, memory stays bounded,
bad frames are counted (checked against the firmware's own codec as an independent oracle)."""

from __future__ import annotations

import itertools
import sys
import threading
import time
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from companion_app.device import protocol as p
from companion_app.device.events import (
    Connected,
    Disconnected,
    LinkEvent,
    OfflineRollsOffered,
    PressedWhileDisarmed,
    Reconnecting,
    RollArrived,
)
from companion_app.device.link import DiceLink, SerialPort
from companion_app.device.session import EARLY_MAX, SEEN_KEYS, HostSession

FIRMWARE = Path(__file__).resolve().parents[2] / "firmware"
if str(FIRMWARE) not in sys.path:
    sys.path.insert(0, str(FIRMWARE))
from dicebox import protocol as fw  # noqa: E402

EVENT_TYPES = (
    Connected,
    RollArrived,
    OfflineRollsOffered,
    PressedWhileDisarmed,
    Disconnected,
    Reconnecting,
)
HELLO_FIELDS: dict[str, int | str] = {
    "fw": "1.0.0",
    "proto": 1,
    "dev": "D1CE0000000000E1",
    "boot": "0000BEEF",
    "up": 0,
    "unacked": 0,
    "lost": 0,
}
HELLO = p.encode_device("HELLO", HELLO_FIELDS)

seqs = st.integers(1, 300)
dice = st.integers(1, 6)
faces = st.sampled_from(p.EVENTS)
flags = st.integers(0, 1)
messages = st.one_of(
    st.builds(
        lambda s, y, r, e, o, a: p.encode_device(
            "ROLL", {"seq": s, "y": y, "r": r, "e": e, "t": 5, "off": o, "alc": a}
        ),
        seqs,
        dice,
        dice,
        faces,
        flags,
        flags,
    ),
    st.builds(
        lambda last, u, a: p.encode_device("HB", {"up": 9, "last": last, "unacked": u, "armed": a}),
        seqs,
        st.integers(0, 64),
        flags,
    ),
    st.builds(lambda n: p.encode_device("OFFLINE", {"n": n, "first": 1, "last": n}), seqs),
    st.builds(lambda c: p.encode_device("OK", {"cmd": c}), st.sampled_from(["ARM", "TRACK"])),
    st.just(p.encode_device("PRESS", {"armed": 0, "t": 1})),
    st.just(p.encode_device("ERR", {"code": "crc", "want": "ABCD"})),
    st.just(HELLO),
)


@st.composite
def mutated_streams(draw: Any) -> bytes:
    """Valid device lines, then bytes flipped, inserted, deleted and lines repeated."""
    data = bytearray(b"".join(draw(st.lists(messages, max_size=30))))
    for _ in range(draw(st.integers(0, 12))):
        op = draw(st.sampled_from(["flip", "insert", "delete", "repeat"]))
        at = draw(st.integers(0, len(data)))
        if op == "flip" and at < len(data):
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif op == "insert":
            data[at:at] = draw(st.binary(min_size=1, max_size=200))
        elif op == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        else:
            data[at:at] = draw(messages)
    return bytes(data)


def chunked(data: bytes, cuts: list[int]) -> list[bytes]:
    points = sorted({c % (len(data) + 1) for c in cuts} | {0, len(data)})
    return [data[a:b] for a, b in itertools.pairwise(points)]


def oracle_bad_frames(stream: bytes) -> tuple[int, int]:
    """(lines, lines the firmware codec rejects before looking at the fields)."""
    lines = fw.LineSplitter().feed(stream)
    bad = 0
    for line in lines:
        try:
            fw.unframe(line)
        except fw.ProtocolError:
            bad += 1
    return len(lines), bad


def fresh_session() -> HostSession:
    """Connected, past the first line (whose damage a host forgives: the tail of old output)."""
    session = HostSession(0.0)
    session.open(0.0)
    session.feed(HELLO, 0.0)
    assert session.connected and session.counters.lines == 1
    return session


@given(st.binary(max_size=3000), st.lists(st.integers(0, 10_000), max_size=8))
def test_random_bytes_never_escape_and_are_counted(data: bytes, cuts: list[int]) -> None:
    session = fresh_session()
    events: list[LinkEvent] = []
    for now, chunk in enumerate(chunked(data, cuts)):
        events += session.feed(chunk, float(now))
        events += session.tick(float(now))
        assert session.pending_input <= p.MAX_LINE + 1
    assert all(isinstance(e, EVENT_TYPES) for e in events)
    lines, bad = oracle_bad_frames(data)
    assert session.counters.lines == lines + 1
    assert session.counters.bad_frames == bad


@given(mutated_streams(), st.lists(st.integers(0, 10_000), max_size=8))
def test_mutated_streams_count_every_bad_frame(stream: bytes, cuts: list[int]) -> None:
    session = fresh_session()
    events: list[LinkEvent] = []
    for chunk in chunked(stream, cuts):
        events += session.feed(chunk, 1.0)
    # The box (introducing itself again, in case the stream made it look restarted) holds
    # nothing more: held rolls whose gap will never fill come out too.
    again = p.encode_device("HELLO", {**HELLO_FIELDS, "up": 999_999_000})
    quiet = {"up": 999_999_999, "last": 999_999_999, "unacked": 0, "armed": 1}
    events += session.feed(b"\r\n" + again + p.encode_device("HB", quiet), 10.0)
    lines, bad = oracle_bad_frames(stream + b"\r\n")
    assert session.counters.lines == lines + 3
    assert session.counters.bad_frames == bad
    arrived = [e.roll.key for e in events if isinstance(e, RollArrived)]
    assert len(arrived) == len(set(arrived)), "a roll was passed on twice"
    for boot in {key[:2] for key in arrived}:
        seqs = [key[2] for key in arrived if key[:2] == boot]
        assert seqs == sorted(seqs), "a boot's rolls were passed on out of order"
    assert session.early_rolls == 0


def test_memory_stays_bounded_over_many_rolls_and_boots() -> None:
    session = fresh_session()
    delivered = 0
    for boot in range(40):
        hello = HELLO.replace(b"0000BEEF", f"{boot:08X}".encode())
        session.feed(p.frame(hello.split(b"*")[0].decode()), float(boot))
        for seq in range(1, 200, 2):  # every other roll missing: all are held, then given up
            roll = {"seq": seq, "y": 1, "r": 2, "e": "ship", "t": 1}
            delivered += sum(
                isinstance(e, RollArrived)
                for e in session.feed(p.encode_device("ROLL", roll), float(boot))
            )
            assert session.early_rolls <= EARLY_MAX * (boot + 1)
        # The box holds nothing unacknowledged: the gaps are for good, the held rolls pass on.
        heartbeat = p.encode_device("HB", {"up": 1, "last": 199, "unacked": 0, "armed": 1})
        delivered += sum(isinstance(e, RollArrived) for e in session.feed(heartbeat, boot + 0.5))
    assert session.remembered <= SEEN_KEYS
    assert session.early_rolls == 0
    # Per boot: roll 1, then 64 of the 99 early ones held (the latest let go, as the box would
    # send them again); the heartbeat passes the held ones on.
    assert delivered == 40 * (1 + EARLY_MAX)


class ScriptedPort:
    """A port that hands out given chunks, then nothing; records what the link wrote."""

    def __init__(self, chunks: list[bytes]) -> None:
        self.chunks = list(chunks)
        self.written = bytearray()
        self.closed = False
        self.drained = threading.Event()

    def read(self, size: int = 1) -> bytes:
        if self.chunks:
            return self.chunks.pop(0)
        self.drained.set()
        time.sleep(0.001)
        return b""

    def write(self, data: bytes, /) -> int:
        self.written += data
        return len(data)

    def close(self) -> None:
        self.closed = True


@settings(max_examples=25)
@given(mutated_streams(), st.lists(st.integers(0, 10_000), max_size=8))
def test_nothing_escapes_the_link_thread(stream: bytes, cuts: list[int]) -> None:
    port = ScriptedPort([b"\n" + HELLO, *chunked(stream, cuts)])
    events: list[LinkEvent] = []

    def opener() -> SerialPort:
        return port

    link = DiceLink(opener, events.append)
    with link:
        assert port.drained.wait(5.0)
    assert port.closed
    assert link.handler_errors == 0
    assert all(isinstance(e, EVENT_TYPES) for e in events)
    assert link.counters.bad_frames == oracle_bad_frames(stream)[1]
    assert p.LineSplitter().feed(bytes(port.written))  # it spoke: CR LF, HELLO, HB ...


def test_a_failing_handler_does_not_stop_the_link() -> None:
    roll = p.encode_device("ROLL", {"seq": 1, "y": 1, "r": 1, "e": "ship", "t": 0})
    port = ScriptedPort([b"\n" + HELLO, roll, p.encode_device("PRESS", {"armed": 0, "t": 1})])
    seen: list[LinkEvent] = []

    def handler(event: LinkEvent) -> None:
        seen.append(event)
        if isinstance(event, RollArrived):
            raise RuntimeError("bug in the app")

    with DiceLink(lambda: port, handler) as link:
        assert port.drained.wait(5.0)
    assert link.handler_errors == 1
    assert [type(e) for e in seen] == [Connected, RollArrived, PressedWhileDisarmed]


def test_a_port_that_cannot_be_opened_is_retried_with_growing_delays() -> None:
    events: list[LinkEvent] = []
    tries = threading.Event()

    def opener() -> SerialPort:
        if sum(isinstance(e, Reconnecting) for e in events) >= 5:
            tries.set()
        raise OSError("no such port")

    with DiceLink(opener, events.append) as link:
        assert tries.wait(5.0)
    delays = [(e.attempt, e.delay_s) for e in events if isinstance(e, Reconnecting)][:5]
    assert delays == [(1, 0.05), (2, 0.1), (3, 0.2), (4, 0.4), (5, 0.8)]
    assert link.status == "Looking for the dice box (no such port)"
