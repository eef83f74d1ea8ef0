"""Start-up of the Kivy app: configure the window before any Kivy window module loads."""

from __future__ import annotations

import time
from pathlib import Path

from companion_app.device.discovery import DiceSource


def configure_kivy(width: int, height: int) -> None:
    """Window size and input settings; must run before ``kivy.core.window`` is imported."""
    from kivy.config import Config

    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("graphics", "resizable", "1")
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")


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
