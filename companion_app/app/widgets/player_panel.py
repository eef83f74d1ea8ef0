"""One line per player on the game screen: colour stripe, victory points and cards, with the
player who must decide now marked."""

from __future__ import annotations

from kivy.metrics import dp
from kivy.properties import ListProperty, NumericProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.utils import escape_markup

from companion_app.app import presenter as P
from companion_app.app.screens import load_kv
from companion_app.rules.game import Game

DECIDING_FILL = (0.30, 0.33, 0.22, 1)
IDLE_FILL = (0.2, 0.23, 0.28, 1)


class PlayerLine(Label):
    """A line in a player's colour (the stripe) on a background that marks who decides."""

    stripe = ListProperty([0.5, 0.5, 0.5, 1])
    fill = ListProperty([0.2, 0.23, 0.28, 1])
    min_height = NumericProperty(dp(48))


class PlayerPanel(GridLayout):
    def show(self, game: Game) -> None:
        self.clear_widgets()
        for view in P.player_views(game):
            marker = "» " if view.deciding else ""
            line = PlayerLine(
                text=f"[b]{marker}{escape_markup(view.name)}[/b]   {view.victory_points} VP · "
                f"{view.cards} cards: {view.hand}",
                stripe=view.colour,
                fill=DECIDING_FILL if view.deciding else IDLE_FILL,
            )
            line.seat = view.seat
            self.add_widget(line)


load_kv(__file__)
