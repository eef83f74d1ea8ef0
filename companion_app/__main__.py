"""`python -m companion_app`: start the tablet app (`python -m companion_app tour`: the
screenshot tour with its layout check)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

_STARTED_AT = time.perf_counter()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="catan-companion",
        description="Referee and bank for Catan: Cities & Knights, with the dice box as dice.",
        epilog="`%(prog)s tour --size WxH --out DIR` plays a scripted game through every screen "
        "and checks its layout (see `%(prog)s tour --help`).",
    )
    parser.add_argument("--port", help="serial port of the dice box (default: auto-detect)")
    parser.add_argument(
        "--virtual-dice", action="store_true", help="use the virtual dice even if a box is found"
    )
    parser.add_argument(
        "--size", default="1280x800", help="window size WIDTHxHEIGHT (default 1280x800)"
    )
    parser.add_argument(
        "--screenshot",
        metavar="PNG",
        help="save a screenshot of the first screen to PNG and quit (for checks and docs)",
    )
    parser.add_argument(
        "--journal",
        metavar="PATH",
        type=Path,
        help="the game journal (default: $XDG_DATA_HOME/catan-companion/journal.sqlite3)",
    )
    parser.add_argument(
        "--exit-when-ready",
        action="store_true",
        help="print 'READY <seconds since start>' once the home screen is on screen, then quit",
    )
    args = parser.parse_args(argv)
    try:
        width, height = (int(v) for v in args.size.lower().split("x"))
    except ValueError:
        parser.error(f"--size must look like 1280x800, got {args.size!r}")
    if width < 320 or height < 240:
        parser.error(f"--size {args.size} is too small (at least 320x240)")
    args.width, args.height = width, height
    return args


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["tour"]:
        from companion_app.app.tour.run import main as tour_main

        return tour_main(argv[1:])
    args = parse_args(argv)
    # Kivy reads its own options from sys.argv unless told not to; ours are parsed above.
    os.environ.setdefault("KIVY_NO_ARGS", "1")
    os.environ.setdefault("KIVY_NO_CONSOLELOG", "0")

    from companion_app.device.discovery import choose_dice_source

    dice = choose_dice_source(args.port, force_virtual=args.virtual_dice)

    from companion_app.app.main import run_app

    if args.journal is None:
        from companion_app.journal.paths import default_db_path

        args.journal = default_db_path()
    return run_app(
        dice,
        width=args.width,
        height=args.height,
        screenshot=args.screenshot,
        journal_path=args.journal,
        exit_when_ready=args.exit_when_ready,
        started_at=_STARTED_AT,
    )


if __name__ == "__main__":
    sys.exit(main())
