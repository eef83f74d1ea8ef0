"""Start-up of the Kivy app: configure the window before any Kivy window module loads."""

from __future__ import annotations

from companion_app.device.discovery import DiceSource


def run_app(dice: DiceSource, *, width: int, height: int, screenshot: str | None) -> int:
    """Configure Kivy's window, then run the app until it is closed."""
    from kivy.config import Config

    Config.set("graphics", "width", str(width))
    Config.set("graphics", "height", str(height))
    Config.set("kivy", "exit_on_escape", "0")
    Config.set("input", "mouse", "mouse,disable_multitouch")

    from companion_app.app.companion import CompanionApp

    CompanionApp(dice=dice, screenshot=screenshot).run()
    return 0
