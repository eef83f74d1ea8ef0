"""Lifetime standings, evenings and each game's luck, from the stored results (no replay).

An evening is the games finished in one night at the table: a game finished before
:data:`NIGHT_ENDS_AT` o'clock local time counts for the evening before (a Friday game that ends
at 00:40 belongs to Friday). Standings count the seats linked to a person; a seat whose name
could not be a person's counts for nobody.
"""

from __future__ import annotations

import csv
import io
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta, tzinfo

from companion_app.game_stats import luck_figure
from companion_app.journal.results import FIGURES, SeatResult
from companion_app.journal.schema import ROW_LIMITS
from companion_app.rules.config import GameConfig
from companion_app.untrusted_json import loads

NIGHT_ENDS_AT = 6
"""Local hour at which a night at the table is over."""

STANDINGS_COLUMNS = (
    "person",
    "colour",
    "games",
    "wins",
    "average_vp",
    "longest_roads",
    "defender_cards",
    "metropolises",
    "cards_produced",
    "cards_expected",
    "luck",
)
GAME_COLUMNS = (
    "game",
    "finished_at",
    "evening",
    "seat",
    "person",
    "colour",
    "vp",
    "won",
    "longest_road",
    "defender_cards",
    "metropolises",
    "cards_produced",
    "cards_expected",
    "luck",
)

EVENING_COLUMNS = ("evening", "games", "winners")


@dataclass(frozen=True, slots=True)
class Standing:
    """One person's lifetime line."""

    person_id: int
    name: str
    colour: str
    games: int
    wins: int
    vp_total: int
    longest_roads: int
    """Games they ended holding Longest Road."""
    defender_cards: int
    metropolises: int
    """Metropolises standing at the ends of their games."""
    produced: int
    expected_36: int

    @property
    def average_vp(self) -> float:
        return self.vp_total / self.games if self.games else 0.0

    @property
    def luck(self) -> float:
        """Cards the dice gave above (+) or below (-) what fair dice would have, all games."""
        return luck_figure(self.produced, self.expected_36)

    def csv_row(self) -> list[str]:
        return [
            self.name,
            self.colour,
            str(self.games),
            str(self.wins),
            f"{self.average_vp:.2f}",
            str(self.longest_roads),
            str(self.defender_cards),
            str(self.metropolises),
            str(self.produced),
            f"{self.expected_36 / 36:.2f}",
            f"{self.luck:+.2f}",
        ]


@dataclass(frozen=True, slots=True)
class SeatLine(SeatResult):
    """A seat of a finished game: how it went (its stored :class:`SeatResult`) and who sat
    there."""

    name: str
    """The person's name, or the name in the game's config for a seat linked to nobody."""
    colour: str
    person_id: int | None


@dataclass(frozen=True, slots=True)
class FinishedGame:
    game_id: int
    finished_at: str
    evening: date
    seats: tuple[SeatLine, ...]

    @property
    def winner(self) -> SeatLine | None:
        return next((s for s in self.seats if s.won), None)


@dataclass(frozen=True, slots=True)
class Evening:
    """The games finished in one night at the table, first one first."""

    day: date
    games: tuple[FinishedGame, ...]

    @property
    def winners(self) -> tuple[str, ...]:
        return tuple(g.winner.name for g in self.games if g.winner is not None)


_STANDINGS_SQL = """
SELECT p.id, p.name, p.colour, count(*), sum(r.won), sum(r.vp), sum(r.longest_road),
       sum(r.defender_cards), sum(r.metropolises), sum(r.produced), sum(r.expected_36)
FROM result r
JOIN seat s ON s.game_id = r.game_id AND s.seat = r.seat
JOIN person p ON p.id = s.person_id
GROUP BY p.id
"""


def standings(conn: sqlite3.Connection) -> list[Standing]:
    """Everyone with a finished game: most wins first, then the best average VP."""
    rows = [Standing(*row) for row in conn.execute(_STANDINGS_SQL)]
    return sorted(rows, key=lambda s: (-s.wins, -s.average_vp, s.name.casefold()))


def evening_of(finished_at: str, tz: tzinfo | None = None) -> date:
    """The evening a game finished at ``finished_at`` (ISO 8601) belongs to, in ``tz`` (the
    machine's local time zone by default). A time without a zone is UTC, as the journal writes."""
    moment = datetime.fromisoformat(finished_at)
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    local = moment.astimezone(tz)
    return (local - timedelta(hours=NIGHT_ENDS_AT)).date()


_GAMES_SQL = f"""
SELECT r.game_id, r.finished_at, CASE WHEN s.person_id IS NULL THEN g.config END, r.seat,
       p.id, p.name, p.colour, {", ".join(f"r.{column}" for column in FIGURES)}
FROM result r
JOIN game g ON g.id = r.game_id
LEFT JOIN seat s ON s.game_id = r.game_id AND s.seat = r.seat
LEFT JOIN person p ON p.id = s.person_id
ORDER BY r.finished_at, r.game_id, r.seat
"""


def finished_games(conn: sqlite3.Connection, tz: tzinfo | None = None) -> list[FinishedGame]:
    """Every finished game with its seats' results, first finished first."""
    games: list[FinishedGame] = []
    seats: list[SeatLine] = []
    current: tuple[int, str] | None = None
    for row in conn.execute(_GAMES_SQL):
        game_id, finished_at, config_text, seat, person_id, name, colour, *figures = row
        if current is None or current[0] != game_id:
            if current is not None:
                games.append(_game(current, seats, tz))
            current, seats = (game_id, finished_at), []
        if person_id is None:  # a seat linked to nobody: the name its game's config gives
            name, colour = _config_seat(config_text, seat)
        vp, won, longest, defender, metros, produced, expected = figures
        seats.append(
            SeatLine(
                seat, vp, bool(won), bool(longest), defender, metros, produced, expected,
                name, colour, person_id,
            )
        )  # fmt: skip
    if current is not None:
        games.append(_game(current, seats, tz))
    return games


def _game(head: tuple[int, str], seats: list[SeatLine], tz: tzinfo | None) -> FinishedGame:
    return FinishedGame(head[0], head[1], evening_of(head[1], tz), tuple(seats))


def _config_seat(text: object, seat: int) -> tuple[str, str]:
    """A seat's name and colour from a stored config (rows are untrusted)."""
    if isinstance(text, str | bytes):
        try:
            players = GameConfig.from_json(loads(text, ROW_LIMITS)).players
        except (ValueError, TypeError, KeyError, AttributeError):
            players = ()
        if seat < len(players):
            return players[seat].name, players[seat].colour
    return f"seat {seat}", ""


def evenings(games: Iterable[FinishedGame]) -> list[Evening]:
    """The finished games grouped by evening, the latest evening first."""
    by_day: dict[date, list[FinishedGame]] = {}
    for game in games:
        by_day.setdefault(game.evening, []).append(game)
    return [Evening(day, tuple(by_day[day])) for day in sorted(by_day, reverse=True)]


# ---- CSV ------------------------------------------------------------------------------------


def standings_csv(rows: Iterable[Standing]) -> str:
    """The standings as CSV (a header line, then one line per person)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(STANDINGS_COLUMNS)
    writer.writerows(row.csv_row() for row in rows)
    return out.getvalue()


def games_csv(games: Iterable[FinishedGame]) -> str:
    """Every finished game's seats as CSV, one line per seat."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(GAME_COLUMNS)
    for game in games:
        for s in game.seats:
            writer.writerow(
                [
                    str(game.game_id),
                    game.finished_at,
                    game.evening.isoformat(),
                    str(s.seat),
                    s.name,
                    s.colour,
                    str(s.vp),
                    str(int(s.won)),
                    str(int(s.longest_road)),
                    str(s.defender_cards),
                    str(s.metropolises),
                    str(s.produced),
                    f"{s.expected_36 / 36:.2f}",
                    f"{s.luck:+.2f}",
                ]
            )
    return out.getvalue()


def evenings_csv(nights: Iterable[Evening]) -> str:
    """One line per evening, the latest first: its date, games and winners (``; `` between)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(EVENING_COLUMNS)
    for night in nights:
        writer.writerow([night.day.isoformat(), str(len(night.games)), "; ".join(night.winners)])
    return out.getvalue()


def read_csv(text: str) -> list[dict[str, str]]:
    """Rows of a CSV written here, by column name."""
    return list(csv.DictReader(io.StringIO(text)))
