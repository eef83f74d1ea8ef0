"""The barbarian forecast (§7) and the castle table (§9), worked with numbers, and the forecast
held against the attack itself in random games."""

from __future__ import annotations

from typing import Any

from builders import make_game
from hypothesis import given, settings
from hypothesis import strategies as st

from companion_app.rules.actions import EventDie, Roll
from companion_app.rules.cards import Track
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.pieces import NOBODY
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64

# Intersections far enough apart for the distance rule.
A, B, C, D = 0, 2, 7, 10


def game_with(cities: dict[int, int], knights: dict[int, tuple[int, int, bool]], **kw: Any) -> Game:
    return make_game(
        buildings={node: (p, "city") for node, p in cities.items()},
        knights=knights,
        prompt="roll",
        **kw,
    )


def test_s7_spaces_and_rolls_left_a_ship_is_half_the_event_die() -> None:
    # Ship on space 4 of 7: 3 spaces left, each needing 2 rolls on average (3 of 6 faces).
    f = game_with({A: 0}, {}, barbarian_position=4).barbarian_forecast()
    assert (f.spaces_left, f.expected_rolls) == (3, 6)
    f = game_with({A: 0}, {}).barbarian_forecast()
    assert (f.spaces_left, f.expected_rolls) == (7, 14)


def test_s1_track_length_setting_sets_the_spaces_left() -> None:
    config = GameConfig.for_players(4, seed=42, barbarian_track_length=10)
    f = game_with({A: 0}, {}, config=config, barbarian_position=2).barbarian_forecast()
    assert (f.spaces_left, f.expected_rolls) == (8, 16)


def test_s3_easy_start_turns_add_rolls_without_the_event_die() -> None:
    # Easy start: no event die in each player's first two turns; 4 players x 2 turns = 8 rolls.
    config = GameConfig.for_players(4, seed=42, easy_start=True)
    f = game_with({A: 0}, {}, config=config, barbarian_position=4).barbarian_forecast()
    assert f.expected_rolls == 3 * 2 + 8


def test_s7_strength_counts_cities_with_metropolises_defence_only_active_knights() -> None:
    # 3 cities (one a metropolis) = strength 3; active knights 2 (seat 0) + 1 (seat 2); the
    # inactive mighty knight of seat 1 does not count: 3 >= 3, Catan wins, seat 0 Defender.
    game = game_with(
        {A: 0, B: 1, C: 2},
        {17: (0, 2, True), 19: (1, 3, False), 28: (2, 1, True)},
        improvements={0: (4, 0, 0)},
        metropolis={"trade": A},
    )
    f = game.barbarian_forecast()
    assert (f.strength, f.defence, f.total_defence) == (3, (2, 0, 1, 0), 3)
    assert f.defended and f.defender == 0 and f.tied == () and f.losers == ()


def test_s7_tie_for_strongest_no_defender_tied_from_the_active_player_on() -> None:
    game = game_with({A: 0, B: 2}, {17: (0, 2, True), 19: (1, 1, True), 28: (1, 1, True)}, active=1)
    f = game.barbarian_forecast()
    assert f.defended and f.defender == NOBODY and f.tied == (1, 0)


def test_s7_barbarians_win_lowest_among_players_with_a_city_they_can_take() -> None:
    # Strength 4 against 1: seats 0 and 1 have cities and 0 knights each: both lose one; seat
    # 2 (knight 1) has a city but is not lowest; seat 3 has no city and is immune.
    game = game_with({A: 0, B: 1, C: 2, D: 2}, {28: (2, 1, True)})
    f = game.barbarian_forecast()
    assert (f.strength, f.total_defence) == (4, 1)
    assert not f.defended and f.losers == (0, 1) and f.defender == NOBODY


def test_s7_a_metropolis_only_player_is_immune_and_the_next_lowest_loses() -> None:
    # Seat 0's one city carries a metropolis: immune though it defends 0; seat 1 (1) loses.
    game = game_with(
        {A: 0, B: 1, C: 2},
        {17: (1, 1, True), 28: (2, 2, True)},
        improvements={0: (4, 0, 0)},
        metropolis={"trade": A},
    )
    f = game.barbarian_forecast()
    assert (f.strength, f.total_defence) == (3, 3)
    game = game_with(
        {A: 0, B: 1, C: 2, D: 2},
        {17: (1, 1, True), 28: (2, 2, True)},
        improvements={0: (4, 0, 0)},
        metropolis={"trade": A},
    )
    f = game.barbarian_forecast()
    assert not f.defended and f.losers == (1,)


def test_s7_forecast_matches_the_attack_it_forecasts() -> None:
    game = game_with({A: 0, B: 1, C: 2, D: 2}, {28: (2, 1, True)}, barbarian_position=6)
    f = game.barbarian_forecast()
    game.apply(Roll(0, 1, 1, EventDie.SHIP))
    attack = game.last_attack
    assert attack is not None
    assert (attack.strength, attack.defence, attack.losers) == (f.strength, f.defence, f.losers)


def test_s9_castle_table_level_n_draws_on_red_one_to_n_plus_one() -> None:
    # Seat 0: trade 1 (red 1-2), science 5 (any red); seat 2: trade 3 (red 1-4); active seat 2.
    game = game_with({A: 0, C: 2}, {}, improvements={0: (1, 0, 5), 2: (3, 0, 0)}, active=2)
    table = game.castle_table()
    assert table[Track.TRADE] == ((2, 0), (2, 0), (2,), (2,), (), ())
    assert table[Track.POLITICS] == ((),) * 6
    assert table[Track.SCIENCE] == ((0,),) * 6


def _random_game_before_an_attack(seed: int, actions: int) -> Game | None:
    """A random game played ``actions`` actions on, then on to a roll due with the ship one
    space before the end (no Alchemist's dice): the next ship attacks. None if it ended."""
    game = Game.new(GameConfig.for_players(3 + seed % 2, seed=seed))
    rng = SplitMix64(seed)
    for _ in range(actions):
        if game.is_over:
            return None
        game.apply(choose_random_action(game, rng))
    last = game.config.barbarian_track_length - 1
    while not (
        game.awaiting_roll and game.alchemist_dice is None and game.barbarian_position == last
    ):
        if game.is_over:
            return None
        game.apply(choose_random_action(game, rng))
    return game


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), actions=st.integers(0, 1500))
def test_s7_forecast_names_who_loses_and_the_defender_of_a_forced_attack(
    seed: int, actions: int
) -> None:
    # Play on to a due roll with the ship a space from the end, forecast, then roll a ship.
    game = _random_game_before_an_attack(seed, actions)
    if game is None:
        return
    f = game.barbarian_forecast()
    assert (f.spaces_left, f.expected_rolls) == (1, 2)
    attacks = game.barbarian_attacks
    game.apply(Roll(game.active, 1, 1, EventDie.SHIP))
    attack = game.last_attack
    assert attack is not None and game.barbarian_attacks == attacks + 1
    assert attack.strength == f.strength and attack.defence == f.defence
    assert (attack.defender, attack.tied, attack.losers) == (f.defender, f.tied, f.losers)
