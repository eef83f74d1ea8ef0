"""Worked examples of §12 (five and six players): the special build phase, what it allows and
forbids, whose special build it is and how it ends; the win only on one's own turn; the banks of
24 / 18; the eighth Defender of Catan card.

Rules reference (``../shared/rules/cities-and-knights.md``) §12: "After each player's turn
(once its end-of-turn progress discard is done), every other player in seat order starting left
of that player may build before the next turn begins. In it a player may: build roads,
settlements, cities, city walls and knights; activate and promote knights; buy city
improvements (and claim a metropolis that way). A player may not: trade (bank, harbour,
merchant or with players), play progress cards, or make knight actions (move, displace, chase
the robber). A knight activated in the special build phase right before its owner's turn may
act in that turn. Nobody wins during a special build phase: reaching the target there counts
only if it still holds at the start of that player's own turn."

The island of these games is the 30-hex one; intersections are named by hex corners
(``docs/board.md``): hex 14 has corners 29, 36, 43, 49, 42, 35 clockwise from the top.
"""

from __future__ import annotations

import pytest
from builders import make_game

from companion_app.rules.actions import (
    ActivateKnight,
    BankTrade,
    BuildCity,
    BuildCityWall,
    BuildKnight,
    BuildRoad,
    BuildSettlement,
    BuyImprovement,
    ChaseRobber,
    EndSpecialBuild,
    EndTurn,
    EventDie,
    MoveKnight,
    NobodyBuilds,
    OfferTrade,
    PlaceMetropolis,
    PlayProgress,
    PromoteKnight,
    Roll,
    StartSpecialBuild,
)
from companion_app.rules.cards import (
    BANK_START_LARGE,
    Card,
    ProgressCard,
    Track,
    defender_cards_in_box,
    hand_of,
)
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import StateError
from companion_app.rules.game import NOBODY, Game
from companion_app.rules.invariants import violations
from companion_app.rules.prompts import PromptKind
from companion_app.rules.registry import describe_prompt
from companion_app.rules.topology import ISLAND_30

SIX = GameConfig.for_players(6, seed=42)
FIVE = GameConfig.for_players(5, seed=43)
RICH = hand_of(brick=5, lumber=5, wool=5, grain=5, ore=5, cloth=2, coin=2, paper=2)
CASTLE_5 = Roll(1, 2, 3, EventDie.TRADE)  # 5, a yellow castle: nobody has a trade level


def edge(a: int, b: int) -> int:
    return ISLAND_30.edge_between[(a, b)]


def after_turn_of_seat_0(**kwargs: object) -> Game:
    """Seat 0 ends its turn in a 6-player game: the special build phase begins (§12)."""
    game = make_game(config=SIX, active=0, prompt="turn", **kwargs)  # type: ignore[arg-type]
    game.apply(EndTurn(0))
    assert not violations(game)
    return game


# ---- whose special build it is, and how it ends -----------------------------------------------


def test_s12_after_a_turn_the_table_says_who_builds_and_the_next_player_may_roll() -> None:
    game = after_turn_of_seat_0()
    assert game.special_build is not None and game.special_build.after == 0
    assert (game.prompt.kind, game.prompt.player, game.active) == (PromptKind.WHO_BUILDS, 1, 1)
    assert game.awaiting_roll  # the dice box is armed: the next player's press ends the phase
    assert game.special_builders_left() == (1, 2, 3, 4, 5)
    legal = game.legal_actions()
    starts = [a for a in legal if isinstance(a, StartSpecialBuild)]
    assert starts == [StartSpecialBuild(1, b) for b in (1, 2, 3, 4, 5)]
    assert NobodyBuilds(1) in legal
    assert sum(isinstance(a, Roll) for a in legal) == 6 * 6 * 4
    assert describe_prompt(game.prompt, game.config.names) == (
        "Blue: special build phase before your roll: who builds?"
    )
    assert not game.is_legal(StartSpecialBuild(1, 0))  # not the player whose turn it was


def test_s12_nobody_builds_is_one_action_for_the_table() -> None:
    game = after_turn_of_seat_0()
    game.apply(NobodyBuilds(1))
    assert game.special_build is None
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.ROLL, 1)
    assert game.history == [EndTurn(0), NobodyBuilds(1)]  # the turn's end, then one action


def test_s12_the_next_players_roll_ends_the_phase_and_rolls() -> None:
    game = after_turn_of_seat_0()
    game.apply(CASTLE_5)
    assert game.special_build is None
    assert game.last_roll == CASTLE_5 and game.rolled
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.TURN, 1)
    assert not violations(game)


def test_s12_each_player_in_seat_order_may_build_one_passes_over_those_before() -> None:
    game = after_turn_of_seat_0()
    game.apply(StartSpecialBuild(1, 3))  # seat 3 (Orange) builds; seats 1 and 2 pass
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.SPECIAL_BUILD, 3)
    assert describe_prompt(game.prompt, game.config.names) == (
        "Orange: special build: build, then done"
    )
    assert game.legal_actions() == [EndSpecialBuild(3)]  # nothing to pay with
    game.apply(EndSpecialBuild(3))
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.WHO_BUILDS, 1)
    assert game.special_builders_left() == (4, 5)
    reason = game.illegal_reason(StartSpecialBuild(1, 2))
    assert reason == "the special build goes in seat order from the player after the turn's (§12)"
    game.apply(StartSpecialBuild(1, 5))
    game.apply(EndSpecialBuild(5))  # the last seat before the turn's player: the phase is over
    assert game.special_build is None
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.ROLL, 1)


def test_s12_the_phase_with_five_players_and_none_with_four() -> None:
    game = make_game(config=FIVE, active=4, prompt="turn")
    game.apply(EndTurn(4))
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.WHO_BUILDS, 0)
    assert game.special_builders_left() == (0, 1, 2, 3)
    four = make_game(active=3, prompt="turn")
    four.apply(EndTurn(3))
    assert (four.prompt.kind, four.prompt.player) == (PromptKind.ROLL, 0)
    assert four.special_build is None and "special_build" not in four.to_json()


def test_s12_the_end_of_turn_progress_discard_comes_first() -> None:
    cards = (
        ProgressCard.WARLORD,
        ProgressCard.SPY,
        ProgressCard.BISHOP,
        ProgressCard.SMITH,
        ProgressCard.MINING,
    )
    game = make_game(config=SIX, active=0, prompt="turn", progress={0: cards})
    game.apply(EndTurn(0))
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.PROGRESS_DISCARD, 0)
    assert game.special_build is None
    game.apply(game.legal_actions()[0])
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.WHO_BUILDS, 1)


# ---- what a special build allows and forbids ---------------------------------------------------

# Seat 3 around hex 8 (corners 17, 23, 29, 35, 28, 22): a settlement on 17, roads 17-23-29-35,
# a basic knight on 23; a city far away on 62 (hex 21) for the wall and the improvement.
SEAT_3 = {
    "buildings": {17: (3, "settlement"), 62: (3, "city")},
    "roads": {edge(17, 23): 3, edge(23, 29): 3, edge(29, 35): 3},
    "hands": {3: RICH},
    "progress": {3: (ProgressCard.WARLORD,)},
}


def seat_3_building(*, knight_active: bool = False, **kwargs: object) -> Game:
    pieces = {**SEAT_3, **kwargs}
    game = after_turn_of_seat_0(knights={23: (3, 1, knight_active)}, **pieces)
    game.apply(StartSpecialBuild(1, 3))
    return game


def test_s12_a_special_build_allows_every_building_kind() -> None:
    game = seat_3_building()
    kinds = {type(a) for a in game.legal_actions()}
    assert kinds == {
        BuildRoad,
        BuildSettlement,
        BuildCity,
        BuildCityWall,
        BuildKnight,
        ActivateKnight,
        PromoteKnight,
        BuyImprovement,
        EndSpecialBuild,
    }
    for action in (
        BuildRoad(3, edge(35, 42)),
        BuildSettlement(3, 35),
        BuildCity(3, 17),
        BuildCityWall(3, 62),
        BuildKnight(3, 29),
        ActivateKnight(3, 23),
        PromoteKnight(3, 23),
        BuyImprovement(3, Track.TRADE),
    ):
        game.apply(action)
        assert (game.prompt.kind, game.prompt.player) == (PromptKind.SPECIAL_BUILD, 3), action
        assert not violations(game), action
    assert game.hand(3) == hand_of(brick=1, lumber=3, wool=2, grain=1, cloth=1, coin=2, paper=2)
    assert game.improvements[3] == [1, 0, 0]
    assert game.knight_level[23] == 2 and game.knight_active[23]


@pytest.mark.parametrize(
    "action",
    [
        BankTrade(3, Card.BRICK, Card.ORE),
        OfferTrade(3, 4, hand_of(brick=1), hand_of(ore=1)),
        PlayProgress(3, ProgressCard.WARLORD),
        MoveKnight(3, 23, 35),
        ChaseRobber(3, 23),
        EndTurn(3),
    ],
    ids=["bank trade", "domestic offer", "progress card", "move knight", "chase robber", "end"],
)
def test_s12_a_special_build_forbids_trade_progress_cards_and_knight_actions(
    action: object,
) -> None:
    game = seat_3_building(knight_active=True, robber_hex=8, robber_unlocked=True)
    before = game.to_json()
    reason = game.illegal_reason(action)  # type: ignore[arg-type]
    assert reason is not None and reason.endswith("is not possible now: " + game.describe_prompt())
    assert not game.may_offer_trade()
    assert game.to_json() == before


def test_s12_a_metropolis_claimed_in_a_special_build_returns_to_it() -> None:
    game = seat_3_building(improvements={3: (3, 0, 0)}, hands={3: hand_of(cloth=4)})
    game.apply(BuyImprovement(3, Track.TRADE))
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.PLACE_METROPOLIS, 3)
    game.apply(PlaceMetropolis(3, 62))
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.SPECIAL_BUILD, 3)
    assert game.metropolis_owner(Track.TRADE.index) == 3


def test_s12_a_knight_activated_right_before_its_owners_turn_may_act_in_it() -> None:
    """Seat 1 builds first (the turn after the phase is its own): its knight activated in the
    special build moves in its turn; a knight activated in the turn itself may not (§6)."""
    pieces = {
        "buildings": {29: (1, "settlement")},
        "roads": {edge(29, 36): 1, edge(36, 43): 1},
        "hands": {1: hand_of(grain=2)},
        "knights": {36: (1, 1, False)},
    }
    game = after_turn_of_seat_0(**pieces)
    game.apply(StartSpecialBuild(1, 1))
    game.apply(ActivateKnight(1, 36))
    game.apply(EndSpecialBuild(1))
    game.apply(NobodyBuilds(1))
    game.apply(CASTLE_5)
    assert game.prompt.kind is PromptKind.TURN
    assert game.is_legal(MoveKnight(1, 36, 43))
    own_turn = make_game(config=SIX, active=1, prompt="turn", **pieces)  # type: ignore[arg-type]
    own_turn.apply(ActivateKnight(1, 36))
    assert own_turn.illegal_reason(MoveKnight(1, 36, 43)) == (
        "a knight activated this turn cannot act this turn (§6)"
    )


# ---- the win only on one's own turn (§12, §11) -----------------------------------------------

# Seat 1: a settlement on 29 and five roads round hex 14 (29-36-43-49-42-35): the longest road
# (2 VP); 9 Defender cards: 12 VP. Seat 2: a settlement on 50 and the road 50-43, a knight's way
# onto 43 in the middle of seat 1's road.
WINNING = {
    "buildings": {29: (1, "settlement"), 50: (2, "settlement")},
    "roads": {edge(29, 36): 1, edge(36, 43): 1, edge(43, 49): 1, edge(49, 42): 1}
    | {edge(42, 35): 1, edge(43, 50): 2},
    "hands": {1: hand_of(ore=3, grain=2), 2: hand_of(wool=1, ore=1)},
    "defender_cards": {1: 9},
}


def test_s12_nobody_wins_during_the_phase_the_target_counts_at_the_own_turns_start() -> None:
    game = after_turn_of_seat_0(**WINNING)
    assert game.victory_points(1) == 12
    game.apply(StartSpecialBuild(1, 1))
    game.apply(BuildCity(1, 29))
    assert game.victory_points(1) == 13 and game.winner == NOBODY
    game.apply(EndSpecialBuild(1))
    assert game.winner == NOBODY and game.prompt.kind is PromptKind.WHO_BUILDS
    game.apply(NobodyBuilds(1))  # seat 1's own turn begins: 13 still holds
    assert game.winner == 1 and game.prompt.kind is PromptKind.GAME_OVER


def test_s12_the_target_reached_in_the_phase_must_still_hold_at_the_turns_start() -> None:
    game = after_turn_of_seat_0(**WINNING)
    game.apply(StartSpecialBuild(1, 1))
    game.apply(BuildCity(1, 29))
    game.apply(EndSpecialBuild(1))
    game.apply(StartSpecialBuild(1, 2))
    game.apply(BuildKnight(2, 43))  # breaks seat 1's road: 2 + 3, the longest road is lost
    assert game.longest_road_holder == NOBODY and game.victory_points(1) == 11
    game.apply(EndSpecialBuild(2))
    game.apply(NobodyBuilds(1))
    assert game.winner == NOBODY and (game.prompt.kind, game.prompt.player) == (
        PromptKind.ROLL,
        1,
    )


def test_s12_a_roll_ending_the_phase_finds_the_roller_already_at_the_target() -> None:
    game = after_turn_of_seat_0(**WINNING)
    game.apply(StartSpecialBuild(1, 1))
    game.apply(BuildCity(1, 29))
    game.apply(EndSpecialBuild(1))
    bank = list(game.bank)
    game.apply(CASTLE_5)
    assert game.winner == 1 and game.prompt.kind is PromptKind.GAME_OVER
    assert game.last_roll is None and game.bank == bank  # the dice did not count


# ---- banks and Defender cards (§12) ---------------------------------------------------------


def test_s12_banks_of_24_resources_and_18_commodities() -> None:
    for config in (FIVE, SIX):
        game = Game.new(config)
        assert game.bank == [24, 24, 24, 24, 24, 18, 18, 18] == list(BANK_START_LARGE)
    game = make_game(config=SIX, hands={2: hand_of(grain=20, paper=17)})
    assert game.bank[Card.GRAIN] == 4 and game.bank[Card.PAPER] == 1
    assert not violations(game)


@pytest.mark.parametrize(("held", "eighth"), [(7, True), (8, False)])
def test_s12_the_eighth_defender_card_and_more_after_it(held: int, eighth: bool) -> None:
    """§12: 8 Defender cards with 5-6 players, still awarded after they run out (§1)."""
    assert defender_cards_in_box(6) == 8
    game = make_game(
        config=SIX,
        prompt="roll",
        buildings={17: (0, "city")},
        knights={23: (0, 2, True)},
        barbarian_position=SIX.barbarian_track_length - 1,
        defender_cards={0: held - 3, 4: 3},
    )
    game.apply(Roll(0, 1, 1, EventDie.SHIP))  # strength 1, defence 2: Catan wins
    assert game.defender_cards[0] == held - 2
    assert sum(game.defender_cards) == held + 1
    assert (sum(game.defender_cards) == defender_cards_in_box(6)) is eighth


# ---- the phase in the state JSON ------------------------------------------------------------


def test_s12_the_phase_round_trips_and_is_refused_in_a_four_player_state() -> None:
    game = after_turn_of_seat_0()
    game.apply(StartSpecialBuild(1, 2))
    data = game.to_json()
    assert data["special_build"] == {"after": 0, "builder": 2, "building": True}
    assert Game.from_json(data).to_json() == data
    four = make_game(active=0, prompt="turn").to_json()
    four["special_build"] = {"after": 0}
    with pytest.raises(StateError, match="special_build is no part of a 4-player game"):
        Game.from_json(four)
    data["special_build"] = {"after": 0, "builder": 0, "building": True}
    with pytest.raises(StateError, match=r"special_build\.builder is not a seat that may build"):
        Game.from_json(data)
