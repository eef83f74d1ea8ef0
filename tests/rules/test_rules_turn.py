"""Worked examples: sevens and the robber (§3, §8), building (§5, §6), trading (§11 maritime
and domestic), longest road and the win (§11)."""

from __future__ import annotations

import itertools

from builders import corner, make_game, side

from companion_app.rules.actions import (
    AcceptTrade,
    BankTrade,
    BuildCity,
    BuildRoad,
    BuildSettlement,
    DeclineTrade,
    DiscardCard,
    EndTurn,
    EventDie,
    MoveRobber,
    OfferTrade,
    Roll,
    StealFrom,
)
from companion_app.rules.cards import EMPTY_HAND, Card, hand_of
from companion_app.rules.config import GameConfig
from companion_app.rules.game import NOBODY
from companion_app.rules.prompts import Prompt, PromptKind
from companion_app.rules.registry import describe_prompt
from companion_app.rules.topology import EDGE_BETWEEN, EDGE_NODES, HARBOUR_EDGES, NODE_EDGES
from tests.said import said

SEVEN = Roll(0, 3, 4, EventDie.SHIP)

# ---- §3.4 sevens: discards over the limit -------------------------------------------------


def test_s3_seven_discard_half_rounded_down_above_limit_in_seat_order_from_roller() -> None:
    game = make_game(
        hands={
            0: hand_of(brick=4, ore=4, cloth=1),  # 9 cards -> discards 4
            1: hand_of(grain=7),  # 7 cards: at the limit, keeps all
            2: hand_of(wool=8),  # 8 -> 4
            3: hand_of(coin=3),
        },
        prompt="roll",
    )
    game.apply(SEVEN)
    assert game.prompt.kind is PromptKind.DISCARD
    assert (game.prompt.player, game.prompt.count) == (0, 4)
    assert {a.card for a in game.legal_actions()} == {Card.BRICK, Card.ORE, Card.CLOTH}
    for card in (Card.BRICK, Card.BRICK, Card.CLOTH, Card.ORE):
        game.apply(DiscardCard(0, card))
    assert game.hand(0) == hand_of(brick=2, ore=3)
    assert (game.prompt.kind, game.prompt.player, game.prompt.count) == (PromptKind.DISCARD, 2, 4)
    assert not game.is_legal(DiscardCard(1, Card.GRAIN))
    for _ in range(4):
        game.apply(DiscardCard(2, Card.WOOL))
    assert game.hand(2) == hand_of(wool=4)
    assert game.bank[Card.WOOL] == 15
    # §8: before the first barbarian attack the robber does not move: straight to the turn.
    assert game.prompt.kind is PromptKind.TURN and game.prompt.player == 0
    assert game.robber_hex == game.board.desert_hex


def test_s3_city_walls_raise_the_discard_limit_by_two_each() -> None:
    city = corner(4, 0)
    game = make_game(
        buildings={city: (1, "city")},
        walls=(city,),
        hands={1: hand_of(ore=9)},  # 9 <= 7 + 2: no discard
        prompt="roll",
    )
    assert game.discard_limit(1) == 9
    game.apply(SEVEN)
    assert game.prompt.kind is PromptKind.TURN
    game2 = make_game(
        buildings={city: (1, "city")}, walls=(city,), hands={1: hand_of(ore=10)}, prompt="roll"
    )
    game2.apply(SEVEN)
    assert (game2.prompt.kind, game2.prompt.player, game2.prompt.count) == (
        PromptKind.DISCARD,
        1,
        5,
    )


def test_s8_after_the_first_attack_the_roller_moves_the_robber_and_steals() -> None:
    victim_node = corner(4, 0)
    game = make_game(
        buildings={victim_node: (2, "settlement"), corner(4, 3): (3, "city")},
        hands={2: hand_of(wool=1), 3: EMPTY_HAND},
        prompt="roll",
        robber_unlocked=True,
    )
    game.apply(SEVEN)
    assert game.prompt.kind is PromptKind.MOVE_ROBBER and game.prompt.player == 0
    assert not game.is_legal(MoveRobber(0, game.robber_hex))
    game.apply(MoveRobber(0, 4))
    # Player 3 touches hex 4 but has no cards, so only player 2 can be robbed.
    assert game.prompt.kind is PromptKind.CHOOSE_VICTIM
    assert game.legal_actions() == [StealFrom(0, 2)]
    game.apply(StealFrom(0, 2))
    assert game.hand(0) == hand_of(wool=1) and game.hand(2) == EMPTY_HAND
    assert game.prompt.kind is PromptKind.TURN


def test_s8_robber_moved_next_to_nobody_goes_straight_to_the_turn() -> None:
    game = make_game(prompt="roll", robber_unlocked=True)
    game.apply(SEVEN)
    game.apply(MoveRobber(0, 0))
    assert game.prompt.kind is PromptKind.TURN


def test_s8_steal_takes_commodities_too_and_is_seeded() -> None:
    def stolen(seed_state: int) -> tuple[int, ...]:
        game = make_game(
            buildings={corner(4, 0): (2, "settlement")},
            hands={2: hand_of(coin=1, brick=1)},
            prompt="choose_victim",
            robber_unlocked=True,
        )
        game.victims = (2,)
        game.rng.state = seed_state
        game.apply(StealFrom(0, 2))
        return game.hand(0)

    outcomes = {stolen(s) for s in range(20)}
    assert outcomes == {hand_of(coin=1), hand_of(brick=1)}
    assert stolen(7) == stolen(7)


# ---- §5 building rules --------------------------------------------------------------------


def test_s5_distance_rule_no_settlement_next_to_any_building() -> None:
    home = corner(4, 0)
    game = make_game(
        buildings={home: (0, "settlement")},
        roads={side(4, 0): 0, side(4, 1): 0},
        hands={0: hand_of(brick=2, lumber=2, wool=2, grain=2)},
    )
    too_close = corner(4, 1)
    assert "distance rule" in (said(game.illegal_reason(BuildSettlement(0, too_close))) or "")
    assert game.is_legal(BuildSettlement(0, corner(4, 2)))
    spots = {a.node for a in game.legal_actions() if isinstance(a, BuildSettlement)}
    assert spots == {corner(4, 2)}


def test_s5_settlement_needs_an_own_road_and_roads_need_the_network() -> None:
    game = make_game(
        buildings={corner(4, 0): (0, "settlement")},
        hands={0: hand_of(brick=3, lumber=3, wool=1, grain=1)},
    )
    far = corner(17, 3)
    assert "not at the end of one of your roads" in (
        said(game.illegal_reason(BuildSettlement(0, far))) or ""
    )
    far_edge = NODE_EDGES[far][0]
    assert "not connected" in (said(game.illegal_reason(BuildRoad(0, far_edge))) or "")
    roads = {a.edge for a in game.legal_actions() if isinstance(a, BuildRoad)}
    assert roads == set(NODE_EDGES[corner(4, 0)])


def test_s5_an_opponent_settlement_blocks_roads_passing_through_it() -> None:
    a, b, c = corner(4, 0), corner(4, 1), corner(4, 2)
    game = make_game(
        buildings={a: (0, "settlement"), c: (1, "settlement")},
        roads={side(4, 0): 0, side(4, 1): 0},  # a-b-c: player 0's road ends at c
        hands={0: hand_of(brick=1, lumber=1)},
    )
    beyond_c = [e for e in NODE_EDGES[c] if e != side(4, 1)]
    for e in beyond_c:
        assert not game.is_legal(BuildRoad(0, e)), e
    beyond_b = [e for e in NODE_EDGES[b] if e not in (side(4, 0), side(4, 1))]
    assert all(game.is_legal(BuildRoad(0, e)) for e in beyond_b)


def test_s6_no_settlement_on_a_knights_intersection_and_knights_block_roads() -> None:
    a, b, c = corner(4, 0), corner(4, 1), corner(4, 2)
    game = make_game(
        buildings={a: (0, "settlement")},
        roads={side(4, 0): 0, side(4, 1): 0},
        hands={0: hand_of(brick=2, lumber=2, wool=1, grain=1)},
    )
    game.knight_owner[c] = 1  # hook: knights arrive with the C&K mechanics
    game._legal_cache = None
    assert "knight" in (said(game.illegal_reason(BuildSettlement(0, c))) or "")
    beyond_c = [e for e in NODE_EDGES[c] if e != side(4, 1)]
    assert not any(game.is_legal(BuildRoad(0, e)) for e in beyond_c)
    assert game.is_legal(BuildRoad(0, next(e for e in NODE_EDGES[b] if game.edge_owner[e] < 0)))


def test_s5_city_upgrades_own_settlement_and_returns_it_to_supply() -> None:
    home = corner(4, 0)
    game = make_game(
        buildings={home: (0, "settlement"), corner(17, 3): (1, "settlement")},
        hands={0: hand_of(ore=3, grain=2)},
    )
    assert game.settlements_left(0) == 4
    assert not game.is_legal(BuildCity(0, corner(17, 3)))
    game.apply(BuildCity(0, home))
    assert game.settlements_left(0) == 5 and game.cities_left(0) == 3
    assert game.victory_points(0) == 2
    assert "upgrades one of your settlements" in (
        said(game.illegal_reason(BuildCity(0, home))) or ""
    )
    poor = make_game(buildings={home: (0, "settlement")}, hands={0: hand_of(ore=2, grain=2)})
    assert "3 ore + 2 grain" in (said(poor.illegal_reason(BuildCity(0, home))) or "")


def test_s5_piece_supply_is_finite() -> None:
    # 15 roads in a ring round three hexes is more than needed: give player 0 all 15.
    edges = sorted({side(h, i) for h in (0, 1, 4) for i in range(6)})[:15]
    game = make_game(
        buildings={corner(4, 0): (0, "settlement")},
        roads=dict.fromkeys(edges, 0),
        hands={0: hand_of(brick=1, lumber=1)},
    )
    assert game.roads_left(0) == 0
    assert not any(isinstance(a, BuildRoad) for a in game.legal_actions())


# ---- maritime and domestic trade ------------------------------------------------------------


def test_s11_bank_trade_is_four_to_one_for_any_card_including_commodities() -> None:
    game = make_game(hands={0: hand_of(coin=4, ore=3)})
    trades = {(a.give, a.take) for a in game.legal_actions() if isinstance(a, BankTrade)}
    assert (Card.COIN, Card.BRICK) in trades and (Card.COIN, Card.PAPER) in trades
    assert not any(give is Card.ORE for give, _ in trades)
    game.apply(BankTrade(0, Card.COIN, Card.PAPER))
    assert game.hand(0) == hand_of(ore=3, paper=1)


def test_s11_generic_harbour_three_to_one_and_special_harbour_two_to_one() -> None:
    # Starter slots: 0 is 3:1, 1 is wool 2:1.
    generic_node = EDGE_NODES[HARBOUR_EDGES[0]][0]
    game_node = EDGE_NODES[HARBOUR_EDGES[1]][0]
    game = make_game(
        buildings={generic_node: (0, "settlement"), game_node: (0, "settlement")},
        hands={0: hand_of(brick=3, wool=2, cloth=3)},
    )
    assert game.trade_rate(0, Card.BRICK) == 3
    assert game.trade_rate(0, Card.CLOTH) == 3
    assert game.trade_rate(0, Card.WOOL) == 2
    game.apply(BankTrade(0, Card.WOOL, Card.ORE))
    game.apply(BankTrade(0, Card.CLOTH, Card.GRAIN))
    game.apply(BankTrade(0, Card.BRICK, Card.LUMBER))
    assert game.hand(0) == hand_of(ore=1, grain=1, lumber=1)
    other = make_game(hands={1: hand_of(wool=3)}, active=1)
    assert other.trade_rate(1, Card.WOOL) == 4


def test_s11_domestic_trade_offer_accepted_or_declined_by_the_other_player() -> None:
    game = make_game(hands={0: hand_of(brick=2), 2: hand_of(ore=1, coin=1)})
    offer = OfferTrade(0, 2, hand_of(brick=2), hand_of(ore=1))
    game.apply(offer)
    assert game.prompt.kind is PromptKind.TRADE_RESPONSE and game.prompt.player == 2
    assert set(game.legal_actions()) == {AcceptTrade(2), DeclineTrade(2)}
    game.apply(AcceptTrade(2))
    assert game.hand(0) == hand_of(ore=1) and game.hand(2) == hand_of(brick=2, coin=1)
    assert game.prompt.kind is PromptKind.TURN and game.prompt.player == 0
    game.apply(OfferTrade(0, 2, hand_of(ore=1), hand_of(coin=1)))
    game.apply(DeclineTrade(2))
    assert game.hand(0) == hand_of(ore=1)


def test_s11_domestic_offer_needs_the_cards_and_answer_needs_the_asked_cards() -> None:
    game = make_game(hands={0: hand_of(brick=1), 1: EMPTY_HAND})
    assert "do not hold" in (
        said(game.illegal_reason(OfferTrade(0, 1, hand_of(brick=2), hand_of(ore=1)))) or ""
    )
    assert "same kind" in (
        said(game.illegal_reason(OfferTrade(0, 1, hand_of(brick=1), hand_of(brick=1)))) or ""
    )
    assert "another player" in (
        said(game.illegal_reason(OfferTrade(0, 0, hand_of(brick=1), hand_of(ore=1)))) or ""
    )
    game.apply(OfferTrade(0, 1, hand_of(brick=1), hand_of(ore=1)))
    assert game.legal_actions() == [DeclineTrade(1)]
    assert "do not hold" in (said(game.illegal_reason(AcceptTrade(1))) or "")


# ---- §11 longest road ---------------------------------------------------------------------


def _path(nodes: list[int]) -> list[int]:
    return [EDGE_BETWEEN[(a, b)] for a, b in itertools.pairwise(nodes)]


# A walk round hex 4 and on round hex 9 (sharing corners 4:2 = 9:5 ... see topology).
RING4 = [corner(4, i) for i in range(6)] + [corner(4, 0)]


def test_s11_longest_road_needs_five_and_counts_a_loop_once_per_edge() -> None:
    four = make_game(roads=dict.fromkeys(_path(RING4[:5]), 0))
    assert four.road_length[0] == 4 and four.longest_road_holder == NOBODY
    loop = make_game(roads=dict.fromkeys(_path(RING4), 0))
    assert loop.road_length[0] == 6
    assert loop.longest_road_holder == 0
    assert loop.victory_points(0) == 2


def test_s11_longest_road_with_a_fork_takes_the_longer_branch() -> None:
    # Five edges round hex 4 plus a spur of one edge off corner 2 outward.
    base = _path(RING4[:6])  # 5 edges
    spur_node = corner(4, 2)
    spur = next(e for e in NODE_EDGES[spur_node] if e not in base)
    game = make_game(roads=dict.fromkeys([*base, spur], 0))
    # Longest: spur + corner2->...->corner5 (3 edges) = 4 or corner0->...->corner5 = 5.
    assert game.road_length[0] == 5


def test_s11_settlement_breaks_an_opponents_road_and_the_card_moves_or_vanishes() -> None:
    roads = dict.fromkeys(_path(RING4[:6]), 0)  # player 0: 5 edges, corners 0..5
    game = make_game(
        roads=roads,
        hands={1: hand_of(brick=1, lumber=1, wool=1, grain=1)},
        active=1,
    )
    assert game.longest_road_holder == 0
    # Player 1 builds on corner 2 (reaching it with own road from outside).
    breaker = corner(4, 2)
    outside = next(e for e in NODE_EDGES[breaker] if e not in roads)
    game.edge_owner[outside] = 1
    game.rebuild_indexes()
    game._legal_cache = None
    game.apply(BuildSettlement(1, breaker))
    assert game.road_length[0] == 3
    assert game.longest_road_holder == NOBODY
    assert game.victory_points(0) == 0


def test_s11_holder_keeps_longest_road_on_a_tie() -> None:
    ring = _path(RING4[:6])
    other = _path([corner(17, i) for i in range(6)])
    game = make_game(roads={**dict.fromkeys(ring, 0)}, hands={1: hand_of(brick=1, lumber=1)})
    assert game.longest_road_holder == 0
    # Player 1 has four on hex 17 and builds the fifth: a tie at 5, the holder keeps it.
    game2 = make_game(
        roads={**dict.fromkeys(ring, 0), **dict.fromkeys(other[:4], 1)},
        hands={1: hand_of(brick=2, lumber=2)},
        active=1,
    )
    assert game2.longest_road_holder == 0
    game2.apply(BuildRoad(1, other[4]))
    assert game2.road_length == [5, 5, 0, 0]
    assert game2.longest_road_holder == 0
    sixth = _path([corner(17, 5), corner(17, 0)])[0]
    game2.apply(BuildRoad(1, sixth))
    assert game2.longest_road_holder == 1


# ---- §11 the win ----------------------------------------------------------------------------


TARGET10 = GameConfig.for_players(4, seed=3, vp_target=10)
SPREAD = [0, 5, 10, 16, 26, 33, 42, 49]  # far enough apart for the distance rule


def test_s11_win_at_the_target_on_own_turn() -> None:
    # 3 cities + 3 settlements = 9 VP; upgrading a settlement makes 10 = the target.
    buildings = {n: (0, "city" if i < 3 else "settlement") for i, n in enumerate(SPREAD[:6])}
    game = make_game(buildings=buildings, hands={0: hand_of(ore=3, grain=2)}, config=TARGET10)
    assert game.victory_points(0) == 9
    game.apply(BuildCity(0, SPREAD[5]))
    assert game.victory_points(0) == 10
    assert game.is_over and game.winner == 0
    assert game.prompt.kind is PromptKind.GAME_OVER
    assert game.legal_actions() == []
    assert "game is over" in (said(game.illegal_reason(EndTurn(0))) or "")


def test_s11_reaching_the_target_on_another_turn_wins_when_own_turn_comes() -> None:
    # Player 1 sits at 10 VP (the target) during player 0's turn: no winner until it is theirs.
    buildings = {n: (1, "city") for n in SPREAD[:4]} | {SPREAD[4]: (1, "settlement")}
    buildings |= {SPREAD[5]: (1, "settlement")}
    game = make_game(buildings=buildings, hands={0: hand_of(brick=4)}, config=TARGET10)
    assert game.victory_points(1) == 10
    game.apply(BankTrade(0, Card.BRICK, Card.ORE))
    assert not game.is_over
    game.apply(EndTurn(0))
    assert game.is_over and game.winner == 1


def test_prompt_words_count_their_cards_roads_and_knights() -> None:
    """The top bar reads naturally for one and for several (§3 discards, §10 cards)."""
    names = ("Anna", "Ben", "Cleo")

    def describe(prompt: Prompt) -> str:
        return said(describe_prompt(prompt, names))

    assert describe(Prompt(PromptKind.DISCARD, 0, 1)) == "Anna: discard 1 card"
    assert describe(Prompt(PromptKind.DISCARD, 1, 4)) == "Ben: discard 4 cards"
    assert describe(Prompt(PromptKind.FREE_ROAD, 2, 2)) == "Cleo: build 2 roads free, or stop"
    assert (
        describe(Prompt(PromptKind.SMITH, 0, 1))
        == "Anna: Smith: promote up to 1 knight free, or stop"
    )
