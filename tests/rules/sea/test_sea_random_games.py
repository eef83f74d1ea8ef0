"""Random games on a table's own New Shores board with gold on the main island (R27) keep every
invariant after every action (the sea's: the pirate at sea and still until the first attack,
R7; gold choices only in their stage; every knight linked, at sea only on its owner's ship) and
pay gold choices from the first productions on, without waiting for ships. The printed maps'
random games with every variant are test_sea_random.py's."""

from __future__ import annotations

from collections import Counter

import pytest

from companion_app.rules.actions import Action
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.invariants import violations
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64
from tests.rules.sea.ck_builders import gold_on_the_main_island


def play(config: GameConfig, seed: int, turns: int) -> tuple[Game, Counter[str]]:
    game = Game.new(config)
    rng = SplitMix64(seed)
    seen: Counter[str] = Counter()
    while not game.is_over and game.turn < turns:
        action: Action = choose_random_action(game, rng)
        game.apply(action)
        seen[action.type_name] += 1
        problems = violations(game)
        assert problems == [], (len(game.history), action, problems)
    return game, seen


@pytest.mark.parametrize("players", [3, 4])
def test_random_games_with_gold_on_the_main_island_pay_gold(players: int) -> None:
    """A table's own board (R27) with gold on the main island: gold choices come from the
    first productions on, and every invariant holds."""
    config = gold_on_the_main_island(players, seed=5, quick_knights=True)
    _, seen = play(config, 5, 80)
    assert seen["take_gold"] > 0 and seen["move_pirate"] > 0
