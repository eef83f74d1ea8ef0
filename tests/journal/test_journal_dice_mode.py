"""The game's dice mode in its config: written only when not fair, so a fair game's config JSON,
its digests and its export checksums are those of the journals from before the modes; an older
journal or export reads as fair; a mode that is not one is refused in one line."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

from companion_app.journal import Journal, parse_export_text, state_digest
from companion_app.journal.exchange import dumps_compact
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import ConfigError
from companion_app.rules.game import Game

# Computed with the code from before the dice modes, for GameConfig.for_players(3, seed=42).
FAIR_CONFIG_SHA256 = "75cb6c30f298f9f15fd9d41052b8384a3fe36caaad4799f1b754ef272344373e"
FAIR_STATE_SHA256 = "669055b46f368c2af2ff9ac11b6004a6c6368fbb5e4c2c90d7864c910a6e1c18"


def test_a_fair_games_config_and_digest_are_byte_identical_to_before_the_modes() -> None:
    config = GameConfig.for_players(3, seed=42)
    assert config.dice_mode == "fair" and "dice_mode" not in config.to_json()
    text = dumps_compact(config.to_json())
    assert hashlib.sha256(text.encode()).hexdigest() == FAIR_CONFIG_SHA256
    assert state_digest(Game.new(config)) == FAIR_STATE_SHA256


@pytest.mark.parametrize("mode", ["balanced", "deck"])
def test_a_mode_other_than_fair_is_written_and_read_back(mode: str) -> None:
    config = GameConfig.for_players(4, seed=7, dice_mode=mode)
    data = config.to_json()
    assert data["dice_mode"] == mode
    assert GameConfig.from_json(json.loads(json.dumps(data))) == config
    assert state_digest(Game.new(config)) != state_digest(Game.new(GameConfig.for_players(4)))


def test_an_older_config_without_the_field_reads_as_fair() -> None:
    data = GameConfig.for_players(3).to_json()
    assert "dice_mode" not in data
    assert GameConfig.from_json(data).dice_mode == "fair"


@pytest.mark.parametrize(("value", "says"), [("loaded", "dice mode"), (3, "must be a string")])
def test_a_bad_mode_is_refused_in_one_line(value: object, says: str) -> None:
    data = GameConfig.for_players(3).to_json()
    data["dice_mode"] = value
    with pytest.raises(ConfigError, match=says) as caught:
        GameConfig.from_json(data)
    assert "\n" not in str(caught.value)


def test_a_balanced_game_resumes_and_travels_balanced(tmp_path: Path) -> None:
    config = GameConfig.for_players(3, seed=11, dice_mode="balanced")
    with Journal(tmp_path / "a.sqlite3") as journal:
        game_id = journal.new_game(config).game_id
    with Journal(tmp_path / "a.sqlite3") as journal:
        assert journal.open_game(game_id).game.config.dice_mode == "balanced"
        document = journal.export_game(game_id)
    text = json.dumps(document)
    assert parse_export_text(text).config.dice_mode == "balanced"
    with Journal(tmp_path / "b.sqlite3") as other:
        copied = other.import_game(json.loads(text))
        assert other.open_game(copied.game_id).game.config.dice_mode == "balanced"
