"""Upgrading an older journal to :data:`~companion_app.journal.schema.SCHEMA_VERSION`.

One path from every earlier version, in this order::

    1. read and check: every game's config, every finished game replayed once (its result)
    2. a backup copy beside the journal: ``journal.v2-backup.sqlite3`` (never over a file)
    3. one transaction: version 1's ``origin`` column, version 2's people, seats and results,
       the counts of games and actions checked unchanged, the new ``user_version``

Anything wrong in 1 refuses the upgrade with one line and writes nothing; a failure in 3 rolls
back, so the journal stays exactly as it was (the backup made in 2 is then removed again).
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from companion_app.game_stats import Luck
from companion_app.journal.errors import JournalError
from companion_app.journal.people import link_seats
from companion_app.journal.results import SeatResult, seat_results, store_results
from companion_app.journal.schema import ROW_LIMITS, SCHEMA_PEOPLE, SCHEMA_VERSION
from companion_app.rules.actions import Action, action_from_json
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import ReplayError
from companion_app.rules.game import Game
from companion_app.untrusted_json import loads


class UpgradeRefusedError(JournalError):
    """The journal was left exactly as it was; the message says why in one line."""


@dataclass(frozen=True, slots=True)
class _OldGame:
    id: int
    config: GameConfig
    created_at: str
    updated_at: str
    results: tuple[SeatResult, ...] | None
    """Replayed once when finished; None for an unfinished game."""


def backup_path(path: Path, version: int) -> Path:
    """A free name beside the journal that says what it is: ``journal.v2-backup.sqlite3``."""
    stem, suffix = path.stem, path.suffix or ".sqlite3"
    for n in range(1, 1000):
        candidate = path.with_name(f"{stem}.v{version}-backup{'' if n == 1 else f'-{n}'}{suffix}")
        if not os.path.lexists(candidate):
            return candidate
    raise UpgradeRefusedError(f"no free name beside {path} for a backup before the upgrade")


def backup_note(backup: Path) -> str:
    """The one line that tells the table where the copy of an upgraded journal went."""
    return f"The journal was upgraded to this version; its old copy is kept at {backup}"


def upgrade(conn: sqlite3.Connection, path: Path, version: int) -> Path:
    """Upgrade the journal open on ``conn`` from ``version``; returns the backup's path.

    :raises UpgradeRefusedError: naming the first problem; the journal is untouched.
    """
    where = f"cannot upgrade the journal {path} from version {version}"
    try:
        games, counts = _read(conn, path)
    except sqlite3.DatabaseError as exc:
        raise UpgradeRefusedError(f"{where}: {exc}") from exc
    backup = _backup(conn, path, version, where)
    try:
        _write(conn, version, games, counts)
    except BaseException as exc:
        with contextlib.suppress(OSError):
            backup.unlink()
        if isinstance(exc, sqlite3.DatabaseError | UpgradeRefusedError):
            raise UpgradeRefusedError(f"{where}: {exc}") from exc
        raise
    return backup


def _read(conn: sqlite3.Connection, path: Path) -> tuple[list[_OldGame], tuple[int, int]]:
    """Every game, checked, finished ones replayed once: nothing written yet."""
    conn.execute("BEGIN")
    try:
        rows = conn.execute(
            "SELECT id, config, created_at, updated_at, finished FROM game ORDER BY id"
        ).fetchall()
        games = [_old_game(conn, path, *row) for row in rows]
        counts = _counts(conn)
    finally:
        conn.execute("COMMIT")
    return games, counts


def _old_game(
    conn: sqlite3.Connection,
    path: Path,
    game_id: int,
    config_text: object,
    created_at: str,
    updated_at: str,
    finished: int,
) -> _OldGame:
    refuse = f"cannot upgrade the journal {path}: game {game_id}"
    try:
        data = loads(_text(config_text), ROW_LIMITS)
        config = GameConfig.from_json(data)
    except (ValueError, TypeError, KeyError, AttributeError) as exc:
        raise UpgradeRefusedError(f"{refuse}: its config is unreadable: {exc}") from exc
    if not finished:
        return _OldGame(game_id, config, created_at, updated_at, None)
    actions: list[Action] = []
    for idx, text in conn.execute(
        "SELECT idx, data FROM action WHERE game_id = ? AND undone = 0 ORDER BY idx", (game_id,)
    ):
        try:
            actions.append(action_from_json(loads(_text(text), ROW_LIMITS)))
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            raise UpgradeRefusedError(f"{refuse}: action {idx} is unreadable: {exc}") from exc
    game = Game.new(config)
    try:
        luck = Luck.count(game, actions)  # the one replay, every action checked
    except ReplayError as exc:
        raise UpgradeRefusedError(f"{refuse} does not replay: {exc}") from exc
    if not game.is_over:
        raise UpgradeRefusedError(f"{refuse} is marked finished but its actions do not end it")
    return _OldGame(game_id, config, created_at, updated_at, seat_results(game, luck))


def _text(value: object) -> str | bytes:
    if isinstance(value, str | bytes):
        return value
    raise ValueError(f"a {type(value).__name__} where JSON text belongs")


def _counts(conn: sqlite3.Connection) -> tuple[int, int]:
    games = conn.execute("SELECT count(*) FROM game").fetchone()[0]
    actions = conn.execute("SELECT count(*) FROM action").fetchone()[0]
    return int(games), int(actions)


def _backup(conn: sqlite3.Connection, path: Path, version: int, where: str) -> Path:
    """A whole copy (what the write-ahead log holds included), made before any write."""
    target = backup_path(path, version)
    try:
        fd = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644)
    except OSError as exc:
        raise UpgradeRefusedError(f"{where}: cannot make a backup at {target}: {exc}") from exc
    os.close(fd)
    try:
        copy = sqlite3.connect(target)
        try:
            conn.backup(copy)
        finally:
            copy.close()
        fd = os.open(target, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
    except (sqlite3.Error, OSError) as exc:
        with contextlib.suppress(OSError):
            target.unlink()
        raise UpgradeRefusedError(f"{where}: cannot make a backup at {target}: {exc}") from exc
    return target


def _write(
    conn: sqlite3.Connection, version: int, games: list[_OldGame], counts: tuple[int, int]
) -> None:
    """The whole upgrade in one transaction."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        now = datetime.now(UTC).isoformat(timespec="milliseconds")
        if conn.execute("PRAGMA user_version").fetchone()[0] != version or _counts(conn) != counts:
            raise UpgradeRefusedError("the journal changed while it was read; open it again")
        if version < 2:
            conn.execute("ALTER TABLE action ADD COLUMN origin TEXT")
        for statement in SCHEMA_PEOPLE.split(";"):
            if statement.strip():
                conn.execute(statement)
        for game in sorted(games, key=lambda g: (g.updated_at, g.id)):
            link_seats(conn, game.id, game.config, game.updated_at or now)
            if game.results is not None:
                store_results(conn, game.id, game.results, game.updated_at)
        if _counts(conn) != counts:
            raise UpgradeRefusedError("the games or actions would not stay the same")
        conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    conn.execute("COMMIT")
