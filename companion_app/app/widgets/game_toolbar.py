"""The game screen's buttons beside the log: the player's hand, the improvement chart,
statistics, the players' phones, undo and redo (through the journal), and home; two to a row."""

from __future__ import annotations

from kivy.uix.gridlayout import GridLayout

from companion_app.app.screens import load_kv


class GameToolbar(GridLayout):
    """Layout in game_toolbar.kv; every button calls the app (which owns the session)."""


load_kv(__file__)
