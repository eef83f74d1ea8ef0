"""Random play's dice: the roll a seat gets from its table of rolls is the one the three dice
drawn in turn name (yellow, red, event), and it is the very value the seat's listing holds, so
``Game.apply`` takes it without a second check."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from companion_app.rules.actions import EVENT_DIE_FACES, Roll
from companion_app.rules.config import MAX_PLAYERS, GameConfig
from companion_app.rules.game import Game
from companion_app.rules.randomplay import random_roll
from companion_app.rules.rng import SplitMix64

seeds = st.integers(min_value=0, max_value=2**64 - 1)
seats = st.integers(min_value=0, max_value=MAX_PLAYERS - 1)
dice = st.integers(min_value=1, max_value=6)


@given(seed=seeds, seat=seats)
def test_a_random_roll_is_the_dice_drawn_in_turn(seed: int, seat: int) -> None:
    rng, drawn = SplitMix64(seed), SplitMix64(seed)
    roll = random_roll(rng, seat)
    expected = (seat, drawn.below(6) + 1, drawn.below(6) + 1, EVENT_DIE_FACES[drawn.below(6)])
    assert (roll.player, roll.yellow, roll.red, roll.event) == expected
    assert rng.state == drawn.state  # three draws, no more


@given(seed=seeds, seat=seats, yellow=dice, red=dice)
def test_an_alchemist_roll_keeps_its_dice_and_draws_the_event_die(
    seed: int, seat: int, yellow: int, red: int
) -> None:
    rng, drawn = SplitMix64(seed), SplitMix64(seed)
    roll = random_roll(rng, seat, (yellow, red))
    expected = (seat, yellow, red, EVENT_DIE_FACES[drawn.below(6)])
    assert (roll.player, roll.yellow, roll.red, roll.event) == expected
    assert rng.state == drawn.state


@given(seed=seeds)
def test_a_random_roll_is_the_listed_value(seed: int) -> None:
    game = Game.new(GameConfig.for_players(4, seed=1))
    while not game.awaiting_roll:
        game.apply(game.legal_actions()[0])
    roll = random_roll(SplitMix64(seed), game.prompt.player)
    assert any(listed is roll for listed in game.legal_actions() if isinstance(listed, Roll))
