"""Worked examples of the greedy player's value (bot/value.py) on the starter board."""

from __future__ import annotations

from companion_app.bot.value import (
    ACTIVE_POINTS,
    DANGER_POINTS,
    KNIGHT_LEVEL_POINTS,
    knight_points,
    pips_of,
    value,
)
from companion_app.rules.cards import Card
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
