"""The row of buttons under the game screen's action list: the player's hand, the improvement
chart, statistics, the players' phones, undo and redo (through the journal), and home."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from companion_app.app.screens import load_kv


class GameToolbar(BoxLayout):
    """Layout in game_toolbar.kv; every button calls the app (which owns the session)."""


load_kv(__file__)
