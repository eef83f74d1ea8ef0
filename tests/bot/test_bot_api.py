"""The bot's contract: levels, their words, a legal and repeatable decision at every level."""

from __future__ import annotations

import pytest

from companion_app.bot import LEVELS, decide, level_name
from companion_app.bot.players import RandomPlayer
from companion_app.bot.sim import play_game
from companion_app.rules.actions import Roll
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind


def test_levels_and_their_words() -> None:
    assert LEVELS == ("learner", "player", "expert")
    assert [level_name(level).text for level in LEVELS] == ["Learner", "Player", "Expert"]
    with pytest.raises(ValueError, match="no bot level"):
        level_name("grandmaster")


@pytest.mark.parametrize("level", LEVELS)
def test_setup_decisions_are_legal_and_repeatable(level: str) -> None:
    game = Game.new(GameConfig.for_players(3, seed=7))
    while game.in_setup:
        seat = game.prompt.player
        decision = decide(game, seat, level)
        assert game.is_legal(decision.action)
        assert decide(game, seat, level) == decision
        assert str(decision.reason)
        game.apply(decision.action)
    assert game.prompt.kind is PromptKind.ROLL


def test_at_the_roll_the_answer_is_roll_the_dice() -> None:
    record = play_game(
        GameConfig.for_players(3, seed=5), [RandomPlayer()] * 3, dice_seed=5, max_turns=1
    )
    game = record.game
    assert game is not None and game.prompt.kind is PromptKind.ROLL
    assert not game.progress_hands[game.prompt.player]
    for level in LEVELS:
        decision = decide(game, game.prompt.player, level)
        assert isinstance(decision.action, Roll)
        assert decision.reason.text == "Roll the dice"
