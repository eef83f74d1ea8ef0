"""Worked examples of the trade (yellow) progress cards and the merchant (§10, §11):
Commercial Harbor, Master Merchant, Merchant, Merchant Fleet, Resource Monopoly, Trade Monopoly."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from builders import e, make_game

from companion_app.rules.__main__ import state_digest
from companion_app.rules.actions import (
    BankTrade,
    EndTurn,
    EventDie,
    GiveCard,
    HarborExchange,
    PlayMasterMerchant,
    PlayMerchant,
    PlayMerchantFleet,
    PlayProgress,
    PlayResourceMonopoly,
    PlayTradeMonopoly,
    Roll,
    StopEffect,
    TakeCard,
    action_from_json,
)
from companion_app.rules.cards import RESOURCES, Card, ProgressCard, hand_of
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.invariants import violations
from companion_app.rules.pieces import NOBODY
from companion_app.rules.prompts import PromptKind
from tests.said import said

PC = ProgressCard


# VP: player 0 has 3 (city 12, settlement 16 at the ore harbour), player 1 has 3 (city 30,
# settlement 40), players 2 and 3 have 4 (cities 20 + 10, cities 48 + 53).
BUILDINGS = {
    12: (0, "city"),
    16: (0, "settlement"),
    30: (1, "city"),
    40: (1, "settlement"),
    20: (2, "city"),
    10: (2, "city"),
    48: (3, "city"),
    53: (3, "city"),
}
ROADS = {e(12, 17): 0, e(17, 22): 0, e(22, 16): 0, e(30, 24): 1}


def trade_game(cards: tuple[ProgressCard, ...], **kw: object) -> Game:
    progress = {0: cards, **kw.pop("others", {})}  # type: ignore[dict-item]
    game = make_game(buildings=BUILDINGS, roads=ROADS, progress=progress, **kw)  # type: ignore[arg-type]
    assert violations(game) == []
    return game


# ---- Commercial Harbor ----------------------------------------------------------------------

HARBOR_HANDS = {
    0: hand_of(brick=2, lumber=1),
    1: hand_of(cloth=1, coin=1),
    2: hand_of(ore=2),
    3: hand_of(paper=1),
}


def _exchanges(game: Game) -> set[HarborExchange]:
    return {a for a in game.legal_actions() if isinstance(a, HarborExchange)}


def test_s10_commercial_harbor_the_opponent_chooses_the_commodity() -> None:
    game = trade_game((PC.COMMERCIAL_HARBOR,), hands=HARBOR_HANDS)
    assert _exchanges(game) == set()
    game.apply(PlayProgress(0, PC.COMMERCIAL_HARBOR))
    # The exchanges are part of the turn, beside everything else it allows (§10).
    assert game.prompt.kind is PromptKind.TURN
    assert _exchanges(game) == {
        HarborExchange(0, q, c) for q in (1, 2, 3) for c in (Card.BRICK, Card.LUMBER)
    }
    assert EndTurn(0) in game.legal_actions() and StopEffect(0) not in game.legal_actions()
    game.apply(HarborExchange(0, 1, Card.BRICK))
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.HARBOR_ANSWER, 1)
    assert set(game.legal_actions()) == {GiveCard(1, Card.CLOTH), GiveCard(1, Card.COIN)}
    assert said(game.illegal_reason(GiveCard(1, Card.BRICK))) == "you hold no brick"
    game.apply(GiveCard(1, Card.COIN))
    assert game.hands[0] == list(hand_of(brick=1, lumber=1, coin=1))
    assert game.hands[1] == list(hand_of(brick=1, cloth=1))
    assert game.prompt.kind is PromptKind.TURN
    assert said(game.illegal_reason(HarborExchange(0, 1, Card.LUMBER))) == (
        "Commercial Harbor: each opponent once this turn (§10)"
    )
    assert violations(game) == []


def test_s10_commercial_harbor_exchanges_between_other_actions_once_per_opponent_a_turn() -> None:
    """§10: at any point of the turn the card is played, between a bank trade and another
    card; each opponent once that turn however many Harbors, a void exchange counting."""
    hands = {**HARBOR_HANDS, 0: hand_of(brick=2, lumber=1, ore=2)}
    game = trade_game((PC.COMMERCIAL_HARBOR, PC.COMMERCIAL_HARBOR), hands=hands)
    game.apply(PlayProgress(0, PC.COMMERCIAL_HARBOR))
    game.apply(HarborExchange(0, 3, Card.LUMBER))
    game.apply(GiveCard(3, Card.PAPER))
    game.apply(BankTrade(0, Card.ORE, Card.WOOL))  # 2:1 at the ore harbour, between exchanges
    assert game.hands[0] == list(hand_of(brick=2, wool=1, paper=1))
    assert {a.to for a in _exchanges(game)} == {1, 2}
    # A second Harbor this turn: player 3 was asked already and stays asked.
    game.apply(PlayProgress(0, PC.COMMERCIAL_HARBOR))
    assert {a.to for a in _exchanges(game)} == {1, 2}
    game.apply(HarborExchange(0, 2, Card.WOOL))  # void: player 2 holds no commodity
    assert game.prompt.kind is PromptKind.TURN and game.hands[2] == list(HARBOR_HANDS[2])
    assert game.hands[0] == list(hand_of(brick=2, wool=1, paper=1))
    assert {a.to for a in _exchanges(game)} == {1}
    # Player 1 need not be asked; the harbor closes with the turn.
    game.apply(EndTurn(0))
    assert not game.harbor_open and game.harbor_done == []
    assert "harbor_open" not in game.to_json()
    assert violations(game) == []


def test_s10_commercial_harbor_ends_with_the_turn_it_is_played_in() -> None:
    game = trade_game((PC.COMMERCIAL_HARBOR,), hands=HARBOR_HANDS)
    game.apply(PlayProgress(0, PC.COMMERCIAL_HARBOR))
    game.apply(HarborExchange(0, 1, Card.BRICK))
    game.apply(GiveCard(1, Card.CLOTH))
    game.apply(HarborExchange(0, 2, Card.BRICK))  # void
    game.apply(HarborExchange(0, 3, Card.LUMBER))
    assert said(game.illegal_reason(GiveCard(3, Card.LUMBER))) is not None
    game.apply(GiveCard(3, Card.PAPER))
    # Everyone asked: the turn goes on without exchanges, whom was asked remembered.
    assert game.prompt.kind is PromptKind.TURN and game.harbor_done == [1, 2, 3]
    assert _exchanges(game) == set()
    assert game.hands[0] == list(hand_of(brick=1, cloth=1, paper=1))
    game.apply(EndTurn(0))
    game.apply(Roll(1, 1, 2, EventDie.SHIP))
    assert said(game.illegal_reason(HarborExchange(1, 0, Card.BRICK))) == (
        "exchanges are made in the turn a Commercial Harbor is played (§10)"
    )
    assert violations(game) == []


def test_s10_commercial_harbor_without_resources_offers_no_exchange() -> None:
    game = trade_game((PC.COMMERCIAL_HARBOR,), hands={0: hand_of(cloth=3)})
    game.apply(PlayProgress(0, PC.COMMERCIAL_HARBOR))
    assert _exchanges(game) == set() and game.prompt.kind is PromptKind.TURN


def test_s10_commercial_harbor_a_state_with_the_harbor_open_round_trips() -> None:
    game = trade_game((PC.COMMERCIAL_HARBOR,), hands=HARBOR_HANDS)
    before = game.to_json()
    assert "harbor_open" not in before
    game.apply(PlayProgress(0, PC.COMMERCIAL_HARBOR))
    game.apply(HarborExchange(0, 2, Card.BRICK))  # void
    data = game.to_json()
    assert data["harbor_open"] is True and data["harbor_done"] == [2]
    loaded = Game.from_json(data)
    assert loaded.to_json() == data and _exchanges(loaded) == _exchanges(game)


RELEASE_1 = json.loads((Path(__file__).parent / "commercial_harbor_release1.json").read_text())
"""A random game of the previous release (seed 1), up to the end of the turn in which a
Commercial Harbor was played, answered twice and stopped (``stop_effect``), with the state
digests that release computed after the stop and at the end of that turn."""


def test_s10_a_game_of_the_previous_release_with_its_harbor_stop_replays_to_the_same_state() -> (
    None
):
    config = GameConfig.from_json(RELEASE_1["config"])
    actions = [action_from_json(a) for a in RELEASE_1["actions"]]
    stop_at = RELEASE_1["stop_at"]
    assert actions[stop_at] == StopEffect(actions[stop_at].player)
    assert isinstance(actions[stop_at - 1], GiveCard)
    game = Game.new(config)
    for i, action in enumerate(actions):
        game.apply(action)
        if i == stop_at:
            assert state_digest(game.to_json()) == RELEASE_1["digests"]["after_stop"]
    assert state_digest(game.to_json()) == RELEASE_1["digests"]["after_turn"]


# ---- Master Merchant ------------------------------------------------------------------------


def test_s10_master_merchant_only_targets_players_with_more_vp() -> None:
    hands = {1: hand_of(wool=3), 2: hand_of(ore=2, coin=1), 3: hand_of(brick=1)}
    game = trade_game((PC.MASTER_MERCHANT,), hands=hands)
    targets = {a.victim for a in game.legal_actions() if isinstance(a, PlayMasterMerchant)}
    assert targets == {2, 3}  # player 1 has 3 VP, as many as player 0
    assert said(game.illegal_reason(PlayMasterMerchant(0, 1))) == (
        "Master Merchant targets a player with more VP than you (§10)"
    )


def test_s10_master_merchant_sees_the_cards_and_takes_2() -> None:
    hands = {2: hand_of(ore=2, coin=1)}
    game = trade_game((PC.MASTER_MERCHANT,), hands=hands)
    game.apply(PlayMasterMerchant(0, 2))
    assert (game.prompt.kind, game.prompt.count) == (PromptKind.MASTER_MERCHANT, 2)
    assert game.view_for(0)["shown"] == {"ore": 2, "coin": 1}
    assert set(game.legal_actions()) == {TakeCard(0, Card.ORE), TakeCard(0, Card.COIN)}
    game.apply(TakeCard(0, Card.COIN))
    assert game.legal_actions() == [TakeCard(0, Card.ORE)]
    game.apply(TakeCard(0, Card.ORE))
    assert game.hands[0] == list(hand_of(ore=1, coin=1))
    assert game.hands[2] == list(hand_of(ore=1))
    assert game.prompt.kind is PromptKind.TURN and game.card_target == NOBODY
    assert violations(game) == []


def test_s10_master_merchant_takes_1_from_a_player_with_1() -> None:
    game = trade_game((PC.MASTER_MERCHANT,), hands={3: hand_of(brick=1)})
    game.apply(PlayMasterMerchant(0, 3))
    assert game.prompt.count == 1
    game.apply(TakeCard(0, Card.BRICK))
    assert game.prompt.kind is PromptKind.TURN and game.hands[0][Card.BRICK] == 1


# ---- the merchant ---------------------------------------------------------------------------


def test_s10_merchant_goes_next_to_an_own_building_and_trades_2_to_1_for_1_vp() -> None:
    game = trade_game((PC.MERCHANT,), hands={0: hand_of(grain=2)})
    hexes = {a.hex for a in game.legal_actions() if isinstance(a, PlayMerchant)}
    assert hexes == {0, 3, 4, 7}  # next to 12 (mountains, fields, hills) and 16 (fields, fields)
    assert said(game.illegal_reason(PlayMerchant(0, 14))) == (
        "the merchant goes next to one of your settlements or cities (§10)"
    )
    assert game.trade_rate(0, Card.GRAIN) == 4
    game.apply(PlayMerchant(0, 3))  # fields: grain
    assert (game.merchant_hex, game.merchant_owner) == (3, 0)
    assert game.trade_rate(0, Card.GRAIN) == 2
    assert game.victory_points(0) == 4
    assert BankTrade(0, Card.GRAIN, Card.BRICK) in game.legal_actions()
    game.apply(BankTrade(0, Card.GRAIN, Card.BRICK))
    assert game.hands[0] == list(hand_of(brick=1))
    assert violations(game) == []


def test_s10_the_next_merchant_played_by_anyone_takes_it_over() -> None:
    game = trade_game((PC.MERCHANT,), others={1: (PC.MERCHANT,)})
    game.apply(PlayMerchant(0, 3))
    game.apply(EndTurn(0))
    game.apply(Roll(1, 2, 3, EventDie.SHIP))
    game.apply(PlayMerchant(1, 10))  # forest next to player 1's city on 30
    assert (game.merchant_hex, game.merchant_owner) == (10, 1)
    assert game.victory_points(0) == 3 and game.victory_points(1) == 4
    assert game.trade_rate(0, Card.GRAIN) == 4
    assert game.trade_rate(1, Card.LUMBER) == 2
    assert violations(game) == []


def test_s10_merchant_never_on_the_desert() -> None:
    game = trade_game((), others={1: (PC.MERCHANT,)}, active=1)
    assert said(game.illegal_reason(PlayMerchant(1, 9))) == (
        "the merchant goes on a hex with a resource, not the desert"
    )
    hexes = {a.hex for a in game.legal_actions() if isinstance(a, PlayMerchant)}
    assert 9 not in hexes and 10 in hexes


# ---- Merchant Fleet -------------------------------------------------------------------------


def test_s10_merchant_fleet_is_a_2_to_1_rate_this_turn_not_cards() -> None:
    game = trade_game((PC.MERCHANT_FLEET,), hands={0: hand_of(wool=4)})
    assert {a.card for a in game.legal_actions() if isinstance(a, PlayMerchantFleet)} == set(Card)
    game.apply(PlayMerchantFleet(0, Card.WOOL))
    assert game.hands[0] == list(hand_of(wool=4))  # no cards given
    assert game.trade_rate(0, Card.WOOL) == 2
    game.apply(BankTrade(0, Card.WOOL, Card.ORE))
    game.apply(BankTrade(0, Card.WOOL, Card.ORE))  # as often as you like
    assert game.hands[0] == list(hand_of(ore=2))
    game.apply(EndTurn(0))
    assert game.trade_rate(0, Card.WOOL) == 4  # this turn only
    assert game.fleet == []


def test_s10_merchant_fleet_on_a_commodity() -> None:
    game = trade_game((PC.MERCHANT_FLEET,), hands={0: hand_of(coin=2)})
    game.apply(PlayMerchantFleet(0, Card.COIN))
    assert game.trade_rate(0, Card.COIN) == 2
    assert game.trade_rate(0, Card.CLOTH) == 4


# ---- monopolies -----------------------------------------------------------------------------


def test_s10_resource_monopoly_takes_2_from_each_or_1_from_a_player_with_1() -> None:
    hands = {1: hand_of(wool=3), 2: hand_of(wool=1, ore=2), 3: hand_of(ore=5)}
    game = trade_game((PC.RESOURCE_MONOPOLY,), hands=hands)
    choices = {a.card for a in game.legal_actions() if isinstance(a, PlayResourceMonopoly)}
    assert choices == set(RESOURCES)
    game.apply(PlayResourceMonopoly(0, Card.WOOL))
    assert game.hands[0][Card.WOOL] == 3
    assert game.hands[1][Card.WOOL] == 1  # 2 of 3, not all
    assert game.hands[2][Card.WOOL] == 0
    assert game.hands[3] == list(hand_of(ore=5))
    assert violations(game) == []


def test_s10_trade_monopoly_takes_1_commodity_from_each() -> None:
    hands = {1: hand_of(cloth=3), 2: hand_of(cloth=1), 3: hand_of(coin=2)}
    game = trade_game((PC.TRADE_MONOPOLY,), hands=hands)
    game.apply(PlayTradeMonopoly(0, Card.CLOTH))
    assert game.hands[0][Card.CLOTH] == 2
    assert (game.hands[1][Card.CLOTH], game.hands[2][Card.CLOTH]) == (2, 0)
    assert game.hands[3] == list(hand_of(coin=2))


@pytest.mark.parametrize(
    "action, reason",
    [
        (
            PlayResourceMonopoly(0, Card.COIN),
            "Resource Monopoly names a resource; Trade Monopoly is for commodities",
        ),
        (
            PlayTradeMonopoly(0, Card.WOOL),
            "Trade Monopoly names a commodity (cloth, coin or paper)",
        ),
    ],
)
def test_s10_monopolies_name_the_right_kind(action: object, reason: str) -> None:
    game = trade_game((PC.RESOURCE_MONOPOLY, PC.TRADE_MONOPOLY))
    assert said(game.illegal_reason(action)) == reason  # type: ignore[arg-type]


def _harbor_state(game: Game) -> dict[str, object]:
    data = game.to_json()
    keys = ("prompt", "pending", "hands", "harbor_done", "harbor_open", "harbor_offer")
    return {k: data.get(k) for k in keys}


def test_s10_commercial_harbor_exchanges_undo_one_by_one() -> None:
    game = trade_game((PC.COMMERCIAL_HARBOR,), hands=HARBOR_HANDS)
    game.apply(PlayProgress(0, PC.COMMERCIAL_HARBOR))
    opened = _harbor_state(game)
    game.apply(HarborExchange(0, 1, Card.BRICK))
    offered = _harbor_state(game)
    game.apply(GiveCard(1, Card.COIN))
    assert game.harbor_done == [1]
    game.undo()
    assert _harbor_state(game) == offered and game.prompt.kind is PromptKind.HARBOR_ANSWER
    game.undo()
    assert _harbor_state(game) == opened and game.harbor_done == []
    assert opened["harbor_open"] is True
    assert HarborExchange(0, 1, Card.BRICK) in game.legal_actions()
