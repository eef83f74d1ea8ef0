"""What the Standings screen shows, from the journal's stored results (no Kivy, no replay).

One line per person (games, wins, average VP, Longest Roads, Defender cards, metropolises,
luck in cards) and the latest evenings with their winners.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from datetime import tzinfo

from companion_app.i18n import day, number
from companion_app.i18n.current import _, current, n_
from companion_app.journal.standings import (
    Evening,
    Standing,
    evenings,
    finished_games,
    standings,
)
from companion_app.rules.messages import N_

HEADER = (
    "",
    N_("games"),
    N_("wins"),
    N_("avg VP"),
    N_("longest road"),
    N_("defender"),
    N_("metropolis"),
    N_("luck"),
)
"""The columns' headings (message ids)."""
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


def standing_cells(row: Standing) -> tuple[str, ...]:
    """A person's line in the reader's words, one text per column of :data:`HEADER` (the
    Standings screen and the journal's command line)."""
    return (
        row.name,
        str(row.games),
        str(row.wins),
        number(row.average_vp, 1),
        str(row.longest_roads),
        str(row.defender_cards),
        str(row.metropolises),
        number(row.luck, 1, signed=True),
    )


LUCK_NOTE = N_(
    "Luck: cards the dice gave against what fair dice would have given the same buildings, "
    "over all games (+ more, - fewer)."
)


def standings_view(
    conn: sqlite3.Connection, tz: tzinfo | None = None, *, shown: int = EVENINGS_SHOWN
) -> StandingsView:
    games = finished_games(conn, tz)
    rows = standings(conn)
    lines = tuple(StandingLine(r.colour, standing_cells(r)) for r in rows)
    count = len(games)
    title = (
        n_("Standings after {count} game", "Standings after {count} games", count)
        if count
        else _("Standings")
    )
    nights = tuple(evening_line(e) for e in evenings(games)[:shown])
    return StandingsView(title, lines, nights, _(LUCK_NOTE))


def evening_line(evening: Evening) -> str:
    """``Fri, Nov 20, 2026: 2 games, won by Ben and Dan``; the date as Babel writes it in the
    table's language."""
    count = len(evening.games)
    said = current().join(list(evening.winners))
    date = day(evening.day, current().code)
    games = n_("{count} game", "{count} games", count)
    if not said:
        return _("{date}: {games}").format(date=date, games=games)
    return _("{date}: {games}, won by {winners}").format(date=date, games=games, winners=said)
