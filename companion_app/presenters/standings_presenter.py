"""What the Standings screen shows, from the journal's stored results (no Kivy, no replay).

One line per person (games, wins, average VP, Longest Roads, Defender cards, metropolises,
luck in cards) and the latest evenings with their winners.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import tzinfo

from companion_app.journal.standings import Evening, evenings, finished_games, standings

HEADER = ("", "games", "wins", "avg VP", "longest road", "defender", "metropolis", "luck")
EVENINGS_SHOWN = 6


@dataclass(frozen=True, slots=True)
class StandingLine:
    colour: str
    """The person's colour (the one they played last)."""
    cells: tuple[str, ...]
    """One text per column of :data:`HEADER`."""


@dataclass(frozen=True, slots=True)
class StandingsView:
    title: str
    lines: tuple[StandingLine, ...]
    evenings: tuple[str, ...]
    """The latest evenings first, one line each."""
    luck_note: str


LUCK_NOTE = (
    "Luck: cards the dice gave against what fair dice would have given the same buildings, "
    "over all games (+ more, - fewer)."
)


def standings_view(
    conn: sqlite3.Connection, tz: tzinfo | None = None, *, shown: int = EVENINGS_SHOWN
) -> StandingsView:
    games = finished_games(conn, tz)
    rows = standings(conn)
    lines = tuple(
        StandingLine(
            r.colour,
            (
                r.name,
                str(r.games),
                str(r.wins),
                f"{r.average_vp:.1f}",
                str(r.longest_roads),
                str(r.defender_cards),
                str(r.metropolises),
                f"{r.luck:+.1f}",
            ),
        )
        for r in rows
    )
    count = len(games)
    title = f"Standings after {count} game{'' if count == 1 else 's'}" if count else "Standings"
    nights = tuple(evening_line(e) for e in evenings(games)[:shown])
    return StandingsView(title, lines, nights, LUCK_NOTE)


def evening_line(evening: Evening) -> str:
    """``Fri 20 Nov 2026: 2 games, won by Ben and Dan``."""
    count = len(evening.games)
    winners = list(evening.winners)
    said = ", ".join(winners[:-1]) + f" and {winners[-1]}" if len(winners) > 1 else "".join(winners)
    won = f", won by {said}" if said else ""
    return f"{evening.day:%a %d %b %Y}: {count} game{'' if count == 1 else 's'}{won}"
