"""Worked examples: progress cards with Seafarers (§13.9) and the barbarians over every island
(§13.8) on the 4-player New Shores map.

Rules reference §13.8, §13.9, rulings R14 (the Diplomat and open ships), R16 (the Bishop moves
the robber only), R17 (the Inventor on gold), R18 (Irrigation and Mining ignore gold), R19 (the
merchant never on gold or sea), R23 (island chits kept). Map pieces as in test_sea_knights.py:
Red's settlement on 27, ships 31 (27-20, 20 a sea intersection) and 21 (20-13, 13 the
north-west islet's coast).
"""

from __future__ import annotations

from companion_app.rules.actions import (
    BuildShip,
    EndTurn,
    EventDie,
    LoseCity,
    MoveShip,
    PlayBishop,
    PlayDiplomat,
    PlayInventor,
    PlayMerchant,
    PlayProgress,
    Roll,
    StopEffect,
)
from companion_app.rules.cards import ProgressCard, hand_of
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.invariants import violations
from companion_app.rules.pieces import NOBODY
from companion_app.rules.prompts import Prompt, PromptKind
from companion_app.rules.whynot_words import CARD_NEEDS
from tests.rules.sea.ck_builders import NS4, ck_sea_game
from tests.said import said

T = NS4.board.topology
RED_HOME = {27: (0, "settlement")}
RED_SHIPS = {31: 0, 21: 0}


def diplomat_game(**kw: object) -> Game:
    kw.setdefault("buildings", RED_HOME)
    kw.setdefault("ships", RED_SHIPS)
    game = ck_sea_game(progress={0: (ProgressCard.DIPLOMAT,)}, **kw)  # type: ignore[arg-type]
    assert violations(game) == []
    return game


def test_the_diplomat_removes_an_open_ship_and_its_own_comes_back_as_a_placed_ship() -> None:
    """R14: Red's ship 21 ends empty on 13: open. Red removes it and places it again, free, as
    a ship (never a road) on edge 22 (20-14); placed this turn, it does not move this turn."""
    game = diplomat_game()
    plays = [a.edge for a in game.legal_actions() if isinstance(a, PlayDiplomat)]
    assert plays == [21]
    assert said(game.illegal_reason(PlayDiplomat(0, 31))) == (
        "the Diplomat removes an open ship: one end without its owner's settlement, city, knight"
        " or other ship (§13.3, R14)"
    )
    game.apply(PlayDiplomat(0, 21))
    assert game.ship_owner[21] == NOBODY and game.prompt == Prompt(PromptKind.FREE_SHIP, 0, 1)
    answers = game.legal_actions()
    assert all(isinstance(a, BuildShip | StopEffect) for a in answers)
    assert BuildShip(0, 22) in answers and BuildShip(0, 21) in answers
    game.apply(BuildShip(0, 22))
    assert game.ship_owner[22] == 0 and game.prompt.kind is PromptKind.TURN
    assert game.card_count(0) == 0  # free
    assert 22 in game.ships_placed and not any(
        isinstance(a, MoveShip) and a.edge == 22 for a in game.legal_actions()
    )
    assert violations(game) == []


def test_the_diplomat_removes_an_opponents_open_ship_even_beside_the_pirate() -> None:
    """R14: the pirate on sea hex 2 (edge 21 is one of its sides) does not stop the removal;
    Blue's ship goes for good (no prompt for Red, none for Blue)."""
    game = diplomat_game(
        buildings={7: (1, "settlement")}, ships={12: 1}, pirate=2, robber_unlocked=True
    )
    assert 12 in T.cell_edges[2]  # 7-13, a side of the pirate's hex
    game.apply(PlayDiplomat(0, 12))
    assert game.ship_owner[12] == NOBODY and game.ships_of[1] == []
    assert game.prompt.kind is PromptKind.TURN


def test_a_ship_beside_the_pirate_is_removed_too() -> None:
    """R14: Red's open ship 21 lies on a side of sea hex 2 where the pirate stands: it may not
    move (§13.4), but the Diplomat removes it."""
    game = diplomat_game(pirate=2, robber_unlocked=True)
    assert 21 in T.cell_edges[2]
    assert not any(isinstance(a, MoveShip) for a in game.legal_actions())
    game.apply(PlayDiplomat(0, 21))
    assert game.prompt.kind is PromptKind.FREE_SHIP
    assert BuildShip(0, 21) not in game.legal_actions()  # not back beside the pirate
    game.apply(StopEffect(0))
    assert game.prompt.kind is PromptKind.TURN and game.ships_of[0] == [31]


def test_why_not_the_diplomat_names_open_roads_or_ships_at_sea() -> None:
    """R14: with no open road or ship on the board, the Diplomat's Why not? names both at sea
    (the island game's words are in test_rules_why_not)."""
    game = diplomat_game(ships={})
    assert not any(isinstance(a, PlayDiplomat) for a in game.legal_actions())
    reason = game.why_not(ProgressCard.DIPLOMAT, 0)
    assert reason is not None and reason.private
    assert said(reason.text) == (
        "The Diplomat needs an open road or an open ship to remove (§13.9)."
    )


# ---- the barbarians over every island (§13.8) ------------------------------------------------


def test_the_barbarians_count_a_city_on_a_small_island_and_a_knight_at_sea() -> None:
    """§13.8, R23: Red's cities on 27 (main island) and 13 (the north-west islet) make the
    barbarians 2 strong; Red's active knight on the sea intersection 20 defends with 1. The
    attack is lost: Red chooses among the cities of both islands and keeps the islet's chits."""
    game = ck_sea_game(
        buildings={27: (0, "city"), 13: (0, "city")},
        ships=RED_SHIPS,
        knights={20: (0, 1, True)},
        prompt="roll",
        barbarian_position=6,
    )
    assert violations(game) == []
    assert game.barbarian_strength() == 2 and game.knight_strength(0) == 1
    before = game.victory_points(0)
    assert before == 2 + 2 + 2  # two cities and the islet's two chits
    game.apply(Roll(0, 1, 1, EventDie.SHIP))
    assert game.prompt.kind is PromptKind.LOSE_CITY and game.prompt.player == 0
    assert sorted(a.node for a in game.legal_actions()) == [13, 27]
    game.apply(LoseCity(0, 13))
    assert game.victory_points(0) == before - 1 and game.islands_settled[0] == [1]
    assert game.knight_active[20] is False  # knights at sea are deactivated too
    assert violations(game) == []


# ---- the other cards of §13.9 ---------------------------------------------------------------


def test_the_bishop_moves_the_robber_only_and_never_to_sea() -> None:
    """R16: the Bishop's hexes are land hexes; the pirate stays where it is."""
    game = ck_sea_game(progress={0: (ProgressCard.BISHOP,)}, robber_unlocked=True)
    hexes = {a.hex for a in game.legal_actions() if isinstance(a, PlayBishop)}
    assert hexes == set(T.land_hexes) - {game.robber_hex}
    assert not game.is_legal(PlayBishop(0, 22))  # a sea hex
    game.apply(PlayBishop(0, 23))  # the gold field
    assert game.robber_hex == 23 and game.pirate_cell == 55


def test_the_inventor_may_swap_a_gold_fields_token() -> None:
    """R17: gold 10 (hex 23) and pasture 9 (hex 21) swap tokens; gold then pays on a 9."""
    game = ck_sea_game(
        progress={0: (ProgressCard.INVENTOR,)},
        buildings={53: (1, "settlement")},
        prompt="turn",
    )
    assert PlayInventor(0, 21, 23) in game.legal_actions()
    assert not any(  # sea hexes have no token
        isinstance(a, PlayInventor) and T.hex_island[a.hex] is None for a in game.legal_actions()
    )
    game.apply(PlayInventor(0, 21, 23))
    assert game.tokens[23] == 9 and game.tokens[21] == 10
    game.apply(EndTurn(0))
    game.apply(Roll(1, 4, 5, EventDie.POLITICS))
    assert game.prompt == Prompt(PromptKind.GOLD, 1, 1)


def test_irrigation_and_mining_count_no_gold_field() -> None:
    """R18: Red's only settlement, on 53, touches gold 23 and sea 17: Irrigation and Mining give
    nothing (a gold field is neither fields nor mountains)."""
    game = ck_sea_game(
        progress={0: (ProgressCard.IRRIGATION, ProgressCard.MINING)},
        buildings={53: (0, "settlement")},
    )
    game.apply(PlayProgress(0, ProgressCard.IRRIGATION))
    game.apply(PlayProgress(0, ProgressCard.MINING))
    assert game.card_count(0) == 0 and game.progress_hands[0] == []


def test_the_merchant_never_goes_on_gold_or_sea() -> None:
    """R19: next to Red's settlement on 45 lie forest 16, sea 17 and gold 23: only the forest."""
    game = ck_sea_game(progress={0: (ProgressCard.MERCHANT,)}, buildings={45: (0, "settlement")})
    assert [a.hex for a in game.legal_actions() if isinstance(a, PlayMerchant)] == [16]


def test_the_wedding_counts_island_chits() -> None:
    """§13.9: Blue's settlement on the islet's 13 (1 VP and 2 chits) outscores Red's two
    settlements: Blue gives Red 2 cards at the Wedding; White (no VP, 3 cards) does not."""
    game = ck_sea_game(
        progress={0: (ProgressCard.WEDDING,)},
        buildings={27: (0, "settlement"), 50: (0, "settlement"), 13: (1, "settlement")},
        ships={21: 1},
        hands={1: hand_of(ore=3), 2: hand_of(ore=3)},
    )
    assert violations(game) == []
    assert game.victory_points(1) == 3 > game.victory_points(0) == 2
    game.apply(PlayProgress(0, ProgressCard.WEDDING))
    assert game.prompt.kind is PromptKind.WEDDING_GIVE and game.prompt.player == 1
    assert [q.player for q in game.pending] == [1]


def test_why_not_road_building_and_intrigue_name_ships_at_sea() -> None:
    """§13.9: on a sea board Road Building also builds ships and Intrigue reaches along ships,
    so what each needs names ships there; the island game keeps its words."""
    sea = diplomat_game(ships={})
    island = Game.new(GameConfig.for_players(3, seed=1))
    expected = {
        ProgressCard.ROAD_BUILDING: (
            "Road Building needs a free edge for a road or a ship (§13.9).",
            "Road Building needs a free edge for a road.",
        ),
        ProgressCard.INTRIGUE: (
            "Intrigue needs an opponent's knight on an intersection your roads or ships touch "
            "(§13.9).",
            "Intrigue needs an opponent's knight on an intersection your roads touch.",
        ),
    }
    for card, (at_sea, on_the_island) in expected.items():
        need = CARD_NEEDS[card]
        assert (need.words(sea), need.words(island)) == (at_sea, on_the_island)
