"""Start-up of the Kivy app: configure the window before any Kivy window module loads."""

from __future__ import annotations

import os
import time
from pathlib import Path

from companion_app.device.discovery import DiceSource
from companion_app.i18n import catalogue_missing
from companion_app.presenters.display import Density, DisplaySize, choose_density
from companion_app.presenters.settings import chosen_language


def configure_kivy(
    width: int, height: int, *, density: Density | None = None, fullscreen: bool = False
) -> Density:
    """Window size, scale and input settings; must run before Kivy is imported. Without a
    ``density`` the window rule of `display.choose_density` gives it. Returns the density used
    (KIVY_METRICS_DENSITY set by hand wins, and says so)."""
    density = density or choose_density(DisplaySize(width, height, source="--size"))
    by_hand = os.environ.get("KIVY_METRICS_DENSITY")
    if by_hand:
        density = Density(float(by_hand), "set by hand", "KIVY_METRICS_DENSITY")
    os.environ["KIVY_METRICS_DENSITY"] = f"{density.value:.3f}"
    from kivy.config import Config

    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    # A kiosk's window is its display, at the display's own mode; a tablet's always is.
    Config.set("graphics", "fullscreen", "auto" if fullscreen else "0")
    Config.set("graphics", "resizable", "1")
    Config.set("graphics", "show_cursor", "0" if fullscreen else "1")
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    # A roll arrives on the link's reader thread and is handed to the main thread with
    # schedule_once; the interruptible clock runs it at once instead of at the next frame tick,
    # so the dice show about 10 ms sooner (see the README's benchmark table). KIVY_CLOCK wins.
    Config.set("kivy", "kivy_clock", "interrupt")
    # One line on stderr whatever Kivy does with its log and sys.stderr (a kiosk's journal
    # keeps it).
    os.write(2, f"Window: {width}x{height}, {density.line()}\n".encode())
    return density


def run_app(
    dice: DiceSource,
    *,
    width: int,
    height: int,
    screenshot: str | None,
    journal_path: Path,
    exit_when_ready: bool = False,
    started_at: float | None = None,
    density: Density | None = None,
    fullscreen: bool = False,
    language: str | None = None,
) -> int:
    """Say a language that cannot be shown, configure Kivy's window, then run the app until
    it is closed."""
    language = chosen_language(language, journal_path, os.environ)
    missing = catalogue_missing(language)
    if missing is not None:  # the log's first line: Kivy's own start after it
        os.write(2, f"Language: {missing}\n".encode())
    configure_kivy(width, height, density=density, fullscreen=fullscreen)
    from companion_app.app.companion import CompanionApp

    CompanionApp(
        dice=dice,
        journal_path=journal_path,
        screenshot=screenshot,
        exit_when_ready=exit_when_ready,
        started_at=started_at if started_at is not None else time.perf_counter(),
        language=language,
    ).run()
    return 0
