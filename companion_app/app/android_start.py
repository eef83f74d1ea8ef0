"""Start-up on Android (a python-for-android build, ``deploy/android``): the game journal in the
app's private storage, the density from the display's size as Android reports it, the dice box
on the USB host (else the virtual dice), the window the whole screen.

Android's modules (``android.storage`` from python-for-android, ``jnius`` for the display's
metrics) are imported only here and only when asked for, so tests pass fakes.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion_app.device.discovery import DiceSource
from companion_app.presenters.display import Density, DisplaySize, choose_density

MM_PER_INCH = 25.4


@dataclass(frozen=True)
class AndroidStart:
    """What the app starts with on Android."""

    journal: Path
    display: DisplaySize
    density: Density
    dice: DiceSource


def _app_storage() -> str:
    storage: Any = importlib.import_module("android.storage")
    path: str = storage.app_storage_path()
    return path


def _display_metrics() -> Any:
    """Android's ``DisplayMetrics`` of the running activity."""
    jnius: Any = importlib.import_module("jnius")
    activity = jnius.autoclass("org.kivy.android.PythonActivity").mActivity
    return activity.getResources().getDisplayMetrics()


def display_from_metrics(metrics: Any) -> DisplaySize:
    """The screen in pixels and, from its exact dots per inch on each axis, in millimetres."""
    width, height = int(metrics.widthPixels), int(metrics.heightPixels)
    xdpi, ydpi = float(metrics.xdpi), float(metrics.ydpi)
    if xdpi <= 0 or ydpi <= 0:
        return DisplaySize(width, height, source="Android (no dpi)")
    return DisplaySize(
        width,
        height,
        round(width / xdpi * MM_PER_INCH, 1),
        round(height / ydpi * MM_PER_INCH, 1),
        "Android's display metrics",
    )


def prepare(
    app_storage: Callable[[], str] = _app_storage,
    display_metrics: Callable[[], Any] = _display_metrics,
    dice_source: Callable[[], DiceSource] | None = None,
) -> AndroidStart:
    """Where the journal goes, the screen and its density, the dice."""
    from companion_app.device.discovery import choose_dice_source

    folder = Path(app_storage())
    folder.mkdir(parents=True, exist_ok=True)
    display = display_from_metrics(display_metrics())
    return AndroidStart(
        journal=folder / "journal.sqlite3",
        display=display,
        density=choose_density(display),
        dice=(dice_source or choose_dice_source)(),
    )


def main() -> int:
    """The APK's entry point (``deploy/android/main.py``)."""
    import os

    os.environ.setdefault("KIVY_NO_ARGS", "1")
    start = prepare()
    from companion_app.app.main import run_app

    return run_app(
        start.dice,
        width=start.display.width_px,
        height=start.display.height_px,
        screenshot=None,
        journal_path=start.journal,
        density=start.density,
        fullscreen=True,
    )
