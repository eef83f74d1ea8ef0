"""The journal's database file: schema, identification, opening and creating it safely.

A journal is an SQLite database marked with ``PRAGMA application_id`` (:data:`APPLICATION_ID`)
and ``PRAGMA user_version`` (:data:`SCHEMA_VERSION`). A file is only ever opened by SQLite after
its header shows it is one of ours, so text files, random bytes and other programs' databases
are reported and never touched. A new journal is built completely in a temporary file next to
the target and then moved into place, so a crash while creating one leaves no half-made
journal behind.
"""

from __future__ import annotations

import contextlib
import glob
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

from companion_app.journal.errors import (
    CorruptJournalError,
    JournalError,
    JournalNotFoundError,
    JournalVersionError,
    NotAJournalError,
)
from companion_app.untrusted_json import JsonLimits

APPLICATION_ID = 0x43634A72
"""``PRAGMA application_id`` of a journal ("CcJr": Catan companion journal)."""
SCHEMA_VERSION = 3
"""``PRAGMA user_version`` of the schema below. Version 1 lacked ``action.origin``, version 2
the people and the results of finished games; an older journal is upgraded when it is opened
(:mod:`companion_app.journal.upgrade`)."""
OLDER_VERSIONS = (1, 2)

ROW_LIMITS = JsonLimits(max_bytes=256 * 1024, max_depth=16, max_digits=40, max_items=10_000)
"""A stored config or action is small and flat; a row beyond these was not written by us."""

Upgrade = Callable[[sqlite3.Connection, Path, int], Path]
"""Upgrades the journal open on the connection from the given older version, returning its
backup's path (:func:`companion_app.journal.upgrade.upgrade`, which replays games with the rules
core: the opener passes it in, so this module stays below the upgrade)."""

SQLITE_MAGIC = b"SQLite format 3\x00"
_HEADER_SIZE = 100
_USER_VERSION_OFFSET = 60
_APPLICATION_ID_OFFSET = 68

SCHEMA = """
CREATE TABLE game (
    id          INTEGER PRIMARY KEY,
    config      TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    updated_at  TEXT    NOT NULL,
    finished    INTEGER NOT NULL DEFAULT 0 CHECK (finished IN (0, 1)),
    winner      INTEGER CHECK (winner IS NULL OR winner >= 0),
    revision    INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE action (
    game_id     INTEGER NOT NULL REFERENCES game (id) ON DELETE CASCADE,
    idx         INTEGER NOT NULL CHECK (idx >= 0),
    data        TEXT    NOT NULL,
    undone      INTEGER NOT NULL DEFAULT 0 CHECK (undone IN (0, 1)),
    applied_at  TEXT    NOT NULL,
    origin      TEXT,
    PRIMARY KEY (game_id, idx)
) WITHOUT ROWID;
"""
SCHEMA_PEOPLE = """
CREATE TABLE person (
    id          INTEGER PRIMARY KEY,
    name        TEXT    NOT NULL,
    name_key    TEXT    NOT NULL UNIQUE,
    colour      TEXT    NOT NULL,
    created_at  TEXT    NOT NULL,
    last_played TEXT    NOT NULL
);
CREATE TABLE seat (
    game_id     INTEGER NOT NULL REFERENCES game (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    person_id   INTEGER NOT NULL REFERENCES person (id),
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
CREATE INDEX seat_person ON seat (person_id);
CREATE TABLE result (
    game_id        INTEGER NOT NULL REFERENCES game (id) ON DELETE CASCADE,
    seat           INTEGER NOT NULL CHECK (seat >= 0),
    finished_at    TEXT    NOT NULL,
    vp             INTEGER NOT NULL,
    won            INTEGER NOT NULL CHECK (won IN (0, 1)),
    longest_road   INTEGER NOT NULL CHECK (longest_road IN (0, 1)),
    defender_cards INTEGER NOT NULL,
    metropolises   INTEGER NOT NULL,
    produced       INTEGER NOT NULL,
    expected_36    INTEGER NOT NULL,
    PRIMARY KEY (game_id, seat)
) WITHOUT ROWID;
"""
"""Version 3: people across games, each game's seats linked to them, each finished game's
result per seat (so standings never replay a game)."""
TABLES = frozenset({"game", "action", "person", "seat", "result"})
COLUMNS = {
    "game": ("id", "config", "created_at", "updated_at", "finished", "winner", "revision"),
    "action": ("game_id", "idx", "data", "undone", "applied_at", "origin"),
    "person": ("id", "name", "name_key", "colour", "created_at", "last_played"),
    "seat": ("game_id", "seat", "person_id"),
    "result": (
        "game_id",
        "seat",
        "finished_at",
        "vp",
        "won",
        "longest_road",
        "defender_cards",
        "metropolises",
        "produced",
        "expected_36",
    ),
}
"""The columns of each table at :data:`SCHEMA_VERSION`."""


def columns_at(version: int) -> dict[str, tuple[str, ...]]:
    """The tables and columns a journal of ``version`` has."""
    if version == SCHEMA_VERSION:
        return COLUMNS
    older = {"game": COLUMNS["game"], "action": COLUMNS["action"]}
    if version == 1:
        older["action"] = COLUMNS["action"][:-1]
    return older


def open_database(
    path: Path, *, create: bool, upgrade: Upgrade
) -> tuple[sqlite3.Connection, Path | None]:
    """A connection to the journal at ``path`` in WAL mode with ``synchronous=FULL``, and the
    backup made when an older journal was upgraded on the way (by ``upgrade``; else None).

    :raises JournalNotFoundError: if there is no file and ``create`` is false.
    :raises NotAJournalError: for a file that is not one of our journals (left untouched).
    :raises JournalVersionError: for a journal with a schema version we cannot read.
    :raises CorruptJournalError: for one of our journals that SQLite cannot read.
    """
    if not path.exists():
        if not create:
            raise JournalNotFoundError(f"no journal at {path}")
        _create(path)
    _check_header(path)
    check_whole(path)  # read-only: a file that is not ours and whole is never written to
    try:
        conn = sqlite3.connect(path, timeout=10.0, isolation_level=None)
    except sqlite3.Error as exc:
        raise JournalError(f"cannot open the journal {path}: {exc}") from exc
    try:
        backup = _check_schema(conn, path, upgrade)
        _configure(conn, path)
    except BaseException:
        conn.close()
        raise
    return conn, backup


def _check_header(path: Path) -> None:
    """Our application id in the file header, read without SQLite (which might write)."""
    try:
        with path.open("rb") as f:
            header = f.read(_HEADER_SIZE)
    except IsADirectoryError:
        raise NotAJournalError(f"{path} is a directory, not a journal file") from None
    except OSError as exc:
        raise JournalError(f"cannot read {path}: {exc.strerror or exc}") from exc
    if not header:
        raise NotAJournalError(
            f"{path} is an empty file, not a journal (remove it to start a new journal there)"
        )
    if len(header) < _HEADER_SIZE or not header.startswith(SQLITE_MAGIC):
        raise NotAJournalError(f"{path} is not a SQLite database, so not a journal of this app")
    app_id = int.from_bytes(header[_APPLICATION_ID_OFFSET : _APPLICATION_ID_OFFSET + 4], "big")
    if app_id == 0:
        raise NotAJournalError(
            f"{path} is a SQLite database of another program, not a journal of this app "
            "(its application_id is not set)"
        )
    if app_id != APPLICATION_ID:
        raise NotAJournalError(
            f"{path} is a SQLite database of another program (application_id "
            f"0x{app_id:08x}, a journal has 0x{APPLICATION_ID:08x})"
        )


def check_whole(path: Path) -> None:
    """Our journal, undamaged, with our tables and columns; checked without writing a byte.

    :raises CorruptJournalError: naming the first problem.
    :raises JournalVersionError: for a schema version this app cannot read.
    """
    # Without a write-ahead log beside it the file is the whole database: open it immutable,
    # so SQLite neither locks it nor creates files next to it.
    wal = path.with_name(path.name + "-wal")
    mode = "ro" if wal.exists() else "ro&immutable=1"
    uri = f"{path.resolve().as_uri()}?mode={mode}"
    try:
        conn = sqlite3.connect(uri, uri=True, timeout=10.0, isolation_level=None)
    except sqlite3.Error as exc:
        raise JournalError(f"cannot open the journal {path}: {exc}") from exc
    try:
        try:
            problem = _schema_problem(conn)
        except sqlite3.DatabaseError as exc:
            raise CorruptJournalError(f"the journal {path} is damaged: {exc}") from exc
    finally:
        conn.close()
    if problem is not None:
        raise CorruptJournalError(f"the journal {path} is not whole: {problem}")


def _schema_problem(conn: sqlite3.Connection) -> str | None:
    """The first thing that makes this database not one of our journals, or None."""
    version = conn.execute("PRAGMA user_version").fetchone()[0]
    if version not in (*OLDER_VERSIONS, SCHEMA_VERSION):
        return None  # told apart by _check_schema, with the version error
    verdict = conn.execute("PRAGMA quick_check(1)").fetchone()[0]
    if verdict != "ok":
        return f"SQLite finds it damaged ({verdict})"
    for table, expected in columns_at(version).items():
        columns = tuple(row[1] for row in conn.execute(f"PRAGMA table_info({table})"))
        if not columns:
            return f"it has no table {table}"
        missing = [c for c in expected if c not in columns]
        if missing:
            return f"the table {table} lacks the column(s) {', '.join(missing)}"
        unknown = [c for c in columns if c not in expected]
        if unknown:
            return f"the table {table} has column(s) this app does not know: {', '.join(unknown)}"
    return None


def _check_schema(conn: sqlite3.Connection, path: Path, upgrade: Upgrade) -> Path | None:
    try:
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = {
            row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        }
    except sqlite3.DatabaseError as exc:
        raise CorruptJournalError(f"the journal {path} is damaged: {exc}") from exc
    if version > SCHEMA_VERSION:
        raise JournalVersionError(
            f"the journal {path} has schema version {version}, written by a newer version of "
            f"the app (this one reads version {SCHEMA_VERSION})"
        )
    if version not in (*OLDER_VERSIONS, SCHEMA_VERSION):
        raise JournalVersionError(
            f"the journal {path} has schema version {version}; this app reads {SCHEMA_VERSION}"
        )
    missing = sorted(set(columns_at(version)) - tables)
    if missing:
        raise CorruptJournalError(f"the journal {path} lacks the table(s) {', '.join(missing)}")
    if version != SCHEMA_VERSION:
        return upgrade(conn, path, version)
    return None


def _configure(conn: sqlite3.Connection, path: Path) -> None:
    try:
        mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        conn.execute("PRAGMA synchronous = FULL")
        conn.execute("PRAGMA foreign_keys = ON")
    except sqlite3.DatabaseError as exc:
        raise JournalError(f"cannot set up the journal {path}: {exc}") from exc
    if str(mode).lower() != "wal":
        raise JournalError(f"the journal {path} cannot use write-ahead logging (mode {mode})")


def _create(path: Path) -> None:
    """Build a journal in a temporary file, then move it to ``path`` unless a file appeared."""
    if not path.parent.is_dir():
        raise JournalError(f"cannot create a journal at {path}: {path.parent} is not a directory")
    tmp = path.with_name(f".{path.name}.{os.getpid()}.new")
    _remove_stale_temporaries(path)
    try:
        conn = sqlite3.connect(tmp, isolation_level=None)
        try:
            conn.execute("PRAGMA synchronous = FULL")
            conn.executescript(
                f"BEGIN IMMEDIATE;\nPRAGMA application_id = {APPLICATION_ID};\n"
                f"PRAGMA user_version = {SCHEMA_VERSION};\n{SCHEMA}{SCHEMA_PEOPLE}COMMIT;"
            )
            conn.execute("PRAGMA journal_mode = WAL")
        finally:
            conn.close()
        _fsync(tmp)
        _publish(tmp, path)
        _fsync_dir(path.parent)
    except sqlite3.Error as exc:
        raise JournalError(f"cannot create a journal at {path}: {exc}") from exc
    except OSError as exc:
        raise JournalError(f"cannot create a journal at {path}: {exc.strerror or exc}") from exc
    finally:
        with contextlib.suppress(OSError):
            tmp.unlink()


def _remove_stale_temporaries(path: Path) -> None:
    """Temporary files of creations that crashed (their process is gone): ours to remove."""
    prefix = f".{path.name}."
    for candidate in path.parent.glob(f"{glob.escape(prefix)}*.new*"):
        pid_text = candidate.name[len(prefix) :].split(".", 1)[0]
        if not pid_text.isdigit():
            continue
        pid = int(pid_text)
        if pid != os.getpid() and _process_alive(pid):
            continue
        with contextlib.suppress(OSError):
            candidate.unlink()


def _process_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # exists, but not ours to signal
    return True


def _publish(tmp: Path, path: Path) -> None:
    """Move the new file into place without ever replacing a file that exists by now."""
    try:
        os.link(tmp, path)
    except FileExistsError:
        return  # another program created it meanwhile; its header is checked next
    except OSError:
        # File systems without hard links: the check-then-rename race is accepted there.
        if not path.exists():
            os.replace(tmp, path)


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        with contextlib.suppress(OSError):
            os.fsync(fd)
    finally:
        os.close(fd)
