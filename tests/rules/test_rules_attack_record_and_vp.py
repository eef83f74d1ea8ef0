"""The record of the last barbarian attack (§7) and the victory-point breakdown (§11) the
tablet's screens show."""

from __future__ import annotations

from builders import make_game
from hypothesis import given, settings
from hypothesis import strategies as st
from test_rules_barbarians import A, B, C, D, attack_game, roll_ship

from companion_app.rules.actions import ChooseProgressDeck, EndTurn, EventDie, LoseCity, Roll
from companion_app.rules.cards import ProgressCard, Track
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game, VictoryPoints
from companion_app.rules.invariants import violations
from companion_app.rules.pieces import DESTROYED_CITY, NOBODY
from companion_app.rules.randomplay import choose_random_action
from companion_app.rules.rng import SplitMix64
from companion_app.rules.state import BarbarianAttack


def test_s7_no_attack_yet_means_no_record() -> None:
    game = make_game(prompt="roll")
    assert game.last_attack is None
    assert game.to_json()["last_attack"] is None


def test_s7_3_single_strongest_defender_is_recorded_with_every_contribution() -> None:
    # Strength 2 (two cities); defence 2 + 1 = 3 >= 2: player 0 is the single strongest.
    game = attack_game({A: 0, B: 1}, {17: (0, 2), 19: (1, 1)})
    roll_ship(game)
    assert game.last_attack == BarbarianAttack(
        number=1, strength=2, defence=(2, 1, 0, 0), defender=0, tied=(), losers=()
    )
    assert game.last_attack.defended and game.last_attack.total_defence == 3


def test_s7_3_tied_strongest_are_recorded_in_the_order_they_choose() -> None:
    # Active player 1; players 0 and 1 both defend with 2 against 2 cities.
    game = attack_game({A: 0, B: 2}, {17: (0, 2), 19: (1, 1), 28: (1, 1)}, active=1)
    roll_ship(game)
    attack = game.last_attack
    assert attack is not None
    assert (attack.defender, attack.tied, attack.losers) == (NOBODY, (1, 0), ())
    assert attack.defence == (2, 2, 0, 0) and attack.defended
    game.apply(ChooseProgressDeck(1, Track.SCIENCE))
    game.apply(ChooseProgressDeck(0, Track.TRADE))
    assert game.last_attack == attack  # the record outlives the decisions it asked for


def test_s7_4_lowest_defenders_who_lose_a_city_are_recorded() -> None:
    # Strength 4; defence 1 (player 2). Players 0 and 1 (0 each) lose a city; 3 is immune.
    game = attack_game({A: 0, B: 1, C: 2, D: 2}, {17: (2, 1)})
    roll_ship(game)
    attack = game.last_attack
    assert attack == BarbarianAttack(1, 4, (0, 0, 1, 0), NOBODY, (), (0, 1))
    assert not attack.defended
    game.apply(LoseCity(0, A))
    game.apply(LoseCity(1, B))
    assert violations(game) == []


def test_s7_the_record_survives_json_and_undo() -> None:
    game = attack_game({A: 0, B: 1}, {17: (0, 2), 19: (1, 1)})
    roll_ship(game)
    copy = Game.from_json(game.to_json())
    assert copy.last_attack == game.last_attack
    assert copy.to_json() == game.to_json()
    game.undo()
    assert game.last_attack is None and game.barbarian_attacks == 0


def test_s7_each_attack_replaces_the_record_and_is_numbered() -> None:
    # A one-space track (§1: the length is a setting): every ship attacks.
    config = GameConfig.for_players(4, barbarian_track_length=1)
    game = make_game(
        config=config,
        prompt="roll",
        buildings={A: (0, "city"), B: (1, "city")},
        knights={17: (1, 1, True)},
    )
    roll_ship(game)  # strength 2, defence 1: player 0 (0) is the lowest and loses a city
    assert game.last_attack == BarbarianAttack(1, 2, (0, 1, 0, 0), NOBODY, (), (0,))
    game.apply(LoseCity(0, A))
    game.apply(EndTurn(0))
    game.apply(Roll(1, 1, 1, EventDie.SHIP))  # strength 1 (B), defence 0: player 1 loses
    assert game.last_attack == BarbarianAttack(2, 1, (0, 0, 0, 0), NOBODY, (), (1,))
    assert violations(game) == []


def test_s11_breakdown_of_every_source() -> None:
    # Player 0: 1 settlement, a destroyed city, 2 cities one of which carries the trade
    # metropolis, longest road, 2 Defender cards, the merchant, the Printer.
    game = make_game(
        buildings={A: (0, "settlement"), B: (0, "city"), C: (0, "city"), D: (0, "city")},
        improvements={0: (4, 0, 0)},
        metropolis={"trade": C},
        revealed={0: (ProgressCard.PRINTER,)},
        merchant=(5, 0),
    )
    game.node_level[D] = DESTROYED_CITY
    game.rebuild_indexes()
    game.defender_cards[0] = 2
    game.longest_road_holder = 0
    points = game.victory_point_breakdown(0)
    assert points == VictoryPoints(
        settlements=2,
        cities=2,
        metropolises=1,
        longest_road=True,
        defender_cards=2,
        merchant=True,
        vp_cards=1,
    )
    # 2 + 2·2 + 2 + 2 + 2 + 1 + 1 = 14
    assert points.total == 14 == game.victory_points(0)
    assert game.victory_point_breakdown(1) == VictoryPoints(0, 0, 0, False, 0, False, 0)


@settings(max_examples=12, deadline=None)
@given(st.integers(0, 2**32))
def test_s11_breakdown_sums_to_the_vp_throughout_random_games(seed: int) -> None:
    game = Game.new(GameConfig.for_players(3, seed=seed % 1000, barbarian_track_length=3))
    rng = SplitMix64(seed)
    for _ in range(400):
        if game.is_over:
            break
        game.apply(choose_random_action(game, rng))
        for p in range(game.player_count):
            assert game.victory_point_breakdown(p).total == game.victory_points(p)
        attack = game.last_attack
        assert (attack is None) == (game.barbarian_attacks == 0)
        if attack is not None:
            assert attack.number == game.barbarian_attacks
            assert len(attack.defence) == game.player_count
            if attack.defended:
                assert attack.losers == ()
                assert (attack.defender != NOBODY) + bool(attack.tied) <= 1
            else:
                assert attack.defender == NOBODY and attack.tied == ()
