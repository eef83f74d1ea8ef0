"""Export -> import -> replay round-trips, and import validation naming the first problem."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from journal_helpers import random_actions

from companion_app.journal import (
    EXPORT_FORMAT,
    EXPORT_VERSION,
    InvalidExportError,
    Journal,
    parse_export_text,
    state_digest,
    validate_export,
)
from companion_app.rules.actions import BuildRoad
from companion_app.rules.game import Game
from companion_app.rules.randomplay import play_random_game


@pytest.mark.parametrize(("seed", "players"), [(1, 3), (2, 4), (3, 4), (4, 3), (5, 4)])
def test_export_import_replay_round_trips_random_games(
    tmp_path: Path, seed: int, players: int
) -> None:
    result = play_random_game(seed, players=players, max_turns=80)
    assert result.game is not None
    played = result.game
    with Journal(tmp_path / "a.sqlite3") as source:
        session = source.new_game(played.config)
        for action in played.history:
            session.apply(action)
        document = source.export_game(session.game_id)
    text = json.dumps(document, indent=1)
    assert document["format"] == EXPORT_FORMAT and document["version"] == EXPORT_VERSION
    assert len(document["actions"]) == len(played.history)

    with Journal(tmp_path / "b.sqlite3") as target:
        imported = target.import_game(json.loads(text))
        reopened = target.open_game(imported.game_id)
        assert reopened.game.to_json() == played.to_json()
        assert reopened.actions == tuple(played.history)
        assert target.export_game(imported.game_id)["actions"] == document["actions"]
    checked = parse_export_text(text)
    assert Game.replay(checked.config, checked.actions).to_json() == played.to_json()


def test_a_won_game_round_trips_with_its_winner(tmp_path: Path) -> None:
    config, actions = random_actions(seed=2, count=5000, players=3, vp_target=5)
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = journal.new_game(config)
        for action in actions:
            session.apply(action)
        document = journal.export_game(session.game_id)
        assert document["winner"] == session.game.winner
        copy_ = journal.import_game(document)
        summary = journal.summary(copy_.game_id)
        assert summary.finished and summary.winner == session.game.winner
        assert summary.created_at == document["created_at"]


def test_undone_actions_are_not_exported(tmp_path: Path) -> None:
    config, actions = random_actions(seed=3, count=30)
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = journal.new_game(config)
        for action in actions:
            session.apply(action)
        session.undo()
        document = journal.export_game(session.game_id)
        assert len(document["actions"]) == len(actions) - 1
        assert document["state_sha256"] == state_digest(session.game)


@pytest.fixture(scope="module")
def document() -> dict[str, Any]:
    config, actions = random_actions(seed=7, count=40)
    game = Game.replay(config, actions)
    return {
        "format": EXPORT_FORMAT,
        "version": EXPORT_VERSION,
        "config": config.to_json(),
        "actions": [a.to_json() for a in actions],
        "created_at": "2025-02-01T19:00:00+00:00",
        "winner": None,
        "state_sha256": state_digest(game),
    }


def _first_road(doc: dict[str, Any]) -> int:
    return next(i for i, a in enumerate(doc["actions"]) if a["type"] == BuildRoad.type_name)


def _spoil(doc: dict[str, Any], how: str) -> object:
    bad = copy.deepcopy(doc)
    if how == "not an object":
        return [bad]
    if how == "format":
        bad["format"] = "someone-else"
    elif how == "version too new":
        bad["version"] = EXPORT_VERSION + 1
    elif how == "version type":
        bad["version"] = "1"
    elif how == "missing":
        del bad["actions"]
    elif how == "unknown field":
        bad["comment"] = "hi"
    elif how == "config":
        bad["config"]["players"] = bad["config"]["players"][:2]
    elif how == "board":
        bad["config"]["board"] = {"terrains": []}
    elif how == "actions type":
        bad["actions"] = {"0": {}}
    elif how == "malformed action":
        bad["actions"][5] = {"type": "fly", "player": 0}
    elif how == "bad field":
        bad["actions"][5] = {**bad["actions"][5], "player": "Red"}
    elif how == "illegal action":
        bad["actions"][_first_road(bad)]["edge"] = 80
    elif how == "wrong player":
        bad["actions"][0]["player"] = (bad["actions"][0]["player"] + 1) % 4
    elif how == "timestamp":
        bad["created_at"] = "yesterday"
    elif how == "winner":
        bad["winner"] = 1
    elif how == "digest":
        bad["state_sha256"] = "0" * 64
    elif how == "truncated":
        bad["actions"] = bad["actions"][:-1]
    return bad


CASES = {
    "not an object": "an export is a JSON object, got list",
    "format": "not a game export of this app: format is 'someone-else'",
    "version too new": f"export version {EXPORT_VERSION + 1} is newer than this app reads",
    "version type": "version must be an integer, got '1'",
    "missing": "the export lacks actions",
    "unknown field": "unknown field(s) in the export: comment",
    "config": "config: Cities & Knights is for 3-6 players here, got 2",
    "board": "config: ",
    "actions type": "actions must be a JSON list, got dict",
    "malformed action": "action 5: unknown action type 'fly'",
    "bad field": "action 5: player must be an integer, got 'Red'",
    "illegal action": "(build_road): edge 80 does not exist",
    "wrong player": "action 0 (build_settlement): it is not ",
    "timestamp": "created_at must be an ISO 8601 date and time, got 'yesterday'",
    "winner": "winner is 1 but the actions give no winner",
    "digest": "state_sha256 does not match",
    "truncated": "state_sha256 does not match",
}


@pytest.mark.parametrize("how", sorted(CASES))
def test_import_names_the_first_problem(tmp_path: Path, document: dict[str, Any], how: str) -> None:
    bad = _spoil(document, how)
    with pytest.raises(InvalidExportError) as caught:
        validate_export(bad)
    assert CASES[how] in str(caught.value)
    if how == "illegal action":
        index = _first_road(document)
        assert str(caught.value).startswith(f"action {index} (build_road): edge 80 does not exist")
    # Nothing reaches the journal.
    with Journal(tmp_path / "j.sqlite3") as journal:
        with pytest.raises(InvalidExportError):
            journal.import_game(bad)
        assert journal.games() == []


def test_the_valid_document_imports(document: dict[str, Any], tmp_path: Path) -> None:
    with Journal(tmp_path / "j.sqlite3") as journal:
        session = journal.import_game(document)
        assert len(session.actions) == len(document["actions"])


@pytest.mark.parametrize(
    ("text", "message"),
    [
        (b"", "the file is not JSON: Expecting value at byte 0"),
        (b'{"format": ', "the file is not JSON"),
        (b"\xff\xfe\x00garbage", "not UTF-8 text"),
        (b"42", "an export is a JSON object, got int"),
    ],
)
def test_files_that_are_not_json_objects_are_named_as_such(text: bytes, message: str) -> None:
    with pytest.raises(InvalidExportError, match=message):
        parse_export_text(text)
