"""What the screens opened during a game share beyond `GameViewScreen`: the row of players'
names that picks whose part is shown, and the way back to the board."""

from __future__ import annotations

from collections.abc import Sequence

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import ListProperty, NumericProperty
from kivy.uix.label import Label

from companion_app.app.screens import load_kv
from companion_app.app.screens.game_view import GameViewScreen
from companion_app.presenters.board_picture import player_colour
from companion_app.rules.game import Game

load_kv(__file__.replace("info_screen", "info"))


class SeatButton(Factory.ChoiceButton):
    """A player's name to pick whose hand or chart is shown, underlined in their colour."""

    stripe = ListProperty([0.5, 0.5, 0.5, 1])


class FilledLabel(Label):
    """Text on a filled box with an edge: card tiles, chart cells."""

    fill = ListProperty([0.2, 0.23, 0.28, 1])
    edge = ListProperty([0, 0, 0, 0])


class VersusBar(Label):
    """A label over a bar as long as ``value`` of ``most``."""

    value = NumericProperty(0)
    most = NumericProperty(1)
    bar = ListProperty([0.5, 0.5, 0.5, 1])


class InfoScreen(GameViewScreen):
    """A screen that shows part of the current game, opened from the game's toolbar (or by
    itself: an attack, the end); Back returns to the board."""

    def pick(self, seat: int) -> None:
        raise NotImplementedError

    def fill_seats(
        self, game: Game, selected: int, group: str, only: Sequence[int] | None = None
    ) -> None:
        """The row of players' names (``ids.seats``) that picks whose part is shown (``only``
        these seats, if given)."""
        seats = self.ids.seats
        seats.clear_widgets()
        for p, cfg in enumerate(game.config.players):
            if only is not None and p not in only:
                continue
            button = SeatButton(
                text=cfg.name,
                stripe=player_colour(cfg.colour),
                state="down" if p == selected else "normal",
                group=group,
                allow_no_selection=False,
            )
            button.seat = p
            button.bind(on_release=lambda b: self.pick(b.seat))
            seats.add_widget(button)

    def back(self) -> None:
        App.get_running_app().show("game")
