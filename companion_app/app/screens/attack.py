"""The barbarian attack (§7): the barbarians' strength against the defence, each player's
knights that counted, and the outcome (the Defender, a tie's progress cards, the players who
lose a city). Shown by the app when an attack happens; decisions it brings (the city to lose,
a tied player's deck) are then asked on the game screen."""

from __future__ import annotations

from kivy.properties import BooleanProperty, NumericProperty, StringProperty

from companion_app.app.screens import load_kv
from companion_app.app.screens.info_screen import InfoScreen
from companion_app.app.widgets.player_panel import MARKED_FILL, PLAIN_FILL, PlayerLine
from companion_app.i18n.current import _
from companion_app.presenters import board_picture as B
from companion_app.presenters import info_presenter as I
from companion_app.rules.game import Game

load_kv(__file__)


class AttackScreen(InfoScreen):
    title = StringProperty("")
    headline = StringProperty("")
    outcome = StringProperty("")
    defended = BooleanProperty(True)
    strength = NumericProperty(0)
    defence = NumericProperty(0)

    def show(self, game: Game) -> None:
        rows = self.ids.rows
        rows.clear_widgets()
        view = I.attack_view(game)
        if view is None:
            self.title, self.headline, self.outcome = _("No barbarian attack yet"), "", ""
            self.strength = self.defence = 0
            return
        self.title = view.title
        self.headline = view.headline
        self.outcome = view.outcome
        self.defended = view.defended
        self.strength = view.strength
        self.defence = view.defence
        for row in view.rows:
            line = PlayerLine(
                text=f"[b]{row.name}[/b]   "
                + _("defence {strength}").format(strength=row.defence)
                + f"   {row.result}",
                stripe=row.colour,
                mark=B.player_mark(game.config.players[row.seat].colour),
                fill=MARKED_FILL if row.result != "—" else PLAIN_FILL,
                font_size="22sp",
            )
            line.row = row
            rows.add_widget(line)
