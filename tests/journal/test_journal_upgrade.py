"""Older journals upgrade safely: a backup first, one transaction, every game kept.

``fixtures/journal-v2.sqlite3`` was written by the release before people and results (commit
61572cf, schema version 2) and ``fixtures/journal-v2.json`` holds what that release read back
from it; ``fixtures/make_journal_v2.py`` made both.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from companion_app.journal import SCHEMA_VERSION, Journal, JournalError, state_digest
from companion_app.journal.results import seat_results
from companion_app.journal.upgrade import UpgradeRefusedError
from companion_app.rules.actions import action_from_json
from companion_app.rules.game import Game

FIXTURES = Path(__file__).parent / "fixtures"
RELEASE_JOURNAL = FIXTURES / "journal-v2.sqlite3"
EXPECTED: list[dict[str, Any]] = [
    json.loads(line) for line in (FIXTURES / "journal-v2.json").read_text().splitlines()
]


def _copy(tmp_path: Path) -> Path:
    path = tmp_path / "journal.sqlite3"
    shutil.copyfile(RELEASE_JOURNAL, path)
    return path


def _sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _sql(path: Path, *statements: str) -> None:
    conn = sqlite3.connect(path)
    try:
        for statement in statements:
            conn.execute(statement)
        conn.commit()
    finally:
        conn.close()


def _rows(path: Path, query: str) -> list[tuple[Any, ...]]:
    conn = sqlite3.connect(path)  # closed cleanly: no -wal or -shm left beside it
    try:
        return conn.execute(query).fetchall()
    finally:
        conn.close()


def _assert_every_game_kept(journal: Journal, *, origins: bool = True) -> None:
    """Each game as the release read it: summary, actions, undone actions, origins, state."""
    assert [g.id for g in sorted(journal.games(), key=lambda g: g.id)] == [
        e["summary"]["id"] for e in EXPECTED
    ]
    for expected in EXPECTED:
        game_id = expected["summary"]["id"]
        assert journal.summary(game_id).to_json() == expected["summary"]
        session = journal.open_game(game_id)
        assert [a.to_json() for a in session.actions] == expected["actions"]
        assert [a.to_json() for a in session.redo_actions] == expected["redo"]
        assert state_digest(session.game) == expected["state_sha256"]
        for _, origin in expected["origins"]:
            assert session.has_origin(origin) is origins


def test_the_release_journal_upgrades_with_every_game_action_and_undo_step(
    tmp_path: Path,
) -> None:
    path = _copy(tmp_path)
    before = _rows(path, "SELECT game_id, idx, data, undone, applied_at, origin FROM action")
    assert len(before) == sum(len(e["actions"]) + len(e["redo"]) for e in EXPECTED) == 954
    with Journal(path, create=False) as journal:
        assert journal.backup == tmp_path / "journal.v2-backup.sqlite3"
        _assert_every_game_kept(journal)
    assert _rows(path, "PRAGMA user_version") == [(SCHEMA_VERSION,)] == [(3,)]
    after = _rows(path, "SELECT game_id, idx, data, undone, applied_at, origin FROM action")
    assert after == before
    # The backup beside it is the release's journal, whole, and nothing else was made.
    backup = tmp_path / "journal.v2-backup.sqlite3"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([backup.name, path.name])
    assert _rows(backup, "PRAGMA user_version") == [(2,)]
    assert _rows(backup, "SELECT game_id, idx, data, undone, applied_at, origin FROM action") == (
        before
    )
    # Opened again: already upgraded, no second backup.
    with Journal(path, create=False) as journal:
        assert journal.backup is None
        _assert_every_game_kept(journal)
    assert len(list(tmp_path.iterdir())) == 2


def test_the_upgrade_back_fills_people_seats_and_finished_games_results(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    with Journal(path, create=False) as journal:
        people = {p.name: p.colour for p in journal.people()}
    assert people == {"Anna": "red", "Ben": "blue", "Cleo": "white", "Dan": "orange"}
    seats = _rows(
        path,
        "SELECT s.game_id, s.seat, p.name FROM seat s JOIN person p ON p.id = s.person_id "
        "ORDER BY s.game_id, s.seat",
    )
    assert [name for game_id, _, name in seats if game_id == 2] == ["Dan", "Ben", "Anna", "Cleo"]
    assert len(seats) == 3 + 4 + 3 + 3 + 4
    # Results of the two finished games only, each as a replay of the game gives them.
    stored = _rows(path, "SELECT game_id, seat, finished_at, vp, won, produced FROM result")
    assert sorted({row[0] for row in stored}) == [1, 4]
    for expected in EXPECTED:
        if not expected["summary"]["finished"]:
            continue
        game_id = expected["summary"]["id"]
        config_text = _rows(path, f"SELECT config FROM game WHERE id = {game_id}")[0][0]
        from companion_app.rules.config import GameConfig

        game = Game.replay(
            GameConfig.from_json(json.loads(config_text)),
            [action_from_json(a) for a in expected["actions"]],
        )
        mine = [row for row in stored if row[0] == game_id]
        assert [(r.seat, r.vp, int(r.won), r.produced) for r in seat_results(game)] == [
            (seat, vp, won, produced) for _, seat, _, vp, won, produced in mine
        ]
        assert {row[2] for row in mine} == {expected["summary"]["updated_at"]}
        assert [r[4] for r in mine].count(1) == 1
        assert mine[expected["summary"]["winner"]][4] == 1


def test_a_version_1_journal_upgrades_on_the_same_path(tmp_path: Path) -> None:
    path = _copy(tmp_path)
    _sql(path, "ALTER TABLE action DROP COLUMN origin", "PRAGMA user_version = 1")
    with Journal(path, create=False) as journal:
        _assert_every_game_kept(journal, origins=False)
        assert len(journal.people()) == 4
    assert _rows(path, "PRAGMA user_version") == [(3,)]
    assert _rows(tmp_path / "journal.v1-backup.sqlite3", "PRAGMA user_version") == [(1,)]


def _finished_game_does_not_replay(path: Path) -> None:
    _sql(
        path,
        'UPDATE action SET data = \'{"type":"build_city","player":0,"node":0}\' '
        "WHERE game_id = 1 AND idx = 30",
    )


def _finished_flag_without_an_end(path: Path) -> None:
    _sql(path, "UPDATE game SET finished = 1, winner = 0 WHERE id = 2")


def _unreadable_config(path: Path) -> None:
    _sql(path, "UPDATE game SET config = '{\"players\": 7}' WHERE id = 3")


def _a_table_in_the_way(path: Path) -> None:
    _sql(path, "CREATE TABLE person (x)")


@pytest.mark.parametrize(
    ("damage", "reason"),
    [
        (_finished_game_does_not_replay, "game 1 does not replay: action 30 (build_city)"),
        (_finished_flag_without_an_end, "game 2 is marked finished but its actions do not"),
        (_unreadable_config, "game 3: its config is unreadable"),
        (_a_table_in_the_way, "table person already exists"),
    ],
)
def test_an_upgrade_that_finds_something_wrong_is_refused_and_touches_nothing(
    tmp_path: Path, damage: Any, reason: str
) -> None:
    path = _copy(tmp_path)
    damage(path)
    digest = _sha(path)
    with pytest.raises(UpgradeRefusedError) as refused:
        Journal(path, create=False)
    message = str(refused.value)
    assert "\n" not in message
    assert reason in message
    assert isinstance(refused.value, JournalError)
    assert _sha(path) == digest
    assert [p.name for p in tmp_path.iterdir()] == [path.name]
    assert _rows(path, "PRAGMA user_version") == [(2,)]


def test_the_backup_holds_what_only_the_write_ahead_log_had(tmp_path: Path) -> None:
    """A release journal left by a crash: its last change still in the -wal file, not yet in
    the database file. The backup and the upgraded journal both keep it."""
    live = tmp_path / "live"
    live.mkdir()
    path = _copy(live)
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("DELETE FROM action WHERE game_id = 2 AND undone = 1")
    writer.execute("UPDATE game SET revision = revision + 1 WHERE id = 2")
    assert (live / "journal.sqlite3-wal").stat().st_size > 0
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    for name in ("journal.sqlite3", "journal.sqlite3-wal"):  # as the crash left them
        shutil.copyfile(live / name, crashed / name)
    writer.close()
    with Journal(crashed / "journal.sqlite3", create=False) as journal:
        assert journal.summary(2).redo_count == 0
        assert journal.open_game(2).redo_actions == ()
        assert len(journal.games()) == len(EXPECTED)
    backup = crashed / "journal.v2-backup.sqlite3"
    assert _rows(backup, "SELECT count(*) FROM action WHERE game_id = 2 AND undone = 1") == [(0,)]
    assert _rows(backup, "SELECT count(*) FROM action") == [(954 - 3,)]
