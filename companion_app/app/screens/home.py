"""Home screen: the app's name, the board area and the dice status line."""

from __future__ import annotations

from pathlib import Path

from kivy.lang import Builder
from kivy.uix.screenmanager import Screen

from companion_app.app.widgets.board_preview import BoardPreview  # noqa: F401  (used in kv)

Builder.load_file(str(Path(__file__).with_suffix(".kv")))


class HomeScreen(Screen):
    """Layout lives in home.kv; this class only forwards events."""
