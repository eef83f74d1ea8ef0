"""The row of buttons under the game screen's action list: home, and the screens a table opens
during a game."""

from __future__ import annotations

from kivy.uix.boxlayout import BoxLayout

from companion_app.app.screens import load_kv


class GameToolbar(BoxLayout):
    pass


load_kv(__file__)
