"""Worked examples: knights with ships (§13.7) on the 4-player New Shores map.

Rules reference §13.7 items 1-7, rulings R10 (paths switch between roads and ships only at the
owner's settlement or city; the first piece any road or ship at the knight), R11 (the link on
the owner's pieces alone), R12 (a displaced knight may retreat to sea), R20 (no knight built or
placed at sea), §13.9 (Intrigue along ships, the Deserter never at sea).

Map pieces (ids of ``ck_builders.NS4``): intersection 27 is a coast of the main island (mountains
hex 14, sea hexes 7 and 8); 20 is a sea intersection; 13 a coast of the north-west islet;
34 and 42 are main-island intersections inland of 27. Edges: 31 (27-20) and 21 (20-13) are sea
edges, 41 (27-34) and 52 (34-42) land or coast edges.
"""

from __future__ import annotations

from companion_app.rules.actions import (
    BuildKnight,
    BuildShip,
    DisplaceKnight,
    MoveKnight,
    PlaceDeserter,
    PlayIntrigue,
    RelocateKnight,
)
from companion_app.rules.cards import ProgressCard, hand_of
from companion_app.rules.game import Game
from companion_app.rules.invariants import violations
from companion_app.rules.knights import is_linked, knight_spots
from companion_app.rules.prompts import PromptKind
from companion_app.rules.topology import NodeKind
from tests.rules.sea.ck_builders import NS4, ck_sea_game
from tests.said import said

T = NS4.board.topology
RED_ROADS = {41: 0, 52: 0}
RED_SHIPS = {31: 0, 21: 0}
RED_HOME = {27: (0, "settlement")}


def red_game(**kw: object) -> Game:
    kw.setdefault("buildings", RED_HOME)
    kw.setdefault("roads", RED_ROADS)
    kw.setdefault("ships", RED_SHIPS)
    game = ck_sea_game(**kw)  # type: ignore[arg-type]
    assert violations(game) == []
    return game


def test_the_map_pieces_are_what_the_examples_say() -> None:
    assert T.node_kinds[20] is NodeKind.SEA and T.node_island[13] == 1
    assert T.node_island[27] == T.node_island[34] == T.node_island[42] == 0
    assert T.edge_nodes[31] == (20, 27) and T.edge_nodes[21] == (13, 20)
    assert T.edge_nodes[41] == (27, 34) and T.edge_nodes[52] == (34, 42)


def test_a_knight_is_built_at_a_road_or_ship_end_on_land_never_at_sea() -> None:
    """§13.7 item 1, R20: the islet's coast 13, reached only by a ship, takes a knight (it earns
    no island VP); the sea intersection 20 does not."""
    game = red_game(hands={0: hand_of(wool=2, ore=2)})
    assert knight_spots(game, 0) == [13, 34, 42]
    assert said(game.illegal_reason(BuildKnight(0, 20))) == (
        "no knight is built at sea; it may only move there (§13.7, R20)"
    )
    game.apply(BuildKnight(0, 13))
    assert game.knight_owner[13] == 0 and game.victory_points(0) == 1
    assert violations(game) == []


def test_knight_spots_follow_each_states_own_ships() -> None:
    """§13.7 item 1: a copy that builds a ship from the islet's 13 to its coast 7 (edge 12) or
    19 (edge 20) gets that end as a spot at once, while the game it was copied from (the same
    roads, the road ends the state keeps shared with it) keeps its own: nothing a listing keeps
    leaks between copies."""
    game = red_game(hands={0: hand_of(lumber=2, wool=2, ore=1)})
    assert knight_spots(game, 0) == [13, 34, 42]
    west, north = game.copy(), game.copy()
    west.apply(BuildShip(0, 12))
    assert knight_spots(west, 0) == [7, 13, 34, 42]
    north.apply(BuildShip(0, 20))
    assert knight_spots(north, 0) == [13, 19, 34, 42]
    assert knight_spots(game, 0) == [13, 34, 42]
    assert knight_spots(west, 0) == [7, 13, 34, 42]


def test_a_knight_moves_from_its_road_onto_a_ship_through_its_settlement() -> None:
    """§13.7 items 2 and 3, R10: from 42 along the roads to the settlement on 27, where the path
    may change to the ships: onward to the sea intersection 20 (it stands on the ship) or to the
    islet's 13."""
    game = red_game(knights={42: (0, 1, True)})
    targets = sorted(a.to for a in game.legal_actions() if isinstance(a, MoveKnight))
    assert targets == [13, 20, 34]
    game.apply(MoveKnight(0, 42, 20))
    assert game.knight_owner[20] == 0 and is_linked(game, 0, 20)
    assert violations(game) == []


def two_networks(knight: int) -> Game:
    """Red's road 42 (27-35) and ship 43 (35-28) meet at 35, where Red has no building; the
    road 53 (35-43) goes on from 35, the ship 32 joins 28 to Red's settlement on 21."""
    game = ck_sea_game(
        buildings={27: (0, "settlement"), 21: (0, "settlement")},
        roads={42: 0, 53: 0},
        ships={32: 0, 43: 0},
        knights={knight: (0, 1, True)},
    )
    assert violations(game) == []
    return game


def test_a_road_and_a_ship_meeting_without_a_building_do_not_join() -> None:
    """R10: the knight on 43 reaches 35 along the roads but not 28 along the ship beyond; the
    knight on 28 reaches 35 along the ship but not 43 along the road beyond."""
    on_road = two_networks(43)
    assert [a.to for a in on_road.legal_actions() if isinstance(a, MoveKnight)] == [35]
    assert said(on_road.illegal_reason(MoveKnight(0, 43, 28))) == (
        "intersection 28 is not connected to the knight by your roads and ships (they join only"
        " at your settlement or city, §13.7)"
    )
    on_ship = two_networks(28)
    assert [a.to for a in on_ship.legal_actions() if isinstance(a, MoveKnight)] == [35]


def test_a_displaced_knight_may_retreat_onto_its_owners_ship_at_sea() -> None:
    """§13.7 items 4 and 5, R12: Red's strong knight on 42 goes by road and ship to the islet's
    13 and displaces Blue's basic knight there; Blue's only retreat is along their ship 12 to
    their settlement on 7 and out along ship 4 to the sea intersection 2."""
    game = red_game(
        buildings=RED_HOME | {7: (1, "settlement")},
        ships=RED_SHIPS | {12: 1, 4: 1},
        knights={42: (0, 2, True), 13: (1, 1, True)},
    )
    assert T.node_kinds[2] is NodeKind.SEA
    game.apply(DisplaceKnight(0, 42, 13))
    assert game.prompt.kind is PromptKind.RELOCATE_KNIGHT and game.prompt.player == 1
    assert game.legal_actions() == [RelocateKnight(1, 2)]
    game.apply(RelocateKnight(1, 2))
    assert game.knight_owner[2] == 1 and game.knight_owner[13] == 0
    assert violations(game) == []


def test_the_link_ignores_other_players_pieces() -> None:
    """R11: White's knight on 34 (linked by White's road 40 to their settlement on 26) stands on
    Red's road between Red's knight on 42 and Red's settlement: Red's knight stays linked (its
    path is blocked, its link is not)."""
    game = red_game(
        buildings=RED_HOME | {26: (2, "settlement")},
        roads=RED_ROADS | {40: 2},
        knights={42: (0, 1, True), 34: (2, 1, False)},
    )
    assert is_linked(game, 0, 42)
    assert not any(isinstance(a, MoveKnight) for a in game.legal_actions())


def test_intrigue_reaches_a_knight_at_sea_along_a_ship() -> None:
    """§13.9: Intrigue may target a knight on an intersection touched by the player's ships, at
    sea too: Blue's knight on the sea intersection 20 stands on Red's ship 31 and on Blue's
    ship 22 (14-20) from their settlement on 14; it retreats along Blue's ships, through that
    settlement, to 21 at the end of Blue's ship 23 (14-21)."""
    game = red_game(
        buildings=RED_HOME | {14: (1, "settlement")},
        ships=RED_SHIPS | {22: 1, 23: 1},
        knights={20: (1, 1, False)},
        progress={0: (ProgressCard.INTRIGUE,)},
    )
    game.apply(PlayIntrigue(0, 20))
    assert game.prompt.kind is PromptKind.RELOCATE_KNIGHT and game.prompt.player == 1
    assert [a.to for a in game.legal_actions()] == [21]
    assert violations(game) == []


def test_the_deserter_is_never_placed_at_sea() -> None:
    """R20, §13.9: the Deserter's knight goes on a free land intersection at one of the
    player's roads or ships; the sea intersection 20 is refused."""
    game = red_game(prompt="deserter_place")
    data = game.to_json()
    data["deserter"] = [1, False]
    data["pending"] = [{"kind": "deserter_place", "player": 0}]
    game = Game.from_json(data)
    spots = sorted(a.node for a in game.legal_actions() if isinstance(a, PlaceDeserter))
    assert spots == [13, 34, 42]
    assert not game.is_legal(PlaceDeserter(0, 20))


def test_a_knight_moved_onto_a_ships_end_closes_it_so_it_may_no_longer_move() -> None:
    """§13.7 item 6 (and §13.3 item 5): Red's ship 21 (20-13) ends empty on 13 and may move;
    once Red's knight stands on 13 the route from the settlement to the knight is closed, so no
    ship of it moves and the knight keeps its link."""
    from companion_app.rules.ships import movable_ships

    game = red_game(knights={42: (0, 1, True)})
    assert movable_ships(game, 0) == [21]
    game.apply(MoveKnight(0, 42, 13))
    assert movable_ships(game, 0) == [] and is_linked(game, 0, 13)
