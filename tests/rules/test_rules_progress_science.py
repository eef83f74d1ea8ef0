"""Worked examples of the science (green) progress cards (§10): Alchemist, Crane, Engineer,
Inventor, Irrigation, Medicine, Mining, Printer, Road Building, Smith."""

from __future__ import annotations

import pytest
from builders import e, make_game

from companion_app.rules.actions import (
    BuildCity,
    BuildRoad,
    BuyImprovement,
    EventDie,
    PlayAlchemist,
    PlayCrane,
    PlayEngineer,
    PlayInventor,
    PlayMedicine,
    PlayProgress,
    PlaySpy,
    PromoteKnight,
    Roll,
    StopEffect,
)
from companion_app.rules.cards import BANK_START, Card, ProgressCard, Track, hand_of
from companion_app.rules.errors import IllegalActionError
from companion_app.rules.game import Game
from companion_app.rules.invariants import violations
from companion_app.rules.pieces import ACTIVATED, CITY
from companion_app.rules.prompts import PromptKind
from tests.said import said

PC = ProgressCard


# Player 0: city on 12 (mountains 10, fields 12, hills 6), settlement on 16 (fields 12, fields 9),
# roads 12-17-22-16. Player 1: settlement on 30 (desert, forest 3, fields 4).
BUILDINGS = {12: (0, "city"), 16: (0, "settlement"), 30: (1, "settlement")}
ROADS = {e(12, 17): 0, e(17, 22): 0, e(22, 16): 0, e(30, 24): 1}


def science_game(cards: tuple[ProgressCard, ...], **kw: object) -> Game:
    game = make_game(buildings=BUILDINGS, roads=ROADS, progress={0: cards}, **kw)  # type: ignore[arg-type]
    assert violations(game) == []
    return game


def plays(game: Game, kind: type) -> list[object]:
    return [a for a in game.legal_actions() if isinstance(a, kind)]


# ---- Alchemist ------------------------------------------------------------------------------


def test_s10_alchemist_36_choices_before_the_roll_then_only_the_event_die_is_free() -> None:
    game = science_game((PC.ALCHEMIST, PC.ALCHEMIST), prompt="roll")
    assert len(plays(game, PlayAlchemist)) == 36
    game.apply(PlayAlchemist(0, 6, 6))
    assert game.progress_hands[0] == [PC.ALCHEMIST]
    assert plays(game, PlayAlchemist) == []  # a second one would fix nothing more
    reason = said(game.illegal_reason(PlayAlchemist(0, 1, 1)))
    assert reason == "an Alchemist already fixed this roll's dice"
    assert len(game.legal_actions()) == 4
    game.apply(Roll(0, 6, 6, EventDie.SHIP))
    # 12 on fields: the city on 12 takes 2 grain, the settlement on 16 one more.
    assert game.hands[0][Card.GRAIN] == 3
    assert game.alchemist_dice is None


# ---- Crane ----------------------------------------------------------------------------------


def test_s10_crane_one_commodity_less_level_1_free_and_never_twice_on_one_improvement() -> None:
    game = science_game((PC.CRANE, PC.CRANE), hands={0: hand_of(paper=1)})
    assert set(plays(game, PlayCrane)) == {PlayCrane(0, t) for t in Track}  # level 1 free
    game.apply(PlayCrane(0, Track.SCIENCE))
    assert game.improvements[0][Track.SCIENCE.index] == 1
    assert game.hands[0][Card.PAPER] == 1  # nothing paid
    # The second Crane cannot go on the level just bought: it buys level 2 for 1 paper.
    game.apply(PlayCrane(0, Track.SCIENCE))
    assert game.improvements[0][Track.SCIENCE.index] == 2
    assert game.hands[0][Card.PAPER] == 0
    assert game.decks[Track.SCIENCE.index][-2:] == [PC.CRANE, PC.CRANE]
    assert violations(game) == []


def test_s10_crane_still_needs_the_discounted_price_and_a_city() -> None:
    game = science_game((PC.CRANE,), hands={0: hand_of(paper=1)}, improvements={0: (0, 0, 2)})
    assert said(game.illegal_reason(PlayCrane(0, Track.SCIENCE))) == (
        "level 3 of science costs 2 paper (§5)"
    )
    assert BuyImprovement(0, Track.SCIENCE) not in game.legal_actions()
    no_city = make_game(
        buildings={16: (0, "settlement")}, roads={e(22, 16): 0}, progress={0: (PC.CRANE,)}
    )
    assert said(no_city.illegal_reason(PlayCrane(0, Track.TRADE))) == (
        "city improvements need a city on the board (§9)"
    )


# ---- Engineer -------------------------------------------------------------------------------


def test_s10_engineer_builds_a_free_wall_under_a_city_without_one() -> None:
    game = science_game((PC.ENGINEER,))
    assert plays(game, PlayEngineer) == [PlayEngineer(0, 12)]  # not the settlement on 16
    game.apply(PlayEngineer(0, 12))
    assert game.walls[12] and game.card_count(0) == 0
    assert game.discard_limit(0) == 9


def test_s10_engineer_needs_a_wall_left() -> None:
    cities = {12: (0, "city"), 10: (0, "city"), 26: (0, "city"), 45: (0, "city")}
    game = make_game(buildings=cities, walls=(12, 10, 26), progress={0: (PC.ENGINEER,)})
    assert said(game.illegal_reason(PlayEngineer(0, 45))) == "at most 3 city walls per player"
    assert said(game.illegal_reason(PlayEngineer(0, 12))) == "this city already has a wall"
    assert plays(game, PlayEngineer) == []


# ---- Inventor -------------------------------------------------------------------------------


def test_s10_inventor_swaps_two_tokens_and_production_follows() -> None:
    game = science_game((PC.INVENTOR,))
    assert game.tokens[10] == 3 and game.tokens[8] == 11
    game.apply(PlayInventor(0, 8, 10))
    assert game.tokens[10] == 11 and game.tokens[8] == 3
    assert game.board.tokens[10] == 3  # the table's board is a fixed value; the state changed
    game.apply(game.legal_actions()[-1])  # end the turn
    game.apply(Roll(1, 5, 6, EventDie.SHIP))  # 11: forest hex 10 now, next to player 1's 30
    assert game.hands[1][Card.LUMBER] == 1
    assert violations(game) == []


@pytest.mark.parametrize(
    "hexes, token",
    [((4, 10), 6), ((10, 11), 8), ((1, 10), 2), ((3, 10), 12)],
)
def test_s10_inventor_never_moves_6_8_2_or_12(hexes: tuple[int, int], token: int) -> None:
    game = science_game((PC.INVENTOR,))
    reason = said(game.illegal_reason(PlayInventor(0, *hexes)))
    assert reason == f"the Inventor never moves a {token} (nor 2, 12, 6 or 8, §10)"


def test_s10_inventor_choices_are_the_66_pairs_of_the_12_allowed_tokens() -> None:
    game = science_game((PC.INVENTOR,))
    choices = plays(game, PlayInventor)
    assert len(choices) == 66
    moved = {game.tokens[h] for a in choices for h in (a.hex, a.other)}  # type: ignore[attr-defined]
    assert moved == {3, 4, 5, 9, 10, 11}
    assert said(game.illegal_reason(PlayInventor(0, 9, 10))) == "hex 9 has no number token"
    assert said(game.illegal_reason(PlayInventor(0, 10, 8))) == (
        "name two different hexes, the lower id first"
    )


# ---- Irrigation and Mining ---------------------------------------------------------------------


def test_s10_irrigation_2_grain_per_fields_hex_next_to_own_buildings_counted_once() -> None:
    game = science_game((PC.IRRIGATION,))
    game.apply(PlayProgress(0, PC.IRRIGATION))
    # Fields 12 (hex 3, touched by both buildings) and fields 9 (hex 7): 2 hexes, 4 grain.
    assert game.hands[0][Card.GRAIN] == 4
    assert game.bank[Card.GRAIN] == BANK_START[Card.GRAIN] - 4


def test_s10_irrigation_as_far_as_the_bank_has_grain() -> None:
    game = science_game((PC.IRRIGATION,), hands={1: hand_of(grain=16)})  # the bank keeps 3
    game.apply(PlayProgress(0, PC.IRRIGATION))
    assert game.hands[0][Card.GRAIN] == 3 and game.bank[Card.GRAIN] == 0


def test_s10_mining_2_ore_per_mountains_hex_next_to_own_buildings() -> None:
    game = science_game((PC.MINING,))
    game.apply(PlayProgress(0, PC.MINING))
    assert game.hands[0][Card.ORE] == 2  # mountains 10 (hex 0) only
    assert game.hands[0][Card.GRAIN] == 0


# ---- Medicine -------------------------------------------------------------------------------


def test_s10_medicine_city_for_2_ore_and_1_grain() -> None:
    game = science_game((PC.MEDICINE,), hands={0: hand_of(ore=2, grain=1)})
    assert BuildCity(0, 16) not in game.legal_actions()  # 3 ore + 2 grain is too much
    assert plays(game, PlayMedicine) == [PlayMedicine(0, 16)]
    before = game.victory_points(0)
    game.apply(PlayMedicine(0, 16))
    assert game.node_level[16] == CITY
    assert game.card_count(0) == 0
    assert game.victory_points(0) == before + 1


def test_s10_medicine_needs_its_price_and_a_settlement() -> None:
    game = science_game((PC.MEDICINE,), hands={0: hand_of(ore=1, grain=2)})
    reason = said(game.illegal_reason(PlayMedicine(0, 16)))
    assert reason == "Medicine: the city costs 2 ore + 1 grain (§10)"
    game = science_game((PC.MEDICINE,), hands={0: hand_of(ore=2, grain=1)})
    reason = said(game.illegal_reason(PlayMedicine(0, 12)))
    assert reason is not None and "upgrades one of your settlements" in reason


# ---- Printer --------------------------------------------------------------------------------


def test_s10_printer_is_a_revealed_vp_card_that_the_spy_never_takes() -> None:
    game = make_game(
        buildings=BUILDINGS,
        roads=ROADS,
        prompt="roll",
        improvements={1: (0, 0, 1)},
        progress={0: (PC.SPY,)},
        deck_tops={"science": (PC.PRINTER,)},
    )
    before = game.victory_points(1)
    game.apply(Roll(0, 3, 2, EventDie.SCIENCE))  # level 1 draws on red 1-2
    assert game.revealed_vp[1] == [PC.PRINTER] and game.progress_hands[1] == []
    assert game.victory_points(1) == before + 1
    assert game.prompt.kind is PromptKind.TURN
    assert said(game.illegal_reason(PlaySpy(0, 1))) == (
        "player 1 holds no progress card the Spy can take (VP cards never)"
    )


# ---- Road Building --------------------------------------------------------------------------


def test_s10_road_building_two_free_roads() -> None:
    game = science_game((PC.ROAD_BUILDING,))
    game.apply(PlayProgress(0, PC.ROAD_BUILDING))
    assert (game.prompt.kind, game.prompt.count) == (PromptKind.FREE_ROAD, 2)
    assert StopEffect(0) in game.legal_actions()
    game.apply(BuildRoad(0, e(12, 7)))
    assert (game.prompt.kind, game.prompt.count) == (PromptKind.FREE_ROAD, 1)
    game.apply(BuildRoad(0, e(7, 3)))
    assert game.prompt.kind is PromptKind.TURN
    assert game.card_count(0) == 0 and len(game.roads_of[0]) == 5
    assert violations(game) == []
    with pytest.raises(IllegalActionError, match="a road costs"):
        game.apply(BuildRoad(0, e(3, 0)))


def test_s10_road_building_may_stop_after_one() -> None:
    game = science_game((PC.ROAD_BUILDING,))
    game.apply(PlayProgress(0, PC.ROAD_BUILDING))
    game.apply(BuildRoad(0, e(12, 7)))
    game.apply(StopEffect(0))
    assert game.prompt.kind is PromptKind.TURN and len(game.roads_of[0]) == 4


# ---- Smith ----------------------------------------------------------------------------------


def test_s10_smith_promotes_two_knights_free() -> None:
    game = science_game((PC.SMITH,), knights={17: (0, 1, True), 22: (0, 1, False)})
    game.apply(PlayProgress(0, PC.SMITH))
    assert set(game.legal_actions()) == {
        PromoteKnight(0, 17),
        PromoteKnight(0, 22),
        StopEffect(0),
    }
    game.apply(PromoteKnight(0, 17))
    assert game.legal_actions() == [PromoteKnight(0, 22), StopEffect(0)]  # once per knight
    game.apply(PromoteKnight(0, 22))
    assert game.prompt.kind is PromptKind.TURN
    assert (game.knight_level[17], game.knight_level[22]) == (2, 2)
    assert (game.knight_active[17], game.knight_active[22]) == (True, False)  # sides kept
    assert game.card_count(0) == 0


def test_s10_smith_still_needs_the_fortress_for_mighty_and_may_stop() -> None:
    game = science_game((PC.SMITH,), knights={17: (0, 2, True)})
    game.apply(PlayProgress(0, PC.SMITH))
    assert game.legal_actions() == [StopEffect(0)]
    reason = said(game.illegal_reason(PromoteKnight(0, 17)))
    assert reason is not None and "Fortress" in reason
    game.apply(StopEffect(0))
    assert game.prompt.kind is PromptKind.TURN
    fortress = science_game((PC.SMITH,), knights={17: (0, 2, True)}, improvements={0: (0, 3, 0)})
    fortress.apply(PlayProgress(0, PC.SMITH))
    fortress.apply(PromoteKnight(0, 17))
    assert fortress.knight_level[17] == 3
    assert not fortress.knight_flags[17] & ACTIVATED
