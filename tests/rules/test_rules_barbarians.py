"""Worked examples of the event die and the barbarian attack (§3.3, §7, §8)."""

from __future__ import annotations

from typing import Any

from builders import make_game

from companion_app.rules.actions import (
    BuildCity,
    ChaseRobber,
    ChooseProgressDeck,
    CommitKnights,
    DiscardCard,
    EventDie,
    LoseCity,
    MoveRobber,
    Roll,
)
from companion_app.rules.cards import Card, Track, hand_of
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.invariants import violations
from companion_app.rules.pieces import DESTROYED_CITY, SETTLEMENT
from companion_app.rules.prompts import PromptKind
from tests.said import said

# Intersections far enough apart for the distance rule, none on hex 1 (pasture 2, rolled below).
A, B, C, D, E, F, G, H = 0, 2, 7, 10, 16, 20, 27, 38
KNIGHT_SPOTS = (17, 18, 19, 28, 29, 30, 31, 32)
SHIP_ROLL = Roll(0, 1, 1, EventDie.SHIP)  # 2: pasture 2 (hex 1), no building touches it
NEAR_END = 6  # ship one space before the end of the default 7-space track


def attack_game(
    cities: dict[int, int],
    knights: dict[int, tuple[int, int]],
    active: int = 0,
    extra: dict[int, tuple[int, str]] | None = None,
    **kw: Any,
) -> Game:
    """Cities {node: player}; active knights {node: (player, level)}; ship about to arrive;
    ``extra`` buildings {node: (player, kind)}."""
    game = make_game(
        buildings={node: (p, "city") for node, p in cities.items()} | (extra or {}),
        knights={node: (p, level, True) for node, (p, level) in knights.items()},
        prompt="roll",
        active=active,
        barbarian_position=NEAR_END,
        **kw,
    )
    assert violations(game) == []
    return game


def roll_ship(game: Game) -> None:
    game.apply(Roll(game.active, 1, 1, EventDie.SHIP))


def test_s3_ship_advances_the_barbarians_castles_do_not() -> None:
    game = make_game(prompt="roll")
    game.apply(Roll(0, 1, 1, EventDie.TRADE))
    assert game.barbarian_position == 0
    game = make_game(prompt="roll")
    game.apply(SHIP_ROLL)
    assert game.barbarian_position == 1
    assert game.prompt.kind is PromptKind.TURN


def test_s7_catan_wins_single_strongest_defender_gets_the_card() -> None:
    # Strength 2 (two cities); defence 2 + 1 = 3 >= 2: player 0 is the single strongest.
    game = attack_game({A: 0, B: 1}, {17: (0, 2), 19: (1, 1)})
    vp_before = game.victory_points(0)
    roll_ship(game)
    assert game.defender_cards == [1, 0, 0, 0]
    assert game.victory_points(0) == vp_before + 1
    assert game.barbarian_position == 0 and game.barbarian_attacks == 1
    assert not any(game.knight_active)  # §7.5 every knight inactive
    assert game.robber_unlocked
    assert game.prompt.kind is PromptKind.TURN


def test_s7_defence_equal_to_strength_is_a_win() -> None:
    game = attack_game({A: 0, B: 1, C: 2}, {17: (2, 3)})
    roll_ship(game)
    assert game.defender_cards == [0, 0, 1, 0]


def test_s7_tie_for_strongest_each_tied_player_chooses_a_deck_from_the_active_player_on() -> None:
    # Active player 1. Players 0 and 1 both defend with 2; 2 + 2 >= 2 cities.
    game = attack_game({A: 0, B: 2}, {17: (0, 2), 19: (1, 1), 28: (1, 1)}, active=1)
    roll_ship(game)
    assert game.defender_cards == [0, 0, 0, 0]
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.CHOOSE_PROGRESS_DECK, 1)
    assert set(game.legal_actions()) == {ChooseProgressDeck(1, t) for t in Track}
    game.apply(ChooseProgressDeck(1, Track.SCIENCE))
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.CHOOSE_PROGRESS_DECK, 0)
    game.apply(ChooseProgressDeck(0, Track.TRADE))
    assert game.prompt.kind is PromptKind.TURN and game.prompt.player == 1


def test_s7_defender_cards_keep_coming_after_the_sixth() -> None:
    game = attack_game({A: 0}, {17: (0, 1)})
    game.defender_cards[0] = 6
    roll_ship(game)
    assert game.defender_cards[0] == 7


def test_s7_barbarians_win_every_lowest_contributor_loses_a_city_of_their_choice() -> None:
    # Strength 4 (cities of players 0, 1, 2 and a second of player 2); defence 1 (player 2).
    game = attack_game({A: 0, B: 1, C: 2, D: 2}, {17: (2, 1)}, walls=(A,))
    roll_ship(game)
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.LOSE_CITY, 0)
    assert game.legal_actions() == [LoseCity(0, A)]
    game.apply(LoseCity(0, A))
    assert game.node_level[A] == SETTLEMENT and not game.walls[A]  # wall removed
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.LOSE_CITY, 1)
    game.apply(LoseCity(1, B))
    assert game.cities_of(2) == [C, D]  # player 2 defended more than the lowest
    assert game.prompt.kind is PromptKind.TURN
    assert violations(game) == []


def test_s7_metropolis_only_player_is_immune_and_the_next_lowest_loses() -> None:
    # Player 0's only city carries the trade metropolis: immune, although it defends 0.
    # Strength 6; defence 2 + 1 + 2 = 5. Player 2 (1) is the lowest among the exposed.
    game = attack_game(
        {A: 0, B: 1, C: 1, D: 2, E: 3, F: 3},
        {17: (1, 2), 19: (2, 1), 28: (3, 2)},
        improvements={0: (4, 0, 0)},
        metropolis={"trade": A},
    )
    roll_ship(game)
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.LOSE_CITY, 2)
    assert game.legal_actions() == [LoseCity(2, D)]
    game.apply(LoseCity(2, D))
    assert game.prompt.kind is PromptKind.TURN
    assert game.cities_of(0) == [A]


def test_s7_a_metropolis_city_is_never_the_one_lost() -> None:
    game = attack_game(
        {A: 0, B: 0, C: 1}, {17: (1, 1)}, improvements={0: (4, 0, 0)}, metropolis={"trade": A}
    )
    roll_ship(game)
    assert game.legal_actions() == [LoseCity(0, B)]
    assert "without a metropolis" in (said(game.illegal_reason(LoseCity(0, A))) or "")


def test_s7_players_without_cities_still_defend_and_can_be_the_defender() -> None:
    # Player 1 has only a settlement but a mighty active knight: 3 >= 1 city.
    game = attack_game({A: 0}, {17: (1, 3)}, extra={B: (1, "settlement")})
    roll_ship(game)
    assert game.defender_cards == [0, 1, 0, 0]


def test_s7_no_settlement_piece_left_makes_a_destroyed_city_to_rebuild_first() -> None:
    settlements = {n: (0, "settlement") for n in (C, D, E, F, G)}  # all five on the board
    game = attack_game({A: 0, B: 1}, {17: (1, 1)}, extra=settlements)
    assert game.settlements_left(0) == 0
    vp = game.victory_points(0)
    roll_ship(game)
    game.apply(LoseCity(0, A))
    assert game.node_level[A] == DESTROYED_CITY
    assert game.victory_points(0) == vp - 1  # counts as a settlement now
    assert violations(game) == []
    reason = said(game.illegal_reason(BuildCity(0, C)))
    assert reason is not None and "rebuild your destroyed city on 0" in reason


def test_s7_destroyed_city_produces_as_a_settlement_and_is_rebuilt_for_the_city_cost() -> None:
    game = make_game(buildings={A: (0, "city")}, hands={0: hand_of(ore=3, grain=2)}, prompt="roll")
    game.node_level[A] = DESTROYED_CITY
    game.apply(Roll(0, 4, 6, EventDie.TRADE))  # 10: mountains (hex 0) where A stands
    assert game.hand(0) == hand_of(ore=4, grain=2)
    game.apply(BuildCity(0, A))
    assert game.cities_of(0) == [A]
    assert game.hand(0) == hand_of(ore=1)


def test_s7_the_attack_comes_before_the_sevens_discards() -> None:
    game = attack_game({A: 0}, {}, hands={1: hand_of(ore=8)})
    game.apply(Roll(0, 3, 4, EventDie.SHIP))
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.LOSE_CITY, 0)
    game.apply(LoseCity(0, A))
    assert (game.prompt.kind, game.prompt.player, game.prompt.count) == (PromptKind.DISCARD, 1, 4)
    for _ in range(4):
        game.apply(DiscardCard(1, Card.ORE))
    # The attack has happened, so this 7 already moves the robber (§8).
    assert game.prompt.kind is PromptKind.MOVE_ROBBER


def test_s8_robber_locked_before_the_first_attack_and_free_after_it() -> None:
    game = make_game(prompt="roll", knights={18: (0, 1, True)})
    game.apply(Roll(0, 3, 4, EventDie.TRADE))
    assert game.prompt.kind is PromptKind.TURN  # a 7, but no robber move
    assert ChaseRobber(0, 18) not in game.legal_actions()
    assert "until the first barbarian attack" in (
        said(game.illegal_reason(ChaseRobber(0, 18))) or ""
    )
    after = make_game(prompt="roll", robber_unlocked=True)
    after.apply(Roll(0, 3, 4, EventDie.TRADE))
    assert after.prompt.kind is PromptKind.MOVE_ROBBER
    assert MoveRobber(0, 0) in after.legal_actions()


def test_s1_track_length_is_a_setting() -> None:
    config = GameConfig.for_players(4, barbarian_track_length=3)
    game = make_game(config=config, prompt="roll", barbarian_position=2, buildings={A: (0, "city")})
    roll_ship(game)
    assert game.barbarian_attacks == 1 and game.barbarian_position == 0


def test_s3_evil_barbarians_only_committed_knights_count_and_turn_inactive() -> None:
    config = GameConfig.for_players(4, evil_barbarians=True)
    game = make_game(
        config=config,
        prompt="roll",
        barbarian_position=NEAR_END,
        buildings={A: (0, "city"), B: (1, "city")},
        knights={17: (0, 2, True), 19: (0, 1, True), 28: (1, 1, True)},
    )
    roll_ship(game)
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.COMMIT_KNIGHTS, 0)
    assert set(game.legal_actions()) == {
        CommitKnights(0, ()),
        CommitKnights(0, (17,)),
        CommitKnights(0, (19,)),
        CommitKnights(0, (17, 19)),
    }
    game.apply(CommitKnights(0, (19,)))
    game.apply(CommitKnights(1, ()))
    game.apply(CommitKnights(2, ()))
    game.apply(CommitKnights(3, ()))
    # Defence 1 < strength 2: player 1 (0 committed) is lowest among exposed, with player 0?
    # Player 0 committed 1, player 1 committed 0: only player 1 loses a city.
    assert (game.prompt.kind, game.prompt.player) == (PromptKind.LOSE_CITY, 1)
    assert game.knight_active[17] and game.knight_active[28]  # not committed: still active
    assert not game.knight_active[19]
