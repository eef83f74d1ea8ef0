"""Worked examples of the greedy player's value (bot/value.py) on the starter board."""

from __future__ import annotations

from companion_app.bot.players import ExpertPlayer, GreedyPlayer
from companion_app.bot.value import (
    ACTIVE_POINTS,
    DANGER_POINTS,
    KNIGHT_LEVEL_POINTS,
    START_SHORT_POINTS,
    expert_value,
    knight_points,
    pips_of,
    start_points,
    value,
)
from companion_app.rules.actions import BuildRoad, BuildSettlement, EventDie, Roll
from companion_app.rules.cards import Card
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from tests.rules.builders import make_game

NODE_8 = 8
"""Touches the mountains' 10 (3 pips of 36), the pasture's 2 (1 pip) and the hills' 6 (5)."""


def test_a_settlement_and_a_city_take_their_hexes_dice_odds() -> None:
    settlement = make_game(buildings={NODE_8: (0, "settlement")})
    got = pips_of(settlement, NODE_8)
    assert (got[Card.ORE], got[Card.WOOL], got[Card.BRICK]) == (3, 1, 5)
    assert sum(got) == 9
    city = make_game(buildings={NODE_8: (0, "city")})
    got = pips_of(city, NODE_8)
    # Mountains and pasture: a resource and a commodity; hills: two brick (§4).
    assert (got[Card.ORE], got[Card.COIN], got[Card.WOOL], got[Card.CLOTH]) == (3, 3, 1, 1)
    assert got[Card.BRICK] == 10


def test_the_robbers_hex_produces_nothing() -> None:
    game = make_game(buildings={NODE_8: (0, "settlement")}, robber_hex=4)
    got = pips_of(game, NODE_8)
    assert got[Card.BRICK] == 0 and got[Card.ORE] == 3


def test_a_city_without_defence_when_the_ship_arrives_costs_about_a_city() -> None:
    """One city on the island, no knights, the ship one space from the attack (7 spaces):
    Red, among the weakest, stands to lose it; one active knight defends the island."""
    bare = make_game(buildings={NODE_8: (0, "city")}, barbarian_position=6)
    assert knight_points(bare, 0) == -DANGER_POINTS
    knight = make_game(
        buildings={NODE_8: (0, "city")}, barbarian_position=6, knights={13: (0, 1, True)}
    )
    assert knight_points(knight, 0) == KNIGHT_LEVEL_POINTS + ACTIVE_POINTS
    assert value(knight, 0) > value(bare, 0) + DANGER_POINTS


def test_the_weakest_defender_is_found_among_the_players_with_a_city() -> None:
    """Barbarians 4 (4 cities), knights 1 + 2 = 3: the ship wins. Red (1) is the weakest of
    those with a city, White has no knight but no city either: immune, not the weakest (§7)."""
    game = make_game(
        buildings={NODE_8: (0, "city"), 20: (1, "city"), 30: (1, "city"), 40: (1, "city")},
        knights={13: (0, 1, True), 45: (1, 2, True)},
        barbarian_position=6,
    )
    assert knight_points(game, 0) == KNIGHT_LEVEL_POINTS + ACTIVE_POINTS - DANGER_POINTS
    assert knight_points(game, 1) == 2 * (KNIGHT_LEVEL_POINTS + ACTIVE_POINTS)


def test_the_same_cards_are_worth_more_where_they_build_a_city() -> None:
    """3 ore and 2 grain pay a city: they are worth more to Red than 5 wool."""
    city_cards = make_game(
        buildings={NODE_8: (0, "settlement")}, hands={0: (0, 0, 0, 2, 3, 0, 0, 0)}
    )
    wool = make_game(buildings={NODE_8: (0, "settlement")}, hands={0: (0, 0, 5, 0, 0, 0, 0, 0)})
    assert value(city_cards, 0) > value(wool, 0) + 100


def test_the_expert_counts_the_knight_cards_a_start_does_not_produce() -> None:
    """Before the first roll: node 14 (hills, forest, pasture) produces neither grain nor ore,
    node 8 (hills, mountains, pasture) no grain; once the dice rolled the term is gone."""
    no_grain_no_ore = make_game(buildings={14: (0, "settlement")}, prompt="roll")
    assert start_points(no_grain_no_ore, 0) == -2 * START_SHORT_POINTS
    no_grain = make_game(buildings={NODE_8: (0, "settlement")}, prompt="roll")
    assert start_points(no_grain, 0) == -START_SHORT_POINTS
    assert expert_value(no_grain, 0) == value(no_grain, 0) - START_SHORT_POINTS
    no_grain.apply(Roll(0, 4, 6, EventDie.POLITICS))
    assert start_points(no_grain, 0) == 0
    assert expert_value(no_grain, 0) == value(no_grain, 0)


def test_the_expert_starts_where_it_produces_grain_the_greedy_player_does_not() -> None:
    """The starter board, 3 players: White's first settlement after Red's on 44 and Blue's on
    28. The greedy player takes 14 (brick, lumber, wool: 10 pips, no grain; then a city on 31,
    still no grain, no knight activated at the first attack); the expert 45 (wool, grain 8)."""
    game = Game.new(GameConfig.for_players(3, seed=1))
    for action in (
        BuildSettlement(0, 44),
        BuildRoad(0, 56),
        BuildSettlement(1, 28),
        BuildRoad(1, 34),
    ):
        game.apply(action)
    assert GreedyPlayer().decide(game, 2).action == BuildSettlement(2, 14)
    assert ExpertPlayer().decide(game, 2).action == BuildSettlement(2, 45)
