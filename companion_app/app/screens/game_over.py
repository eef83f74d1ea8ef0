"""The end of the game: the winner, everyone's VP with its breakdown, a short summary with the
sums histogram, and the export of the journal to a file (the screen says where it went)."""

from __future__ import annotations

from kivy.app import App
from kivy.properties import StringProperty
from kivy.utils import escape_markup

from companion_app.app.screens import load_kv
from companion_app.app.screens.info_screen import InfoScreen
from companion_app.app.widgets.histogram import Histogram  # noqa: F401  (used in kv)
from companion_app.app.widgets.player_panel import MARKED_FILL, PLAIN_FILL, PlayerLine
from companion_app.game_stats import GameStatistics
from companion_app.i18n.current import _
from companion_app.presenters import board_picture as B
from companion_app.presenters import info_presenter as I
from companion_app.rules.game import Game

load_kv(__file__)


class GameOverScreen(InfoScreen):
    headline = StringProperty("")
    summary = StringProperty("")
    export_text = StringProperty("")

    def on_pre_enter(self, *_args: object) -> None:
        self.export_text = ""
        super().on_pre_enter()

    def show(self, game: Game) -> None:
        ranking = self.ids.ranking
        ranking.clear_widgets()
        if not game.is_over:
            self.headline, self.summary = _("The game is not over"), ""
            return
        stats = GameStatistics.from_game(game)
        view = I.game_over_view(game, stats)
        self.headline = view.headline
        self.summary = "\n".join(view.summary)
        for row in view.ranking:
            crown = "  — " + _("winner") if row.winner else ""
            line = PlayerLine(
                text=f"[b]{row.place}. {escape_markup(row.name)}[/b]{crown}   "
                f"{escape_markup(row.vp)} · {escape_markup(row.luck)}",
                stripe=row.colour,
                mark=B.player_mark(game.config.players[row.seat].colour),
                fill=MARKED_FILL if row.winner else PLAIN_FILL,
                font_size="21sp",
            )
            line.row = row
            ranking.add_widget(line)
        self.ids.sums.bars = list(I.statistics_view(game, stats).sums)

    def export(self) -> None:
        app = App.get_running_app()
        path = app.export_game()
        self.export_text = (
            _("Exported to {path}").format(path=path) if path is not None else app.message
        )
