"""Benchmark of the firmware logic (not a test): heap and press-to-ROLL latency.

    micropython -X heapsize=96k firmware/bench_vm.py [ROLLS]   # from source: compiling needs room

Runs the real `DiceBox` on a simulated clock: every roll is a clean press, the ROLL line is
taken from the outbox at once (as the runner's flush does), and acknowledged. Prints one JSON
line: rolls, the heap taken by the loaded modules, the heap in use after the run, and the
press-to-line latency (median and max, microseconds). For the peak heap, run it with a fixed heap
(``-X heapsize=...``; `make bench` searches the smallest that completes): it fails with
MemoryError when the heap is too small. The harness itself allocates as little as it can (one
200-byte histogram), so the figure is the firmware's. Note the unix VM is 64-bit: its objects
take about twice the Pico's memory.
"""

import gc

gc.collect()
_heap_at_start = gc.mem_alloc()

import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from array import array  # noqa: E402

try:
    _here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
except NameError:
    _here = "."
if _here not in sys.path:
    sys.path.insert(0, _here)

from dicebox import protocol as p  # noqa: E402
from dicebox.core import DiceBox  # noqa: E402
from dicebox.dice import Dice, Xoshiro128  # noqa: E402

BIN_US = 20  # latency histogram: 100 bins of 20 us; the last one is 1980 us and above


def run(rolls: int) -> dict:
    ticks_us = getattr(time, "ticks_us", None)
    ticks_diff = getattr(time, "ticks_diff", None)
    gc.collect()
    code_bytes = gc.mem_alloc() - _heap_at_start
    box = DiceBox(Dice(Xoshiro128(1).getrandbits), "D1CE", "0000BEEF", 0)
    now = 0
    box.feed(p.encode("HELLO"), now)
    while box.next_line() is not None:
        pass
    bins = array("H", bytes(200))
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
            bins[min(99, took // BIN_US)] += 1
            if took > worst:
                worst = took
        else:
            box.button(True, now)
            line = box.next_line()
        while line is not None and not line.startswith(b"ROLL"):
            line = box.next_line()
        assert line is not None
        seq = int(line[9 : line.find(b" ", 9)])  # b"ROLL seq=N ...": the host's side, kept lean
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
            median = i * BIN_US + BIN_US // 2
            break
    gc.collect()
    return {
        "rolls": rolls,
        "heap_code_bytes": code_bytes,
        "heap_live_bytes": gc.mem_alloc() - _heap_at_start,
        "latency_us_median": median,
        "latency_us_max": worst,
        "unacked": len(box.ring),
    }


if __name__ == "__main__":
    count = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    print(json.dumps(run(count)))
