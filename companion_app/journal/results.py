"""The result of a finished game, stored once when it ends, so standings never replay games.

One row per seat: victory points, the win, Longest Road, Defender of Catan cards, metropolises
and the luck figure's two sides (:class:`companion_app.game_stats.Luck`). The journal writes
them in the transaction that ends the game (the winning action, a redo of it, an import) and
removes them in the one that takes the win back (an undo).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass

from companion_app.game_stats import Luck, luck_figure
from companion_app.rules.game import Game


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat's line of a finished game."""

    seat: int
    vp: int
    won: bool
    longest_road: bool
    defender_cards: int
    metropolises: int
    produced: int
    """Cards the production dice paid the seat."""
    expected_36: int
    """36 × the cards fair dice would have paid on average (see :class:`Luck`)."""

    @property
    def luck(self) -> float:
        return luck_figure(self.produced, self.expected_36)

    def figures(self) -> tuple[int, ...]:
        """The seat's figures as the ``result`` table stores them, in :data:`FIGURES` order."""
        return (
            self.vp,
            int(self.won),
            int(self.longest_road),
            self.defender_cards,
            self.metropolises,
            self.produced,
            self.expected_36,
        )


FIGURES = (
    "vp",
    "won",
    "longest_road",
    "defender_cards",
    "metropolises",
    "produced",
    "expected_36",
)
"""The ``result`` table's columns of a seat's figures, in :class:`SeatResult`'s order (after
the seat): what is stored, and what the standings read back."""

_INSERT = (
    f"INSERT INTO result (game_id, seat, finished_at, {', '.join(FIGURES)}) "
    f"VALUES (?, ?, ?{', ?' * len(FIGURES)})"
)


def seat_results(game: Game, luck: Luck | None = None) -> tuple[SeatResult, ...]:
    """Each seat's result of a finished game (one replay for the luck figure, unless given)."""
    if luck is None:
        luck = Luck.from_game(game)
    results = []
    for seat in range(game.player_count):
        points = game.victory_point_breakdown(seat)
        results.append(
            SeatResult(
                seat=seat,
                vp=game.victory_points(seat),
                won=game.winner == seat,
                longest_road=points.longest_road,
                defender_cards=points.defender_cards,
                metropolises=points.metropolises,
                produced=luck.produced[seat],
                expected_36=luck.expected_36[seat],
            )
        )
    return tuple(results)


def store_results(
    conn: sqlite3.Connection, game_id: int, results: tuple[SeatResult, ...], finished_at: str
) -> None:
    """Replace the game's result rows (inside the caller's transaction)."""
    conn.execute("DELETE FROM result WHERE game_id = ?", (game_id,))
    conn.executemany(_INSERT, ((game_id, r.seat, finished_at, *r.figures()) for r in results))


def has_results(conn: sqlite3.Connection, game_id: int) -> bool:
    row = conn.execute("SELECT 1 FROM result WHERE game_id = ? LIMIT 1", (game_id,)).fetchone()
    return row is not None


def clear_results(conn: sqlite3.Connection, game_id: int) -> None:
    conn.execute("DELETE FROM result WHERE game_id = ?", (game_id,))
