"""Benchmark of the firmware logic (not a test): heap, press-to-display and press-to-ROLL latency.

    micropython -X heapsize=96k firmware/bench_vm.py [ROLLS [FLASH_FILE [live] [MODE]]]

Runs the real `DiceBox` on a simulated clock with its display (`screen.Screen`, drawn at the press
through `DiceBox.on_roll` as the runner does, and redrawn whenever its state changes) and its flash
record (`store.Store` in FLASH_FILE, default ``bench_flash.dat``): every roll is a clean press, the
ROLL line is taken from the outbox at once (as the runner's flush does), and acknowledged. The dice
roll in MODE (default ``balanced``: its deck, weights and last sums are the most work a roll does).
Prints one JSON line: rolls, the heap taken by the loaded modules, the heap in use after the run,
the most in use right after a press (``live_peak``: collected first, the same measure on the Pico's
port and in the VM), the heap's size, the press-to-display-frame and press-to-line latencies
(median and max, microseconds; the frame is the 1,024 bytes ready for the I2C transfer). For the
peak heap, run it with a fixed heap (``-X heapsize=...``; `make bench` searches the smallest that
completes): it fails with MemoryError when the heap is too small. The harness itself allocates as
little as it can (two 200-byte histograms), so the figure is the firmware's. Note the unix VM is
64-bit: its objects take about twice the Pico's memory.
"""

import gc

gc.collect()
_heap_at_start = gc.mem_alloc()

import json  # noqa: E402
import os  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from array import array  # noqa: E402

# The harness's own names are few (a module-level name, an argument, a key of ten characters or
# fewer is a qstr, and past 300 of them MicroPython allocates a 3.5 KB pool more in the 64-bit VM).
try:
    sys.path.insert(0, __file__.rsplit("/", 1)[0] if "/" in __file__ else ".")
except NameError:
    sys.path.insert(0, ".")

from dicebox import protocol as p  # noqa: E402
from dicebox.core import DiceBox  # noqa: E402
from dicebox.dice import Dice, Xoshiro128  # noqa: E402
from dicebox.screen import Screen  # noqa: E402
from dicebox.store import Store  # noqa: E402

# Latency histograms, 100 bins each: press to line, 20 us a bin (the last one is 1980 us and
# above); press to display frame, 100 us a bin (the last is 9900 us and above).


def _quantile(bins: array, width: int, count: int, per_100: int) -> int:
    """The histogram's ``per_100``th percentile (the middle of its bin)."""
    seen = 0
    for i in range(100):
        seen += bins[i]
        if seen * 100 >= count * per_100:
            return i * width + width // 2
    return -1


def run(rolls: int, flash: str, live_peak: bool = False, mode: str = "balanced") -> dict:
    ticks_us = getattr(time, "ticks_us", None)
    ticks_diff = getattr(time, "ticks_diff", None)
    gc.collect()
    code_bytes = gc.mem_alloc() - _heap_at_start
    for stale in (flash, flash + ".new"):  # a fresh box: no record from an earlier run
        try:
            os.remove(stale)
        except OSError:
            pass
    store = Store(flash)
    box = DiceBox(
        Dice(Xoshiro128(1).getrandbits), "D1CE", "0000BEEF", 0, 8, store, p.DICE_MODES.index(mode)
    )
    screen = Screen()
    shown = [None, 0]  # the state on the screen, when the latest frame was ready (ticks_us)

    def refresh(now_ms: int) -> None:
        state = box.screen_state(now_ms)
        if state != shown[0]:
            shown[0] = state
            screen.draw(state)
            if ticks_us is not None:
                shown[1] = ticks_us()

    box.on_roll = refresh
    frame_bins = array("H", bytes(200))
    frame_worst = 0
    now = 0
    box.feed(p.encode("HELLO"), now)
    # A sea board's tablet (§13): each 7 draws the robber's pawn or the pirate's ship.
    box.feed(p.encode("TRACK", (("pos", 0), ("len", 8), ("sea", 1))), now)
    while box.next_line() is not None:
        pass
    bins = array("H", bytes(200))
    worst = 0
    # The most heap in use right after a press: with live_peak, live objects only (collected
    # first; the same measure on any port and heap size), else as found (garbage included).
    peak = 0
    for _ in range(rolls):
        for _ in range(40):  # released, sampled every ms
            now += 1
            box.button(False, now)
            if now % 10 == 0:
                box.tick(now)
                refresh(now)
        box.tick(now)
        now += 1
        if ticks_us is not None and ticks_diff is not None:
            t0 = ticks_us()
            box.button(True, now)
            line = box.next_line()
            took = ticks_diff(ticks_us(), t0)
            bins[min(99, took // 20)] += 1
            if took > worst:
                worst = took
            frame = ticks_diff(shown[1], t0)
            frame_bins[min(99, frame // 100)] += 1
            if frame > frame_worst:
                frame_worst = frame
        else:
            box.button(True, now)
            line = box.next_line()
        if live_peak:
            gc.collect()
        used = gc.mem_alloc()
        if used > peak:
            peak = used
        acked = _ack_rolls(box, line, now)
        assert acked
        for _ in range(60):  # held, then let go
            now += 1
            box.button(now % 60 < 50, now)
            if now % 10 == 0:
                box.tick(now)
                refresh(now)
        _ack_rolls(box, box.next_line(), now)
    gc.collect()
    return {
        "rolls": rolls,
        "heap_code_bytes": code_bytes,
        "heap_live_bytes": gc.mem_alloc() - _heap_at_start,
        "heap_peak_at_press_bytes": peak - _heap_at_start,
        "live_peak": live_peak,
        "heap_total_bytes": gc.mem_alloc() + gc.mem_free(),
        "latency_us_median": _quantile(bins, 20, rolls, 50),
        "latency_us_max": worst,
        "frame_us_median": _quantile(frame_bins, 100, rolls, 50),
        "frame_us_p99": _quantile(frame_bins, 100, rolls, 99),
        "frame_us_max": frame_worst,
        "flash_writes": store.writes,
        "unacked": len(box.ring),
        "dice_mode": mode,
    }


def _ack_rolls(box: DiceBox, line: "bytes | None", now: int) -> int:
    """Acknowledge every ROLL the box has written (a resent one too, as the host does), so no
    roll stays unacknowledged; returns how many there were."""
    acked = 0
    while line is not None:
        if line.startswith(b"ROLL"):
            seq = int(line[9 : line.find(b" ", 9)])  # b"ROLL seq=N ...": the host's side, lean
            box.feed(p.encode("ACK", (("seq", seq),)), now)
            acked += 1
        line = box.next_line()
    box.feed(p.encode("HB"), now)
    return acked


if __name__ == "__main__":
    # argv: [ROLLS [FLASH_FILE [live] [MODE]]]
    sys.argv.extend([""] * 4)
    print(
        json.dumps(
            run(
                int(sys.argv[1] or 10000),
                sys.argv[2] or "bench_flash.dat",
                "live" in sys.argv[3:],
                ([a for a in sys.argv[3:] if a and a != "live"] + ["balanced"])[0],
            )
        )
    )
