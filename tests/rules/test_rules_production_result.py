"""The production result the rules core records (§4): who got which cards, what the robber
held back, what the bank could not pay and why. The log and the statistics read it."""

from __future__ import annotations

from builders import corner, make_game

from companion_app.game_log import GameLog, production_words
from companion_app.game_stats import GameStatistics
from companion_app.rules.actions import EventDie, LoseCity, Roll
from companion_app.rules.cards import EMPTY_HAND, Card, hand_of
from companion_app.rules.events import Production, Shortage
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from tests.said import said

NAMES = ("Red", "Blue", "White", "Orange")


def production_of(game: Game) -> Production:
    found = [e for e in game.events if isinstance(e, Production)]
    assert len(found) == 1
    return found[0]


def test_a_city_on_forest_3_gets_lumber_and_paper_a_settlement_lumber() -> None:
    # Blue's city and White's settlement on forest 3 (hex 10).
    game = make_game(
        buildings={corner(10, 3): (1, "city"), corner(10, 0): (2, "settlement")},
        prompt="roll",
    )
    game.apply(Roll(0, 1, 2, EventDie.TRADE))
    assert production_of(game) == Production(
        number=3,
        gained=(EMPTY_HAND, hand_of(lumber=1, paper=1), hand_of(lumber=1), EMPTY_HAND),
        robbed=(EMPTY_HAND,) * 4,
        missed=((), (), (), ()),
        shortages=(),
    )
    assert game.last_production == production_of(game).gained


def test_the_robber_holds_back_two_brick_of_a_city_on_hills_6() -> None:
    game = make_game(
        buildings={corner(4, 0): (1, "city"), corner(17, 3): (2, "city")},
        prompt="roll",
        robber_hex=4,
    )
    game.apply(Roll(0, 3, 3, EventDie.SHIP))
    produced = production_of(game)
    assert produced.gained[1] == EMPTY_HAND and produced.robbed[1] == hand_of(brick=2)
    assert produced.gained[2] == hand_of(grain=2) and produced.robbed[2] == EMPTY_HAND
    assert produced.shortages == ()


def test_bank_out_of_grain_nobody_gets_grain() -> None:
    # Blue's and White's cities on fields 6 (hex 17) and hills 6 (hex 4): 2 grain owed to
    # White, 2 brick to Blue; the bank has no grain at all.
    bank = (19, 19, 19, 0, 19, 12, 12, 12)
    game = make_game(
        buildings={corner(4, 0): (1, "city"), corner(17, 3): (2, "city")},
        hands={0: hand_of(grain=19)},
        prompt="roll",
        bank=bank,
    )
    game.apply(Roll(0, 3, 3, EventDie.SHIP))
    produced = production_of(game)
    assert produced.gained[1] == hand_of(brick=2) and produced.gained[2] == EMPTY_HAND
    assert produced.missed == ((), (), (Card.GRAIN,), ())
    assert produced.shortages == (Shortage(Card.GRAIN, owed=2, paid=0, in_bank=0),)
    assert [said(s.words) for s in produced.shortages] == ["bank out of grain: nobody gets grain"]
    assert game.bank[Card.GRAIN] == 0 and game.bank[Card.BRICK] == 17


def test_a_single_taker_gets_what_is_left_and_the_shortage_says_so() -> None:
    game = make_game(
        buildings={corner(4, 0): (1, "city")}, hands={0: hand_of(brick=18)}, prompt="roll"
    )
    game.apply(Roll(0, 3, 3, EventDie.SHIP))
    produced = production_of(game)
    assert produced.gained[1] == hand_of(brick=1)
    assert produced.shortages == (Shortage(Card.BRICK, owed=2, paid=1, in_bank=1),)
    assert said(produced.shortages[0].words) == "bank had only 1 brick of 2 owed"
    assert produced.missed[1] == (Card.BRICK,)


def test_a_seven_pays_nothing_and_records_no_production() -> None:
    game = make_game(buildings={corner(4, 0): (1, "city")}, prompt="roll")
    game.apply(Roll(0, 3, 4, EventDie.TRADE))
    assert [e for e in game.events if isinstance(e, Production)] == []


def test_production_held_back_by_a_lost_attack_is_paid_and_counted_after_the_city_is_lost() -> None:
    """A ship roll brings the attack before production (§3.3): Blue, with no knight, loses the
    city on hills 6 and then produces 1 brick from the settlement it became (§7.4). The log
    says so when it is paid, and the statistics count it."""
    game = make_game(
        buildings={corner(4, 0): (1, "city")},
        prompt="roll",
        barbarian_position=6,
    )
    log = GameLog.from_position(game)
    game.apply(Roll(0, 3, 3, EventDie.SHIP))
    assert game.prompt.kind is PromptKind.LOSE_CITY
    assert [e for e in game.events if isinstance(e, Production)] == []
    game.apply(LoseCity(1, corner(4, 0)))
    assert production_of(game).gained[1] == hand_of(brick=1)
    log.sync(game.history)
    assert log.last_roll is not None and log.last_roll.paid
    assert said(production_words(NAMES, log.last_roll, everyone=False)) == ["Blue +1 brick"]
    assert GameStatistics.from_game(game).production[1] == hand_of(brick=1)
