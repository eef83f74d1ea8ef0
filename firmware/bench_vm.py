"""Benchmark of the firmware logic (not a test): heap and press-to-ROLL latency.

    micropython -X heapsize=64k firmware/bench_vm.py [ROLLS]

Runs the real `DiceBox` on a simulated clock: every roll is a clean press, the ROLL line is
taken from the outbox at once (as the runner's flush does), and acknowledged. Prints one JSON
line: rolls, the heap in use after the run and after a collection, and the press-to-line
latency (median and max, microseconds). For the peak heap, run it with a fixed heap
(``-X heapsize=...``): it fails with MemoryError when the heap is too small. Note the unix VM is
64-bit: its objects take about twice the Pico's memory.
"""

import gc
import json
import sys
import time

try:
    _here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
except NameError:
    _here = "."
if _here not in sys.path:
    sys.path.insert(0, _here)

from dicebox import protocol as p
from dicebox.core import DiceBox
from dicebox.dice import Dice, Xoshiro128


def run(rolls: int) -> dict:
    ticks_us = getattr(time, "ticks_us", None)
    ticks_diff = getattr(time, "ticks_diff", None)
    box = DiceBox(Dice(Xoshiro128(1).getrandbits), "D1CE", "0000BEEF", 0)
    now = 0
    box.feed(p.encode("HELLO"), now)
    while box.next_line() is not None:
        pass
    gc.collect()
    bins = [0] * 100  # press-to-line latency, 20 us per bin; the last bin is 1980 us and above
    worst = 0
    for _ in range(rolls):
        for _ in range(40):  # released, sampled every ms
            now += 1
            box.button(False, now)
        box.tick(now)
        now += 1
        if ticks_us is not None and ticks_diff is not None:
            t0 = ticks_us()
            box.button(True, now)
            line = box.next_line()
            took = ticks_diff(ticks_us(), t0)
            bins[min(99, took // 20)] += 1
            worst = max(worst, took)
        else:
            box.button(True, now)
            line = box.next_line()
        while line is not None and not line.startswith(b"ROLL"):
            line = box.next_line()
        assert line is not None
        seq = p.decode(line[:-2], p.DEVICE_MESSAGES)[1]["seq"]
        box.feed(p.encode("ACK", (("seq", seq),)) + p.encode("HB"), now)
        for _ in range(60):  # held, then let go
            now += 1
            box.button(now % 60 < 50, now)
        while box.next_line() is not None:
            pass
    median = -1
    seen = 0
    for i in range(100):
        seen += bins[i]
        if seen * 2 >= rolls:
            median = i * 20 + 10
            break
    gc.collect()
    return {
        "rolls": rolls,
        "heap_live_bytes": getattr(gc, "mem_alloc", lambda: -1)(),
        "latency_us_median": median,
        "latency_us_max": worst,
        "unacked": len(box.ring),
    }


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    print(json.dumps(run(count)))
