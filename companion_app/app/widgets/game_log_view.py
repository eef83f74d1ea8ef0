"""The game log beside the board: the latest lines at the bottom, older ones a scroll away.

It shows each entry's public words only (the shared screen), in the tablet's language: private
details stay in the log's entries for their owners' own screens.
"""

from __future__ import annotations

from kivy.properties import ListProperty
from kivy.uix.recycleview import RecycleView

from companion_app.app.screens import load_kv
from companion_app.game_log import EntryKind, GameLog
from companion_app.i18n import render

_STRONG = frozenset({EntryKind.TURN, EntryKind.ATTACK, EntryKind.WIN})


class GameLogView(RecycleView):
    lines = ListProperty([])
    """The words shown, oldest first (what tests read)."""

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


load_kv(__file__)
