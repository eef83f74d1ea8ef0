"""``python -m companion_app.emulator``: a dice box on a pseudo-terminal, for the app or by hand.

The first line out is ``PORT <path>``; open that path as the dice box's serial port (the app's
``--port``, or ``pyserial-miniterm <path>`` to read and type protocol lines). After an unplug
the port comes back, perhaps under another path, announced by another ``PORT`` line.

Keys: Space or Enter presses the roll button, ``u`` unplugs (and replugs 0.2 s later), ``r``
resets the box, ``q`` quits. Without a terminal, the same bytes are read from standard input,
and its end quits. The LED track is drawn in the terminal (or printed as ``LEDS`` lines), the
box's display under it in block characters; ``--display-png DIR`` writes each new display frame
as a PNG. The box's flash (unacknowledged rolls across ``r`` and ``--reset-after``) is a
temporary file, or ``--flash FILE`` (a file that is not such a record is refused, never
overwritten).
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
from pathlib import Path

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


DISPLAY_WIDTH = 128
DISPLAY_HEIGHT = 64
# Quadrant blocks: 2x2 pixels per character, bit 1 top-left, 2 top-right, 4 bottom-left,
# 8 bottom-right.
_QUADRANTS = " ▘▝▀▖▌▞▛▗▚▐▜▄▙▟█"


def lit(frame: bytes, x: int, y: int) -> bool:
    """Pixel (x, y) of a 128x64 MONO_VLSB frame."""
    return bool(frame[(y >> 3) * DISPLAY_WIDTH + x] >> (y & 7) & 1)


def draw_display(frame: bytes) -> list[str]:
    """The display as 32 lines of 64 block characters, inside a frame."""
    lines = ["┌" + "─" * (DISPLAY_WIDTH // 2) + "┐"]
    for y in range(0, DISPLAY_HEIGHT, 2):
        row = []
        for x in range(0, DISPLAY_WIDTH, 2):
            code = (
                lit(frame, x, y)
                | lit(frame, x + 1, y) << 1
                | lit(frame, x, y + 1) << 2
                | lit(frame, x + 1, y + 1) << 3
            )
            row.append(_QUADRANTS[code])
        lines.append("│" + "".join(row) + "│")
    lines.append("└" + "─" * (DISPLAY_WIDTH // 2) + "┘")
    return lines


def save_display_png(frame: bytes, path: Path, scale: int = 4) -> None:
    """One display frame as a PNG: lit pixels pale blue on black, each ``scale`` x ``scale``."""
    from PIL import Image  # the test extra; imported only when PNGs are asked for

    image = Image.new("RGB", (DISPLAY_WIDTH, DISPLAY_HEIGHT))
    pixels = image.load()
    assert pixels is not None
    for y in range(DISPLAY_HEIGHT):
        for x in range(DISPLAY_WIDTH):
            if lit(frame, x, y):
                pixels[x, y] = (150, 220, 255)
    image.resize((DISPLAY_WIDTH * scale, DISPLAY_HEIGHT * scale), Image.Resampling.NEAREST).save(
        path
    )


def _fault_plan(text: str) -> FaultPlan:
    try:
        return FaultPlan.parse(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _device_id(text: str) -> str:
    """A hex id as the protocol has it (upper-case hex, 1-16 digits), or a usage error."""
    if 0 < len(text) <= 16 and all(c in "0123456789ABCDEF" for c in text):
        return text
    raise argparse.ArgumentTypeError(f"{text!r} is not 1-16 upper-case hex digits")


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m companion_app.emulator",
        description="Emulated dice box: the real firmware behind a pseudo-terminal.",
    )
    parser.add_argument("--micropython", action="store_true", help="run it in the MicroPython VM")
    parser.add_argument(
        "--rp2040",
        action="store_true",
        help="run it on MicroPython's rp2 port on an emulated RP2040, flashed with the dice"
        " box's UF2 (slower than real time)",
    )
    parser.add_argument(
        "--uf2-path",
        action="store_true",
        help="print the path of the dice box's UF2 (MicroPython with the firmware: drag it"
        " onto a Pico's RPI-RP2 drive) and exit",
    )
    parser.add_argument("--seed", type=int, help="reproducible dice and boot ids")
    parser.add_argument("--script", metavar="FILE", help="fixed rolls: 'yellow red event' a line")
    parser.add_argument(
        "--dice-mode",
        choices=("fair", "balanced", "deck"),
        help="the box's dice mode at power-up (default: its flash record's, fair without one)",
    )
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
    parser.add_argument(
        "--device-id", metavar="HEX", type=_device_id, help="the id the box reports"
    )
    parser.add_argument(
        "--flash",
        metavar="FILE",
        help="the box's flash record (kept across resets; default: a temporary file); a file"
        " there that is not one is refused, never overwritten",
    )
    parser.add_argument(
        "--display-png",
        metavar="DIR",
        type=Path,
        help="write each new frame of the box's display as DIR/display-NNNNN.png",
    )
    return parser.parse_args(argv)


class _Printer:
    """Lines scroll; in a terminal the LED track and the display stay drawn at the bottom (the
    panel), redrawn in place."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.interactive = sys.stdout.isatty()
        self._track = ""
        self._display: list[str] = []

    def _panel(self) -> str:
        return "\n".join([self._track, *self._display])

    def _clear(self) -> str:
        """Back to the start of the panel and clear it."""
        up = len(self._display)
        return "\r" + (f"\x1b[{up}A" if up else "") + "\x1b[J"

    def line(self, text: str) -> None:
        with self._lock:
            if self.interactive:
                sys.stdout.write(f"{self._clear()}{text}\n{self._panel()}")
            else:
                sys.stdout.write(f"{text}\n")
            sys.stdout.flush()

    def track(self, text: str) -> None:
        if not self.interactive:
            self.line(text)
            return
        with self._lock:
            clear = self._clear()
            self._track = text
            sys.stdout.write(clear + self._panel())
            sys.stdout.flush()

    def display(self, lines: list[str]) -> None:
        if not self.interactive:
            return
        with self._lock:
            clear = self._clear()
            self._display = lines
            sys.stdout.write(clear + self._panel())
            sys.stdout.flush()


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.uf2_path:
        from companion_app.emulator.rp2040 import dicebox_uf2

        print(dicebox_uf2())
        return 0
    out = _Printer()
    try:
        emulator = Emulator(
            micropython=args.micropython,
            rp2040=args.rp2040,
            seed=args.seed,
            script=args.script,
            dice_mode=args.dice_mode,
            faults=args.fault,
            unplug_every=args.unplug_every,
            reset_after=args.reset_after,
            resend_ms=args.resend_ms,
            device_id=args.device_id,
            on_port=lambda path: out.line(f"PORT {path}"),
            flash=args.flash,
        )
        if args.display_png is not None:
            args.display_png.mkdir(parents=True, exist_ok=True)
    except (OSError, ValueError) as exc:  # a file that cannot be used: one line, exit code 1
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else exc
        where = f" ({exc.filename})" if isinstance(exc, OSError) and exc.filename else ""
        sys.stderr.write(f"dice box emulator: {reason}{where}\n")
        return 1
    stdin = sys.stdin.fileno()
    saved = termios.tcgetattr(stdin) if os.isatty(stdin) else None
    if saved is not None:
        tty.setcbreak(stdin)
        out.line("Space/Enter: roll   u: unplug   r: reset   q: quit")
    try:
        _loop(emulator, out, stdin, args.display_png)
    except KeyboardInterrupt:
        pass
    finally:
        if saved is not None:
            termios.tcsetattr(stdin, termios.TCSADRAIN, saved)
        if out.interactive:
            sys.stdout.write("\n")  # leave the track line drawn
        emulator.close()
    return 0


def _loop(  # noqa: PLR0912 - the keys in, then each thing the box shows out, in one loop
    emulator: Emulator, out: _Printer, stdin: int, png_dir: Path | None
) -> None:
    shown_leds: str | None = None
    shown_screen: bytes | None = None
    pngs = 0
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
        screen = emulator.screen()
        if screen is not None and screen[1] != shown_screen:
            shown_screen = screen[1]
            out.display(draw_display(shown_screen))
            if png_dir is not None:
                pngs += 1
                save_display_png(shown_screen, png_dir / f"display-{pngs:05d}.png")
        time.sleep(0.005)


if __name__ == "__main__":
    sys.exit(main())
