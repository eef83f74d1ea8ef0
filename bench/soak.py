"""Soak: 10,000 faulted rolls through the real link, with unplugs and resets.

The emulated box (the real firmware on CPython, its flash record in a file) behind a
pseudo-terminal, the wire damaged both ways (drops, duplicates, garbage, corruption), the cable
pulled every 250 rolls and the box power-cycled every 1,000; presses run up to four ahead of
the acknowledgements (the consumer commits each roll a moment after it arrives, as the journal
does). Every roll the firmware made is compared with what the host passed on: lost, doubled and
reordered (per boot, in ``seq`` order, the rolls passed on as they came and the offline ones
offered in a batch taken together, as the game gets them) must all be 0; each roll out of order
is named in the figure's detail. Reconnect time: from the port coming back
(or the box restarting) to the host's ``Connected``, p50/p99.
"""

from __future__ import annotations

import queue
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from bench.table import Row, percentile, verdict

SECTION = "Soak"
FAULTS = {"drop": 0.03, "dup": 0.03, "garbage": 0.02, "corrupt": 0.02}
IN_FLIGHT = 4
STALL_S = 20.0
PRESS_TAKEN_S = 1.0


@dataclass
class Sizes:
    rolls: int = 10_000
    unplug_every: int = 250
    reset_every: int = 1_000


@dataclass
class SoakResult:
    made: int
    delivered: int
    lost: int
    doubled: int
    reordered: int
    unplugs: int
    resets: int
    reconnect_ms: list[float]
    seconds: float
    counters: dict[str, int]
    refused: int
    """Presses the box answered without a roll (full, or disarmed)."""
    missing: list[tuple[str, int]]
    """(boot, seq) of each roll made and never passed on, for finding out why."""
    out_of_order: list[tuple[str, int, bool, int]]
    """(boot, seq, offline, the highest seq of its boot passed on before it) of each roll
    passed on after a later one of its boot."""


def soak(sizes: Sizes, seed: int = 18) -> SoakResult:
    from companion_app.device.events import (
        Connected,
        OfflineRollsOffered,
        PressedWhileDisarmed,
        PressedWhileFull,
        RollArrived,
    )
    from companion_app.device.link import DiceLink, serial_opener
    from companion_app.emulator import Emulator, FaultPlan

    events: queue.Queue[object] = queue.Queue()
    delivered: list[tuple[str, str, int, int, int, str, bool]] = []
    reconnect_ms: list[float] = []
    waiting_since: list[float] = []
    unacked: list[object] = []
    refused = [0]  # presses the box answered without a roll (full, or disarmed)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        box = Emulator(
            seed=seed,
            faults=FaultPlan(**FAULTS),
            resend_ms=100,
            flash=str(Path(folder) / "flash"),
        )
        link = DiceLink(serial_opener(lambda: box.port), events.put)
        lock = threading.Lock()

        def handle(timeout: float) -> None:
            try:
                event = events.get(timeout=timeout)
            except queue.Empty:
                return
            if isinstance(event, PressedWhileDisarmed | PressedWhileFull):
                refused[0] += 1
            if isinstance(event, Connected) and waiting_since:
                reconnect_ms.append((time.perf_counter() - waiting_since.pop()) * 1000)
            rolls = []
            if isinstance(event, RollArrived):
                rolls = [event.roll]
            elif isinstance(event, OfflineRollsOffered):
                rolls = list(event.rolls)
            for roll in rolls:
                delivered.append(
                    (
                        roll.device_id,
                        roll.boot_id,
                        roll.seq,
                        roll.yellow,
                        roll.red,
                        roll.event.value,
                        roll.offline,
                    )
                )
                with lock:
                    unacked.append(roll)

        def commit_some() -> None:
            with lock:
                todo, unacked[:] = list(unacked), []
            for roll in todo:
                link.acknowledge(roll)  # type: ignore[arg-type]

        with box, link:
            deadline = time.monotonic() + 30
            while not link.connected and time.monotonic() < deadline:
                handle(0.01)
            pressed = 0
            progress = [0, time.monotonic()]
            # A press is taken once its roll (or the box's refusal) is seen; until then no other
            # press: under load the box may take presses late, and presses that pile up unseen
            # would come out as one burst of dozens of rolls, not IN_FLIGHT.
            taken_at = (0, 0.0)  # (rolls made and presses answered, when) at the last press
            while len(box.rolls) < sizes.rolls:
                # Keep up to IN_FLIGHT rolls made ahead of what the host has passed on (a press
                # while the box restarts makes none: given up after PRESS_TAKEN_S).
                seen = len(box.rolls) + refused[0]
                if len(box.rolls) - len(delivered) < IN_FLIGHT and (
                    seen > taken_at[0] or time.monotonic() - taken_at[1] > PRESS_TAKEN_S
                ):
                    taken_at = (seen, time.monotonic())
                    box.press()
                    pressed += 1
                    if pressed % sizes.reset_every == 0:
                        # A Pico that restarts takes its USB port away and brings it back.
                        box.unplug(replug_after_s=None)
                        box.reset()
                        box.replug()
                        waiting_since[:] = [time.perf_counter()]
                    elif pressed % sizes.unplug_every == 0:
                        box.unplug()
                        waiting_since[:] = [time.perf_counter()]
                handle(0.002)
                commit_some()
                if len(delivered) != progress[0]:
                    progress[:] = [len(delivered), time.monotonic()]
                elif time.monotonic() - progress[1] > STALL_S:
                    break  # nothing passed on for a long while: count what is missing
            # A quiet end: whatever is still on its way arrives and is acknowledged.
            quiet_until = time.monotonic() + STALL_S
            while time.monotonic() < quiet_until:
                handle(0.01)
                commit_some()
                made_keys = {(r.boot_id, r.seq) for r in box.rolls}
                got = {(d[1], d[2]) for d in delivered}
                if made_keys <= got and link.device_unacked == 0:
                    break
            made = [(r.boot_id, r.seq, r.yellow, r.red, r.event) for r in box.rolls]
            counters = dict(vars(link.counters))
            unplugs, resets = box.unplugs, box.resets
    keys = [(d[1], d[2]) for d in delivered]
    values = {(d[1], d[2]): d[3:6] for d in delivered}
    made_values = {(m[0], m[1]): m[2:] for m in made}
    wrong = sum(1 for k in set(keys) if values[k] != made_values.get(k))
    last: dict[str, int] = {}
    out_of_order = []
    for _dev, boot, seq, *_dice, offline in delivered:
        if seq <= last.get(boot, 0):
            out_of_order.append((boot, seq, offline, last[boot]))
        last[boot] = max(seq, last.get(boot, 0))
    return SoakResult(
        made=len(made),
        delivered=len(keys),
        lost=len(set(made_values) - set(keys)) + wrong,
        doubled=len(keys) - len(set(keys)),
        reordered=len(out_of_order),
        unplugs=unplugs,
        resets=resets,
        reconnect_ms=reconnect_ms,
        seconds=time.perf_counter() - started,
        counters=counters,
        refused=refused[0],
        missing=sorted(set(made_values) - set(keys)),
        out_of_order=out_of_order,
    )


def run(sizes: Sizes) -> list[Row]:
    result = soak(sizes)
    faults = ", ".join(f"{k} {v:.0%}" for k, v in FAULTS.items())
    detail = {
        "made": result.made,
        "delivered": result.delivered,
        "unplugs": result.unplugs,
        "resets": result.resets,
        "seconds": round(result.seconds, 1),
        "faults": FAULTS,
        "counters": result.counters,
        "refused_presses": result.refused,
        "out_of_order": [
            {"boot": boot, "seq": seq, "offline": offline, "after_seq": after}
            for boot, seq, offline, after in result.out_of_order
        ],
    }
    bad = result.lost + result.doubled + result.reordered
    p50 = percentile(result.reconnect_ms, 50) if result.reconnect_ms else None
    p99 = percentile(result.reconnect_ms, 99) if result.reconnect_ms else None
    return [
        Row(
            SECTION,
            f"{result.made:,} faulted rolls: lost / doubled / reordered",
            float(bad),
            f"({result.lost} / {result.doubled} / {result.reordered})",
            "all 0",
            f"{faults}; {result.unplugs} unplugs, {result.resets} resets",
            "meets" if bad == 0 and result.made >= 1 else "misses",
            detail,
        ),
        Row(
            SECTION,
            "reconnect after an unplug or a reset p99",
            p99,
            "ms",
            "< 5 s",
            f"p50 {p50:.0f} ms over {len(result.reconnect_ms)} reconnects" if p50 else "-",
            verdict(p99, below=5_000) if p99 is not None else "-",
            {"samples_ms": [round(v, 1) for v in result.reconnect_ms]},
        ),
    ]


if __name__ == "__main__":
    import sys

    rolls = int(sys.argv[1]) if len(sys.argv) > 1 else 2_000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 18
    found = soak(Sizes(rolls=rolls), seed)
    print(
        f"{found.made:,} rolls: lost / doubled / reordered {found.lost} / {found.doubled} / "
        f"{found.reordered}; missing {found.missing}; out of order {found.out_of_order}; "
        f"{found.seconds:.0f} s"
    )
    print(found.counters)
