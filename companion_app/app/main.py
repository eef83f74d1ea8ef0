"""Start-up of the Kivy app: configure the window before any Kivy window module loads."""

from __future__ import annotations

import os
import time
from pathlib import Path

from companion_app.device.discovery import DiceSource

DESIGN_SHORT_SIDE = 800
"""The layouts are laid out for at least 800 dp on the short side (1280x800, 800x1280); larger
windows scale them up (1920x1200: 1.5), smaller ones (1024x600) keep 1 dp per pixel."""


def configure_kivy(width: int, height: int) -> None:
    """Window size, scale and input settings; must run before Kivy is imported."""
    # Text and touch targets grow with the window, so the table reads it from the same distance
    # on a 1920x1200 screen as on a 1280x800 one; a portrait 800x1280 tablet is not scaled
    # (its short side is the layout's). KIVY_METRICS_DENSITY set by hand wins.
    density = max(1.0, min(width, height) / DESIGN_SHORT_SIDE)
    os.environ.setdefault("KIVY_METRICS_DENSITY", f"{density:.3f}")
    from kivy.config import Config

    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "resizable", "1")
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")
    # A roll arrives on the link's reader thread and is handed to the main thread with
    # schedule_once; the interruptible clock runs it at once instead of at the next frame tick,
    # so the dice show about 10 ms sooner (see the README's benchmark table). KIVY_CLOCK wins.
    Config.set("kivy", "kivy_clock", "interrupt")


def run_app(
    dice: DiceSource,
    *,
    width: int,
    height: int,
    screenshot: str | None,
    journal_path: Path,
    exit_when_ready: bool = False,
    started_at: float | None = None,
) -> int:
    """Configure Kivy's window, then run the app until it is closed."""
    configure_kivy(width, height)
    from companion_app.app.companion import CompanionApp

    CompanionApp(
        dice=dice,
        journal_path=journal_path,
        screenshot=screenshot,
        exit_when_ready=exit_when_ready,
        started_at=started_at if started_at is not None else time.perf_counter(),
    ).run()
    return 0
