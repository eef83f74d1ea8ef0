"""Worked examples: gold fields (§13.5) and their choices after production.

Rules reference §13.5, rulings R2 (resources only, a city takes 2), R3 (after production, seat
order from the roller, from what the bank holds, an unmet choice lost), R4 (the Aqueduct), R18
(no commodity from gold), R21 (a starting city next to gold). Map ids:
``sea_builders.NS4``: gold 10 on hex 23 (corners 45, 53, 60, 67, 59, 52).
"""

from __future__ import annotations

from companion_app.rules.actions import (
    BuildCity,
    BuildRoad,
    BuildSettlement,
    EventDie,
    Roll,
    TakeGold,
    TakeResource,
)
from companion_app.rules.cards import COMMODITIES, RESOURCES, Card, Terrain, hand_of
from companion_app.rules.game import Game
from companion_app.rules.invariants import violations
from companion_app.rules.prompts import Prompt, PromptKind
from tests.rules.sea.ck_builders import NS4, ck_sea_game, gold_on_the_main_island
from tests.said import said

# Blue's settlement on 53 and White's city on 67, both on gold 10 (hex 23), nothing on the
# other 10s (forest 25, mountains 39).
ON_GOLD = {53: (1, "settlement"), 67: (2, "city")}


def roll_ten(game: Game, player: int = 0) -> None:
    game.apply(Roll(player, 4, 6, EventDie.POLITICS))


def test_the_choices_come_in_seat_order_from_the_roller_a_city_taking_two() -> None:
    """§13.5, R2, R3: Red rolls 10: Blue (settlement) chooses 1, then White (city) 2, the same
    or different; the choices are the roll's production."""
    game = ck_sea_game(prompt="roll", buildings=ON_GOLD)
    roll_ten(game)
    assert game.prompt == Prompt(PromptKind.GOLD, 1, 1)
    assert said(game.describe_prompt()) == "Blue: gold field: take 1 card of your choice"
    assert game.pending == [Prompt(PromptKind.GOLD, 1, 1), Prompt(PromptKind.GOLD, 2, 2)]
    assert sorted(a.card for a in game.legal_actions()) == sorted(RESOURCES)
    game.apply(TakeGold(1, Card.GRAIN))
    assert game.prompt == Prompt(PromptKind.GOLD, 2, 2)
    game.apply(TakeGold(2, Card.ORE))
    assert game.prompt == Prompt(PromptKind.GOLD, 2, 1)
    game.apply(TakeGold(2, Card.ORE))
    assert game.prompt.kind is PromptKind.TURN and game.prompt.player == 0
    assert game.hands[1] == list(hand_of(grain=1)) and game.hands[2] == list(hand_of(ore=2))
    assert game.last_production[1] == hand_of(grain=1)
    assert game.last_production[2] == hand_of(ore=2)
    assert violations(game) == []


def test_the_order_starts_at_the_roller() -> None:
    """R3: White rolls: White's city chooses before Blue's settlement."""
    game = ck_sea_game(prompt="roll", buildings=ON_GOLD, active=2)
    roll_ten(game, 2)
    assert game.pending == [Prompt(PromptKind.GOLD, 2, 2), Prompt(PromptKind.GOLD, 1, 1)]


def test_gold_never_gives_a_commodity() -> None:
    """R2: White's city next to gold takes no cloth, coin or paper."""
    game = ck_sea_game(prompt="roll", buildings=ON_GOLD, active=2)
    roll_ten(game, 2)
    for c in COMMODITIES:
        assert said(game.illegal_reason(TakeGold(2, Card(c)))) == (
            "a gold field gives a resource, never a commodity (§13.5)"
        )


def test_the_robber_on_gold_blocks_it() -> None:
    """§13.5: the robber may stand on a gold field; then it gives nothing."""
    game = ck_sea_game(prompt="roll", buildings=ON_GOLD, robber_hex=23, robber_unlocked=True)
    roll_ten(game)
    assert game.prompt.kind is PromptKind.TURN and game.pending == []
    assert game.card_count(1) == game.card_count(2) == 0


def test_a_destroyed_city_chooses_once_and_a_metropolis_twice() -> None:
    """§13.5: a destroyed city counts as a settlement; a metropolis is a city."""
    game = ck_sea_game(
        prompt="roll",
        buildings={53: (1, "destroyed_city"), 67: (2, "city")},
        metropolis={"science": 67},
        improvements={2: (0, 0, 4)},
    )
    roll_ten(game)
    assert game.pending == [Prompt(PromptKind.GOLD, 1, 1), Prompt(PromptKind.GOLD, 2, 2)]


def test_the_bank_meets_what_it_can_and_the_rest_is_lost() -> None:
    """R3: the bank holds 1 wool and 2 ore of the resources: Blue takes the wool, White the 2
    ore; with only 2 cards left, White's second choice is lost."""
    bank = hand_of(wool=1, ore=1, cloth=5)
    game = ck_sea_game(prompt="roll", buildings=ON_GOLD, bank=bank)
    roll_ten(game)
    assert [a.card for a in game.legal_actions()] == [Card.WOOL, Card.ORE]
    assert said(game.illegal_reason(TakeGold(1, Card.BRICK))) == "the bank has no brick left"
    game.apply(TakeGold(1, Card.WOOL))
    assert game.prompt == Prompt(PromptKind.GOLD, 2, 2)
    assert [a.card for a in game.legal_actions()] == [Card.ORE]
    game.apply(TakeGold(2, Card.ORE))
    assert game.prompt.kind is PromptKind.TURN  # the bank holds no resource: the choice is lost
    assert game.hands[2][Card.ORE] == 1 and game.last_production[2] == hand_of(ore=1)


def test_an_empty_bank_asks_no_choice() -> None:
    game = ck_sea_game(prompt="roll", buildings=ON_GOLD, bank=hand_of(cloth=5))
    roll_ten(game)
    assert game.prompt.kind is PromptKind.TURN and game.pending == []


def test_the_aqueduct_counts_a_gold_choice_as_receiving() -> None:
    """R4: White (Aqueduct) receives by choosing gold: no Aqueduct; Orange (Aqueduct, nothing
    next to a 10) takes a resource after the gold choices."""
    game = ck_sea_game(
        prompt="roll",
        buildings=ON_GOLD | {13: (3, "city")},
        improvements={2: (0, 0, 3), 3: (0, 0, 3)},
    )
    roll_ten(game)
    assert [q.kind for q in game.pending] == [PromptKind.GOLD, PromptKind.GOLD]
    game.apply(TakeGold(1, Card.BRICK))
    game.apply(TakeGold(2, Card.BRICK))
    game.apply(TakeGold(2, Card.LUMBER))
    assert game.prompt == Prompt(PromptKind.AQUEDUCT, 3)
    game.apply(TakeResource(3, Card.WOOL))
    assert game.prompt.kind is PromptKind.TURN and game.hands[3] == list(hand_of(wool=1))
    assert violations(game) == []


def test_gold_is_paid_after_ordinary_production() -> None:
    """R3: Red rolls 10: forest 10 (hex 25) pays White's settlement first, then Blue chooses
    for gold."""
    topology = NS4.board.topology
    forest = topology.hex_nodes[25][0]
    game = ck_sea_game(prompt="roll", buildings={53: (1, "settlement"), forest: (2, "settlement")})
    roll_ten(game)
    assert game.hands[2] == list(hand_of(lumber=1))  # paid before Blue's choice
    assert game.prompt == Prompt(PromptKind.GOLD, 1, 1)


def test_a_starting_city_next_to_gold_takes_one_resource_of_choice() -> None:
    """R21: Orange's starting city on 43 (hexes 14 mountains, 15 sea, 21 gold) takes 1 ore and
    1 resource of choice, before its road."""
    config = gold_on_the_main_island(4)  # gold 10 on hex 21 of the main island
    assert config.board.terrains[21] is Terrain.GOLD
    game = Game.new(config)
    near = {
        43,
        *(
            n
            for e in config.board.topology.node_edges[43]
            for n in config.board.topology.edge_nodes[e]
        ),
    }
    for _ in range(4):  # round 1: settlements away from 43, and their roads
        game.apply(
            next(
                a
                for a in game.legal_actions()
                if isinstance(a, BuildSettlement) and a.node not in near
            )
        )
        game.apply(next(a for a in game.legal_actions() if isinstance(a, BuildRoad)))
    assert game.prompt.kind is PromptKind.SETUP_CITY and game.prompt.player == 3
    game.apply(BuildCity(3, 43))
    assert game.prompt == Prompt(PromptKind.GOLD, 3, 1)
    assert game.hands[3] == list(hand_of(ore=1))
    game.apply(TakeGold(3, Card.BRICK))
    assert game.prompt.kind is PromptKind.SETUP_ROAD and game.prompt.player == 3
    assert game.hands[3] == list(hand_of(ore=1, brick=1))
    assert violations(game) == []
