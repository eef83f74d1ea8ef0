"""`python -m companion_app`: start the tablet app (`python -m companion_app tour`: the
screenshot tour with its layout check)."""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import replace
from pathlib import Path

from companion_app.presenters.display import (
    DisplaySize,
    on_kiosk,
    parse_size,
    read_drm_display,
    sdl_desktop_size,
    window_on_screen,
)

_STARTED_AT = time.perf_counter()


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="catan-companion",
        description="Referee and bank for Catan: Cities & Knights, with the dice box as dice.",
        epilog="The window: fullscreen at the display's own mode on a kiosk (SDL_VIDEODRIVER="
        "kmsdrm) or with --fullscreen, else a 1280x800 window (the screen's size on a smaller "
        "screen); --size forces a size (tests, "
        "docs). The density (dp per pixel): where the display's size on the glass is known "
        "(Android, a kiosk display's EDID or a known Raspberry Pi panel, --display-mm) the "
        "physical rule, 44 dp at least 7 mm, but at least 1 and the window no smaller in dp than "
        "the layouts are checked at (800x480, portrait 720x1280); else the window rule, the short "
        "side / 800 and at least 1. The log's 'Window: density ...' line says which one a run "
        "used. `%(prog)s tour --size WxH --out DIR` plays a scripted game through every screen "
        "and checks its layout (see `%(prog)s tour --help`).",
    )
    parser.add_argument("--port", help="serial port of the dice box (default: auto-detect)")
    parser.add_argument(
        "--virtual-dice", action="store_true", help="use the virtual dice even if a box is found"
    )
    parser.add_argument(
        "--size",
        help="force the window to WIDTHxHEIGHT pixels, density by the window rule unless "
        "--display-mm is given (for tests and docs; default: the display's own size)",
    )
    parser.add_argument(
        "--fullscreen", action="store_true", help="take the whole display (the kiosk's default)"
    )
    parser.add_argument(
        "--display-mm",
        metavar="WxH",
        help="the display's visible size in millimetres, where it does not report it "
        "(e.g. 155x86); the density then follows the physical rule",
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
    parser.add_argument(
        "--lang",
        metavar="LL",
        help="speak this language for this run (en, cs, ca, pl, de, vi; default: the one chosen "
        "in Settings, at the first start the system's locale)",
    )
    args = parser.parse_args(argv)
    if args.lang is not None:
        from companion_app.i18n.current import parse_languages

        try:
            args.lang = parse_languages(args.lang)[0]
        except ValueError as exc:
            parser.error(str(exc))
    if args.size is not None:
        try:
            width, height = (int(v) for v in args.size.lower().split("x"))
        except ValueError:
            parser.error(f"--size must look like 1280x800, got {args.size!r}")
        if width < 320 or height < 240:
            parser.error(f"--size {args.size} is too small (at least 320x240)")
        args.width, args.height = width, height
    if args.display_mm is not None:
        try:
            args.display_mm = parse_size(args.display_mm, "--display-mm")
        except ValueError as exc:
            parser.error(str(exc))
    return args


DEFAULT_WINDOW = (1280, 800)


def screen_for(
    args: argparse.Namespace,
    environ: Mapping[str, str] = os.environ,
    probe: Callable[[], DisplaySize | None] = read_drm_display,
    desktop: Callable[[], tuple[int, int] | None] = sdl_desktop_size,
) -> tuple[DisplaySize, bool]:
    """The display the window is laid out for, and whether it is fullscreen. ``--size`` wins
    (a window of that size); a kiosk takes its display whole, at the size DRM reports;
    ``--fullscreen`` elsewhere the desktop's size; anywhere else a 1280x800 window, or the
    screen's size where the screen is smaller. ``--display-mm`` adds the size on the glass."""
    kiosk = on_kiosk(environ)
    fullscreen = bool(args.fullscreen) or (kiosk and args.size is None)
    display = DisplaySize(*DEFAULT_WINDOW, source="the default window")
    if args.size is not None:
        display = DisplaySize(args.width, args.height, source="--size")
    elif kiosk and (probed := probe()) is not None:
        display = probed
    elif fullscreen and (whole := desktop()) is not None:
        display = DisplaySize(*whole, source="the desktop")
    elif not fullscreen:
        display = window_on_screen(DEFAULT_WINDOW, desktop())
    if args.display_mm is not None:
        width_mm, height_mm = args.display_mm
        display = replace(display, width_mm=width_mm, height_mm=height_mm, source="--display-mm")
    return display, fullscreen


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
    from companion_app.presenters.display import choose_density

    display, fullscreen = screen_for(args)

    if args.journal is None:
        from companion_app.journal.paths import default_db_path

        args.journal = default_db_path()
    return run_app(
        dice,
        width=display.width_px,
        height=display.height_px,
        density=choose_density(display),
        fullscreen=fullscreen,
        screenshot=args.screenshot,
        journal_path=args.journal,
        exit_when_ready=args.exit_when_ready,
        started_at=_STARTED_AT,
        language=args.lang,
    )


if __name__ == "__main__":
    sys.exit(main())
