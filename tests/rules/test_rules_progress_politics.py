"""Worked examples of the politics (blue) progress cards (§10): Bishop, Constitution, Deserter,
Diplomat, Intrigue, Saboteur, Spy, Warlord, Wedding."""

from __future__ import annotations

import pytest
from builders import e, make_game

from companion_app.rules.actions import (
    BuildRoad,
    DiscardCard,
    EventDie,
    GiveCard,
    MoveKnight,
    PlaceDeserter,
    PlayBishop,
    PlayDeserter,
    PlayDiplomat,
    PlayIntrigue,
    PlayProgress,
    PlaySpy,
    RelocateKnight,
    RemoveKnight,
    Roll,
    StopEffect,
    TakeProgressCard,
)
from companion_app.rules.cards import Card, ProgressCard, hand_of
from companion_app.rules.game import Game
from companion_app.rules.invariants import violations
from companion_app.rules.pieces import ACTIVATED, NOBODY
from companion_app.rules.prompts import PromptKind
from tests.said import said

PC = ProgressCard


# VP: player 0 has 3 (city 12, settlement 16), player 1 has 3 (city 30, settlement 40),
# players 2 and 3 have 4 (cities 20 + 10, cities 48 + 53).
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
P0_ROADS = {e(12, 17): 0, e(17, 22): 0, e(22, 16): 0}
P1_ROADS = {e(30, 24): 1, e(24, 18): 1}


def politics_game(
    cards: tuple[ProgressCard, ...],
    others: dict[int, tuple[ProgressCard, ...]] | None = None,
    **kw: object,
) -> Game:
    roads = kw.pop("roads", P0_ROADS | P1_ROADS)
    progress = {0: cards, **(others or {})}
    game = make_game(buildings=BUILDINGS, roads=roads, progress=progress, **kw)  # type: ignore[arg-type]
    assert violations(game) == []
    return game


def test_vp_of_the_layout() -> None:
    game = politics_game(())
    assert [game.victory_points(p) for p in range(4)] == [3, 3, 4, 4]


# ---- Bishop ---------------------------------------------------------------------------------


def test_s10_bishop_steals_one_card_from_each_player_on_the_new_hex() -> None:
    game = politics_game(
        (PC.BISHOP,),
        robber_unlocked=True,
        hands={1: hand_of(wool=2), 3: hand_of(ore=1), 2: hand_of(brick=3)},
    )
    game.apply(PlayBishop(0, 17))  # fields 6: corners 40 (player 1) and 48 (player 3)
    assert game.robber_hex == 17
    assert game.hands[0] == list(hand_of(wool=1, ore=1))
    assert game.card_count(1) == 1 and game.card_count(3) == 0
    assert game.card_count(2) == 3  # not on the hex
    assert game.prompt.kind is PromptKind.TURN
    assert violations(game) == []


def test_s10_bishop_never_steals_progress_cards() -> None:
    game = make_game(
        buildings=BUILDINGS,
        roads=P0_ROADS | P1_ROADS,
        robber_unlocked=True,
        progress={0: (PC.BISHOP,), 1: (PC.SPY, PC.MERCHANT)},
    )
    game.apply(PlayBishop(0, 17))
    assert game.progress_hands[1] == [PC.SPY, PC.MERCHANT]
    assert game.card_count(0) == 0


def test_s8_bishop_waits_for_the_first_barbarian_attack() -> None:
    game = politics_game((PC.BISHOP,))
    assert said(game.illegal_reason(PlayBishop(0, 17))) == (
        "the robber stays in the desert until the first barbarian attack (§8)"
    )
    assert not any(isinstance(a, PlayBishop) for a in game.legal_actions())


# ---- Constitution ---------------------------------------------------------------------------


def test_s10_constitution_is_revealed_and_worth_1_vp_even_off_turn() -> None:
    game = politics_game(
        (), prompt="roll", improvements={2: (0, 1, 0)}, deck_tops={"politics": (PC.CONSTITUTION,)}
    )
    game.apply(Roll(0, 5, 1, EventDie.POLITICS))  # level 1 draws on red 1-2
    assert game.revealed_vp[2] == [PC.CONSTITUTION]
    assert game.victory_points(2) == 5
    assert violations(game) == []


# ---- Deserter -------------------------------------------------------------------------------

DESERTER_KNIGHTS = {24: (1, 2, True), 18: (1, 1, False)}


def test_s10_deserter_the_victim_chooses_then_you_place_one_of_that_strength() -> None:
    game = politics_game((PC.DESERTER,), knights=DESERTER_KNIGHTS)
    assert {a.victim for a in game.legal_actions() if isinstance(a, PlayDeserter)} == {1}
    game.apply(PlayDeserter(0, 1))
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.DESERTER_REMOVE, 1)
    assert set(game.legal_actions()) == {RemoveKnight(1, 24), RemoveKnight(1, 18)}
    game.apply(RemoveKnight(1, 24))  # the victim gives up the strong knight
    assert game.knight_owner[24] == NOBODY
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.DESERTER_PLACE, 0)
    assert set(game.legal_actions()) == {PlaceDeserter(0, 17), PlaceDeserter(0, 22), StopEffect(0)}
    game.apply(PlaceDeserter(0, 17))
    assert (game.knight_owner[17], game.knight_level[17], game.knight_active[17]) == (0, 2, True)
    assert game.prompt.kind is PromptKind.TURN
    assert game.card_count(0) == 0  # free
    assert violations(game) == []


def test_s10_deserter_places_a_basic_knight_when_none_of_that_strength_is_free() -> None:
    knights = DESERTER_KNIGHTS | {17: (0, 2, False), 22: (0, 2, False)}
    roads = P0_ROADS | P1_ROADS | {e(12, 7): 0}
    game = politics_game((PC.DESERTER,), knights=knights, roads=roads)
    game.apply(PlayDeserter(0, 1))
    game.apply(RemoveKnight(1, 24))
    game.apply(PlaceDeserter(0, 7))
    assert (game.knight_level[7], game.knight_active[7]) == (1, True)


def test_s10_deserter_with_no_knight_to_place_the_victim_still_removes_theirs() -> None:
    knights = DESERTER_KNIGHTS | {
        17: (0, 2, False),
        22: (0, 2, False),
        7: (0, 1, False),
        11: (0, 1, False),
    }
    roads = P0_ROADS | P1_ROADS | {e(12, 7): 0}
    game = politics_game((PC.DESERTER,), knights=knights, roads=roads)
    game.apply(PlayDeserter(0, 1))
    game.apply(RemoveKnight(1, 24))
    assert game.knight_owner[24] == NOBODY and game.knights_of[1] == [18]
    assert game.prompt.kind is PromptKind.TURN
    assert len(game.knights_of[0]) == 4


def test_s10_deserter_may_decline_to_place_and_needs_a_victim_with_knights() -> None:
    game = politics_game((PC.DESERTER,), knights=DESERTER_KNIGHTS)
    assert said(game.illegal_reason(PlayDeserter(0, 2))) == "player 2 has no knight on the board"
    assert said(game.illegal_reason(PlayDeserter(0, 0))) == "choose another player, not 0"
    game.apply(PlayDeserter(0, 1))
    game.apply(RemoveKnight(1, 18))
    game.apply(StopEffect(0))
    assert game.knights_of[0] == [] and game.deserter is None


# ---- Diplomat -------------------------------------------------------------------------------


def test_s10_diplomat_removes_only_open_roads() -> None:
    roads = P0_ROADS | P1_ROADS | {e(12, 7): 0}
    game = politics_game((PC.DIPLOMAT,), roads=roads)
    open_roads = {a.edge for a in game.legal_actions() if isinstance(a, PlayDiplomat)}
    # Open: 24-18 (nothing of player 1 at 18) and 12-7 (nothing of player 0 at 7). The others
    # have a building or another road of their owner at both ends.
    assert open_roads == {e(24, 18), e(12, 7)}
    assert said(game.illegal_reason(PlayDiplomat(0, e(30, 24)))) == (
        "the Diplomat removes an open road: one end without its owner's road, building or knight"
    )
    game.apply(PlayDiplomat(0, e(24, 18)))
    assert game.edge_owner[e(24, 18)] == NOBODY and game.roads_of[1] == [e(30, 24)]
    assert game.prompt.kind is PromptKind.TURN
    assert game.decks[1][-1] is PC.DIPLOMAT


def test_s10_diplomat_ruling_an_own_knight_closes_a_road_end() -> None:
    roads = P0_ROADS | P1_ROADS | {e(12, 7): 0}
    # Player 0's knight at 7: the road 12-7 runs from their city to their knight, closed.
    # Player 1's knight at 18: 24-18 is closed too. Nothing left to remove.
    game = politics_game((PC.DIPLOMAT,), roads=roads, knights={7: (0, 1, True), 18: (1, 1, False)})
    assert [a for a in game.legal_actions() if isinstance(a, PlayDiplomat)] == []
    assert said(game.illegal_reason(PlayDiplomat(0, e(12, 7)))) == (
        "the Diplomat removes an open road: one end without its owner's road, building or knight"
    )
    # An opponent's knight does not close an end: player 2's knight at 18 leaves 24-18 open.
    game = politics_game((PC.DIPLOMAT,), roads=roads, knights={7: (0, 1, True), 18: (2, 1, False)})
    assert {a.edge for a in game.legal_actions() if isinstance(a, PlayDiplomat)} == {e(24, 18)}


def test_s10_diplomat_on_an_own_road_re_places_it_free() -> None:
    roads = P0_ROADS | P1_ROADS | {e(12, 7): 0}
    game = politics_game((PC.DIPLOMAT,), roads=roads)
    game.apply(PlayDiplomat(0, e(12, 7)))
    assert (game.prompt.kind, game.prompt.count) == (PromptKind.FREE_ROAD, 1)
    assert BuildRoad(0, e(16, 11)) in game.legal_actions()
    game.apply(BuildRoad(0, e(16, 11)))
    assert game.edge_owner[e(16, 11)] == 0 and game.edge_owner[e(12, 7)] == NOBODY
    assert len(game.roads_of[0]) == 4 and game.card_count(0) == 0
    assert game.prompt.kind is PromptKind.TURN
    assert violations(game) == []


# ---- Intrigue -------------------------------------------------------------------------------


def test_s10_intrigue_displaces_a_knight_on_your_road_without_a_knight_of_yours() -> None:
    roads = P0_ROADS | {e(30, 24): 1, e(24, 18): 1, e(18, 23): 1, e(23, 17): 1}
    game = politics_game((PC.INTRIGUE,), roads=roads, knights={17: (1, 2, True)})
    assert game.knights_of[0] == []
    assert [a for a in game.legal_actions() if isinstance(a, PlayIntrigue)] == [PlayIntrigue(0, 17)]
    game.apply(PlayIntrigue(0, 17))
    assert game.knight_owner[17] == NOBODY
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.RELOCATE_KNIGHT, 1)
    assert {a.to for a in game.legal_actions()} == {23, 18, 24}  # type: ignore[attr-defined]
    game.apply(RelocateKnight(1, 24))
    assert (game.knight_owner[24], game.knight_level[24], game.knight_active[24]) == (1, 2, True)
    assert game.prompt.kind is PromptKind.TURN
    assert violations(game) == []


def test_s10_intrigue_needs_the_knight_on_an_intersection_of_your_roads() -> None:
    game = politics_game((PC.INTRIGUE,), knights={24: (1, 1, True)})
    assert said(game.illegal_reason(PlayIntrigue(0, 24))) == (
        "Intrigue needs the knight on an intersection touched by one of your roads (§10)"
    )


def test_s10_intrigue_with_nowhere_to_go_removes_the_knight() -> None:
    game = politics_game((PC.INTRIGUE,), knights={22: (1, 1, False)})
    game.apply(PlayIntrigue(0, 22))
    assert game.knights_of[1] == [] and game.prompt.kind is PromptKind.TURN


# ---- Saboteur -------------------------------------------------------------------------------


def test_s10_saboteur_players_with_at_least_your_vp_discard_half_of_their_choice() -> None:
    hands = {1: hand_of(wool=3, coin=2), 2: hand_of(ore=3), 3: hand_of(brick=1)}
    game = politics_game((PC.SABOTEUR,), hands=hands)
    game.apply(PlayProgress(0, PC.SABOTEUR))
    # Player 1 has 3 VP like player 0: 5 cards, discards 2; player 2 (4 VP): 1 of 3;
    # player 3 (4 VP) holds 1 card: half rounded down is 0.
    assert [(p.kind, p.player, p.count) for p in game.pending] == [
        (PromptKind.DISCARD, 1, 2),
        (PromptKind.DISCARD, 2, 1),
    ]
    assert set(game.legal_actions()) == {DiscardCard(1, Card.WOOL), DiscardCard(1, Card.COIN)}
    game.apply(DiscardCard(1, Card.COIN))
    game.apply(DiscardCard(1, Card.COIN))
    game.apply(DiscardCard(2, Card.ORE))
    assert game.hands[1] == list(hand_of(wool=3)) and game.card_count(2) == 2
    assert game.prompt.kind is PromptKind.TURN
    assert violations(game) == []


def test_s10_saboteur_spares_players_with_fewer_vp() -> None:
    buildings = {12: (0, "city"), 16: (0, "settlement"), 30: (1, "settlement")}
    game = make_game(
        buildings=buildings,
        roads=P0_ROADS,
        progress={0: (PC.SABOTEUR,)},
        hands={1: hand_of(wool=8)},
    )
    game.apply(PlayProgress(0, PC.SABOTEUR))
    assert game.pending == [] and game.card_count(1) == 8


# ---- Spy ------------------------------------------------------------------------------------


def test_s10_spy_sees_the_hand_and_takes_one_card_never_a_vp_card() -> None:
    game = politics_game(
        (PC.SPY,), others={1: (PC.WARLORD, PC.MERCHANT)}, revealed={1: (PC.CONSTITUTION,)}
    )
    assert {a.victim for a in game.legal_actions() if isinstance(a, PlaySpy)} == {1}
    game.apply(PlaySpy(0, 1))
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.SPY, 0)
    assert set(game.legal_actions()) == {
        TakeProgressCard(0, PC.WARLORD),
        TakeProgressCard(0, PC.MERCHANT),
    }
    assert said(game.illegal_reason(TakeProgressCard(0, PC.CONSTITUTION))) is not None
    game.apply(TakeProgressCard(0, PC.MERCHANT))
    assert game.progress_hands[0] == [PC.MERCHANT]
    assert game.progress_hands[1] == [PC.WARLORD]
    assert game.revealed_vp[1] == [PC.CONSTITUTION]
    assert game.prompt.kind is PromptKind.TURN
    assert violations(game) == []


def test_s10_spy_needs_a_victim_holding_a_progress_card() -> None:
    game = politics_game((PC.SPY,))
    assert said(game.illegal_reason(PlaySpy(0, 2))) == (
        "player 2 holds no progress card the Spy can take (VP cards never)"
    )


# ---- Warlord --------------------------------------------------------------------------------


def test_s10_warlord_activates_all_your_knights_free() -> None:
    knights = {17: (0, 1, False), 22: (0, 2, False), 24: (1, 1, False)}
    game = politics_game((PC.WARLORD,), knights=knights)
    game.apply(PlayProgress(0, PC.WARLORD))
    assert game.knight_active[17] and game.knight_active[22]
    assert not game.knight_active[24]  # not the opponent's
    assert game.card_count(0) == 0 and game.knight_strength(0) == 3
    # Activated this turn: they cannot act this turn (§6).
    assert game.knight_flags[17] & ACTIVATED
    assert not any(isinstance(a, MoveKnight) for a in game.legal_actions())


# ---- Wedding --------------------------------------------------------------------------------


def test_s10_wedding_players_with_more_vp_give_2_cards_of_their_choice() -> None:
    hands = {1: hand_of(wool=3), 2: hand_of(ore=2, coin=2), 3: hand_of(brick=1)}
    game = politics_game((PC.WEDDING,), hands=hands)
    game.apply(PlayProgress(0, PC.WEDDING))
    # Player 1 has no more VP than player 0; players 2 and 3 have more. Player 3 has 1 card.
    assert [(p.kind, p.player, p.count) for p in game.pending] == [
        (PromptKind.WEDDING_GIVE, 2, 2),
        (PromptKind.WEDDING_GIVE, 3, 1),
    ]
    assert set(game.legal_actions()) == {GiveCard(2, Card.ORE), GiveCard(2, Card.COIN)}
    game.apply(GiveCard(2, Card.COIN))
    game.apply(GiveCard(2, Card.COIN))
    game.apply(GiveCard(3, Card.BRICK))
    assert game.hands[0] == list(hand_of(coin=2, brick=1))
    assert game.hands[2] == list(hand_of(ore=2)) and game.card_count(3) == 0
    assert game.card_count(1) == 3
    assert game.prompt.kind is PromptKind.TURN
    assert violations(game) == []


@pytest.mark.parametrize("card", [PC.WEDDING, PC.SABOTEUR, PC.WARLORD])
def test_s9_cards_without_a_choice_are_played_with_play_progress(card: ProgressCard) -> None:
    game = politics_game((card,))
    assert PlayProgress(0, card) in game.legal_actions()
    assert said(game.illegal_reason(PlayProgress(0, PC.SPY))) == (
        "Spy is played with its own action, not play_progress"
    )
