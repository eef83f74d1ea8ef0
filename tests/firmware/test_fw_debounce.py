"""Button debouncing: generated bounce patterns give one roll per press, on the first edge."""

from __future__ import annotations

from fwtools import Debouncer, DiceBox, SimBox, hw_host, p
from hypothesis import given
from hypothesis import strategies as st

BOUNCE_MAX_US = 4000  # one bounce pulse lasts at most 4 ms
US = 1000

# One press, in microseconds: a burst of bounce on pressing, a hold (maybe with short dropouts
# from a dirty contact), a burst of bounce on letting go, then released long enough.
bounce = st.lists(st.integers(20, BOUNCE_MAX_US), max_size=12)
press = st.tuples(
    bounce,  # alternating pressed/released pulses after the first edge
    st.integers(15 * US, 400 * US),  # hold
    st.lists(st.tuples(st.integers(1 * US, 200 * US), st.integers(20, 3 * US)), max_size=3),
    bounce,  # pulses when letting go
    st.integers(Debouncer.RELEASE_MS * US + 2 * US, 300 * US),  # released before the next press
)


def waveform(presses: list, start_us: int = 50 * US) -> tuple[list[tuple[int, bool]], list[int]]:
    """[(t_us, level), ...] level changes, and the time of each press's first edge."""
    t = start_us
    changes: list[tuple[int, bool]] = []
    edges = []
    for in_bounce, hold, dropouts, out_bounce, rest in presses:
        edges.append(t)
        level = True
        changes.append((t, True))
        for pulse in in_bounce:
            t += pulse
            level = not level
            changes.append((t, level))
        if not level:
            t += 20
            changes.append((t, True))
        for at, gap in dropouts:  # brief opens while held
            changes.append((t + at, False))
            changes.append((t + at + gap, True))
        t += hold + (max((a + g for a, g in dropouts), default=0))
        level = False
        changes.append((t, False))
        for pulse in out_bounce:
            t += pulse
            level = not level
            changes.append((t, level))
        if level:
            t += 20
            changes.append((t, False))
        # The next press comes after an unbroken release and after the lockout, which starts
        # when the press was seen (at the latest 1 ms after the bounce on pressing ends).
        seen_by = edges[-1] + sum(in_bounce) + 20 + US
        t = max(t + rest, seen_by + Debouncer.LOCKOUT_MS * US + US)
    changes.sort(key=lambda c: c[0])
    return changes, [*edges, t]


def samples(changes: list[tuple[int, bool]], end_us: int, period_us: int = 1000):
    """The level seen by a poll every ``period_us`` (what the firmware's button task does)."""
    level = False
    i = 0
    for t in range(0, end_us, period_us):
        while i < len(changes) and changes[i][0] <= t:
            level = changes[i][1]
            i += 1
        yield t, level


@given(st.lists(press, min_size=1, max_size=6), st.integers(0, 999))
def test_one_press_per_press_whatever_the_bounce(presses: list, phase_us: int) -> None:
    changes, marks = waveform(presses, 50 * US + phase_us)
    edges, end = marks[:-1], marks[-1]
    debouncer = Debouncer(0)
    seen = list(samples(changes, end))
    accepted = [t for t, level in seen if debouncer.update(level, t // US)]
    assert len(accepted) == len(presses)
    for t, edge in zip(accepted, edges, strict=True):
        # acted on the very first sample that saw the button down: no waiting
        first_down = next(ts for ts, level in seen if ts >= edge and level)
        assert t == first_down


@given(st.lists(press, min_size=1, max_size=4))
def test_whole_box_sends_one_roll_per_press(presses: list) -> None:
    sim = SimBox()
    sim.send("HB")
    changes, marks = waveform(presses)
    for t, level in samples(changes, marks[-1]):
        sim.box.button(level, t // US)
        sim.box.tick(t // US)
    rolls = [fields for kind, fields in sim.out() if kind == "ROLL"]
    # (unacknowledged rolls are also resent every RESEND_MS: the same seq, the same dice)
    distinct = {r["seq"]: r for r in rolls}
    assert sorted(distinct) == list(range(1, len(presses) + 1))
    assert all(r == distinct[r["seq"]] for r in rolls)


def test_no_roll_for_a_button_held_at_power_up() -> None:
    debouncer = Debouncer(0)
    assert not any(debouncer.update(True, t) for t in range(500))
    assert not any(debouncer.update(False, t) for t in range(500, 500 + Debouncer.RELEASE_MS))
    assert not debouncer._ready
    assert not any(debouncer.update(False, t) for t in range(530, 600))
    assert debouncer.update(True, 600)


def test_release_must_be_unbroken_and_lockout_passed() -> None:
    assert Debouncer.RELEASE_MS == 30 and Debouncer.LOCKOUT_MS == 80
    debouncer = Debouncer(0)
    for t in range(100):
        debouncer.update(False, t)
    assert debouncer.update(True, 100)
    # let go at 110, a 1 ms blip at 170, released again from 171: 30 ms unbroken is 201
    assert not any(debouncer.update(True, t) for t in range(101, 110))
    assert not any(debouncer.update(False, t) for t in range(110, 170))
    assert not debouncer.update(True, 170)
    assert not any(debouncer.update(False, t) for t in range(171, 201))
    assert not debouncer._ready
    assert not debouncer.update(False, 201)
    assert debouncer._ready
    assert debouncer.update(True, 202)
    # a quick release right after a press still waits out the 80 ms lockout
    assert not any(debouncer.update(False, t) for t in range(203, 282))
    assert not debouncer._ready
    assert not debouncer.update(False, 282)
    assert debouncer._ready
    assert debouncer.presses == 2


def test_press_to_roll_line_is_immediate() -> None:
    box = DiceBox(SimBox().box.dice, "D1CE", "1", 0)
    for t in range(50):
        box.button(False, t)
    box.outbox.clear()
    assert box.button(True, 50)
    line = box.next_line()
    assert line is not None and p.decode(line[:-2], hw_host.DEVICE_MESSAGES)[0] == "ROLL"
