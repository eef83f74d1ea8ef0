"""The Kivy application object: owns the screens and the (non-UI) services they show."""

from __future__ import annotations

import os
from pathlib import Path

from kivy.app import App
from kivy.clock import Clock
from kivy.core.window import Window
from kivy.properties import StringProperty
from kivy.uix.screenmanager import ScreenManager

from companion_app import APP_NAME, __version__
from companion_app.app.screens.home import HomeScreen
from companion_app.device.discovery import DiceSource

SCREENSHOT_DELAY_S = 1.0


class CompanionApp(App):
    """Holds the screens; the dice source and (later) the game session are plain objects."""

    dice_status = StringProperty("")
    version = StringProperty(__version__)

    def __init__(self, *, dice: DiceSource, screenshot: str | None = None) -> None:
        super().__init__()
        self.title = APP_NAME
        self.dice = dice
        self.dice_status = dice.describe()
        self._screenshot = screenshot

    def build(self) -> ScreenManager:
        Window.clearcolor = (0.11, 0.13, 0.16, 1)
        manager = ScreenManager()
        manager.add_widget(HomeScreen(name="home"))
        if self._screenshot:
            Clock.schedule_once(self._take_screenshot, SCREENSHOT_DELAY_S)
        return manager

    def _take_screenshot(self, _dt: float) -> None:
        assert self._screenshot is not None
        target = Path(self._screenshot).resolve()
        target.parent.mkdir(parents=True, exist_ok=True)
        # Window.screenshot numbers its files (name0001.png); move the result to the asked path.
        written = Window.screenshot(name=str(target))
        if written:
            os.replace(written, target)
        self.stop()
