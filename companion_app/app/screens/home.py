"""Home: start a new game, resume an unfinished one from the journal, settings, dice status."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kivy.app import App
from kivy.factory import Factory
from kivy.properties import ObjectProperty, StringProperty
from kivy.uix.popup import Popup
from kivy.uix.screenmanager import Screen

from companion_app.app.screens import load_kv
from companion_app.app.widgets.board_view import BoardView  # noqa: F401  (used in kv)
from companion_app.app.widgets.confirm import ConfirmPopup
from companion_app.i18n import LANGUAGES, can_show
from companion_app.i18n.current import _
from companion_app.presenters import journal_words as J
from companion_app.presenters.board_picture import board_only_picture
from companion_app.rules.board import STARTER_BOARD

load_kv(__file__)

RESUME_LIMIT = 8
"""The most recent unfinished games offered (the journal CLI lists them all)."""


class SettingsPopup(Popup):
    """The table's language, the dice source, the sound cues and where the journal is; layout
    in home.kv."""

    missing = StringProperty("")
    """The languages greyed because their catalogues are not compiled, by name."""

    def on_kv_post(self, _base_widget: Any) -> None:
        app = App.get_running_app()
        missing = []
        for language in LANGUAGES.values():
            button = Factory.ChoiceButton(text=language.name, group="language")
            button.code = language.code
            button.state = "down" if app is not None and app.language == language.code else "normal"
            button.allow_no_selection = False
            if not can_show(language.code):
                button.disabled = True
                missing.append(language.name)
            button.bind(on_release=lambda b: App.get_running_app().set_language(b.code))
            self.ids.languages.add_widget(button)
            self.ids[f"lang_{language.code}"] = button
        self.missing = ", ".join(missing)


class JournalChooser(Popup):
    """Pick another journal file (an existing one, checked when it is opened)."""

    folder = StringProperty("")

    def choose(self, selection: list[str]) -> None:
        self.dismiss()
        if selection:
            App.get_running_app().use_journal(Path(selection[0]))


class HomeScreen(Screen):
    """Layout lives in home.kv; this class fills the resume list and forwards taps."""

    picture = ObjectProperty(None, allownone=True)
    """The last game's board as a greeting (`presenters.home_board`), its harbours in the
    table's words (drawn by the game's own board view)."""
    _listed_for: Any = None
    """The app the games were last listed for (None: not listed yet)."""

    def on_pre_enter(self, *_args: object) -> None:
        self.fill_games()

    def retranslate(self) -> None:
        self.fill_games()

    def on_kv_post(self, _base_widget: Any) -> None:
        # A Home made before its app (the first enter then lists nothing): list the games one
        # frame on. Made by the app, its first enter has listed them already.
        from kivy.clock import Clock

        Clock.schedule_once(lambda _dt: self._fill_if_listed_without_app(), 0)

    def _fill_if_listed_without_app(self) -> None:
        if self._listed_for is None or self._listed_for is not App.get_running_app():
            self.fill_games()

    def fill_games(self) -> None:
        app = App.get_running_app()
        self._listed_for = app
        box = self.ids.games
        box.clear_widgets()
        games = app.unfinished_games() if app is not None else []
        board = (
            STARTER_BOARD
            if app is None
            else app.last_board.board(app.session, app.journal_problem, lambda: app.journal)
        )
        self.picture = board_only_picture(board)
        entries = J.resume_entries(games, RESUME_LIMIT)
        if not entries:
            box.add_widget(
                Factory.Body(text=_("No unfinished games."), color=(0.75, 0.75, 0.75, 1))
            )
            return
        for summary in entries:
            row = Factory.ResumeRow()
            button = row.ids.resume
            button.text = J.resume_words(summary)
            button.game_id = summary.id
            button.bind(on_release=lambda b: App.get_running_app().resume_game(b.game_id))
            row.ids.delete.summary = summary
            row.ids.delete.bind(on_release=lambda b: self.ask_delete(b.summary))
            box.add_widget(row)

    def ask_delete(self, summary: Any) -> ConfirmPopup:
        """Delete a game, after a confirmation; the app saves its export first."""

        def delete() -> None:
            App.get_running_app().delete_game(summary.id)
            self.fill_games()

        popup = ConfirmPopup(
            words=lambda: {
                "title": _("Delete a game"),
                "question": J.delete_question(summary),
                "yes_text": _("Delete it"),
            },
            on_yes=delete,
        )
        popup.open()
        return popup

    def new_game(self) -> None:
        App.get_running_app().show("new_game")

    def open_settings(self) -> None:
        SettingsPopup().open()

    def choose_journal(self) -> None:
        folder = Path(App.get_running_app().journal_path).parent
        JournalChooser(folder=str(folder if folder.is_dir() else Path.home())).open()
