"""Bots in whole games: no illegal action, exception, broken invariant or stall in 3-6 player
and variant games; the decision reads only what the seat may know; replaying a game gives every
bot action again."""

from __future__ import annotations

from typing import Any

import pytest

from companion_app.bot import LEVELS, decide
from companion_app.bot.decision import Player
from companion_app.bot.players import (
    ExpertPlayer,
    GreedyPlayer,
    RandomPlayer,
    WeightedRandomPlayer,
)
from companion_app.bot.sim import play_game
from companion_app.rules.actions import Roll
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.hidden import redraw_hidden

VARIANTS: list[tuple[int, dict[str, Any]]] = [
    (3, {}),
    (4, {"evil_barbarians": True}),
    (5, {"quick_knights": True}),
    (6, {"easy_start": True}),
    (3, {"evil_barbarians": True, "quick_knights": True}),
]


def table(players: int) -> list[Player]:
    kinds: list[Player] = [ExpertPlayer(), GreedyPlayer(offers=2), WeightedRandomPlayer()]
    return [kinds[s % 3] if s < 3 else GreedyPlayer() for s in range(players)]


@pytest.mark.parametrize(("players", "variant"), VARIANTS)
def test_bots_play_short_games_without_a_problem(players: int, variant: dict[str, Any]) -> None:
    config = GameConfig.for_players(players, seed=players * 11, **variant)
    record = play_game(config, table(players), dice_seed=players, max_turns=24, check=True)
    assert record.problem is None
    assert record.turns >= 24 or record.winner is not None
    assert len(record.decisions) > 40


def test_bots_finish_a_game() -> None:
    config = GameConfig.for_players(3, seed=5, vp_target=8)
    players: list[Player] = [GreedyPlayer(), GreedyPlayer(), GreedyPlayer()]
    record = play_game(config, players, dice_seed=5, max_turns=200)
    assert record.problem is None
    assert record.winner is not None


def positions(count: int) -> list[Game]:
    """Positions of a greedy 4-player game where a bot decides, every 9th decision."""
    config = GameConfig.for_players(4, seed=3, evil_barbarians=True)
    record = play_game(config, [GreedyPlayer() for _ in range(4)], dice_seed=3, max_turns=60)
    assert record.game is not None
    history = record.game.history
    picked = record.decisions[::9][:count]
    return [Game.replay(config, history[:i]) for i in picked]


POSITIONS = positions(24)


@pytest.mark.parametrize("level", LEVELS)
def test_a_decision_reads_only_what_the_seat_may_know(level: str) -> None:
    """Redrawing what the seat cannot see (others' hands, the decks, the generator) never
    changes the decision."""
    changed = 0
    for game in POSITIONS[:: 2 if level == "expert" else 1]:
        seat = game.prompt.player
        decision = decide(game, seat, level)
        for seed in (1, 2):
            sample = redraw_hidden(game, seat, seed)
            changed += sample.to_json() != game.to_json()
            assert decide(sample, seat, level) == decision, (level, len(game.history))
    assert changed > 0


def test_replaying_a_game_gives_every_bot_action_again() -> None:
    config = GameConfig.for_players(3, seed=9)
    players: list[Player] = [ExpertPlayer(), GreedyPlayer(), RandomPlayer()]
    record = play_game(config, players, dice_seed=9, max_turns=12)
    assert record.game is not None and record.problem is None
    history = record.game.history
    replayed = Game.new(config)
    chosen = set(record.decisions)
    checked = 0
    for index, action in enumerate(history):
        if index in chosen and replayed.prompt.player == action.player:
            again = players[action.player].decide(replayed, action.player).action
            assert again == action, index
            checked += 1
        elif index in chosen:
            assert not isinstance(action, Roll)
        replayed.apply(action)
    assert checked > 30
