"""The game log beside the board: the latest lines at the bottom, older ones a scroll away.

It shows each entry's public words only (the shared screen), in the tablet's language: private
details stay in the log's entries for their owners' own screens.

At its newest lines the log shows whole lines only: its box is as tall as the newest lines
that fit whole in the room it is given, and sits at the bottom of that room. A line cut at the
top read as hidden under the bank above it ("Blue spielt Händler" under "17 Münzen · 14
Papier" at 800x480).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from kivy.core.text import Label as CoreLabel
from kivy.metrics import dp, sp
from kivy.properties import ListProperty
from kivy.uix.recycleview import RecycleView

from companion_app.app.screens import load_kv
from companion_app.game_log import EntryKind, GameLog
from companion_app.i18n import render

_STRONG = frozenset({EntryKind.TURN, EntryKind.ATTACK, EntryKind.WIN})

LINE_FONT_SP = 15
"""A line's font size (``game_log_view.kv`` draws the lines with it too)."""
LINE_INSET_DP = 8
"""A line's text is this much narrower than its row."""
LINE_EXTRA_DP = 4
"""A row is its text's height and this."""
PADDING_DP = 4
SPACING_DP = 2
_MEASURED_MAX = 512
"""Line heights remembered (by text, weight and width); the log re-measures past this."""


def whole_lines_height(
    heights_newest_first: Iterable[float], room: float, padding: float, spacing: float
) -> float:
    """The log's height in ``room`` that shows its newest lines whole, and no part of the one
    before them: the bottom padding, the lines, and the spacing above the top one. All of
    ``room`` where every line fits (the lines then sit at the top) or not even the newest does
    (better cut than not shown)."""
    used = padding
    fitted = 0.0
    for height in heights_newest_first:
        top = used + height + spacing
        if top > room:
            return fitted if fitted > 0 else room
        fitted = used = top
    return room


class GameLogView(RecycleView):
    lines = ListProperty([])
    """The words shown, oldest first (what tests read)."""

    def __init__(self, **kwargs: Any) -> None:
        self._measured: dict[tuple[str, bool, float], float] = {}
        super().__init__(**kwargs)

    def show(self, log: GameLog) -> None:
        """Show ``log``'s public words; jump to the newest line when lines were added."""
        lines = [render(e.text) for e in log.entries]
        if lines == self.lines:
            return
        grew = len(lines) > len(self.lines)
        self.lines = lines
        self.data = [
            {"text": text, "bold": e.kind in _STRONG, "automatic": e.automatic}
            for e, text in zip(log.entries, lines, strict=True)
        ]
        if grew:
            self.scroll_y = 0

    def fitted_height(self, room: float, width: float, data: list[dict[str, Any]]) -> float:
        """The height for ``room`` that shows only whole lines at the newest end (kv binds it
        to the room, the width and the lines)."""
        return whole_lines_height(
            self._heights_newest_first(width, data), room, dp(PADDING_DP), dp(SPACING_DP)
        )

    def _heights_newest_first(self, width: float, data: list[dict[str, Any]]) -> Iterator[float]:
        text_width = width - 2 * dp(PADDING_DP) - dp(LINE_INSET_DP)
        if text_width <= 0:
            return
        if len(self._measured) > _MEASURED_MAX:
            self._measured.clear()
        for row in reversed(data):
            key = (row["text"], bool(row["bold"]), text_width)
            height = self._measured.get(key)
            if height is None:
                label = CoreLabel(
                    text=row["text"],
                    font_size=sp(LINE_FONT_SP),
                    bold=key[1],
                    text_size=(text_width, None),
                    halign="left",
                    valign="middle",
                )
                label.refresh()
                height = self._measured[key] = label.texture.size[1] + dp(LINE_EXTRA_DP)
            yield height


load_kv(__file__)
