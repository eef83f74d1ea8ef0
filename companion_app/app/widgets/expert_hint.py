""" "What would the Expert do?" under a person's uncovered hand (the Hand screen): a tap asks
the bot at the Expert level, off the main thread, for the decision that person has now, and
shows its choice and reason there. Covered again with the cards."""

from __future__ import annotations

import copy
import threading
from typing import Any

from kivy.clock import Clock
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.scrollview import ScrollView

from companion_app.i18n.current import _, render
from companion_app.presenters import bot_turn as BT
from companion_app.presenters.game_controller import decision_key
from companion_app.rules.game import Game
from companion_app.rules.messages import Msg


class ExpertHint(BoxLayout):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(orientation="vertical", size_hint_y=None, spacing=dp(6), **kwargs)
        self.bind(minimum_height=self.setter("height"))
        self.ask_button = Button(
            size_hint_y=None,
            height=dp(52),
            font_size=sp(19),
            background_normal="",
            background_color=(0.45, 0.30, 0.60, 1),
        )
        self.ask_button.hint = True
        self.answer = Label(font_size=sp(18), size_hint_y=None, halign="left", valign="top")
        self.answer.bind(width=lambda lb, w: setattr(lb, "text_size", (w, None)))
        self.answer.bind(texture_size=lambda lb, s: setattr(lb, "height", s[1]))
        self.answer.bind(height=lambda *_a: Clock.schedule_once(lambda _dt: self._in_sight(), 0))
        self.add_widget(self.ask_button)
        self.add_widget(self.answer)
        self.ask_button.bind(on_release=lambda _b: self.ask())
        self.game: Game | None = None
        self.seat = -1
        self._key: object = None
        self._words: Msg | str | None = None
        """The answer shown: a message, rendered again in the language of the moment."""

    def show(self, game: Game, seat: int) -> None:
        """Offered to the person deciding now; the answer kept while the decision is due."""
        key = (decision_key(game), seat)
        if key != self._key:
            self.answer.text, self._words = "", None
        elif self._words is not None:
            self.answer.text = _shown(self._words)  # the language may have changed
        self.game, self.seat, self._key = game, seat, key
        self.ask_button.text = _("What would the Expert do?")

    def ask(self) -> None:
        game, seat, key = self.game, self.seat, self._key
        if game is None:
            return
        from companion_app.bot import decide

        self.answer.text, self._words = _("The Expert is thinking…"), None
        position = copy.deepcopy(game)

        def think() -> None:
            words: Msg | str
            try:
                words = BT.hint(position, seat, decide) or ""
            except Exception as exc:  # the hint is a help: its failure is one line
                words = str(exc).splitlines()[0][:200] if str(exc) else type(exc).__name__
            Clock.schedule_once(lambda _dt: self._answered(key, words), 0)

        threading.Thread(target=think, name="hint", daemon=True).start()

    def _answered(self, key: object, words: Msg | str) -> None:
        if key == self._key:
            self._words = words
            self.answer.text = _shown(words)
            # Below the hand on a low screen: scrolled into sight, where the tap was.
            self.answer.texture_update()
            Clock.schedule_once(lambda _dt: self._in_sight(), 0)

    def _in_sight(self) -> None:
        view = self.parent
        while view is not None and not isinstance(view, ScrollView) and view is not view.parent:
            view = view.parent
        if isinstance(view, ScrollView):
            view.scroll_to(self, padding=dp(8), animate=False)


def _shown(words: Msg | str) -> str:
    return render(words) if words else ""


def show_hint(screen: Any, game: Game, seat: int, *, covered: bool) -> None:
    """The hint under ``screen``'s uncovered hand of ``seat`` when that person decides now;
    removed while covered or for anyone else."""
    hint: ExpertHint | None = getattr(screen, "expert_hint", None)
    wanted = not covered and game.prompt.player == seat and not game.is_over
    wanted = wanted and BT.bot_level(game, seat) is None and BT.has_bots(game)
    holder = screen.ids.summary.parent
    if not wanted:
        if hint is not None and hint.parent is not None:
            hint.parent.remove_widget(hint)
        return
    if hint is None:
        hint = ExpertHint()
        screen.expert_hint = hint
    if hint.parent is None:
        holder.add_widget(hint)
    hint.show(game, seat)
