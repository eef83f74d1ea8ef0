"""Worked examples: knights (§6), city walls (§5), improvements and metropolises (§9), the
Aqueduct (§4), Merchant Guild (§11 maritime), and the variants (§3)."""

from __future__ import annotations

from builders import e, make_game

from companion_app.rules import knights
from companion_app.rules.actions import (
    ActivateKnight,
    BankTrade,
    BuildCityWall,
    BuildKnight,
    BuildRoad,
    BuyImprovement,
    ChaseRobber,
    DisplaceKnight,
    EndTurn,
    EventDie,
    MoveKnight,
    MoveRobber,
    PlaceMetropolis,
    PromoteKnight,
    RelocateKnight,
    Roll,
    StealFrom,
    TakeResource,
)
from companion_app.rules.cards import Card, Track, hand_of
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.invariants import violations
from companion_app.rules.pieces import NOBODY
from companion_app.rules.prompts import PromptKind
from tests.said import said

# Player 0: settlement on 8, roads 8-13-18-23 round hills 6 (hex 4). Player 1: settlement on 30,
# roads 30-24-18. The desert (hex 9, the robber) touches 18, 23, 24 and 30.
P0_ROADS = {e(8, 13): 0, e(13, 18): 0, e(18, 23): 0}
P1_ROADS = {e(30, 24): 1, e(24, 18): 1}
BASE = {8: (0, "settlement"), 30: (1, "settlement")}


def knight_game(knights: dict[int, tuple[int, int, bool]], **kw: object) -> Game:
    game = make_game(buildings=BASE, roads=P0_ROADS | P1_ROADS, knights=knights, **kw)  # type: ignore[arg-type]
    assert violations(game) == []
    return game


# ---- §6 knights -------------------------------------------------------------------------


def test_s6_knight_placed_inactive_at_an_own_road_end_ignoring_the_distance_rule() -> None:
    game = knight_game({}, hands={0: hand_of(wool=2, ore=2)})
    spots = {a.node for a in game.legal_actions() if isinstance(a, BuildKnight)}
    assert spots == {13, 18, 23}  # 13 is next to the settlement on 8: no distance rule
    assert "end of one of your roads" in (said(game.illegal_reason(BuildKnight(0, 29))) or "")
    game.apply(BuildKnight(0, 13))
    assert game.knight_owner[13] == 0 and game.knight_level[13] == 1
    assert not game.knight_active[13]
    assert game.hand(0) == hand_of(wool=1, ore=1)


def test_s6_at_most_two_knights_of_each_level() -> None:
    game = knight_game({13: (0, 1, False), 23: (0, 1, False)}, hands={0: hand_of(wool=1, ore=1)})
    assert not any(isinstance(a, BuildKnight) for a in game.legal_actions())
    assert "both your basic knights" in (said(game.illegal_reason(BuildKnight(0, 18))) or "")


def test_s6_activated_this_turn_cannot_act_this_turn() -> None:
    game = knight_game({13: (0, 1, False)}, hands={0: hand_of(grain=1)})
    game.apply(ActivateKnight(0, 13))
    assert game.knight_active[13] and game.hand(0) == hand_of()
    assert not any(isinstance(a, MoveKnight) for a in game.legal_actions())
    assert "activated this turn" in (said(game.illegal_reason(MoveKnight(0, 13, 23))) or "")


def test_s6_a_knight_that_acted_turns_inactive_may_be_reactivated_but_not_act_again() -> None:
    game = knight_game({13: (0, 2, True)}, hands={0: hand_of(grain=1)})
    assert MoveKnight(0, 13, 23) in game.legal_actions()
    game.apply(MoveKnight(0, 13, 23))
    assert game.knight_owner[13] == NOBODY and game.knight_owner[23] == 0
    assert not game.knight_active[23] and game.knight_level[23] == 2
    game.apply(ActivateKnight(0, 23))
    assert "activated this turn" in (said(game.illegal_reason(MoveKnight(0, 23, 13))) or "")
    game.apply(EndTurn(0))
    assert game.knight_flags[23] == 0  # a new turn: the knight may act again


def test_s6_moves_only_along_own_roads_to_free_intersections() -> None:
    game = knight_game({13: (0, 1, True)})
    moves = {a.to for a in game.legal_actions() if isinstance(a, MoveKnight)}
    assert moves == {18, 23}  # 8 holds the own settlement: not free
    assert "not connected" in (said(game.illegal_reason(MoveKnight(0, 13, 29))) or "")
    assert "free intersection" in (said(game.illegal_reason(MoveKnight(0, 13, 8))) or "")


def test_s6_promotion_once_per_turn_mighty_only_with_fortress_and_a_free_token() -> None:
    rich = hand_of(wool=3, ore=3)
    game = knight_game({13: (0, 2, True)}, hands={0: rich})
    assert "Fortress" in (said(game.illegal_reason(PromoteKnight(0, 13))) or "")
    fort = knight_game({13: (0, 1, False)}, hands={0: rich}, improvements={0: (0, 3, 0)})
    fort.apply(PromoteKnight(0, 13))
    assert fort.knight_level[13] == 2 and not fort.knight_active[13]  # keeps its side
    assert "once per turn" in (said(fort.illegal_reason(PromoteKnight(0, 13))) or "")
    fort.apply(EndTurn(0))
    tokens = knight_game({13: (0, 1, True), 18: (0, 2, True), 23: (0, 2, False)}, hands={0: rich})
    assert "both your strong knights" in (said(tokens.illegal_reason(PromoteKnight(0, 13))) or "")


def test_s6_displace_a_weaker_knight_whose_owner_relocates_it_along_their_roads() -> None:
    game = knight_game({13: (0, 2, True), 18: (1, 1, True)})
    assert DisplaceKnight(0, 13, 18) in game.legal_actions()
    game.apply(DisplaceKnight(0, 13, 18))
    assert game.knight_owner[18] == 0 and not game.knight_active[18]
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.RELOCATE_KNIGHT, 1)
    assert game.legal_actions() == [RelocateKnight(1, 24)]
    game.apply(RelocateKnight(1, 24))
    assert game.knight_owner[24] == 1 and game.knight_active[24]  # keeps its side
    assert game.prompt.kind is PromptKind.TURN and game.prompt.player == 0


def test_s6_a_knight_promoted_since_the_last_listing_is_no_longer_displaced() -> None:
    """The knights' moves are kept while no piece comes or goes: a promotion changes them too
    (nothing else on the board moved here)."""
    game = knight_game({13: (0, 2, True), 18: (1, 1, True)}, hands={1: hand_of(wool=1, ore=1)})
    assert DisplaceKnight(0, 13, 18) in game.legal_actions()
    knights.do_promote(game, PromoteKnight(1, 18))  # as if on its owner's turn
    game._legal_cache = None
    assert game.knight_level[18] == 2
    assert DisplaceKnight(0, 13, 18) not in game.legal_actions()


def test_s6_a_displaced_knight_with_nowhere_to_go_is_removed() -> None:
    game = knight_game({13: (0, 2, True), 18: (1, 1, True), 24: (1, 1, False)})
    game.apply(DisplaceKnight(0, 13, 18))
    assert game.knights_of[1] == [24]
    assert game.prompt.kind is PromptKind.TURN


def test_s6_only_weaker_knights_are_displaced_and_basic_knights_never_displace() -> None:
    equal = knight_game({13: (0, 2, True), 18: (1, 2, True)})
    assert "weaker" in (said(equal.illegal_reason(DisplaceKnight(0, 13, 18))) or "")
    basic = knight_game({13: (0, 1, True), 18: (1, 1, True)})
    assert not any(isinstance(a, DisplaceKnight) for a in basic.legal_actions())


def test_s6_knights_block_opponents_roads_and_break_their_longest_road() -> None:
    ring = {e(8, 13): 0, e(13, 18): 0, e(18, 23): 0, e(23, 17): 0, e(17, 12): 0}
    game = make_game(
        buildings=BASE,
        roads=ring | P1_ROADS,
        hands={1: hand_of(wool=1, ore=1)},
        active=1,
    )
    assert game.longest_road_holder == 0 and game.road_length[0] == 5
    game.apply(BuildKnight(1, 18))
    assert game.road_length[0] == 3 and game.longest_road_holder == NOBODY
    blocked = make_game(
        buildings=BASE,
        roads=P0_ROADS,
        knights={13: (1, 1, False)},
        hands={0: hand_of(brick=1, lumber=1)},
    )
    # Player 1's knight on 13 sits on player 0's road: no new road may pass it ...
    assert "not connected" in (said(blocked.illegal_reason(BuildRoad(0, e(13, 9)))) or "")
    # ... while the road's other ends still grow.
    assert blocked.is_legal(BuildRoad(0, e(23, 29)))


def test_s6_chase_the_robber_to_a_numbered_hex_and_steal() -> None:
    game = knight_game(
        {12: (0, 1, True)}, robber_hex=4, robber_unlocked=True, hands={1: hand_of(coin=1)}
    )
    game.apply(ChaseRobber(0, 12))
    assert not game.knight_active[12]
    assert game.prompt.kind is PromptKind.MOVE_ROBBER
    assert "number token" in (said(game.illegal_reason(MoveRobber(0, 9))) or "")
    game.apply(MoveRobber(0, 10))  # forest 3: player 1's settlement on 30 touches it
    assert game.legal_actions() == [StealFrom(0, 1)]
    game.apply(StealFrom(0, 1))
    assert game.hand(0) == hand_of(coin=1)


def test_s3_quick_knights_may_chase_before_the_roll_only_in_that_variant() -> None:
    normal = knight_game({23: (0, 1, True)}, prompt="roll", robber_unlocked=True)
    assert "not possible now" in (said(normal.illegal_reason(ChaseRobber(0, 23))) or "")
    quick = knight_game(
        {23: (0, 1, True)},
        prompt="roll",
        robber_unlocked=True,
        config=GameConfig.for_players(4, quick_knights=True),
    )
    assert ChaseRobber(0, 23) in quick.legal_actions()
    quick.apply(ChaseRobber(0, 23))
    quick.apply(MoveRobber(0, 0))
    assert quick.prompt.kind is PromptKind.ROLL  # back to the roll afterwards


# ---- city walls ---------------------------------------------------------------------------


def test_s5_city_wall_under_own_city_two_brick_one_per_city_three_at_most() -> None:
    cities = {n: (0, "city") for n in (0, 2, 7, 10)}
    game = make_game(buildings=cities, hands={0: hand_of(brick=8)}, walls=(0, 2, 7))
    assert "at most 3" in (said(game.illegal_reason(BuildCityWall(0, 10))) or "")
    game2 = make_game(buildings=cities | {16: (0, "settlement")}, hands={0: hand_of(brick=2)})
    assert "under one of your cities" in (said(game2.illegal_reason(BuildCityWall(0, 16))) or "")
    game2.apply(BuildCityWall(0, 10))
    assert game2.walls[10] and game2.hand(0) == hand_of()
    assert game2.discard_limit(0) == 9


# ---- §9 improvements and metropolises -----------------------------------------------------


def test_s9_improvement_level_n_costs_n_commodities_and_needs_a_city() -> None:
    game = make_game(buildings={0: (0, "city")}, hands={0: hand_of(cloth=3)})
    game.apply(BuyImprovement(0, Track.TRADE))
    game.apply(BuyImprovement(0, Track.TRADE))
    assert game.improvements[0] == [2, 0, 0] and game.hand(0) == hand_of()
    no_city = make_game(buildings={0: (0, "settlement")}, hands={0: hand_of(paper=1)})
    assert "need a city" in (said(no_city.illegal_reason(BuyImprovement(0, Track.SCIENCE))) or "")


def test_s9_first_to_level_four_places_the_metropolis_worth_two_more() -> None:
    game = make_game(
        buildings={0: (0, "city"), 2: (0, "city")},
        hands={0: hand_of(coin=4)},
        improvements={0: (0, 3, 0)},
    )
    game.apply(BuyImprovement(0, Track.POLITICS))
    assert game.prompt.kind is PromptKind.PLACE_METROPOLIS
    assert set(game.legal_actions()) == {PlaceMetropolis(0, 0), PlaceMetropolis(0, 2)}
    game.apply(PlaceMetropolis(0, 2))
    assert game.metropolis[Track.POLITICS.index] == 2
    assert game.victory_points(0) == 6
    assert game.prompt.kind is PromptKind.TURN


def test_s9_level_five_takes_the_metropolis_from_a_holder_below_five() -> None:
    game = make_game(
        buildings={0: (0, "city"), 2: (1, "city")},
        hands={1: hand_of(paper=5)},
        improvements={0: (0, 0, 4), 1: (0, 0, 4)},
        metropolis={"science": 0},
        active=1,
    )
    game.apply(BuyImprovement(1, Track.SCIENCE))
    game.apply(PlaceMetropolis(1, 2))
    assert game.metropolis_owner(Track.SCIENCE.index) == 1
    assert game.victory_points(0) == 2 and game.victory_points(1) == 4


def test_s9_a_level_five_holder_keeps_the_metropolis() -> None:
    game = make_game(
        buildings={0: (0, "city"), 2: (1, "city")},
        hands={1: hand_of(paper=5)},
        improvements={0: (0, 0, 5), 1: (0, 0, 4)},
        metropolis={"science": 0},
        active=1,
    )
    game.apply(BuyImprovement(1, Track.SCIENCE))
    assert game.improvements[1][2] == 5
    assert game.metropolis_owner(Track.SCIENCE.index) == 0
    assert game.prompt.kind is PromptKind.TURN


def test_s9_levels_four_and_five_need_a_city_that_can_carry_the_metropolis() -> None:
    # Player 0's only city carries the trade metropolis: no politics level 4 ...
    game = make_game(
        buildings={0: (0, "city")},
        hands={0: hand_of(coin=4, cloth=5)},
        improvements={0: (4, 3, 0)},
        metropolis={"trade": 0},
    )
    assert "could carry the metropolis" in (
        said(game.illegal_reason(BuyImprovement(0, Track.POLITICS))) or ""
    )
    # ... but the trade level 5 needs no further city: the holder has it (ruling, §9).
    game.apply(BuyImprovement(0, Track.TRADE))
    assert game.improvements[0][0] == 5


def test_s9_merchant_guild_trades_commodities_two_for_one() -> None:
    game = make_game(  # a city on 2, away from every harbour
        buildings={2: (0, "city")}, hands={0: hand_of(coin=2, ore=2)}, improvements={0: (3, 0, 0)}
    )
    assert game.trade_rate(0, Card.COIN) == 2 and game.trade_rate(0, Card.ORE) == 4
    game.apply(BankTrade(0, Card.COIN, Card.BRICK))
    assert game.hand(0) == hand_of(brick=1, ore=2)


def test_s4_aqueduct_a_player_who_gets_nothing_takes_a_resource_of_choice() -> None:
    game = make_game(
        buildings={0: (0, "city"), 2: (1, "settlement")},
        improvements={1: (0, 0, 3), 2: (0, 0, 3)},
        prompt="roll",
    )
    game.apply(Roll(0, 4, 6, EventDie.TRADE))  # 10: mountains (hex 0) for player 0 only
    assert game.hand(0) == hand_of(ore=1, coin=1)
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.AQUEDUCT, 1)
    assert {a.card for a in game.legal_actions()} == set(Card) - {Card.CLOTH, Card.COIN, Card.PAPER}
    assert "not a commodity" in (said(game.illegal_reason(TakeResource(1, Card.PAPER))) or "")
    game.apply(TakeResource(1, Card.GRAIN))
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.AQUEDUCT, 2)
    game.apply(TakeResource(2, Card.ORE))
    assert game.prompt.kind is PromptKind.TURN
    assert game.hand(1) == hand_of(grain=1) and game.hand(2) == hand_of(ore=1)


def test_s4_aqueduct_the_last_resource_taken_leaves_the_next_aqueduct_nothing_to_ask() -> None:
    """Two players with the Aqueduct get nothing. With two resources in the bank each takes one;
    with one, the first takes it and the second is not asked (the game does not wait forever
    for a choice that has none)."""
    game = make_game(
        buildings={0: (0, "city"), 2: (1, "settlement")},
        improvements={1: (0, 0, 3), 2: (0, 0, 3)},
        prompt="roll",
        bank=hand_of(grain=1, ore=2, coin=2),
    )
    game.apply(Roll(0, 4, 6, EventDie.TRADE))  # 10: mountains (hex 0) for player 0 only
    assert game.hand(0) == hand_of(ore=1, coin=1)
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.AQUEDUCT, 1)
    assert game.legal_actions() == [TakeResource(1, Card.GRAIN), TakeResource(1, Card.ORE)]
    game.apply(TakeResource(1, Card.ORE))
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.AQUEDUCT, 2)
    game.apply(TakeResource(2, Card.GRAIN))
    assert game.prompt.kind is PromptKind.TURN
    game = make_game(
        buildings={0: (0, "city"), 2: (1, "settlement")},
        improvements={1: (0, 0, 3), 2: (0, 0, 3)},
        prompt="roll",
        bank=hand_of(ore=1, grain=1, coin=1),
    )
    game.apply(Roll(0, 4, 6, EventDie.TRADE))  # player 0 takes the ore: one grain is left
    assert game.legal_actions() == [TakeResource(1, Card.GRAIN)]
    game.apply(TakeResource(1, Card.GRAIN))  # the bank's last resource: player 2 is not asked
    assert game.prompt.kind is PromptKind.TURN and game.hand(2) == hand_of()


def test_s4_aqueduct_gives_nothing_on_a_seven() -> None:
    game = make_game(improvements={1: (0, 0, 3)}, buildings={2: (1, "city")}, prompt="roll")
    game.apply(Roll(0, 3, 4, EventDie.TRADE))
    assert game.prompt.kind is PromptKind.TURN


# ---- §3 variants ----------------------------------------------------------------------------


def test_s3_easy_start_rerolls_sevens_and_ignores_the_event_die_in_first_two_turns() -> None:
    config = GameConfig.for_players(4, easy_start=True)
    game = make_game(config=config, prompt="roll", hands={1: hand_of(ore=9)})
    game.apply(Roll(0, 3, 4, EventDie.SHIP))
    assert game.prompt.kind is PromptKind.ROLL and game.hand(1) == hand_of(ore=9)
    assert game.barbarian_position == 0
    game.apply(Roll(0, 2, 3, EventDie.SHIP))
    assert game.barbarian_position == 0 and game.prompt.kind is PromptKind.TURN
    game.turns_taken[0] = 2
    game.apply(EndTurn(0))
    game.turns_taken[1] = 2
    game.apply(Roll(1, 2, 3, EventDie.SHIP))
    assert game.barbarian_position == 1
