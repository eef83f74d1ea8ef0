"""Run the dice box firmware on a computer, speaking protocol v1 on stdin/stdout.

    micropython firmware/host_main.py --seed 7          # in the MicroPython unix VM
    python firmware/host_main.py --seed 7               # under CPython

Options:
    --seed N            reproducible dice (default: random from the OS)
    --device-id HEX     device id in HELLO (default D1CE0000000000E1)
    --boot-id HEX       boot id in HELLO (default: random, new every run)
    --control FD|PATH   read button commands from a file descriptor or a FIFO:
                        press [ms] | down | up | pattern 1:3,0:1,1:90,0:0 | tap | quit
                        (tap: one press past the debouncer, as an emulator's key)
    --heartbeat-ms N    heartbeat period (default 1000; the host is gone after 4 missed)
    --resend-ms N       resend an unacknowledged roll after N ms (default 2000)
    --script FILE       fixed rolls, one "yellow red event" a line, used in turn (e.g. 3 5 ship)
    --show-leds         print the LED strip to stderr whenever it changes
    --show-display      print each new display frame to stderr: OLED <1024 bytes in hex>
    --dice-mode MODE    fair | balanced | deck: the dice mode to start in (default: the flash
                        record's, fair without one), as if set on the box: kept in the record
    --flash FILE        the box's flash record (unacknowledged rolls, standalone track) lives in
                        FILE (and FILE.new while it is replaced); without it nothing survives

Protocol lines go to stdout and nothing else does; diagnostics go to stderr. The program ends
when stdin ends (or on `quit` from the control stream).
"""

import sys

try:
    _here = __file__.rsplit("/", 1)[0] if "/" in __file__ else "."
except NameError:
    _here = "."
if _here not in sys.path:
    sys.path.insert(0, _here)

import asyncio

from dicebox import hw_host, pins
from dicebox.app import Runner
from dicebox.core import DiceBox
from dicebox.dice import Dice, Xoshiro128
from dicebox.protocol import DICE_MODES
from dicebox.store import Store

DEFAULT_DEVICE_ID = "D1CE0000000000E1"
LED_COUNT = pins.LED_COUNT

USAGE = (
    "usage: host_main.py [--seed N] [--device-id HEX] [--boot-id HEX] [--control FD|PATH]"
    " [--heartbeat-ms N] [--resend-ms N] [--script FILE] [--show-leds] [--show-display]"
    " [--flash FILE] [--dice-mode fair|balanced|deck]\n"
)


def parse_args(argv: list) -> dict:
    opts = {
        "seed": None,
        "device_id": DEFAULT_DEVICE_ID,
        "boot_id": None,
        "control": None,
        "heartbeat_ms": None,
        "resend_ms": None,
        "script": None,
        "show_leds": False,
        "show_display": False,
        "flash": None,
        "dice_mode": None,
    }
    i = 0
    while i < len(argv):
        arg = argv[i]
        if arg in ("--show-leds", "--show-display"):
            opts[arg[2:].replace("-", "_")] = True
            i += 1
            continue
        if arg in ("-h", "--help"):
            sys.stdout.write(__doc__ or USAGE)
            raise SystemExit(0)
        key = arg[2:].replace("-", "_") if arg.startswith("--") else ""
        if key not in opts or i + 1 >= len(argv):
            sys.stderr.write(USAGE)
            raise SystemExit(2)
        value = argv[i + 1]
        if key in ("seed", "heartbeat_ms", "resend_ms"):
            try:
                opts[key] = int(value)
            except ValueError:
                sys.stderr.write(USAGE)
                raise SystemExit(2) from None
        elif key == "dice_mode" and value not in DICE_MODES:
            sys.stderr.write(USAGE)
            raise SystemExit(2)
        else:
            opts[key] = value.upper() if key.endswith("_id") else value
        i += 2
    return opts


def build(opts: dict, serial: "object") -> tuple:
    """The box, its hardware and its runner, ready for ``asyncio.run(runner.run())``."""
    clock = hw_host.Clock()
    button = hw_host.HostButton(clock)
    control = None
    if opts["control"] is not None:
        target = opts["control"]
        stream = int(target) if target.isdigit() else open(target, "rb")
        control = hw_host.ControlReader(stream, button)
    hw = hw_host.HostHardware(
        serial, clock, button, control, opts["show_leds"], opts["show_display"]
    )
    if opts["seed"] is None:
        rng = Xoshiro128(seed_bytes=hw_host.entropy(16))
    else:
        rng = Xoshiro128(opts["seed"])
    dice = Dice(rng.getrandbits)
    if opts["script"] is not None:
        dice = hw_host.ScriptedDice.from_file(opts["script"])
    boot_id = opts["boot_id"]
    if boot_id is None:
        boot_id = "".join(f"{b:02X}" for b in hw_host.entropy(4))
    store = Store(opts["flash"]) if opts["flash"] is not None else None
    mode = -1 if opts["dice_mode"] is None else DICE_MODES.index(opts["dice_mode"])
    box = DiceBox(dice, opts["device_id"], boot_id, clock(), LED_COUNT, store, mode)
    if opts["heartbeat_ms"] is not None:
        box.HB_INTERVAL_MS = opts["heartbeat_ms"]
    if opts["resend_ms"] is not None:
        box.RESEND_MS = opts["resend_ms"]
    runner = Runner(box, hw)
    box.on_roll = runner.refresh
    if control is not None:

        def tap() -> None:
            box.press(clock())
            runner.flush()  # the ROLL goes out now, not on the next serial round

        control.on_tap = tap
    return box, hw, runner


def main(argv: list) -> int:
    opts = parse_args(argv)
    serial = hw_host.StreamSerial(sys.stdin, sys.stdout)
    _box, _hw, runner = build(opts, serial)
    try:
        asyncio.run(runner.run())
    except KeyboardInterrupt:
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
