"""Worked examples: setup (§2), the turn (§3) and production with commodities (§4)."""

from __future__ import annotations

import pytest
from builders import STARTER4, corner, make_game, side

from companion_app.rules.actions import BuildCity, BuildRoad, BuildSettlement, EventDie, Roll
from companion_app.rules.cards import EMPTY_HAND, Card, hand_of
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.topology import NODE_EDGES
from tests.said import said

SHIP = EventDie.SHIP


def roll(game: Game, total: int) -> None:
    yellow = min(6, total - 1)
    game.apply(Roll(game.active, yellow, total - yellow, SHIP))


# ---- §2 setup ----------------------------------------------------------------------------


def test_s2_setup_order_is_settlements_in_seat_order_then_cities_in_reverse() -> None:
    game = Game.new(GameConfig.for_players(4, first_player=1))
    seen = []
    spots = iter([0, 5, 10, 16, 26, 33, 42, 49])
    while game.in_setup:
        kind, player = game.prompt.kind, game.prompt.player
        seen.append((kind.value, player))
        node = next(spots)
        piece = BuildSettlement if kind is PromptKind.SETUP_SETTLEMENT else BuildCity
        game.apply(piece(player, node))
        assert game.prompt.kind is PromptKind.SETUP_ROAD and game.prompt.player == player
        game.apply(BuildRoad(player, NODE_EDGES[node][0]))
    assert seen == [
        ("setup_settlement", 1),
        ("setup_settlement", 2),
        ("setup_settlement", 3),
        ("setup_settlement", 0),
        ("setup_city", 0),
        ("setup_city", 3),
        ("setup_city", 2),
        ("setup_city", 1),
    ]
    # §2.5: the player who placed the last city (the first player) takes the first turn.
    assert game.prompt.kind is PromptKind.ROLL and game.prompt.player == 1
    assert [game.settlements_on_board(p) for p in range(4)] == [1, 1, 1, 1]
    assert [game.cities_on_board(p) for p in range(4)] == [1, 1, 1, 1]
    assert [game.victory_points(p) for p in range(4)] == [3, 3, 3, 3]


def test_s2_starting_city_takes_one_resource_per_adjacent_terrain_hex() -> None:
    game = Game.new(STARTER4)
    # Round 1 anywhere far away, then player 3 (first in round 2) puts the city on the corner
    # of mountains 10 (hex 0), pasture 2 (hex 1) and hills 6 (hex 4).
    for p, node in enumerate([26, 33, 42, 49]):
        game.apply(BuildSettlement(p, node))
        game.apply(BuildRoad(p, NODE_EDGES[node][0]))
    city = corner(4, 0)
    game.apply(BuildCity(3, city))
    assert game.hand(3) == hand_of(ore=1, wool=1, brick=1)
    # No commodities from the starting city, and settlements gave nothing.
    assert game.hand(0) == EMPTY_HAND


def test_s2_starting_city_next_to_the_desert_gets_nothing_for_it() -> None:
    game = Game.new(STARTER4)
    for p, node in enumerate([0, 5, 42, 49]):
        game.apply(BuildSettlement(p, node))
        game.apply(BuildRoad(p, NODE_EDGES[node][0]))
    # Corner of desert (hex 9), hills 6 (hex 4) and forest 11 (hex 8).
    game.apply(BuildCity(3, corner(9, 5)))
    assert game.hand(3) == hand_of(brick=1, lumber=1)


def test_s2_setup_road_must_touch_the_piece_just_placed() -> None:
    game = Game.new(STARTER4)
    game.apply(BuildSettlement(0, 20))
    far_edge = NODE_EDGES[40][0]
    assert not game.is_legal(BuildRoad(0, far_edge))
    assert "must touch" in (said(game.illegal_reason(BuildRoad(0, far_edge))) or "")
    assert {a.edge for a in game.legal_actions() if isinstance(a, BuildRoad)} == set(NODE_EDGES[20])


# ---- §4 production -----------------------------------------------------------------------

# terrain: (node on that terrain only for this roll, the roll, city yield, settlement yield)
PRODUCTION_CASES = {
    "hills": (corner(4, 0), 6, hand_of(brick=2), hand_of(brick=1)),
    "fields": (corner(17, 3), 6, hand_of(grain=2), hand_of(grain=1)),
    "forest": (corner(10, 3), 3, hand_of(lumber=1, paper=1), hand_of(lumber=1)),
    "pasture": (corner(1, 0), 2, hand_of(wool=1, cloth=1), hand_of(wool=1)),
    "mountains": (corner(0, 0), 10, hand_of(ore=1, coin=1), hand_of(ore=1)),
}


@pytest.mark.parametrize("terrain", sorted(PRODUCTION_CASES))
def test_s4_city_and_settlement_production_on_each_terrain(terrain: str) -> None:
    node, number, city_yield, settlement_yield = PRODUCTION_CASES[terrain]
    for kind, expected in (("city", city_yield), ("settlement", settlement_yield)):
        game = make_game(buildings={node: (1, kind)}, prompt="roll")
        roll(game, number)
        assert game.hand(1) == expected, (terrain, kind)
        assert game.last_production[1] == expected
        assert game.prompt.kind is PromptKind.TURN


def test_s4_the_robber_hex_produces_nothing_but_other_hexes_with_the_number_do() -> None:
    # Cities on hills 6 (hex 4) and fields 6 (hex 17); robber on the hills.
    game = make_game(
        buildings={corner(4, 0): (1, "city"), corner(17, 3): (2, "city")},
        prompt="roll",
        robber_hex=4,
    )
    roll(game, 6)
    assert game.hand(1) == EMPTY_HAND
    assert game.hand(2) == hand_of(grain=2)


def test_s4_bank_shortage_nobody_gets_a_kind_the_bank_cannot_give_everyone() -> None:
    # Two players owed 2 brick each from hills 6, but the bank has only 3 brick.
    bank = list(hand_of(brick=3, lumber=19, wool=19, grain=19, ore=19, cloth=12, coin=12, paper=12))
    game = make_game(
        buildings={corner(4, 0): (1, "city"), corner(4, 3): (2, "city")},
        hands={0: hand_of(brick=16)},
        prompt="roll",
        bank=tuple(bank),
    )
    roll(game, 6)
    assert game.hand(1) == EMPTY_HAND and game.hand(2) == EMPTY_HAND
    assert game.bank[Card.BRICK] == 3


def test_s4_bank_shortage_a_single_player_owed_gets_what_is_left() -> None:
    game = make_game(
        buildings={corner(4, 0): (1, "city")},
        hands={0: hand_of(brick=18)},
        prompt="roll",
    )
    roll(game, 6)
    assert game.hand(1) == hand_of(brick=1)
    assert game.bank[Card.BRICK] == 0


def test_s4_commodity_shortage_is_judged_separately_from_the_resource() -> None:
    # Two cities on forest 3 (hex 10): lumber is plentiful, paper has one card left.
    bank = (19, 19, 19, 19, 19, 12, 12, 1)
    game = make_game(
        buildings={corner(10, 3): (1, "city"), corner(10, 0): (2, "city")},
        hands={0: hand_of(paper=11)},
        prompt="roll",
        bank=bank,
    )
    roll(game, 3)
    assert game.hand(1) == hand_of(lumber=1)
    assert game.hand(2) == hand_of(lumber=1)


def test_s3_event_die_is_part_of_the_roll_and_recorded() -> None:
    game = make_game(prompt="roll")
    action = Roll(0, 2, 3, EventDie.POLITICS)
    game.apply(action)
    assert game.last_roll == action
    assert game.to_json()["last_roll"] == {
        "type": "roll",
        "player": 0,
        "yellow": 2,
        "red": 3,
        "event": "politics",
    }


@pytest.mark.parametrize("yellow,red", [(0, 3), (7, 1), (3, -1)])
def test_s3_dice_values_outside_one_to_six_are_rejected(yellow: int, red: int) -> None:
    game = make_game(prompt="roll")
    assert "dice show 1-6" in (said(game.illegal_reason(Roll(0, yellow, red, SHIP))) or "")


def test_s5_roads_and_settlements_cost_cards_that_go_back_to_the_bank() -> None:
    start = corner(4, 0)
    game = make_game(
        buildings={start: (0, "settlement")},
        roads={side(4, 0): 0},
        hands={0: hand_of(brick=2, lumber=2, wool=1, grain=1)},
    )
    next_edge = side(4, 1)
    game.apply(BuildRoad(0, next_edge))
    assert game.hand(0) == hand_of(brick=1, lumber=1, wool=1, grain=1)
    game.apply(BuildSettlement(0, corner(4, 2)))
    assert game.hand(0) == EMPTY_HAND
    assert game.bank[Card.BRICK] == 19 and game.bank[Card.WOOL] == 19
    assert game.victory_points(0) == 2
