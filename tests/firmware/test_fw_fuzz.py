"""Nothing a host sends can crash or wedge the firmware: random bytes, valid and mutated commands,
cut at random points, on simulated time."""

from __future__ import annotations

from fwtools import SimBox, p
from hypothesis import given
from hypothesis import strategies as st

COMMANDS = [
    p.encode("HELLO"),
    p.encode("HB"),
    p.encode("ACK", (("seq", 1),)),
    p.encode("TRACK", (("pos", 3), ("len", 7))),
    p.encode("TRACK", (("pos", 15), ("len", 16))),
    p.encode("ATTACK"),
    p.encode("ARM"),
    p.encode("DISARM"),
    p.encode("ALCH", (("y", 2), ("r", 6))),
    p.encode("ALCH"),
    p.encode("LEDTEST"),
    p.encode("PING", (("n", "z"),)),
]


def mutate(line: bytes, data: st.DataObject) -> bytes:
    if not data.draw(st.booleans()):
        return line
    i = data.draw(st.integers(0, len(line) - 1))
    return line[:i] + bytes([data.draw(st.integers(0, 255))]) + line[i + 1 :]


@given(st.data())
def test_random_input_never_breaks_the_box(data: st.DataObject) -> None:
    sim = SimBox()
    sim.advance(100)
    stream = b""
    for _ in range(data.draw(st.integers(1, 30))):
        choice = data.draw(st.integers(0, 3))
        if choice == 0:
            stream += data.draw(st.binary(max_size=200))
        else:
            stream += mutate(data.draw(st.sampled_from(COMMANDS)), data)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(stream)), max_size=8)))
    start = 0
    for cut in [*cuts, len(stream)]:
        sim.box.feed(stream[start:cut], sim.now)
        start = cut
        sim.advance(data.draw(st.integers(0, 300)))
        if data.draw(st.booleans()):
            sim.press(hold_ms=20, gap_ms=90)
        assert len(sim.box.outbox) <= sim.box.OUTBOX_LINES
        assert sim.box.splitter.pending() <= p.MAX_LINE + 1
    out = sim.out()  # every line the box wrote decodes
    assert all(fields.get("code") != "internal" for kind, fields in out if kind == "ERR")
    lights = sim.box.lights
    assert 0 <= lights.pos < lights.length <= p.TRACK_MAX_LEN
    assert len(sim.box.frame(sim.now)) == 8
    # and it still answers, once a line end has closed whatever partial line came before
    sim.box.feed(b"\r\n", sim.now)
    sim.out()
    sim.send("PING", (("n", "ok"),))
    assert ("PONG", {"n": "ok"}) in sim.out()
