"""``python -m companion_app.emulator``: a dice box on a pseudo-terminal, for the app or by hand.

The first line out is ``PORT <path>``; open that path as the dice box's serial port (the app's
``--port``, or ``pyserial-miniterm <path>`` to read and type protocol lines). After an unplug
the port comes back, perhaps under another path, announced by another ``PORT`` line.

Keys: Space or Enter presses the roll button, ``u`` unplugs (and replugs 0.2 s later), ``r``
resets the box, ``q`` quits. Without a terminal, the same bytes are read from standard input,
and its end quits. The LED track is drawn in the terminal (or printed as ``LEDS`` lines).
"""

from __future__ import annotations

import argparse
import os
import select
import sys
import termios
import threading
import time
import tty
from collections.abc import Sequence

from companion_app.emulator.box import Emulator
from companion_app.emulator.faults import FaultPlan

_COLOURS = {
    "S": "97",  # ship: bright white
    "w": "34",  # wake: dim blue
    ".": "90",  # sea / off: grey
    "R": "91",
    "Y": "93",
    "B": "94",
    "G": "92",
    "A": "33",
    "W": "97",
}


def draw_track(leds: str, colour: bool) -> str:
    """The strip as one line: the track LEDs, a gap, the attack LED."""
    if not colour:
        return f"LEDS {leds}"
    cells = [f"\x1b[{_COLOURS.get(c, '0')}m{'●' if c != '.' else '·'}\x1b[0m" for c in leds]
    return "track " + " ".join(cells[:-1]) + "   attack " + (cells[-1] if cells else "")


def _fault_plan(text: str) -> FaultPlan:
    try:
        return FaultPlan.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m companion_app.emulator",
        description="Emulated dice box: the real firmware behind a pseudo-terminal.",
    )
    parser.add_argument("--micropython", action="store_true", help="run it in the MicroPython VM")
    parser.add_argument("--seed", type=int, help="reproducible dice and boot ids")
    parser.add_argument("--script", metavar="FILE", help="fixed rolls: 'yellow red event' a line")
    parser.add_argument(
        "--fault",
        type=_fault_plan,
        default=FaultPlan(),
        metavar="drop=P,dup=P,garbage=P,corrupt=P",
        help="line faults on the wire, both ways (probabilities 0-1)",
    )
    parser.add_argument(
        "--unplug-every",
        type=int,
        default=0,
        metavar="N",
        help="unplug and replug the port after every N rolls",
    )
    parser.add_argument(
        "--reset-after",
        type=int,
        default=0,
        metavar="N",
        help="restart the box (new boot id) after its Nth roll",
    )
    parser.add_argument(
        "--resend-ms",
        type=int,
        metavar="MS",
        help="firmware resend period for unacknowledged rolls",
    )
    parser.add_argument("--device-id", metavar="HEX", help="the id the box reports")
    return parser.parse_args(argv)


class _Printer:
    """Lines scroll; in a terminal the LED track stays drawn on the last line, redrawn in place."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.interactive = sys.stdout.isatty()
        self._track = ""

    def line(self, text: str) -> None:
        with self._lock:
            if self.interactive:
                sys.stdout.write(f"\r\x1b[K{text}\n{self._track}")
            else:
                sys.stdout.write(f"{text}\n")
            sys.stdout.flush()

    def track(self, text: str) -> None:
        if not self.interactive:
            self.line(text)
            return
        with self._lock:
            self._track = text
            sys.stdout.write(f"\r\x1b[K{text}")
            sys.stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    out = _Printer()
    try:
        emulator = Emulator(
            micropython=args.micropython,
            seed=args.seed,
            script=args.script,
            faults=args.fault,
            unplug_every=args.unplug_every,
            reset_after=args.reset_after,
            resend_ms=args.resend_ms,
            device_id=args.device_id,
            on_port=lambda path: out.line(f"PORT {path}"),
        )
    except (OSError, ValueError) as exc:
        sys.stderr.write(f"dice box emulator: {exc}\n")
        return 2
    stdin = sys.stdin.fileno()
    saved = termios.tcgetattr(stdin) if os.isatty(stdin) else None
    if saved is not None:
        tty.setcbreak(stdin)
        out.line("Space/Enter: roll   u: unplug   r: reset   q: quit")
    try:
        _loop(emulator, out, stdin)
    except KeyboardInterrupt:
        pass
    finally:
        if saved is not None:
            termios.tcsetattr(stdin, termios.TCSADRAIN, saved)
        if out.interactive:
            sys.stdout.write("\n")  # leave the track line drawn
        emulator.close()
    return 0


def _loop(emulator: Emulator, out: _Printer, stdin: int) -> None:
    shown_leds: str | None = None
    shown_rolls = 0
    boots = 1
    while True:
        ready, _, _ = select.select([stdin], [], [], 0.05)
        if ready:
            keys = os.read(stdin, 64)
            if not keys:
                return
            for key in keys:
                if key in b" \r\n":
                    emulator.press()
                elif key == ord("u"):
                    out.line("unplugged")
                    emulator.unplug()
                elif key == ord("r"):
                    emulator.reset()
                elif key in b"q\x03\x04":
                    return
        while shown_rolls < len(emulator.rolls):
            roll = emulator.rolls[shown_rolls]
            shown_rolls += 1
            flags = (" offline" if roll.offline else "") + (" alchemist" if roll.alchemist else "")
            out.line(
                f"ROLLED {roll.yellow}+{roll.red} {roll.event} seq={roll.seq} boot={roll.boot_id}"
                + flags
            )
        if len(emulator.boots) != boots:
            boots = len(emulator.boots)
            out.line(f"RESET boot={emulator.boots[-1]}")
        leds = emulator.leds()
        if leds is not None and leds != shown_leds:
            shown_leds = leds
            out.track(draw_track(leds, out.interactive))
        time.sleep(0.005)


if __name__ == "__main__":
    sys.exit(main())
