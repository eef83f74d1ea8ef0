"""People across games: a name typed once and picked the next time, with their colour.

People live in the journal's ``person`` table; a game's config keeps the names as they were
typed (its digest and export never change), and the ``seat`` table links each seat to a person.
The same name in any case and spacing ("anna", " Anna ") is the same person. A person's colour
is the one they played last, offered again on the New game form.
"""

from __future__ import annotations

import sqlite3
import unicodedata
from dataclasses import dataclass

from companion_app.journal.errors import JournalError
from companion_app.rules.config import GameConfig

NAME_MAX = 24
"""Characters in a person's name: what a player panel and a standings line show whole."""
COLOUR_MAX = 16
FORMULA_STARTS = "=+-@"
"""Spreadsheets read a CSV cell starting with one of these as a formula."""
_ALLOWED_FORMAT = {"\u200d"}
"""The zero-width joiner that emoji sequences need; every other format character is refused."""


class PersonNameError(JournalError, ValueError):
    """A name or colour that cannot be a person's; the message names the problem in one line."""


@dataclass(frozen=True, slots=True)
class Person:
    """Someone who has played at this table."""

    id: int
    name: str
    colour: str
    """The colour they played last."""
    last_played: str
    """When they last sat down to a game (ISO 8601, UTC)."""


def clean_name(text: str) -> str:
    """The name as kept: NFC, spaces at the ends removed, inner runs of spaces made one.

    :raises PersonNameError: empty, too long, control or format characters, or a start that
        spreadsheets read as a formula.
    """
    name = " ".join(part for part in unicodedata.normalize("NFC", text).split(" ") if part)
    if not name:
        raise PersonNameError("a player's name cannot be empty")
    bad = next((c for c in name if _is_control(c)), None)
    if bad is not None:
        raise PersonNameError(f"a player's name cannot hold the control character U+{ord(bad):04X}")
    if len(name) > NAME_MAX:
        raise PersonNameError(
            f"a player's name is at most {NAME_MAX} characters ({len(name)} given)"
        )
    if name[0] in FORMULA_STARTS:
        raise PersonNameError(
            f"a player's name cannot start with {name[0]} (spreadsheets read it as a formula)"
        )
    return name


def name_key(name: str) -> str:
    """What makes two names the same person: case and spacing do not."""
    return clean_name(name).casefold()


def clean_colour(text: str) -> str:
    """:raises PersonNameError: a colour that is not a short lower-case word."""
    if not (0 < len(text) <= COLOUR_MAX and text.isascii() and text.isalpha() and text.islower()):
        shown = text[:COLOUR_MAX].encode("unicode_escape").decode("ascii")
        raise PersonNameError(f"a colour is a short lower-case word like red, not {shown!r}")
    return text


def _is_control(c: str) -> bool:
    category = unicodedata.category(c)
    if category == "Cf":
        return c not in _ALLOWED_FORMAT
    return category in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp")


# ---- in the database (called inside the journal's transactions) ----------------------------


def people(conn: sqlite3.Connection) -> list[Person]:
    """Everyone, most recently played first (the order the New game form offers them)."""
    rows = conn.execute(
        "SELECT id, name, colour, last_played FROM person ORDER BY last_played DESC, name"
    ).fetchall()
    return [Person(*row) for row in rows]


def add_person(conn: sqlite3.Connection, name: str, colour: str, now: str) -> Person:
    """The person of that name, added if new; ``colour`` becomes theirs unless they have played
    since ``now`` (an old game imported later).

    :raises PersonNameError: for a name or colour that cannot be a person's.
    """
    name, colour = clean_name(name), clean_colour(colour)
    key = name.casefold()
    row = conn.execute("SELECT id, name, last_played FROM person WHERE name_key = ?", (key,))
    found = row.fetchone()
    if found is None:
        cursor = conn.execute(
            "INSERT INTO person (name, name_key, colour, created_at, last_played) "
            "VALUES (?, ?, ?, ?, ?)",
            (name, key, colour, now, now),
        )
        assert cursor.lastrowid is not None
        return Person(cursor.lastrowid, name, colour, now)
    person_id, kept_name, last_played = found
    if now < last_played:  # an older game (an import): their latest colour stays
        colour = conn.execute("SELECT colour FROM person WHERE id = ?", (person_id,)).fetchone()[0]
        return Person(person_id, kept_name, colour, last_played)
    conn.execute(
        "UPDATE person SET colour = ?, last_played = ? WHERE id = ?", (colour, now, person_id)
    )
    return Person(person_id, kept_name, colour, now)


def rename_person(conn: sqlite3.Connection, old: str, new: str) -> Person:
    """Give a person another name (a typo, a nickname); their games stay theirs. The games'
    configs keep the names as typed then.

    :raises PersonNameError: nobody of the old name, a new name that cannot be a person's or
        that is somebody else's already.
    """
    new = clean_name(new)
    found = conn.execute(
        "SELECT id, colour, last_played FROM person WHERE name_key = ?", (name_key(old),)
    ).fetchone()
    if found is None:
        raise PersonNameError(f"nobody called {clean_name(old)} has played here")
    person_id, colour, last_played = found
    other = conn.execute(
        "SELECT name FROM person WHERE name_key = ? AND id != ?", (new.casefold(), person_id)
    ).fetchone()
    if other is not None:
        raise PersonNameError(f"{other[0]} is somebody else already")
    conn.execute(
        "UPDATE person SET name = ?, name_key = ? WHERE id = ?", (new, new.casefold(), person_id)
    )
    return Person(person_id, new, colour, last_played)


def link_seats(conn: sqlite3.Connection, game_id: int, config: GameConfig, now: str) -> int:
    """Link each seat of a game to the person of its name; returns the seats linked.

    A seat whose name or colour cannot be a person's (an old or imported game) stays unlinked:
    the game is kept whole, it only counts in nobody's standings. A seat the tablet plays (a bot)
    is nobody: it is not linked.
    """
    seated: set[int] = set()
    for seat, player in enumerate(config.players):
        if player.bot is not None:
            continue
        try:
            person = add_person(conn, player.name, player.colour, now)
        except PersonNameError:
            continue
        if person.id in seated:  # "anna" and "Anna" at one table: two people after all
            continue
        seated.add(person.id)
        conn.execute(
            "INSERT OR REPLACE INTO seat (game_id, seat, person_id) VALUES (?, ?, ?)",
            (game_id, seat, person.id),
        )
    return len(seated)
