"""The base of every screen that shows the current game (the game screen and the info screens):
the game on the tablet, a redraw when entered, and :meth:`GameViewScreen.refresh`, which the
app calls after every change while the screen is shown."""

from __future__ import annotations

from kivy.app import App
from kivy.uix.screenmanager import Screen

from companion_app.rules.game import Game


class GameViewScreen(Screen):
    """A screen drawn from the current game by :meth:`show`; nothing when no game is open."""

    @property
    def game(self) -> Game | None:
        app = App.get_running_app()
        return None if app is None or app.session is None else app.session.game

    def on_pre_enter(self, *_args: object) -> None:
        self.refresh()

    def retranslate(self) -> None:
        """The game's words again in the table's language (the game itself is unchanged)."""
        self.refresh()

    def refresh(self) -> None:
        game = self.game
        if game is not None:
            self.show(game)

    def show(self, game: Game) -> None:
        raise NotImplementedError
