"""End to end: the emulated box (CPython and the MicroPython VM) <-> pty <-> link <-> rules core.

1,000 rolls with drops, duplicates, garbage and corruption injected on the wire, both ways;
between rolls random players finish the turn and play what comes before a roll (an Alchemist
now and then), and a new game starts when one ends. Every roll the
firmware made must be applied exactly once, in order, with the values it rolled.
"""

from __future__ import annotations

import pytest
from device_helpers import RandomTable

from companion_app.emulator import Emulator, FaultPlan

ROLLS = 1000
FAULTS = FaultPlan(drop=0.005, dup=0.005, garbage=0.005, corrupt=0.005)


def run_table(micropython: bool, seed: int) -> None:
    with (
        Emulator(micropython=micropython, seed=seed, faults=FAULTS, resend_ms=50) as box,
        RandomTable(box, seed) as table,
    ):
        for _ in range(ROLLS):
            table.roll_once()
        counters = table.link.counters
    made = [(r.boot_id, r.seq, r.yellow, r.red, r.event) for r in box.rolls]
    applied = table.applied()
    assert len(made) >= ROLLS
    assert applied == made, "every roll applied exactly once, in order"
    in_games = [(a.yellow, a.red, a.event.value) for a in table.roll_actions()]
    assert in_games == [m[2:] for m in made]
    assert not table.table.unexpected and not table.table.offline
    # the faults really happened, and the link saw and repaired them
    to_host, to_box = box.to_host.counts, box.to_box.counts
    assert min(to_host.dropped, to_host.duplicated, to_host.garbage, to_host.corrupted) >= 5
    assert min(to_box.dropped, to_box.duplicated, to_box.garbage, to_box.corrupted) >= 5
    assert counters.bad_frames >= to_host.corrupted // 2
    assert counters.duplicates >= 1 and counters.device_errors >= 1
    assert counters.commands_resent >= 1
    assert len(table.games) >= 2  # games ended and new ones began
    # Alchemists played before some rolls (§10): ALCH reached the box, its rolls said alc=1
    assert sum(r.alchemist for r in box.rolls) >= 1
    assert not table.table.rejected


@pytest.mark.slow
def test_thousand_rolls_through_a_faulty_wire_cpython() -> None:
    run_table(micropython=False, seed=21)


@pytest.mark.slow
@pytest.mark.micropython
def test_thousand_rolls_through_a_faulty_wire_micropython_vm() -> None:
    run_table(micropython=True, seed=22)


@pytest.mark.slow
def test_faults_unplugs_and_a_reset_together() -> None:
    with (
        Emulator(
            seed=23,
            faults=FaultPlan(drop=0.02, dup=0.02, garbage=0.02, corrupt=0.02),
            resend_ms=50,
            unplug_every=30,
            reset_after=50,
        ) as box,
        RandomTable(box, 23) as table,
    ):
        for _ in range(100):
            table.roll_once()
        counters = table.link.counters
    made = [(r.boot_id, r.seq, r.yellow, r.red, r.event) for r in box.rolls]
    applied = table.applied()
    assert len({boot for boot, *_ in made}) == 2 and box.unplugs == 3
    # The box resets right after sending its 50th roll. If the wire lost that line, the box
    # kept the roll in its flash and offers it again after the reset, under its first boot (as
    # it does a roll pressed just before the reset, whose line the reset cut off): every roll
    # once, each boot's in order.
    assert sorted(applied) == sorted(made) and len(set(applied)) == len(applied)
    for boot in {m[0] for m in made}:
        seqs = [seq for b, seq, *_ in applied if b == boot]
        assert seqs == sorted(seqs)
    assert counters.reconnects == 3
