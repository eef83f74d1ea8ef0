"""The tablet's moves for its seats, shown beside the board: one line per physical step (piece,
place, knights, cards between a person and the bank), each with the bot's reason, and one
"Done" for the whole turn. The places are highlighted on the board (zoomed where the board
zooms for taps: a tap on a step zooms to its place).

The panel only shows :class:`~companion_app.presenters.bot_turn.BotSteps`; what the bot chose
and the table's confirmation are :mod:`companion_app.app.bot_seats`'.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from kivy.core.window import Window
from kivy.metrics import dp, sp
from kivy.uix.boxlayout import BoxLayout
from kivy.uix.button import Button
from kivy.uix.label import Label
from kivy.uix.modalview import ModalView
from kivy.uix.scrollview import ScrollView

from companion_app.i18n.current import _, render
from companion_app.presenters.board_geometry import Spot
from companion_app.presenters.board_taps import MIN_TARGET_DP
from companion_app.presenters.bot_turn import BotSteps


class BotTurnPanel(ModalView):
    """Over the decisions' column (below the board on a portrait screen); the board stays in
    sight, its taps wait until Done."""

    def __init__(self, on_done: Callable[[], None], **kwargs: Any) -> None:
        super().__init__(auto_dismiss=False, overlay_color=(0, 0, 0, 0), **kwargs)
        self.background = ""
        self.background_color = (0.13, 0.15, 0.19, 1)
        self._on_done = on_done
        self.board: Any = None
        self.steps = BotSteps()
        box = BoxLayout(orientation="vertical", padding=dp(10), spacing=dp(8))
        self.title = Label(
            font_size=sp(20), bold=True, size_hint_y=None, halign="left", valign="middle"
        )
        self.title.bind(width=lambda lb, w: setattr(lb, "text_size", (w, None)))
        self.title.bind(texture_size=lambda lb, s: setattr(lb, "height", s[1] + dp(6)))
        self.lines = BoxLayout(orientation="vertical", size_hint_y=None, spacing=dp(6))
        self.lines.bind(minimum_height=self.lines.setter("height"))
        scroll = ScrollView(do_scroll_x=False, bar_width=dp(8))
        scroll.add_widget(self.lines)
        self.done = Button(
            size_hint_y=None,
            height=dp(60),
            font_size=sp(22),
            background_normal="",
            background_color=(0.18, 0.55, 0.30, 1),
        )
        self.done.bot_done = True
        self.done.bind(on_release=lambda _b: self._on_done())
        box.add_widget(self.title)
        box.add_widget(scroll)
        box.add_widget(self.done)
        self.add_widget(box)

    def place_over(self, area: Any) -> None:
        """Cover ``area`` (the decisions' column)."""
        x, y = area.to_window(area.x, area.y)
        self.size_hint = (None, None)
        self.size = area.size
        self.pos_hint = {"x": x / max(1, Window.width), "y": y / max(1, Window.height)}

    def show(self, steps: BotSteps, board: Any) -> None:
        """The steps in the table's language, their places highlighted on ``board``."""
        self.steps, self.board = steps, board
        self.title.text = _("The tablet played: do it on the table, then Done")
        self.done.text = _("Done")
        self.lines.clear_widgets()
        for step in steps.steps:
            text = _escape(render(step.words))
            if step.reason is not None:
                reason = _escape(render(step.reason))
                text += f"\n[size={int(sp(15))}][color=b8c4d0]{reason}[/color][/size]"
            line = Button(
                text=text,
                markup=True,
                font_size=sp(18),
                size_hint_y=None,
                halign="left",
                valign="middle",
                background_normal="",
                background_color=(0.22, 0.26, 0.32, 1) if step.spot else (0.17, 0.19, 0.23, 1),
            )
            line.bind(width=lambda b, w: setattr(b, "text_size", (w - dp(16), None)))
            line.bind(texture_size=lambda b, s: setattr(b, "height", max(dp(48), s[1] + dp(12))))
            line.step_spot = step.spot
            line.bind(on_release=lambda b: self.highlight(b.step_spot))
            self.lines.add_widget(line)
        self.highlight(next(iter(steps.spots), None))

    def highlight(self, focus: Spot | None) -> None:
        """Every step's place lit on the board; where it zooms, zoomed in on ``focus``."""
        board = self.board
        if board is None:
            return
        board.spots = {spot: None for spot in self.steps.spots}
        if focus is None or not board.zooms or focus not in board.spots:
            return
        taps = board.taps_for(focus)
        if taps:
            x, y = board.to_widget(*taps[0])
            board.zoom = board.zoom.into(board.whole, x, y, dp(MIN_TARGET_DP))


def _escape(text: str) -> str:
    return text.replace("&", "&amp;").replace("[", "&bl;").replace("]", "&br;")
