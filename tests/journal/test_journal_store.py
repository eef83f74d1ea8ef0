"""The journal's API: new games, apply/commit, resume, finished games, failures leave no trace."""

from __future__ import annotations

import ast
import sqlite3
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from journal_helpers import random_actions

from companion_app.journal import (
    APPLICATION_ID,
    SCHEMA_VERSION,
    GameNotFoundError,
    Journal,
    JournalError,
    NothingToRedoError,
    NothingToUndoError,
    StaleSessionError,
    default_db_path,
)
from companion_app.rules.actions import BuildRoad, EndTurn, Roll
from companion_app.rules.errors import IllegalActionError, MalformedActionError
from companion_app.rules.game import Game


def _rows(db: Path) -> list[tuple[int, int, str, int]]:
    conn = sqlite3.connect(db)
    try:
        return conn.execute(
            "SELECT game_id, idx, data, undone FROM action ORDER BY game_id, idx"
        ).fetchall()
    finally:
        conn.close()


def test_a_new_journal_is_marked_as_ours_and_uses_wal(tmp_path: Path) -> None:
    db = tmp_path / "journal.sqlite3"
    with Journal(db):
        pass
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID
        assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        conn.close()
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []


def test_every_applied_action_is_committed_before_apply_returns(tmp_path: Path) -> None:
    config, actions = random_actions(seed=3, count=60)
    db = tmp_path / "j.sqlite3"
    with Journal(db) as journal:
        session = journal.new_game(config)
        for i, action in enumerate(actions):
            assert session.apply(action) == i
            # Another connection sees the row at once: it is committed, not pending.
            rows = _rows(db)
            assert len(rows) == i + 1
            assert rows[-1][1:] == (i, rows[-1][2], 0)
        assert session.actions == tuple(actions)


def test_resume_replays_to_the_identical_state(tmp_path: Path) -> None:
    config, actions = random_actions(seed=5, count=300)
    db = tmp_path / "j.sqlite3"
    with Journal(db) as journal:
        session = journal.new_game(config)
        for action in actions:
            session.apply(action)
        before = session.game.to_json()
        game_id = session.game_id
    with Journal(db) as journal:
        assert [g.id for g in journal.unfinished_games()] == [game_id]
        resumed = journal.open_game(game_id)
        assert resumed.game.to_json() == before
        assert resumed.actions == tuple(actions)
        assert resumed.game.to_json() == Game.replay(config, actions).to_json()


def test_an_illegal_action_changes_neither_game_nor_journal(tmp_path: Path) -> None:
    config, actions = random_actions(seed=1, count=30)
    db = tmp_path / "j.sqlite3"
    with Journal(db) as journal:
        session = journal.new_game(config)
        for action in actions:
            session.apply(action)
        state, rows, revision = session.game.to_json(), _rows(db), session.revision
        wrong_player = (session.game.prompt.player + 1) % len(config.names)
        for bad in (BuildRoad(session.game.prompt.player, 80), EndTurn(wrong_player)):
            with pytest.raises(IllegalActionError):
                session.apply(bad)
        with pytest.raises(MalformedActionError):
            session.apply_json({"type": "fly", "player": 0})
        assert session.game.to_json() == state
        assert _rows(db) == rows
        assert session.revision == revision
        # and the session still works
        legal = session.game.legal_actions()[0]
        session.apply(legal)
        assert len(_rows(db)) == len(rows) + 1


def test_a_failed_commit_takes_the_change_back_in_memory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    config, actions = random_actions(seed=2, count=40)
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = journal.new_game(config)
        for action in actions[:-1]:
            session.apply(action)
        state = session.game.to_json()

        def fail(*args: object) -> None:
            raise JournalError("disk full")

        monkeypatch.setattr(Journal, "_write_apply", fail)
        monkeypatch.setattr(Journal, "_write_undone", fail)
        with pytest.raises(JournalError, match="disk full"):
            session.apply(actions[-1])
        assert session.game.to_json() == state
        with pytest.raises(JournalError, match="disk full"):
            session.undo()
        assert session.game.to_json() == state
        monkeypatch.undo()
        session.apply(actions[-1])
        assert journal.open_game(session.game_id).actions == tuple(actions)


def test_changing_the_game_behind_the_session_is_refused(tmp_path: Path) -> None:
    config, actions = random_actions(seed=2, count=10)
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = journal.new_game(config)
        for action in actions[:-1]:
            session.apply(action)
        session.game.apply(actions[-1])  # bypasses the journal
        with pytest.raises(JournalError, match="changed directly"):
            session.undo()


def test_two_sessions_of_one_game_cannot_both_write(tmp_path: Path) -> None:
    config, actions = random_actions(seed=4, count=20)
    db = tmp_path / "j.sqlite3"
    with Journal(db) as first, Journal(db) as second:
        a = first.new_game(config)
        b = second.open_game(a.game_id)
        a.apply(actions[0])
        before = b.game.to_json()
        with pytest.raises(StaleSessionError, match="changed elsewhere"):
            b.apply(actions[0])
        assert b.game.to_json() == before
        assert second.open_game(a.game_id).actions == (actions[0],)


def test_undo_and_redo_report_the_step_and_whether_it_was_a_roll(tmp_path: Path) -> None:
    config, actions = random_actions(seed=6, count=200)
    first_roll = next(i for i, a in enumerate(actions) if isinstance(a, Roll))
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = journal.new_game(config)
        with pytest.raises(NothingToUndoError):
            session.undo()
        for action in actions[: first_roll + 1]:
            session.apply(action)
        peek = session.peek_undo()
        assert peek is not None and peek.is_roll and peek.index == first_roll
        step = session.undo()
        assert step == peek and step.type_name == "roll"
        assert session.peek_redo() == step
        assert session.redo() == step
        with pytest.raises(NothingToRedoError):
            session.redo()
        step = session.undo()
        session.apply(actions[first_roll])  # a new action discards the undone one
        assert not session.can_redo
        assert session.undo().is_roll


def test_a_won_game_is_finished_until_its_winning_action_is_undone(tmp_path: Path) -> None:
    config, actions = random_actions(seed=1, count=5000, players=3, vp_target=5)
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = journal.new_game(config)
        for action in actions:
            session.apply(action)
        assert session.game.is_over
        summary = journal.summary(session.game_id)
        assert summary.finished and summary.winner == session.game.winner
        assert summary.winner_name == config.names[session.game.winner]
        assert journal.unfinished_games() == []
        with pytest.raises(IllegalActionError, match="over"):
            session.apply(EndTurn(0))
        session.undo()
        summary = journal.summary(session.game_id)
        assert not summary.finished and summary.winner is None
        assert summary.redo_count == 1
        assert [g.id for g in journal.unfinished_games()] == [session.game_id]


def test_games_are_listed_newest_first_with_timestamps_from_the_clock(tmp_path: Path) -> None:
    ticks = iter(datetime(2025, 3, 1, 20, 0, tzinfo=UTC) + timedelta(minutes=m) for m in range(99))
    config, actions = random_actions(seed=8, count=5)
    with Journal(tmp_path / "j.sqlite3", clock=lambda: next(ticks)) as journal:
        one = journal.new_game(config)
        two = journal.new_game(config)
        one.apply(actions[0])
        listed = journal.games()
        assert [g.id for g in listed] == [one.game_id, two.game_id]
        assert listed[0].created_at == "2025-03-01T20:00:00.000+00:00"
        assert listed[0].updated_at == "2025-03-01T20:02:00.000+00:00"
        assert listed[0].players == config.names and listed[0].seed == 8
        assert listed[1].action_count == 0
        with pytest.raises(GameNotFoundError):
            journal.open_game(99)
        with pytest.raises(GameNotFoundError):
            journal.summary(99)


def test_the_state_holds_no_timestamp(tmp_path: Path) -> None:
    config, actions = random_actions(seed=9, count=50)
    states = []
    for minute in (0, 30):
        moment = datetime(2025, 1, 1, tzinfo=UTC) + timedelta(minutes=minute)
        with Journal(tmp_path / f"{minute}.sqlite3", clock=lambda m=moment: m) as journal:
            session = journal.new_game(config)
            for action in actions:
                session.apply(action)
            states.append(journal.open_game(session.game_id).game.to_json())
    assert states[0] == states[1]


def test_default_path_follows_xdg_data_home() -> None:
    assert default_db_path({"XDG_DATA_HOME": "/data"}) == Path(
        "/data/catan-companion/journal.sqlite3"
    )
    home = Path.home() / ".local" / "share" / "catan-companion" / "journal.sqlite3"
    assert default_db_path({}) == home
    assert default_db_path({"XDG_DATA_HOME": "relative/dir"}) == home


def test_the_rules_core_does_not_import_the_journal() -> None:
    rules = Path(__file__).resolve().parents[2] / "companion_app" / "rules"
    for source in rules.glob("*.py"):
        tree = ast.parse(source.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n.startswith("companion_app.journal") for n in names), source


def test_deleting_a_game_removes_it_and_only_it(tmp_path: Path) -> None:
    config, actions = random_actions(seed=8, count=40)
    db = tmp_path / "j.sqlite3"
    with Journal(db) as journal:
        kept = journal.new_game(config)
        gone = journal.new_game(config)
        for action in actions:
            kept.apply(action)
            gone.apply(action)
        kept_state = kept.game.to_json()
        journal.delete_game(gone.game_id)
        assert [g.id for g in journal.games()] == [kept.game_id]
        assert {row[0] for row in _rows(db)} == {kept.game_id}
        assert len(_rows(db)) == len(actions)
        with pytest.raises(GameNotFoundError):
            journal.open_game(gone.game_id)
    with Journal(db) as journal:
        assert journal.open_game(kept.game_id).game.to_json() == kept_state


def test_deleting_a_game_that_is_not_there_changes_nothing(tmp_path: Path) -> None:
    config, actions = random_actions(seed=9, count=10)
    db = tmp_path / "j.sqlite3"
    with Journal(db) as journal:
        session = journal.new_game(config)
        for action in actions:
            session.apply(action)
        before = _rows(db)
        with pytest.raises(GameNotFoundError, match=f"no game {session.game_id + 1}"):
            journal.delete_game(session.game_id + 1)
        assert _rows(db) == before
        assert [g.id for g in journal.games()] == [session.game_id]
