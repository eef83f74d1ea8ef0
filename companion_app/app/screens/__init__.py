"""One module + kv file per screen; ``common.kv`` holds the shared button and label styles."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kivy.lang import Builder

from companion_app.app import language  # noqa: F401  (the rules' `_`, before any rule loads)

_COMMON = str(Path(__file__).with_name("common.kv"))
if _COMMON not in Builder.files:
    Builder.load_file(_COMMON)


def load_kv(module_file: str) -> None:
    """Load the kv file next to a screen module once."""
    path = str(Path(module_file).with_suffix(".kv"))
    if path not in Builder.files:
        Builder.load_file(path)


@dataclass(frozen=True, slots=True)
class ScreenEntry:
    """A screen's class in ``companion_app.app.screens.<its name>`` (imported on first use:
    only Home loads at start)."""

    cls: str
    info: bool = False
    """Opened from a game: it follows the state while shown (``refresh()``)."""


SCREENS: dict[str, ScreenEntry] = {
    "new_game": ScreenEntry("NewGameScreen"),
    "build_table": ScreenEntry("BuildTableScreen"),
    "game": ScreenEntry("GameScreen"),
    "hand": ScreenEntry("HandScreen", info=True),
    "improvements": ScreenEntry("ImprovementsScreen", info=True),
    "attack": ScreenEntry("AttackScreen", info=True),
    "statistics": ScreenEntry("StatisticsScreen", info=True),
    "game_over": ScreenEntry("GameOverScreen", info=True),
    "standings": ScreenEntry("StandingsScreen"),
}
"""Every screen but Home, by name (the name of its module and its .kv file)."""

INFO_SCREENS = tuple(name for name, entry in SCREENS.items() if entry.info)


def make_screen(name: str) -> Any:
    """A new screen of the table by its name (its module imported on first use)."""
    entry = SCREENS.get(name)
    if entry is None:
        raise KeyError(f"no screen named {name!r}")
    module = importlib.import_module(f"companion_app.app.screens.{name}")
    return getattr(module, entry.cls)(name=name)
