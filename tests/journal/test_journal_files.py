"""Files that are not our journal: a clear error, and the file (and its folder) untouched."""

from __future__ import annotations

import os
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from journal_helpers import random_actions

from companion_app.journal import (
    APPLICATION_ID,
    CorruptJournalError,
    Journal,
    JournalError,
    JournalNotFoundError,
    JournalVersionError,
    NotAJournalError,
)
from companion_app.journal.schema import SCHEMA_VERSION
from companion_app.rules.game import Game


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir()) if p.is_file()}


def _sqlite_file(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path)
    try:
        for statement in statements:
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()


def _text_file(path: Path) -> None:
    path.write_text("Shopping list\n- bread\n- wool\n", encoding="utf-8")


def _random_bytes(path: Path) -> None:
    path.write_bytes(random.Random(7).randbytes(8192))


def _other_app(path: Path) -> None:
    _sqlite_file(path, "CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT)")


def _other_app_with_id(path: Path) -> None:
    _sqlite_file(path, "PRAGMA application_id = 1234", "CREATE TABLE t (x)")


def _other_app_in_wal_mode(path: Path) -> None:
    _sqlite_file(
        path, "PRAGMA journal_mode = WAL", "CREATE TABLE t (x)", "INSERT INTO t VALUES (1)"
    )


def _empty_file(path: Path) -> None:
    path.write_bytes(b"")


def _sqlite_header_only(path: Path) -> None:
    path.write_bytes(b"SQLite format 3\x00" + b"\x00" * 50)


FOREIGN = {
    "text file": (_text_file, "is not a SQLite database"),
    "random bytes": (_random_bytes, "is not a SQLite database"),
    "truncated header": (_sqlite_header_only, "is not a SQLite database"),
    "another app's database": (_other_app, "is a SQLite database of another program"),
    "another app id": (_other_app_with_id, "application_id 0x000004d2"),
    "another app in WAL mode": (_other_app_in_wal_mode, "of another program"),
    "empty file": (_empty_file, "is an empty file, not a journal"),
}


@pytest.mark.parametrize("kind", sorted(FOREIGN))
def test_foreign_files_are_refused_and_left_byte_identical(tmp_path: Path, kind: str) -> None:
    make, message = FOREIGN[kind]
    path = tmp_path / "journal.sqlite3"
    make(path)
    before = _snapshot(tmp_path)
    for create in (True, False):
        with pytest.raises(NotAJournalError, match=message) as caught:
            Journal(path, create=create)
        assert str(path) in str(caught.value)
    assert _snapshot(tmp_path) == before


def test_a_directory_is_not_a_journal(tmp_path: Path) -> None:
    with pytest.raises(NotAJournalError, match="is a directory"):
        Journal(tmp_path)


def test_a_missing_journal_is_created_only_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    with pytest.raises(JournalNotFoundError, match="no journal at"):
        Journal(path, create=False)
    assert not path.exists()
    with pytest.raises(JournalError, match="is not a directory"):
        Journal(tmp_path / "missing" / "journal.sqlite3")


def _journal_with_a_game(path: Path) -> None:
    config, actions = random_actions(seed=11, count=400)
    with Journal(path) as journal:
        session = journal.new_game(config)
        for action in actions:
            session.apply(action)


def test_a_journal_from_a_newer_app_is_refused_untouched(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    _journal_with_a_game(path)
    _sqlite_file(path, "PRAGMA user_version = 99")
    before = _snapshot(tmp_path)
    with pytest.raises(JournalVersionError, match="schema version 99, written by a newer"):
        Journal(path)
    assert _snapshot(tmp_path) == before


def test_our_id_without_our_tables_is_reported_as_damaged(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    _sqlite_file(path, f"PRAGMA application_id = {APPLICATION_ID}", "PRAGMA user_version = 1")
    _sqlite_file(path, "CREATE TABLE game (id)")
    with pytest.raises(CorruptJournalError, match=r"not whole: the table game lacks the column"):
        Journal(path)


def test_a_damaged_journal_is_reported_and_not_overwritten(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    _journal_with_a_game(path)
    data = bytearray(path.read_bytes())
    page = 4096
    assert len(data) > 4 * page
    data[page:] = random.Random(3).randbytes(len(data) - page)  # all but the first page
    path.write_bytes(bytes(data))
    before = _snapshot(tmp_path)
    with pytest.raises(CorruptJournalError, match="damaged"), Journal(path) as journal:
        journal.games()
    assert _snapshot(tmp_path) == before


def test_temporaries_of_a_crashed_creation_are_removed(tmp_path: Path) -> None:
    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"],
        capture_output=True,
        text=True,
        check=True,
    )
    pid = int(dead.stdout)
    stale = tmp_path / f".journal.sqlite3.{pid}.new"
    stale.write_bytes(b"half a database")
    (tmp_path / f".journal.sqlite3.{pid}.new-journal").write_bytes(b"x")
    with Journal(tmp_path / "journal.sqlite3"):
        pass
    assert sorted(p.name for p in tmp_path.iterdir()) == ["journal.sqlite3"]
    assert os.path.getsize(tmp_path / "journal.sqlite3") > 0


def test_a_version_1_journal_is_upgraded_in_place_and_resumes(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    _journal_with_a_game(path)
    # What the first release wrote: no people, no results, no origin column, user_version 1.
    _sqlite_file(
        path,
        "DROP TABLE result",
        "DROP TABLE seat",
        "DROP TABLE person",
        "ALTER TABLE action DROP COLUMN origin",
        "PRAGMA user_version = 1",
    )
    config, actions = random_actions(seed=11, count=400)
    expected = Game.replay(config, actions).to_json()
    with Journal(path) as journal:
        (summary,) = journal.games()
        session = journal.open_game(summary.id)
        assert session.game.to_json() == expected
        assert not session.has_origin("dicebox:D1CE0000000000E1:0000BEEF:1")
    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 3
        columns = [row[1] for row in conn.execute("PRAGMA table_info(action)")]
        assert columns[-1] == "origin"
    finally:
        conn.close()


def test_an_origin_is_committed_with_its_action(tmp_path: Path) -> None:
    path = tmp_path / "journal.sqlite3"
    config, actions = random_actions(seed=4, count=30)
    with Journal(path) as journal:
        session = journal.new_game(config)
        for n, action in enumerate(actions):
            session.apply(action, origin=f"dicebox:D1CE:BOOT:{n}" if n % 2 else None)
        game_id = session.game_id
    with Journal(path, create=False) as journal:
        resumed = journal.open_game(game_id)
        assert resumed.has_origin("dicebox:D1CE:BOOT:29")
        assert not resumed.has_origin("dicebox:D1CE:BOOT:28")
        assert not resumed.has_origin("dicebox:D1CE:OTHER:29")
