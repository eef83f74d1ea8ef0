"""Standings: every person's games, wins, average VP, Longest Roads, Defender cards,
metropolises and luck, and the latest evenings (from
:mod:`companion_app.presenters.standings_presenter`). Opened from New game, back to it."""

from __future__ import annotations

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import StringProperty
from kivy.uix.screenmanager import Screen

from companion_app.app.screens import load_kv
from companion_app.i18n.current import _
from companion_app.journal import JournalError
from companion_app.presenters.board_picture import player_colour
from companion_app.presenters.standings_presenter import HEADER, standings_view

load_kv(__file__)


class StandingsScreen(Screen):
    title = StringProperty("")
    note = StringProperty("")

    def on_pre_enter(self, *_args: object) -> None:
        table = self.ids.table
        table.clear_widgets()
        nights = self.ids.evenings
        nights.clear_widgets()
        try:
            view = standings_view(App.get_running_app().journal.conn)
        except JournalError as exc:
            self.title, self.note = _("Standings"), str(exc)
            return
        self.title, self.note = view.title, view.luck_note
        for text in HEADER:
            text = _(text)
            table.add_widget(Factory.StandingCell(text=text, bold=True))
        for line in view.lines:
            for column, text in enumerate(line.cells):
                cell = Factory.StandingCell(text=text)
                if column == 0:
                    cell.color = player_colour(line.colour)
                    cell.bold = True
                table.add_widget(cell)
        if not view.lines:
            nights.add_widget(Factory.Body(text=_("No finished games yet.")))
        for text in view.evenings:
            nights.add_widget(Factory.Body(text=text))

    def retranslate(self) -> None:
        self.on_pre_enter()

    def back(self) -> None:
        App.get_running_app().show("new_game")
