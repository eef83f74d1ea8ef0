"""The board Home greets with: the table's last game's, so a 5-6 player table sees its 30-hex
board and a table back for another evening sees the board it left."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from companion_app.journal import GameSession, Journal, JournalError
from companion_app.rules.board import STARTER_BOARD, Board


class LastBoard:
    """The board of the open game, else of the journal's game changed last (finished or not),
    remembered by journal and game: a game's board never changes, and reading it replays the
    game."""

    def __init__(self) -> None:
        self._kept: tuple[Path, int, Board] | None = None

    def board(
        self, session: GameSession | None, journal_problem: str, journal: Callable[[], Journal]
    ) -> Board:
        """The starter board where there is no game yet or the journal cannot say
        (``journal_problem``, or a journal that fails to open or read)."""
        if session is not None:
            return session.game.config.board
        if journal_problem:
            return STARTER_BOARD
        try:
            opened = journal()
            games = opened.games()
            if not games:
                return STARTER_BOARD
            key = (opened.path, games[0].id)
            if self._kept is None or self._kept[:2] != key:
                self._kept = (*key, opened.open_game(games[0].id).game.config.board)
        except JournalError:
            return STARTER_BOARD
        return self._kept[2]
