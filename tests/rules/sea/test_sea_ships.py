"""Ships (§13.3), settling the small islands and their chits (§13.10, R23), the Longest Trade
Route (§13.6, R24) and the 16 VP target (R1), as worked examples on the 4-player New Shores map.

The place of most examples (``sea_builders``): the sea hex (6, 4) with the main island's
pasture 9 to the west and the north-east island (forest 9, gold 10) to the east. SHORE is its
north-west corner on the main island, ISLE_TOP its top corner and ISLE its north-east corner,
both on the north-east island.
"""

from __future__ import annotations

import itertools
import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from said import said
from sea_builders import (
    ISLE,
    ISLE_TOP,
    NE_ISLAND,
    SEA,
    SHORE,
    T,
    corner,
    edge,
    hex_at,
    sea_game,
    side,
)

from companion_app.rules.actions import (
    BuildRoad,
    BuildSettlement,
    BuildShip,
    EndTurn,
    MoveShip,
    StopEffect,
)
from companion_app.rules.cards import hand_of
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import IllegalActionError, StateError
from companion_app.rules.events import IslandSettled
from companion_app.rules.game import Game
from companion_app.rules.invariants import violations
from companion_app.rules.knights import lift_knight, place_knight
from companion_app.rules.operations import place_road
from companion_app.rules.pieces import NOBODY
from companion_app.rules.prompts import PromptKind
from companion_app.rules.registry import told_lines
from companion_app.rules.ships import open_ships, place_ship, ship_spots
from companion_app.rules.topology import EdgeKind
from companion_app.rules.traderoute import (
    _trade_route,
    longest_trade_route,
    measure_routes,
    trade_route_ship_moved,
)
from companion_app.rules.words import Prior, Telling

SHIP_CARDS = hand_of(lumber=1, wool=1)
OUT = edge(SHORE, ISLE_TOP)
"""The sea edge from SHORE out to ISLE_TOP."""
ON = edge(ISLE_TOP, ISLE)
"""The coast edge from ISLE_TOP on to ISLE."""


def refused(game: Game, action: Any, words: str) -> None:
    with pytest.raises(IllegalActionError, match=re.escape(words)):
        game.apply(action)


def ships_of(game: Game, p: int = 0) -> set[int]:
    return set(game.ships_of[p])


def test_the_place_of_the_examples_is_what_the_map_says() -> None:
    assert T.edge_kinds[OUT] is EdgeKind.SEA and T.edge_kinds[ON] is EdgeKind.COAST
    assert T.node_island[SHORE] == 0 and T.node_island[ISLE_TOP] == T.node_island[ISLE]
    assert T.hex_island[hex_at(6, 3)] == NE_ISLAND and NE_ISLAND is not None and NE_ISLAND > 0


# --------------------------------------------------------------------------------------------
# §13.3 item 1-2: building a ship; roads and ships meet only at a building


def test_a_ship_is_built_from_a_settlement_for_1_lumber_and_1_wool() -> None:
    game = sea_game(buildings={SHORE: (0, "settlement")}, hands={0: SHIP_CARDS})
    # From the coastal settlement: its two coast edges and its sea edge, never the land edge.
    assert ship_spots(game, 0) == sorted(
        e for e in T.node_edges[SHORE] if T.edge_kinds[e] is not EdgeKind.LAND
    )
    assert len(ship_spots(game, 0)) == 3
    game.apply(BuildShip(0, OUT))
    assert game.ship_owner[OUT] == 0 and game.hand(0) == hand_of()
    assert game.ships_placed == [OUT] and game.ships_left(0) == 14
    assert not violations(game)


def test_a_ship_costs_its_cards_and_a_ship_is_never_inland() -> None:
    game = sea_game(buildings={SHORE: (0, "settlement")}, hands={0: hand_of(lumber=1)})
    refused(game, BuildShip(0, OUT), "a ship costs 1 lumber + 1 wool (§13.3)")
    inland = side(hex_at(5, 4), 3)  # between the pasture 9 and the forest 5
    assert T.edge_kinds[inland] is EdgeKind.LAND
    game = sea_game(buildings={SHORE: (0, "settlement")}, hands={0: SHIP_CARDS})
    refused(game, BuildShip(0, inland), f"edge {inland} lies inland: only a road goes there")


def test_ships_grow_from_ship_ends_roads_do_not() -> None:
    """§13.3 item 2: a road is not built from the end of a ship, nor a ship from the end of a
    road, without the player's own building there."""
    game = sea_game(
        buildings={SHORE: (0, "settlement")},
        ships={OUT: 0},
        hands={0: hand_of(lumber=2, wool=1, brick=1)},
    )
    assert ON in ship_spots(game, 0)  # from the ship's end
    refused(game, BuildRoad(0, ON), f"edge {ON} is not connected to your roads")
    game.apply(BuildShip(0, ON))
    assert ships_of(game) == {OUT, ON}
    # A road along the coast from the settlement, then a ship from that road's end: refused.
    road = next(e for e in T.node_edges[SHORE] if T.edge_kinds[e] is EdgeKind.COAST and e != OUT)
    far = next(n for n in T.edge_nodes[road] if n != SHORE)
    beyond = next(
        e for e in T.node_edges[far] if e != road and T.edge_kinds[e] is not EdgeKind.LAND
    )
    game = sea_game(buildings={SHORE: (0, "settlement")}, roads={road: 0}, hands={0: SHIP_CARDS})
    refused(game, BuildShip(0, beyond), "roads and ships meet only at your buildings")


def test_a_ship_and_a_road_never_share_an_edge() -> None:
    coast = side(SEA, 4)  # the coast between the pasture 9 and the sea hex
    game = sea_game(
        buildings={SHORE: (0, "settlement")},
        ships={coast: 1},
        hands={0: hand_of(brick=1, lumber=1)},
    )
    refused(game, BuildRoad(0, coast), f"edge {coast} already has a ship")
    game = sea_game(buildings={SHORE: (0, "settlement")}, roads={coast: 0}, hands={0: SHIP_CARDS})
    refused(game, BuildShip(0, coast), f"edge {coast} already has a road")


def test_no_ship_past_an_opponents_settlement_or_knight() -> None:
    """§13.3 item 1: the end a ship grows from holds no other player's piece."""
    for blocker in ({"buildings": {ISLE_TOP: (1, "settlement")}}, {"knights": {ISLE_TOP: 1}}):
        game = sea_game(
            buildings={SHORE: (0, "settlement"), **blocker.get("buildings", {})},
            knights=blocker.get("knights"),
            ships={OUT: 0},
            hands={0: SHIP_CARDS},
        )
        assert ON not in ship_spots(game, 0)


def test_the_pirate_blocks_the_edges_of_its_hex() -> None:
    """§13.4 item 4: no ship on an edge of the pirate's hex (here the sea hex itself)."""
    game = sea_game(buildings={SHORE: (0, "settlement")}, hands={0: SHIP_CARDS}, pirate=SEA)
    assert not set(ship_spots(game, 0)) & set(T.cell_edges[SEA])
    refused(game, BuildShip(0, OUT), "no ship is built next to the pirate (§13.4)")
    # A frame cell blocks its edges too: the pirate's start east of the gold 10.
    start = sea_game().board.frame.sea_map
    assert start is not None
    assert len(T.cell_edges[start.pirate_start]) == 3


def test_15_ships_at_most() -> None:
    edges = [e for e in range(T.edge_count) if T.edge_kinds[e] is EdgeKind.SEA][:15]
    game = sea_game(ships=dict.fromkeys(edges, 1), hands={1: SHIP_CARDS}, active=1)
    assert game.ships_left(1) == 0
    refused(game, BuildShip(1, OUT), "no ships left in the supply (each player has 15)")


# --------------------------------------------------------------------------------------------
# §13.3 item 3: the setup ship


def test_a_coastal_setup_settlement_may_take_a_ship_instead_of_its_road() -> None:
    game = Game.new(GameConfig.for_players(4, scenario="new_shores", seed=1))
    game.apply(BuildSettlement(game.prompt.player, SHORE))
    p = game.prompt.player
    ships = {a.edge for a in game.legal_actions() if isinstance(a, BuildShip)}
    assert ships == {e for e in T.node_edges[SHORE] if T.edge_kinds[e] is not EdgeKind.LAND}
    game.apply(BuildShip(p, OUT))
    assert game.ship_owner[OUT] == p and game.ships_placed == []  # setup: not "this turn"
    assert game.hand(p) == hand_of()  # free


def test_the_setup_prompt_at_sea_names_a_road_or_a_ship() -> None:
    """§13.3 item 3: the banner asks for the road or ship the setup allows; the island
    game's words stay."""
    config = GameConfig.for_players(4, scenario="new_shores", seed=1)
    game = Game.new(config)
    game.apply(BuildSettlement(game.prompt.player, SHORE))
    name = config.names[game.prompt.player]
    assert game.prompt.kind is PromptKind.SETUP_ROAD
    assert said(game.describe_prompt()) == f"{name}: place a road or a ship next to it"
    island = Game.new(GameConfig.for_players(4, seed=1))
    island.apply(next(a for a in island.legal_actions() if isinstance(a, BuildSettlement)))
    name = island.config.names[island.prompt.player]
    assert said(island.describe_prompt()) == f"{name}: place a road next to it"


def test_no_setup_ship_next_to_the_pirate() -> None:
    """catan.com FAQ (§13.3 item 3). On New Shores the pirate starts beside a small island,
    where no setup is played; with the pirate on the sea hex by SHORE the setup ship avoids
    its edges."""
    sea = GameConfig.for_players(4, scenario="new_shores").board.frame.sea_map
    assert sea is not None
    assert not {e for n in T.setup_nodes for e in T.node_edges[n]} & set(
        T.cell_edges[sea.pirate_start]
    )
    game = Game.new(GameConfig.for_players(4, scenario="new_shores", seed=1))
    p = game.prompt.player
    game.apply(BuildSettlement(p, SHORE))
    data = game.to_json()
    data["pirate"] = SEA
    game = Game.from_json(data)
    ships = {a.edge for a in game.legal_actions() if isinstance(a, BuildShip)}
    assert ships == {side(hex_at(5, 3), 3)}  # the coast edge on the other sea hex
    refused(game, BuildShip(p, OUT), "no ship is built next to the pirate (§13.4)")


# --------------------------------------------------------------------------------------------
# §13.3 item 5, R13: open and closed ships


def test_the_last_ship_of_a_chain_is_open_the_others_closed() -> None:
    game = sea_game(buildings={SHORE: (0, "settlement")}, ships={OUT: 0, ON: 0})
    assert open_ships(game, 0) == [ON]


def test_a_route_between_two_buildings_is_closed_even_with_an_opponent_on_it() -> None:
    game = sea_game(
        buildings={SHORE: (0, "settlement"), ISLE: (0, "settlement")}, ships={OUT: 0, ON: 0}
    )
    assert open_ships(game, 0) == []
    # An opponent's piece at the join does not open it (other players' pieces do not count).
    game = sea_game(
        buildings={SHORE: (0, "settlement"), ISLE: (0, "settlement")},
        ships={OUT: 0, ON: 0},
        knights={ISLE_TOP: 1},
    )
    assert open_ships(game, 0) == []


def test_a_knight_at_the_end_closes_a_ship_a_road_does_not() -> None:
    game = sea_game(buildings={SHORE: (0, "settlement")}, ships={OUT: 0}, knights={ISLE_TOP: 0})
    assert open_ships(game, 0) == []
    road = next(e for e in T.node_edges[ISLE_TOP] if T.edge_kinds[e] is not EdgeKind.SEA)
    game = sea_game(buildings={SHORE: (0, "settlement")}, ships={OUT: 0}, roads={road: 0})
    assert open_ships(game, 0) == [OUT]


def test_r13_a_loop_back_to_its_settlement_opens_its_two_ships_touching_it() -> None:
    """Six ships round the sea hex from the settlement on its corner and back: the two touching
    the settlement are open, the four between are closed."""
    ring = [side(SEA, i) for i in range(6)]
    game = sea_game(buildings={SHORE: (0, "settlement")}, ships=dict.fromkeys(ring, 0))
    touching = sorted(e for e in ring if SHORE in T.edge_nodes[e])
    assert len(touching) == 2
    assert open_ships(game, 0) == touching


def test_r13_a_ring_touching_no_building_or_knight_is_open_all_round() -> None:
    ring = [side(SEA, i) for i in range(6)]
    game = sea_game(ships=dict.fromkeys(ring, 0))
    assert open_ships(game, 0) == sorted(ring)
    # With the owner's knight on a corner it is a loop from that knight: two open.
    game = sea_game(ships=dict.fromkeys(ring, 0), knights={ISLE: 0})
    assert open_ships(game, 0) == sorted(e for e in ring if ISLE in T.edge_nodes[e])


def test_r13_two_rings_sharing_a_side_are_no_ring_and_none_is_open() -> None:
    """Eleven ships round two sea hexes that share a side: every end joins two or three ships,
    and the pieces between the two three-ship intersections are parts of longer chains, not
    rings: no ship is open."""
    sides = {side(SEA, i) for i in range(6)} | {side(hex_at(5, 3), i) for i in range(6)}
    assert len(sides) == 11
    game = sea_game(ships=dict.fromkeys(sorted(sides), 0))
    assert open_ships(game, 0) == []


def test_open_ships_follow_a_settlement_or_knight_coming_to_a_ships_end() -> None:
    """The open ships are kept between listings: a building or knight of the owner that comes
    to the open end closes the ship at once, and it opens again when the knight leaves."""
    cards = hand_of(brick=1, lumber=1, wool=1, grain=1)
    game = sea_game(buildings={SHORE: (0, "settlement")}, ships={OUT: 0, ON: 0}, hands={0: cards})
    assert open_ships(game, 0) == [ON]
    assert {a.edge for a in game.legal_actions() if isinstance(a, MoveShip)} == {ON}
    game.apply(BuildSettlement(0, ISLE))
    assert open_ships(game, 0) == []
    assert not [a for a in game.legal_actions() if isinstance(a, MoveShip)]
    game = sea_game(buildings={SHORE: (0, "settlement")}, ships={OUT: 0})
    assert open_ships(game, 0) == [OUT]
    place_knight(game, 0, ISLE_TOP, 1, True, 0)
    assert open_ships(game, 0) == []
    lift_knight(game, ISLE_TOP)
    assert open_ships(game, 0) == [OUT]


# --------------------------------------------------------------------------------------------
# §13.3 item 6: moving an open ship


def test_an_open_ship_moves_once_per_turn_to_a_place_a_ship_could_be_built() -> None:
    game = sea_game(buildings={SHORE: (0, "settlement")}, ships={OUT: 0, ON: 0})
    moves = [a for a in game.legal_actions() if isinstance(a, MoveShip)]
    assert moves and {a.edge for a in moves} == {ON}
    # Judged as if lifted: from OUT's end (ISLE_TOP) or from the settlement, never ON itself.
    assert {a.to for a in moves} == set(ship_spots(game, 0, lifted=ON))
    assert ON not in {a.to for a in moves}
    to = side(SEA, 4)  # the coast edge at the settlement
    game.apply(MoveShip(0, ON, to))
    assert ships_of(game) == {OUT, to} and game.ship_moved
    assert not [a for a in game.legal_actions() if isinstance(a, MoveShip)]
    refused(game, MoveShip(0, OUT, ON), "a ship moves once per turn (§13.3)")
    assert not violations(game)
    game.apply(EndTurn(0))
    assert not game.ship_moved


def test_a_ship_placed_this_turn_does_not_move() -> None:
    game = sea_game(buildings={SHORE: (0, "settlement")}, ships={OUT: 0, ON: 0}, placed=(ON,))
    refused(game, MoveShip(0, ON, side(SEA, 4)), "a ship placed this turn does not move")


def test_a_closed_ship_does_not_move() -> None:
    game = sea_game(buildings={SHORE: (0, "settlement")}, ships={OUT: 0, ON: 0})
    refused(game, MoveShip(0, OUT, side(SEA, 4)), f"the ship on edge {OUT} is closed")


def test_the_pirate_keeps_a_ship_beside_it_and_keeps_ships_away() -> None:
    game = sea_game(buildings={SHORE: (0, "settlement")}, ships={OUT: 0, ON: 0}, pirate=SEA)
    refused(game, MoveShip(0, ON, side(SEA, 4)), "a ship next to the pirate does not move")
    far = hex_at(5, 3)  # the sea hex north-west of SEA: OUT and the coast at SHORE are its
    coast = side(far, 3)
    game = sea_game(buildings={SHORE: (0, "settlement")}, ships={OUT: 0, ON: 0})
    assert coast in ship_spots(game, 0, lifted=ON)
    game = sea_game(buildings={SHORE: (0, "settlement")}, ships={OUT: 0, ON: 0}, pirate=far)
    moves = {a.to for a in game.legal_actions() if isinstance(a, MoveShip)}
    assert moves and coast not in moves and not moves & set(T.cell_edges[far])
    refused(game, MoveShip(0, ON, coast), "no ship is moved next to the pirate (§13.4)")


# --------------------------------------------------------------------------------------------
# §13.3 item 4, §13.10, R23: settling a small island


def test_a_settlement_at_a_ships_end_on_an_island_takes_two_chits() -> None:
    cards = hand_of(brick=2, lumber=2, wool=2, grain=2)
    game = sea_game(buildings={SHORE: (0, "settlement")}, ships={OUT: 0, ON: 0}, hands={0: cards})
    before = game.victory_points(0)
    assert ISLE in {a.node for a in game.legal_actions() if isinstance(a, BuildSettlement)}
    game.apply(BuildSettlement(0, ISLE))
    assert game.islands_settled[0] == [NE_ISLAND]
    assert game.victory_points(0) == before + 1 + 2
    assert game.victory_point_breakdown(0).island_chits == 2
    assert IslandSettled(0, NE_ISLAND) in game.events
    told = Telling(game, game.config.names, Prior(PromptKind.TURN, 0, NOBODY), game.events)
    lines = [str(line.text) for line in told_lines(told, BuildSettlement(0, ISLE))]
    assert "Red settles a new island: 2 victory points (§13.10)" in lines
    assert not violations(game)


def test_the_chits_come_once_per_island_and_stay_for_good() -> None:
    """R23: a second settlement on the same island takes none; the chits stay whatever becomes
    of the buildings (counted, not looked up)."""
    gold = hex_at(7, 4)
    other = corner(gold, 3)  # the gold 10's bottom corner, two coast edges on from ISLE
    game = sea_game(
        buildings={SHORE: (0, "settlement"), ISLE: (0, "city")},
        ships={OUT: 0, ON: 0, side(gold, 4): 0, side(gold, 3): 0},
        islands={0: (NE_ISLAND,)},
        hands={0: hand_of(brick=1, lumber=1, wool=1, grain=1)},
    )
    assert T.node_island[other] == NE_ISLAND
    vp = game.victory_points(0)
    assert other in {a.node for a in game.legal_actions() if isinstance(a, BuildSettlement)}
    game.apply(BuildSettlement(0, other))
    assert game.islands_settled[0] == [NE_ISLAND] and game.victory_points(0) == vp + 1
    assert not [e for e in game.events if isinstance(e, IslandSettled)]
    data = game.to_json()
    data["buildings"] = [b for b in data["buildings"] if b["node"] not in (ISLE, other)]
    kept = Game.from_json(data)
    assert kept.islands_settled[0] == [NE_ISLAND]
    assert kept.victory_point_breakdown(0).island_chits == 2


def test_no_chits_for_a_settlement_on_the_main_island() -> None:
    pasture = hex_at(5, 4)
    cards = hand_of(brick=1, lumber=1, wool=1, grain=1)
    game = sea_game(
        buildings={SHORE: (0, "settlement")},
        roads={side(pasture, 1): 0, side(pasture, 2): 0},
        hands={0: cards},
    )
    game.apply(BuildSettlement(0, corner(pasture, 3)))
    assert game.islands_settled[0] == [] and game.victory_point_breakdown(0).island_chits == 0


# --------------------------------------------------------------------------------------------
# §13.9 Road Building with ships (R15)


def test_road_building_may_build_ships_and_they_count_as_placed() -> None:
    game = sea_game(buildings={SHORE: (0, "settlement")}, prompt="free_road", count=2)
    legal = game.legal_actions()
    assert any(isinstance(a, BuildShip) for a in legal) and any(
        isinstance(a, BuildRoad) for a in legal
    )
    assert StopEffect(0) in legal
    # The banner says a ship may be built (the island's words count roads only).
    assert said(game.describe_prompt()).endswith(": build 2 roads or ships free, or stop")
    game.apply(BuildShip(0, OUT))
    assert said(game.describe_prompt()).endswith(": build 1 road or ship free, or stop")
    game.apply(BuildShip(0, ON))
    assert ships_of(game) == {OUT, ON} and game.hand(0) == hand_of()
    assert game.ships_placed == [OUT, ON]
    assert not [a for a in game.legal_actions() if isinstance(a, MoveShip)]


# --------------------------------------------------------------------------------------------
# §13.6, R24: the Longest Trade Route


def test_roads_and_ships_join_at_the_settlement_into_one_route() -> None:
    """3 roads west of SHORE and 2 ships east of it: a route of 5 through the settlement."""
    roads = [side(hex_at(5, 4), i) for i in (1, 2, 3)]  # round the pasture 9 from SHORE
    assert SHORE in T.edge_nodes[roads[0]]
    game = sea_game(
        buildings={SHORE: (0, "settlement")},
        roads=dict.fromkeys(roads, 0),
        ships={OUT: 0, ON: 0},
    )
    assert longest_trade_route(game, 0) == 5
    assert game.longest_road_holder == 0 and game.victory_point_breakdown(0).longest_road
    # Without the settlement the road and the ships do not join (R24: not at a knight either).
    for anchor in ({}, {"knights": {SHORE: 0}}):
        game = sea_game(roads=dict.fromkeys(roads, 0), ships={OUT: 0, ON: 0}, **anchor)
        assert longest_trade_route(game, 0) == 3


def test_the_ship_at_the_end_of_the_route_moved_keeps_the_route_as_a_fresh_search_does() -> None:
    """§13.6: the route SHORE - OUT - ON is 2 long, ON its open end (at ISLE). Moved to the
    other coast edge at ISLE_TOP, where the rest of the route ends, the route is again 2, the
    moved ship with OUT; moved to the settlement's coast edges, OUT and it meet there, 2 as
    well. Each as a fresh search finds."""
    game = sea_game(buildings={SHORE: (0, "settlement")}, ships={OUT: 0, ON: 0})
    assert game.road_length[0] == 2 and game.route_paths[0] == 1 << OUT | 1 << ON
    moves = {a.to: a for a in game.legal_actions() if isinstance(a, MoveShip)}
    sibling = edge(ISLE_TOP, corner(hex_at(6, 3), 5))  # the coast edge at ISLE_TOP
    assert sibling in moves and len(moves) == 3
    for to, move in moves.items():
        moved = game.copy()
        moved.apply(move)
        assert moved.road_length[0] == 2 == longest_trade_route(moved, 0), to
        assert moved.route_paths[0] == 1 << OUT | 1 << to, to
        fresh = Game.from_json(moved.to_json())
        assert fresh.legal_actions() == moved.legal_actions(), to


def test_an_opponents_settlement_splits_the_route() -> None:
    ring = [side(SEA, i) for i in range(6)]
    game = sea_game(buildings={SHORE: (0, "settlement")}, ships=dict.fromkeys(ring, 0))
    assert longest_trade_route(game, 0) == 6
    game = sea_game(
        buildings={SHORE: (0, "settlement"), corner(SEA, 2): (1, "settlement")},
        ships=dict.fromkeys(ring, 0),
    )
    # Split at corner 2: from corner 2 round through SHORE back to corner 2 is still 6 (a
    # path may end and start on the opponent), but it may not pass it.
    assert longest_trade_route(game, 0) == 6
    game = sea_game(
        buildings={corner(SEA, 2): (1, "settlement"), corner(SEA, 5): (1, "settlement")},
        ships=dict.fromkeys(ring, 0),
    )
    assert longest_trade_route(game, 0) == 3


def _brute_force_route(pieces: list[tuple[int, bool]], own: set[int], blocked: set[int]) -> int:
    """Every ordered choice of distinct pieces, walked from either end of the first: valid if
    each next piece touches the last end, no inner intersection is blocked, and a change between
    road and ship happens only at the player's own building."""
    best = 0
    for k in range(1, len(pieces) + 1):
        for seq in itertools.permutations(pieces, k):
            for start in T.edge_nodes[seq[0][0]]:
                node, ok = start, True
                for i, (e, ship) in enumerate(seq):
                    a, b = T.edge_nodes[e]
                    if node not in (a, b):
                        ok = False
                        break
                    if i and (node in blocked or (ship != seq[i - 1][1] and node not in own)):
                        ok = False
                        break
                    node = b if node == a else a
                if ok:
                    best = max(best, k)
                    break
    return best


AREA_HEXES = (hex_at(5, 4), SEA, hex_at(5, 3), hex_at(6, 3), hex_at(7, 4))
AREA_EDGES = sorted({e for h in AREA_HEXES for e in T.cell_edges[h]})
AREA_NODES = sorted({n for h in AREA_HEXES for n in T.hex_nodes[h]})


@settings(max_examples=40)
@given(
    st.lists(st.sampled_from(AREA_EDGES), min_size=1, max_size=6, unique=True),
    st.lists(st.booleans(), min_size=6, max_size=6),
    st.sets(st.sampled_from(AREA_NODES), max_size=3),
    st.sets(st.sampled_from(AREA_NODES), max_size=2),
)
def test_the_trade_route_matches_a_brute_force_search(
    edges: list[int], as_ship: list[bool], own: set[int], theirs: set[int]
) -> None:
    """§13.6 against every ordering of the pieces, on random road and ship sets."""
    _route_against_brute_force(edges, as_ship, own, theirs)


def _route_against_brute_force(
    edges: list[int], as_ship: list[bool], own: set[int], theirs: set[int]
) -> None:
    pieces: list[tuple[int, bool]] = []
    for e, ship in zip(edges, as_ship, strict=False):
        kind = T.edge_kinds[e]
        if kind is EdgeKind.LAND:
            ship = False
        elif kind is EdgeKind.SEA:
            ship = True
        pieces.append((e, ship))
    theirs -= own
    buildings = {n: (0, "settlement") for n in own} | {n: (1, "settlement") for n in theirs}
    game = sea_game(
        buildings=buildings,
        roads={e: 0 for e, ship in pieces if not ship},
        ships={e: 0 for e, ship in pieces if ship},
    )
    best = _brute_force_route(pieces, own, theirs)
    assert longest_trade_route(game, 0) == best
    for most in (best, best + 1):  # told no path is longer: the same length, a path that long
        length, path = _trade_route(game, 0, most)
        on_path = [e for e in range(path.bit_length()) if path >> e & 1]
        assert length == len(on_path) == best
        assert set(on_path) <= set(edges)


RING = [side(SEA, i) for i in range(6)]


@settings(max_examples=30)
@given(
    st.lists(st.sampled_from(AREA_EDGES), max_size=1),
    st.lists(st.booleans(), min_size=7, max_size=7),
    st.sets(st.sampled_from(AREA_NODES), max_size=2),
    st.sets(st.sampled_from(AREA_NODES), max_size=1),
)
def test_the_trade_route_round_a_ring_matches_a_brute_force_search(
    extra: list[int], as_ship: list[bool], own: set[int], theirs: set[int]
) -> None:
    """The same on the six edges round the sea hex (a ring: every start is a through
    intersection unless a building, a blocker or a change of kind is on it) and one more."""
    _route_against_brute_force(list(dict.fromkeys(RING + extra)), as_ship, own, theirs)


def test_roads_between_two_ships_out_to_sea_are_the_route_unless_a_settlement_joins_them() -> None:
    """Two roads along the sea hex, a ship out from each end: a road and a ship meet at those
    corners, so the route is the 2 roads (a search may begin there by a road although a ship
    there leads to an end); the player's settlement at one corner joins its ship: 3."""
    roads = {side(SEA, 0): 0, side(SEA, 1): 0}
    ships = {side(SEA, 5): 0, side(SEA, 2): 0}
    assert [T.edge_kinds[e] for e in (*roads, *ships)] == [EdgeKind.COAST] * 2 + [EdgeKind.SEA] * 2
    assert longest_trade_route(sea_game(roads=roads, ships=ships), 0) == 2
    settled = sea_game(buildings={corner(SEA, 0): (0, "settlement")}, roads=roads, ships=ships)
    assert longest_trade_route(settled, 0) == 3


def test_a_ship_on_from_a_ring_of_ships_makes_the_route_one_longer() -> None:
    """Six ships round the sea hex are a route of 6; a seventh at one of its corners goes on
    round it: 7 (a ring, where both ships at that corner are on every path as long)."""
    game = sea_game(ships=dict.fromkeys(RING, 0))
    assert game.longest_road(0) == 6
    measure_routes(game, (0,))
    out = next(e for e in T.node_edges[corner(SEA, 0)] if e not in RING)
    place_ship(game, 0, out)
    assert game.road_length[0] == 7 == longest_trade_route(game, 0)


@settings(max_examples=60)
@given(
    st.lists(st.sampled_from(AREA_EDGES), min_size=2, max_size=5, unique=True),
    st.sampled_from((None, *range(6))),
    st.lists(st.booleans(), min_size=7, max_size=7),
    st.sets(st.sampled_from(AREA_NODES), max_size=2),
    st.sets(st.sampled_from(AREA_NODES), max_size=1),
    st.integers(min_value=0, max_value=10),
)
def test_a_piece_built_or_a_ship_moved_keeps_the_route_a_brute_force_search_finds(
    edges: list[int],
    ring: int | None,
    as_ship: list[bool],
    own: set[int],
    theirs: set[int],
    lifted: int,
) -> None:
    """The route measured after one more piece (the last), or after a ship moved there (the
    ``lifted``-th piece, if a ship), from the route measured before: the same length as a
    search of every ordering, round the ring too (a new piece between two of the player's
    pieces judged with no walk, or walked when they lead round a ring)."""
    if ring is not None:  # ships round the sea hex, the new piece on from its corner
        out = next(e for e in T.node_edges[corner(SEA, ring)] if e not in RING)
        edges = [*RING, out]
        as_ship = [True] * 6 + as_ship[-1:]
    pieces: list[tuple[int, bool]] = []
    for e, ship in zip(edges, as_ship, strict=False):
        kind = T.edge_kinds[e]
        pieces.append((e, (ship and kind is not EdgeKind.LAND) or kind is EdgeKind.SEA))
    theirs -= own
    *before, (new, new_ship) = pieces
    moved = lifted < len(before) and before[lifted][1] and new_ship
    buildings = {n: (0, "settlement") for n in own} | {n: (1, "settlement") for n in theirs}
    game = sea_game(
        buildings=buildings,
        roads={e: 0 for e, ship in before if not ship},
        ships={e: 0 for e, ship in before if ship},
    )
    measure_routes(game, (0,))
    if moved:
        gone = before[lifted][0]
        game.ship_owner[gone] = NOBODY
        game.ships_of[0].remove(gone)
        game.ship_owner[new] = 0
        game.ships_of[0].append(new)
        game.ships_of[0].sort()
        trade_route_ship_moved(game, 0, gone, new)
        pieces.remove(before[lifted])
    elif new_ship:
        place_ship(game, 0, new)
    else:
        place_road(game, 0, new)
    assert game.road_length[0] == _brute_force_route(pieces, own, theirs)
    path = game.route_paths[0]
    assert path is not None and path.bit_count() == game.road_length[0]
    assert {e for e in range(path.bit_length()) if path >> e & 1} <= {e for e, _ in pieces}
    core = game.route_cores[0]
    if core != NOBODY:  # every path as long holds it
        rest = [piece for piece in pieces if piece[0] != core]
        assert _brute_force_route(rest, own, theirs) == game.road_length[0] - 1


# --------------------------------------------------------------------------------------------
# R1: the target of 16, reached on the player's own turn


def test_a_settled_island_can_win_at_16() -> None:
    cards = hand_of(brick=1, lumber=1, wool=1, grain=1)
    game = sea_game(
        buildings={SHORE: (0, "settlement")},
        ships={OUT: 0, ON: 0},
        hands={0: cards},
        defender_cards={0: 12},
    )
    assert game.victory_points(0) == 13 and game.config.vp_target == 16
    game.apply(BuildSettlement(0, ISLE))
    assert game.victory_points(0) == 16 and game.winner == 0
    game = sea_game(
        buildings={SHORE: (0, "settlement")},
        ships={OUT: 0, ON: 0},
        hands={0: cards},
        defender_cards={0: 12},
        vp_target=17,
    )
    game.apply(BuildSettlement(0, ISLE))
    assert game.winner == NOBODY


# --------------------------------------------------------------------------------------------
# State JSON and Why not?


def test_ships_and_chits_round_trip_and_hostile_rows_are_refused() -> None:
    game = sea_game(
        buildings={SHORE: (0, "settlement")},
        ships={OUT: 0, ON: 0},
        placed=(ON,),
        islands={1: (1, 3)},
    )
    data = game.to_json()
    assert data["ships"] == [{"edge": e, "player": 0} for e in sorted((OUT, ON))]
    again = Game.from_json(data)
    assert again.to_json() == data
    inland = next(e for e in range(T.edge_count) if T.edge_kinds[e] is EdgeKind.LAND)
    bad = dict(data, ships=[{"edge": inland, "player": 0}])
    with pytest.raises(StateError, match="lies inland"):
        Game.from_json(bad)
    with pytest.raises(StateError, match="islands_settled"):
        Game.from_json(dict(data, islands_settled=[[], [4], [], []]))
    island_game = Game.new(GameConfig.for_players(4)).to_json()
    with pytest.raises(StateError, match="ships is no part of a game on an island"):
        Game.from_json(dict(island_game, ships=[]))


def test_why_not_knows_ships() -> None:
    island = Game.new(GameConfig.for_players(4))
    reason = island.why_not(BuildShip, 0)
    assert reason is not None
    game = sea_game(buildings={SHORE: (0, "settlement")})
    reason = game.why_not(BuildShip, 0)
    assert reason is not None and reason.private
    assert str(reason.text) == "A ship needs 1 lumber and 1 wool: you have none."
    reason = game.why_not(MoveShip, 0)
    assert reason is not None
    assert str(reason.text) == "You have no ship on the board."
    game = sea_game(buildings={SHORE: (0, "settlement")}, ships={OUT: 0, ON: 0}, moved=True)
    reason = game.why_not(MoveShip, 0)
    assert reason is not None and "one move per turn" in str(reason.text)


def test_the_diplomats_own_road_comes_back_as_a_road_never_a_ship() -> None:
    """R14: the Diplomat's re-placement keeps the piece's kind."""
    game = sea_game(buildings={SHORE: (0, "settlement")}, prompt="free_road", count=1)
    data = game.to_json()
    data["prompt"]["track"] = data["pending"][0]["track"] = "politics"
    game = Game.from_json(data)
    legal = game.legal_actions()
    assert not any(isinstance(a, BuildShip) for a in legal)
    assert any(isinstance(a, BuildRoad) for a in legal)
    refused(game, BuildShip(0, OUT), "the Diplomat's road comes back as a road (R14)")
    assert said(game.describe_prompt()).endswith(": build 1 road free, or stop")


def test_r22_the_distance_rule_counts_sea_edges() -> None:
    """ISLE_TOP is one sea edge from SHORE: no settlement there beside SHORE's, though only the
    sea lies between them."""
    cards = hand_of(brick=1, lumber=1, wool=1, grain=1)
    game = sea_game(buildings={SHORE: (0, "settlement")}, ships={OUT: 0}, hands={0: cards})
    assert ISLE_TOP not in {a.node for a in game.legal_actions() if isinstance(a, BuildSettlement)}
    refused(game, BuildSettlement(0, ISLE_TOP), "distance rule")


def test_ship_edges_per_intersection_are_its_coast_and_sea_edges() -> None:
    for n in range(T.node_count):
        assert T.node_ship_edges[n] == tuple(
            e for e in T.node_edges[n] if T.edge_kinds[e] is not EdgeKind.LAND
        )
