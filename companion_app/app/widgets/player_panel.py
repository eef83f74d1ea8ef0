"""One line per player on the game screen: a badge in the player's colour with their letter (as
on their pieces: red and orange differ without colour too), victory points with where they come
from, and counts of the cards held (hands are private: see the hand screen), with the player who
must decide now marked."""

from __future__ import annotations

import re

from kivy.metrics import dp, sp
from kivy.properties import ListProperty, NumericProperty, StringProperty
from kivy.uix.gridlayout import GridLayout
from kivy.uix.label import Label
from kivy.utils import escape_markup

from companion_app.app.screens import load_kv
from companion_app.presenters import info_presenter as I
from companion_app.rules.game import Game

BRIEF_FROM = 5
"""From this many players on, each line is brief (the VP total and the counts that matter at
the table): six lines fit beside the decisions on a 7-inch tablet (1024x600)."""

MARKED_FILL = (0.30, 0.33, 0.22, 1)
"""A line that stands out: who decides now, the winner, a player the attack hit."""
PLAIN_FILL = (0.2, 0.23, 0.28, 1)


class PlayerLine(Label):
    """A line in a player's colour (the stripe, with their letter when ``mark`` is given) on a
    background that marks who decides."""

    stripe = ListProperty([0.5, 0.5, 0.5, 1])
    mark = StringProperty("")
    fill = ListProperty([0.2, 0.23, 0.28, 1])
    min_height = NumericProperty(dp(48))


def panel_text(line: I.PanelLine, brief: bool = False) -> str:
    """The markup of a player's line: name and VP breakdown, then the counts, smaller (``brief``:
    the VP total and the brief counts). They wrap only after a ",", ":" or "·" ("politics 1"
    never breaks over a lone "1", nor "2 VP cards" over "cards")."""
    marker = "» " if line.deciding else ""
    vp = _UNBROKEN.sub("\u00a0", escape_markup(line.vp_total if brief else line.vp))
    counts = _UNBROKEN.sub("\u00a0", escape_markup(line.brief if brief else line.counts))
    return (
        f"[b]{marker}{escape_markup(line.name)}[/b]   {vp}\n"
        f"[size={round(sp(15))}][color=d0d0d0]{counts}[/color][/size]"
    )


_UNBROKEN = re.compile(r"(?<![,:·]) ")
"""A space the panel must not wrap at: any but one after a ",", ":" or "·"."""


class PlayerPanel(GridLayout):
    def show(self, game: Game) -> None:
        """Show every player's line. The screen refreshes after every tap: the lines keep their
        widgets, so a line whose words did not change keeps its rendered text (a new Label per
        line per tap made a long game's refreshes several times slower)."""
        lines = I.panel_lines(game)
        brief = len(lines) >= BRIEF_FROM
        shown = list(reversed(self.children))  # Kivy keeps the last added first
        if len(shown) != len(lines):
            self.clear_widgets()
            shown = []
            for _ in lines:
                widget = PlayerLine()
                self.add_widget(widget)
                shown.append(widget)
        for widget, line in zip(shown, lines, strict=True):
            # Kivy properties dispatch only on a change: an unchanged line is not drawn again.
            widget.text = panel_text(line, brief)
            widget.min_height = dp(40) if brief else dp(48)
            widget.stripe = line.colour
            widget.mark = line.mark
            widget.fill = MARKED_FILL if line.deciding else PLAIN_FILL
            widget.line = line


load_kv(__file__)
