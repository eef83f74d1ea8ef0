"""Snapshots of the state beside the actions: used only when their seal holds for the actions
before them; anything else is refused and the game is replayed, whole and exact."""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from journal_helpers import random_actions

from companion_app.journal import Journal, snapshots
from companion_app.journal.schema import check_whole
from companion_app.rules.actions import Action
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import StateError
from companion_app.rules.game import Game
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64

EVERY = snapshots.SNAPSHOT_EVERY


@cache
def _script(seed: int, count: int = 2 * EVERY + 12) -> tuple[GameConfig, tuple[Action, ...]]:
    config, actions = random_actions(seed=seed, count=count)
    assert len(actions) == count
    return config, tuple(actions)


def _replayed(config: GameConfig, actions: tuple[Action, ...]) -> dict[str, object]:
    return Game.replay(config, actions).to_json()


@pytest.fixture
def journal() -> Iterator[Journal]:
    with tempfile.TemporaryDirectory() as tmp, Journal(Path(tmp) / "j.sqlite3") as opened:
        yield opened


def _played(journal: Journal, seed: int = 1) -> int:
    config, script = _script(seed)
    session = journal.new_game(config)
    for action in script:
        session.apply(action)
    return session.game_id


def _kept(journal: Journal, game_id: int) -> list[tuple[int, str, str]]:
    return journal.conn.execute(
        "SELECT upto, state, seal FROM snapshot WHERE game_id = ? ORDER BY upto", (game_id,)
    ).fetchall()


def _set_state(journal: Journal, game_id: int, upto: int, state: str) -> None:
    journal.conn.execute(
        "UPDATE snapshot SET state = ? WHERE game_id = ? AND upto = ?", (state, game_id, upto)
    )


def _link(journal: Journal, game_id: int, upto: int) -> bytes:
    """The chain after the game's first ``upto`` stored actions, as a snapshot there is sealed."""
    (config_text,) = journal.conn.execute(
        "SELECT config FROM game WHERE id = ?", (game_id,)
    ).fetchone()
    link = snapshots.chain_start(config_text)
    for (text,) in journal.conn.execute(
        "SELECT data FROM action WHERE game_id = ? AND idx < ? ORDER BY idx", (game_id, upto)
    ):
        link = snapshots.chain_next(link, text)
    return link


def _flip(text: str, at: int) -> str:
    return text[:at] + chr(ord(text[at]) ^ 0x01) + text[at + 1 :]


def _resumes_exactly(journal: Journal, game_id: int, seed: int = 1) -> int:
    """Open the game; its actions and state are the replay's. Returns the snapshot's count."""
    config, script = _script(seed)
    session = journal.open_game(game_id)
    assert session.actions == script
    assert session.game.to_json() == _replayed(config, script)
    # and it plays on as the replayed game would, undo included
    step = session.undo()
    assert step.action == script[-1]
    assert session.game.to_json() == _replayed(config, script[:-1])
    session.redo()
    return session.resumed_from_snapshot


def test_a_game_resumes_from_its_newest_snapshot_and_keeps_two(journal: Journal) -> None:
    game_id = _played(journal)  # 140 actions: snapshots after 64 and 128
    assert [row[0] for row in _kept(journal, game_id)] == [EVERY, 2 * EVERY]
    assert _resumes_exactly(journal, game_id) == 2 * EVERY
    assert journal.open_game(game_id).snapshot_refused is None


def test_a_flipped_byte_is_refused_and_the_older_snapshot_used(journal: Journal) -> None:
    game_id = _played(journal)
    upto, state, _ = _kept(journal, game_id)[-1]
    _set_state(journal, game_id, upto, _flip(state, len(state) // 2))
    assert _resumes_exactly(journal, game_id) == EVERY
    refused = journal.open_game(game_id).snapshot_refused
    assert (
        refused
        == f"the snapshot after action {upto}: its seal does not match the actions before it"
    )


@pytest.mark.parametrize("damage", ["flipped byte", "truncated", "another game's", "flipped seal"])
def test_damaged_snapshots_are_refused_and_the_game_replayed(journal: Journal, damage: str) -> None:
    game_id = _played(journal, seed=1)
    other_id = _played(journal, seed=2)
    for upto, state, seal in _kept(journal, game_id):
        if damage == "flipped byte":
            _set_state(journal, game_id, upto, _flip(state, 7))
        elif damage == "truncated":
            _set_state(journal, game_id, upto, state[: len(state) - 10])
        elif damage == "flipped seal":
            journal.conn.execute(
                "UPDATE snapshot SET seal = ? WHERE game_id = ? AND upto = ?",
                (_flip(seal, 0), game_id, upto),
            )
        else:  # the other game's snapshot at the same count, with its own (valid) seal
            other = journal.conn.execute(
                "SELECT state, seal FROM snapshot WHERE game_id = ? AND upto = ?", (other_id, upto)
            ).fetchone()
            journal.conn.execute(
                "UPDATE snapshot SET state = ?, seal = ? WHERE game_id = ? AND upto = ?",
                (*other, game_id, upto),
            )
    assert _resumes_exactly(journal, game_id) == 0
    session = journal.open_game(game_id)
    assert session.snapshot_refused is not None
    assert session.snapshot_refused.startswith(f"the snapshot after action {2 * EVERY}: ")
    assert _resumes_exactly(journal, other_id, seed=2) == 2 * EVERY  # the other is untouched


def test_a_resealed_state_that_is_not_a_state_is_refused(journal: Journal) -> None:
    """A writer that recomputes the seal of nonsense gets no further than the state's checks."""
    game_id = _played(journal)
    for bad in ('{"version": 1}', "[1, 2]", '{"a": ' * 40 + "1" + "}" * 40, "not json"):
        for upto, _, _ in _kept(journal, game_id):
            journal.conn.execute(
                "UPDATE snapshot SET state = ?, seal = ? WHERE game_id = ? AND upto = ?",
                (bad, snapshots.seal(_link(journal, game_id, upto), bad), game_id, upto),
            )
        assert _resumes_exactly(journal, game_id) == 0
        assert "does not load" in (journal.open_game(game_id).snapshot_refused or "")


def test_an_undo_below_a_snapshot_keeps_it_for_the_redo_a_new_action_drops_it(
    journal: Journal,
) -> None:
    config, script = _script(1)
    game_id = _played(journal)
    session = journal.open_game(game_id)
    for _ in range(len(script) - 2 * EVERY + 1):  # back to 127 actions
        session.undo()
    reopened = journal.open_game(game_id)
    assert reopened.resumed_from_snapshot == EVERY  # the one after 128 waits for its redo
    assert reopened.game.to_json() == _replayed(config, script[: 2 * EVERY - 1])
    reopened.redo()
    assert journal.open_game(game_id).resumed_from_snapshot == 2 * EVERY
    session = journal.open_game(game_id)
    session.undo()
    action = next(a for a in session.game.legal_actions() if a != script[2 * EVERY - 1])
    session.apply(action)  # replaces actions 127.. : the snapshot after 128 is of the old ones
    assert [row[0] for row in _kept(journal, game_id)] == [EVERY, 2 * EVERY]
    assert journal.open_game(game_id).snapshot_refused is None
    live = (*script[: 2 * EVERY - 1], action)
    resumed = journal.open_game(game_id)
    assert resumed.actions == live
    assert resumed.game.to_json() == _replayed(config, live)


def test_undo_after_a_resume_from_a_snapshot_reaches_below_it(journal: Journal) -> None:
    config, script = _script(1)
    session = journal.open_game(_played(journal))
    assert session.resumed_from_snapshot == 2 * EVERY
    for count in range(len(script) - 1, 2 * EVERY - 4, -1):
        session.undo()
        assert session.game.to_json() == _replayed(config, script[:count])
    while session.can_redo:
        session.redo()
    assert session.game.to_json() == _replayed(config, script)


def test_the_rules_core_refuses_a_state_of_another_config() -> None:
    config, script = _script(1)
    other_config, other_script = _script(2)
    other_state = Game.replay(other_config, other_script).to_json()
    with pytest.raises(StateError, match="another game"):
        Game.resumed(config, script, other_state)
    resumed = Game.resumed(config, script, _replayed(config, script))
    assert resumed.history == list(script)
    assert resumed.to_json() == _replayed(config, script)


def test_snapshots_go_with_their_game(journal: Journal) -> None:
    game_id = _played(journal)
    journal.delete_game(game_id)
    assert _kept(journal, game_id) == []


def test_a_journal_without_the_table_opens_and_gets_it() -> None:
    """A journal written before snapshots: read as before, the table added; the read-only check
    an earlier release makes still passes with the table there."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "j.sqlite3"
        with Journal(path) as journal:
            game_id = _played(journal)
            journal.conn.execute("DROP TABLE snapshot")
        with Journal(path) as journal:
            assert _resumes_exactly(journal, game_id) == 0
            session = journal.open_game(game_id)
            assert session.actions == _script(1)[1]
        check_whole(path)
        conn = sqlite3.connect(path)
        try:
            names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        finally:
            conn.close()
        assert "snapshot" in names


def test_an_imported_game_is_snapshotted_at_its_end(journal: Journal) -> None:
    game_id = _played(journal)
    document = journal.export_game(game_id)
    imported = journal.import_game(document)
    assert [row[0] for row in _kept(journal, imported.game_id)] == [2 * EVERY + 12]
    assert _resumes_exactly(journal, imported.game_id) == 2 * EVERY + 12


DAMAGE = st.tuples(
    st.sampled_from(["flip", "cut", "seal", "count", "none"]),
    st.integers(0, 10_000),
)


@settings(max_examples=25, deadline=None)
@given(
    seed=st.sampled_from([1, 2]),
    undos=st.integers(0, 30),
    more=st.integers(0, 3),
    damages=st.lists(DAMAGE, max_size=3),
)
def test_whatever_happens_to_the_snapshots_the_game_resumes_exactly(
    seed: int, undos: int, more: int, damages: list[tuple[str, int]]
) -> None:
    """Nothing is lost: after undos, new actions and any damage to the snapshots, the game
    opens with exactly its actions and the state their replay gives."""
    config, script = _script(seed)
    with tempfile.TemporaryDirectory() as tmp, Journal(Path(tmp) / "j.sqlite3") as journal:
        session = journal.new_game(config)
        for action in script:
            session.apply(action)
        for _ in range(undos):
            session.undo()
        for i in range(more):
            session.apply(choose_random_action(session.game, SplitMix64(seed * 31 + i)))
        live, tail = session.actions, session.redo_actions
        rows = _kept(journal, session.game_id)
        for (kind, at), (upto, state, seal) in zip(damages, rows, strict=False):
            if kind == "flip":
                state = _flip(state, at % len(state))
            elif kind == "cut":
                state = state[: at % len(state)]
            elif kind == "seal":
                seal = _flip(seal, at % len(seal))
            elif kind == "count":
                journal.conn.execute(
                    "UPDATE OR IGNORE snapshot SET upto = ? WHERE game_id = ? AND upto = ?",
                    (1 + at % len(script), session.game_id, upto),
                )
                continue
            journal.conn.execute(
                "UPDATE snapshot SET state = ?, seal = ? WHERE game_id = ? AND upto = ?",
                (state, seal, session.game_id, upto),
            )
        resumed = journal.open_game(session.game_id)
        assert resumed.actions == live
        assert resumed.redo_actions == tail
        assert resumed.game.to_json() == Game.replay(config, live).to_json()
