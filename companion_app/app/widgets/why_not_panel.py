"""Why not?: the kinds of action missing from the action bar, each with its reason from the
rules core (:mod:`companion_app.presenters.why_not`). Reasons that tell what the hand holds
wait behind "Show my cards"; the panel closes as soon as the game moves on."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.factory import Factory
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.gridlayout import GridLayout
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView
from kivy.utils import escape_markup

from companion_app.i18n import Catalogue, catalogue, current, table_language
from companion_app.i18n.current import _
from companion_app.presenters.game_controller import GameController
from companion_app.presenters.why_not import has_covered_rows, why_not_rows
from companion_app.rules.game import Game

PANEL_COLOUR = (0.55, 0.35, 0.1, 1)
"""The cover's colour, as the game screen's "Show my cards"."""


class WhyNotPanel(ModalView):
    """The reasons for the player on turn; uncovered only by their "Show my cards" (the game
    screen's one cover: ``controller.revealed``), covered again when the panel closes."""

    def __init__(
        self, game: Game, language: Catalogue, controller: GameController, **kwargs: Any
    ) -> None:
        super().__init__(size_hint=(0.9, 0.9), auto_dismiss=True, **kwargs)
        self.game = game
        self.language = language
        self.controller = controller
        self.name = game.config.names[game.prompt.player]
        box = BoxLayout(orientation="vertical", padding=dp(12), spacing=dp(8))
        self.heading = Factory.Heading()
        box.add_widget(self.heading)
        scroll = ScrollView(do_scroll_x=False)
        self.rows = GridLayout(cols=1, spacing=dp(10), size_hint_y=None)
        self.rows.bind(minimum_height=self.rows.setter("height"))
        scroll.add_widget(self.rows)
        box.add_widget(scroll)
        self.buttons = BoxLayout(size_hint_y=None, height=dp(64), spacing=dp(8))
        box.add_widget(self.buttons)
        self.add_widget(box)
        self.show()

    def show(self) -> None:
        self.heading.text = _("Why not? {player}").format(player=self.name)
        revealed = self.controller.revealed
        rows = why_not_rows(self.game, self.language, revealed=revealed)
        self.rows.clear_widgets()
        small = round(sp(16))
        for row in rows:
            title = f"[b]{escape_markup(row.title)}[/b]"
            if row.covered:
                behind = _("behind {player}'s cards").format(player=escape_markup(self.name))
                text = f"{title}: [color=e0b060]{behind}[/color]"
            else:
                text = f"{title}: {escape_markup(row.text)}"
                if row.rule:
                    rule = escape_markup(row.rule)
                    text += f"\n[size={small}][color=d0d0d0]{rule}[/color][/size]"
            label = Factory.Body(text=text, markup=True)
            label.why_not_row = row
            self.rows.add_widget(label)
        if not rows:
            self.rows.add_widget(Factory.Body(text=_("Everything on the bar is possible now.")))
        self.buttons.clear_widgets()
        if has_covered_rows(rows):
            self._button(_("Show my cards"), self.reveal, PANEL_COLOUR).reveal = True
        elif revealed:
            self._button(_("Cover my cards"), self.cover, PANEL_COLOUR).cover = True
        self._button(_("Close"), self.dismiss, (0.35, 0.35, 0.4, 1)).close = True

    def _button(self, text: str, action: Callable[[], Any], colour: tuple[float, ...]) -> Any:
        button = Factory.BigButton(text=text, background_color=colour)
        button.bind(on_release=lambda _b: action())
        self.buttons.add_widget(button)
        return button

    def reveal(self) -> None:
        self.controller.reveal(self.game)
        self.show()

    def cover(self) -> None:
        self.controller.cover()
        self.show()

    def retell(self) -> None:
        """A switch of language while the panel is open: everything again in the new one."""
        self.language = catalogue(table_language())
        self.show()

    def on_open(self) -> None:
        current.listen(self.retell)

    def on_dismiss(self) -> None:
        current.forget(self.retell)
        self.controller.cover()
