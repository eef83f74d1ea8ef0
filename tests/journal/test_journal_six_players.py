"""A 6-player game (§12: the 30-hex island, the special build phase) through the journal: kept,
reopened, undone, exported and imported as a 4-player game is."""

from __future__ import annotations

import json
from pathlib import Path

from companion_app.journal import Journal
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64


def test_a_six_player_game_keeps_reopens_undoes_and_travels(tmp_path: Path) -> None:
    config = GameConfig.for_players(6, seed=4)
    kinds: set[PromptKind] = set()
    with Journal(tmp_path / "a.db") as journal:
        session = journal.new_game(config)
        rng = SplitMix64(1)
        for _ in range(400):
            kinds.add(session.game.prompt.kind)
            session.apply(choose_random_action(session.game, rng))
        game_id, state = session.game_id, session.game.to_json()
    assert {PromptKind.WHO_BUILDS, PromptKind.SPECIAL_BUILD} <= kinds
    with Journal(tmp_path / "a.db", create=False) as journal:
        reopened = journal.open_game(game_id)
        assert reopened.game.to_json() == state
        assert reopened.game.to_json() == Game.replay(config, reopened.actions).to_json()
        reopened.undo()
        assert reopened.game.to_json() == Game.replay(config, reopened.actions).to_json()
        document = json.loads(json.dumps(journal.export_game(game_id)))
    with Journal(tmp_path / "b.db") as other:
        imported = other.import_game(document)
        assert imported.game.config == config
        assert imported.game.to_json() == Game.replay(config, imported.actions).to_json()
        assert len(imported.actions) == 399
