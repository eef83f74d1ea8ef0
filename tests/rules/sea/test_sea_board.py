"""Sea boards (§13.2) and the two maps of Heading for New Shores (§13.11): the geometry of
land, sea and frame, the printed terrain, tokens and harbours, the robber and pirate starts, the
configs and state JSON that carry them, and the setup on the main island.

Rules reference (``../shared/rules/cities-and-knights.md``) §13.2 (edge and intersection
kinds, islands), §13.11 (the maps, R25, R27), §13.10 and R1 (the 16 VP target).
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest

from companion_app.rules import seamap
from companion_app.rules.__main__ import state_digest
from companion_app.rules.actions import BuildRoad, BuildShip
from companion_app.rules.board import SEA_FRAMES, Board, sea_board, validate_board
from companion_app.rules.cards import Harbour, Terrain
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import BoardError, ConfigError, IllegalActionError, StateError
from companion_app.rules.game import Game
from companion_app.rules.invariants import violations
from companion_app.rules.pieces import NOBODY
from companion_app.rules.randomplay import play_random_game
from companion_app.rules.seamap import NEW_SHORES_3, NEW_SHORES_4, SEA_MAPS, SeaMap
from companion_app.rules.topology import ISLAND_19, ISLAND_30, EdgeKind, NodeKind

MAPS = (NEW_SHORES_3, NEW_SHORES_4)
T = Terrain


def hexes(sea: SeaMap, *cells: tuple[int, int]) -> tuple[int, ...]:
    return tuple(sorted(sea.cells[c] for c in cells))


# --------------------------------------------------------------------------------------------
# §13.11: the printed maps, counted


@pytest.mark.parametrize(
    ("sea", "inside", "land", "sea_hexes", "frame", "main"),
    [(NEW_SHORES_3, 35, 22, 13, 24, 14), (NEW_SHORES_4, 42, 28, 14, 26, 19)],
    ids=["3 players", "4 players"],
)
def test_the_maps_have_the_printed_counts(
    sea: SeaMap, inside: int, land: int, sea_hexes: int, frame: int, main: int
) -> None:
    t = sea.topology
    assert t.hex_count == inside
    assert len(t.land_hexes) == land
    assert sea.terrains.count(T.SEA) == sea_hexes == inside - land
    assert len(t.frame_xy) == frame
    assert t.cell_count == inside + frame
    assert len(t.islands[0]) == main
    assert len(t.islands) == 4  # the main island and three small ones
    assert t.has_sea and not ISLAND_19.has_sea


def test_the_written_out_bounds_are_the_largest_counts_of_the_islands_and_the_maps() -> None:
    every = (ISLAND_19, ISLAND_30, *(m.topology for m in SEA_MAPS.values()))
    assert (
        max(t.hex_count for t in every),
        max(t.node_count for t in every),
        max(t.edge_count for t in every),
        max(t.cell_count for t in every),
    ) == (seamap.MAX_HEXES, seamap.MAX_NODES, seamap.MAX_EDGES, seamap.MAX_CELLS)
    assert (seamap.MAX_HEXES, seamap.MAX_CELLS) == (42, 68)  # New Shores for 4 players


def test_the_maps_are_parsed_on_first_use_not_when_the_rules_core_loads() -> None:
    code = (
        "import companion_app.rules\n"
        "from companion_app.rules import board, seamap\n"
        "before = seamap._sea_maps.cache_info().currsize\n"
        "maps = board.SEA_FRAMES\n"
        "print(before, seamap._sea_maps.cache_info().currsize, sorted(maps),"
        " seamap.NEW_SHORES_4 is maps['new_shores_4'].sea_map)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["0", "1", "['new_shores_3',", "'new_shores_4']", "True"]


def test_the_small_islands_are_where_the_reference_draws_them() -> None:
    s3, s4 = NEW_SHORES_3, NEW_SHORES_4
    assert s3.topology.islands[1:] == (
        hexes(s3, (2, 1), (3, 1)),
        hexes(s3, (5, 2), (6, 2), (5, 3), (6, 4)),
        hexes(s3, (6, 6), (5, 7)),
    )
    assert s4.topology.islands[1:] == (
        hexes(s4, (2, 1), (3, 1)),
        hexes(s4, (5, 1), (6, 2), (7, 2), (6, 3), (7, 4)),
        hexes(s4, (7, 6), (6, 7)),
    )


def test_3_player_terrain_and_tokens_per_island() -> None:
    sea = NEW_SHORES_3
    main = sea.topology.islands[0]
    small = [h for island in sea.topology.islands[1:] for h in island]
    assert Counter(sea.terrains[h] for h in main) == {
        T.FIELDS: 3, T.FOREST: 3, T.PASTURE: 4, T.HILLS: 2, T.MOUNTAINS: 2
    }  # fmt: skip
    assert sorted(sea.tokens[h] for h in main) == [2, 3, 4, 5, 5, 6, 6, 8, 8, 9, 10, 10, 11, 11]  # type: ignore[type-var]
    assert Counter(sea.terrains[h] for h in small) == {
        T.GOLD: 2, T.HILLS: 2, T.MOUNTAINS: 2, T.PASTURE: 1, T.FIELDS: 1
    }  # fmt: skip
    assert sorted(sea.tokens[h] for h in small) == [3, 4, 4, 5, 8, 9, 10, 12]  # type: ignore[type-var]
    assert len(sea.number_tokens) == 22


def test_4_player_terrain_and_tokens_per_island() -> None:
    sea = NEW_SHORES_4
    main = sea.topology.islands[0]
    small = [h for island in sea.topology.islands[1:] for h in island]
    assert Counter(sea.terrains[h] for h in main) == {
        T.FIELDS: 4, T.FOREST: 4, T.PASTURE: 4, T.HILLS: 3, T.MOUNTAINS: 3, T.DESERT: 1
    }  # fmt: skip
    assert sorted(t for h in main if (t := sea.tokens[h]) is not None) == [
        2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12
    ]  # fmt: skip
    assert Counter(sea.terrains[h] for h in small) == {
        T.GOLD: 2, T.HILLS: 2, T.MOUNTAINS: 2, T.PASTURE: 1, T.FIELDS: 1, T.FOREST: 1
    }  # fmt: skip
    assert sorted(sea.tokens[h] for h in small) == [2, 3, 4, 5, 6, 8, 9, 10, 11]  # type: ignore[type-var]
    assert len(sea.number_tokens) == 27


def test_single_hexes_read_as_printed() -> None:
    """Spot checks of the letters and numbers, one per kind (§13.11's rows)."""
    s3, s4 = NEW_SHORES_3, NEW_SHORES_4
    assert (s3.terrains[s3.cells[(2, 1)]], s3.tokens[s3.cells[(2, 1)]]) == (T.HILLS, 12)
    assert (s3.terrains[s3.cells[(6, 4)]], s3.tokens[s3.cells[(6, 4)]]) == (T.GOLD, 4)
    assert (s3.terrains[s3.cells[(1, 5)]], s3.tokens[s3.cells[(1, 5)]]) == (T.HILLS, 8)
    assert (s4.terrains[s4.cells[(3, 5)]], s4.tokens[s4.cells[(3, 5)]]) == (T.DESERT, None)
    assert (s4.terrains[s4.cells[(7, 4)]], s4.tokens[s4.cells[(7, 4)]]) == (T.GOLD, 10)
    assert (s4.terrains[s4.cells[(1, 3)]], s4.tokens[s4.cells[(1, 3)]]) == (T.SEA, None)
    assert s4.cells[(8, 4)] >= s4.topology.hex_count  # a frame cell


@pytest.mark.parametrize("sea", MAPS, ids=lambda m: m.name)
def test_no_red_numbers_touch_and_no_island_touches_the_main_one(sea: SeaMap) -> None:
    t = sea.topology
    for h in range(t.hex_count):
        for n in t.hex_neighbours[h]:
            assert not (sea.tokens[h] in (6, 8) and sea.tokens[n] in (6, 8)), (h, n)
            a, b = t.hex_island[h], t.hex_island[n]
            if a is not None and b is not None:
                assert a == b, f"hexes {h} and {n} join islands {a} and {b}"


@pytest.mark.parametrize("sea", MAPS, ids=lambda m: m.name)
def test_robber_and_pirate_start_where_the_setup_says(sea: SeaMap) -> None:
    """§13.11 setup 2, R25: 3 players on the north-west islet's hills 12, 4 on the desert; the
    pirate on the frame cell east of the eastern gold field."""
    t = sea.topology
    if sea.players == 3:
        assert sea.robber_start == sea.cells[(2, 1)] and sea.terrains[sea.robber_start] is T.HILLS
        gold = sea.cells[(6, 4)]
        assert sea.pirate_start == sea.cells[(7, 4)]
    else:
        assert sea.terrains[sea.robber_start] is T.DESERT
        gold = sea.cells[(7, 4)]
        assert sea.pirate_start == sea.cells[(8, 4)]
    assert sea.terrains[gold] is T.GOLD
    assert sea.pirate_start >= t.hex_count and sea.pirate_start in t.sea_cells
    px, py = t.cell_xy(sea.pirate_start)
    gx, gy = t.hex_xy[gold]
    assert (px - gx, py - gy) == (2, 0)  # straight east, one hex over


# --------------------------------------------------------------------------------------------
# §13.2: edges, intersections, islands


@pytest.mark.parametrize("sea", MAPS, ids=lambda m: m.name)
def test_edge_kinds_follow_the_hexes_on_either_side(sea: SeaMap) -> None:
    t = sea.topology
    land = set(t.land_hexes)
    for e in range(t.edge_count):
        beside = t.edge_hexes[e]
        assert 1 <= len(beside) <= 2  # no edge between two frame cells (R6)
        count = sum(h in land for h in beside)  # a missing side is a frame cell: sea
        assert t.edge_kinds[e] is (EdgeKind.SEA, EdgeKind.COAST, EdgeKind.LAND)[count]
    assert set(t.coastal_edges) == {
        e for e in range(t.edge_count) if t.edge_kinds[e] is EdgeKind.COAST
    }


@pytest.mark.parametrize("sea", MAPS, ids=lambda m: m.name)
def test_intersection_kinds_and_islands(sea: SeaMap) -> None:
    t = sea.topology
    land = set(t.land_hexes)
    for n in range(t.node_count):
        touching = t.node_hexes[n]
        on_land = [h for h in touching if h in land]
        kind = t.node_kinds[n]
        if not on_land:
            assert kind is NodeKind.SEA and t.node_island[n] is None
        else:
            full = len(touching) == 3 and len(on_land) == 3
            assert kind is (NodeKind.LAND if full else NodeKind.COASTAL)
            assert {t.hex_island[h] for h in on_land} == {t.node_island[n]}
    assert set(t.setup_nodes) == {n for n in range(t.node_count) if t.node_island[n] == 0}


@pytest.mark.parametrize("sea", MAPS, ids=lambda m: m.name)
def test_cell_edges_of_hexes_and_frame_cells(sea: SeaMap) -> None:
    """A hex has its six edges; a frame cell those it shares with a hex (§13.4: the pirate's
    hex blocks the edges round it)."""
    t = sea.topology
    assert len(t.cell_edges) == t.cell_count
    for h in range(t.hex_count):
        assert len(t.cell_edges[h]) == 6
        assert all(h in t.edge_hexes[e] for e in t.cell_edges[h])
    for c in range(t.hex_count, t.cell_count):
        assert 1 <= len(t.cell_edges[c]) <= 3
        assert all(len(t.edge_hexes[e]) == 1 for e in t.cell_edges[c])
        assert all(t.edge_kinds[e] is not EdgeKind.LAND for e in t.cell_edges[c])
    # Every edge with the frame on one side belongs to exactly one frame cell.
    framed = [e for c in range(t.hex_count, t.cell_count) for e in t.cell_edges[c]]
    assert sorted(framed) == [e for e in range(t.edge_count) if len(t.edge_hexes[e]) == 1]


def test_the_islands_keep_their_geometry_and_read_as_all_land() -> None:
    t = ISLAND_19
    assert (
        t.land_hexes == tuple(range(19)) and t.frame_xy == () and t.islands == (tuple(range(19)),)
    )
    assert t.setup_nodes == tuple(range(54))
    assert {t.edge_kinds[e] for e in t.coastal_edges} == {EdgeKind.COAST}
    assert t.edge_kinds.count(EdgeKind.LAND) == 72 - 30
    assert NodeKind.SEA not in t.node_kinds


# --------------------------------------------------------------------------------------------
# Harbours (§13.11)


def test_3_player_harbours_are_fixed_on_their_spots() -> None:
    sea = NEW_SHORES_3
    board = sea_board(sea, 1)
    assert board.harbours == (
        Harbour.GRAIN, Harbour.GENERIC, Harbour.WOOL, Harbour.GENERIC, Harbour.LUMBER,
        Harbour.BRICK, Harbour.GENERIC, Harbour.ORE,
    )  # fmt: skip
    assert sea_board(sea, 2) == board


def test_every_sea_board_is_valid_whatever_the_seed() -> None:
    # sea_board does not validate each game's board: the printed maps must make it valid.
    for sea in SEA_MAPS.values():
        for seed in range(40):
            validate_board(sea_board(sea, seed))


def test_4_player_harbours_are_shuffled_by_the_seed() -> None:
    boards = {sea_board(NEW_SHORES_4, seed).harbours for seed in range(12)}
    assert len(boards) > 6
    for harbours in boards:
        assert Counter(harbours) == {
            Harbour.GENERIC: 4, Harbour.BRICK: 1, Harbour.LUMBER: 1, Harbour.WOOL: 1,
            Harbour.GRAIN: 1, Harbour.ORE: 1,
        }  # fmt: skip
    assert sea_board(NEW_SHORES_4, 7) == sea_board(NEW_SHORES_4, 7)


@pytest.mark.parametrize("sea", MAPS, ids=lambda m: m.name)
def test_harbours_lie_on_the_main_islands_coast(sea: SeaMap) -> None:
    t = sea.topology
    assert t.harbour_count == (8 if sea.players == 3 else 9)
    for e in t.harbour_edges:
        assert t.edge_kinds[e] is EdgeKind.COAST
        assert {t.node_island[n] for n in t.edge_nodes[e]} == {0}  # none on a small island
    slots = [s for s in t.node_harbour_slot if s is not None]
    assert Counter(slots) == dict.fromkeys(range(t.harbour_count), 2)  # no two share a corner


def test_the_first_3_player_harbour_is_the_grain_one_west_of_fields_4() -> None:
    sea = NEW_SHORES_3
    t = sea.topology
    h = sea.cells[(2, 3)]
    assert (sea.terrains[h], sea.tokens[h]) == (T.FIELDS, 4)
    e = t.harbour_edges[0]
    assert t.edge_hexes[e] == (sea.cells[(1, 3)], h)  # the sea hex west of it, then the hex
    assert sea.terrains[sea.cells[(1, 3)]] is T.SEA
    hx, hy = t.hex_xy[h]
    assert [t.node_xy[n] for n in t.edge_nodes[e]] == [(hx - 1, hy - 1), (hx - 1, hy + 1)]


# --------------------------------------------------------------------------------------------
# Boards and their JSON


@pytest.mark.parametrize("sea", MAPS, ids=lambda m: m.name)
def test_a_sea_board_round_trips_through_json(sea: SeaMap) -> None:
    board = sea_board(sea, 3)
    data = board.to_json()
    assert data["map"] == sea.name and len(data["terrains"]) == sea.topology.hex_count
    assert Board.from_json(data) == board
    assert board.topology is sea.topology and board.frame is SEA_FRAMES[sea.name]
    assert board.desert_hex == sea.robber_start


def test_a_board_must_keep_the_maps_sea_where_it_is() -> None:
    """R27: a table's own layout keeps the map; sea stays sea, land stays land."""
    board = sea_board(NEW_SHORES_4, 0)
    s = NEW_SHORES_4.cells
    sea_h, land_h = s[(1, 3)], s[(2, 3)]
    terrains = list(board.terrains)
    terrains[sea_h], terrains[land_h] = terrains[land_h], terrains[sea_h]
    tokens = list(board.tokens)
    tokens[sea_h], tokens[land_h] = tokens[land_h], tokens[sea_h]
    swapped = replace(board, terrains=tuple(terrains), tokens=tuple(tokens))
    with pytest.raises(BoardError, match=re.escape(f"hex {sea_h} is sea on this map, not pasture")):
        validate_board(swapped)
    tokens = list(board.tokens)
    tokens[sea_h] = 5
    with pytest.raises(BoardError, match=re.escape(f"hex {sea_h}: a sea hex has no number token")):
        validate_board(replace(board, tokens=tuple(tokens)))


def test_an_island_board_has_neither_sea_nor_gold() -> None:
    from companion_app.rules.board import STARTER_BOARD

    terrains = list(STARTER_BOARD.terrains)
    terrains[9] = T.SEA
    with pytest.raises(BoardError, match="an island has no sea"):
        validate_board(replace(STARTER_BOARD, terrains=tuple(terrains)))
    data: dict[str, Any] = sea_board(NEW_SHORES_3, 0).to_json()
    data["map"] = "fog_island"
    with pytest.raises(BoardError, match="map"):
        Board.from_json(data)


# --------------------------------------------------------------------------------------------
# Configs (R1) and state JSON


def test_new_shores_config_is_for_3_or_4_players_on_its_own_map() -> None:
    c3 = GameConfig.for_players(3, scenario="new_shores", seed=5)
    assert c3.board.sea_map == "new_shores_3" and c3.vp_target == 16
    assert GameConfig.for_players(4, scenario="new_shores", vp_target=14).vp_target == 14
    with pytest.raises(ConfigError, match="for 3 or 4 players, got 5"):
        GameConfig.for_players(5, scenario="new_shores")
    with pytest.raises(ConfigError, match="its 4-player map"):
        GameConfig.for_players(4, scenario="new_shores", board=c3.board)
    with pytest.raises(ConfigError, match="Heading for New Shores"):
        GameConfig.for_players(3, board=c3.board)


def test_new_shores_config_round_trips_and_island_configs_are_unchanged() -> None:
    config = GameConfig.for_players(4, scenario="new_shores", seed=9)
    data = config.to_json()
    assert data["scenario"] == "new_shores" and data["vp_target"] == 16
    assert GameConfig.from_json(data) == config
    assert "scenario" not in GameConfig.for_players(4).to_json()
    assert "map" not in GameConfig.for_players(4).to_json()["board"]


@pytest.mark.parametrize("players", [3, 4])
def test_the_state_carries_the_pirate_only_on_a_sea_board(players: int) -> None:
    game = Game.new(GameConfig.for_players(players, scenario="new_shores", seed=1))
    sea = SEA_MAPS[f"new_shores_{players}"]
    assert game.pirate_cell == sea.pirate_start
    assert game.robber_hex == sea.robber_start
    data = game.to_json()
    assert data["pirate"] == sea.pirate_start
    again = Game.from_json(data)
    assert state_digest(again.to_json()) == state_digest(data)
    data["pirate"] = sea.topology.islands[0][0]
    with pytest.raises(StateError, match="pirate stands on land"):
        Game.from_json(data)
    island = Game.new(GameConfig.for_players(players)).to_json()
    assert "pirate" not in island
    island["pirate"] = 3
    with pytest.raises(StateError, match="pirate is no part of a game on an island"):
        Game.from_json(island)
    assert Game.new(GameConfig.for_players(players)).pirate_cell == NOBODY


# --------------------------------------------------------------------------------------------
# Setup on the main island (§13.11 setup 3) and roads on land and coast (§13.2)


@pytest.mark.parametrize("players", [3, 4])
def test_setup_offers_only_the_main_island(players: int) -> None:
    game = Game.new(GameConfig.for_players(players, scenario="new_shores", seed=2))
    t = game.topology
    offered = {a.node for a in game.legal_actions()}  # type: ignore[attr-defined]
    assert offered == set(t.setup_nodes)
    small = next(n for n in range(t.node_count) if t.node_island[n] == 1)
    with pytest.raises(IllegalActionError, match="main island"):
        game.apply(replace(game.legal_actions()[0], node=small))  # type: ignore[type-var]


def test_a_coastal_setup_settlement_takes_a_road_on_land_or_coast_never_at_sea() -> None:
    game = Game.new(GameConfig.for_players(3, scenario="new_shores", seed=2))
    t = game.topology
    # A corner of the main island touching land once and the sea twice: one coast... find one
    # with a sea edge among its three.
    node = next(
        n for n in t.setup_nodes if any(t.edge_kinds[e] is EdgeKind.SEA for e in t.node_edges[n])
    )
    game.apply(replace(game.legal_actions()[0], node=node))  # type: ignore[type-var]
    legal = game.legal_actions()
    roads = {a.edge for a in legal if isinstance(a, BuildRoad)}
    assert roads == {e for e in t.node_edges[node] if t.edge_kinds[e] is not EdgeKind.SEA}
    ships = {a.edge for a in legal if isinstance(a, BuildShip)}  # §13.3 item 3
    assert ships == {e for e in t.node_edges[node] if t.edge_kinds[e] is not EdgeKind.LAND}
    sea_edge = next(e for e in t.node_edges[node] if t.edge_kinds[e] is EdgeKind.SEA)
    with pytest.raises(IllegalActionError, match="lies at sea"):
        game.apply(replace(game.legal_actions()[0], edge=sea_edge))  # type: ignore[type-var]


def test_the_robber_never_goes_to_sea() -> None:
    from companion_app.rules.operations import robber_targets

    game = Game.new(GameConfig.for_players(4, scenario="new_shores", seed=2))
    targets = robber_targets(game)
    assert set(targets) == set(game.topology.land_hexes) - {game.robber_hex}


def test_gold_pays_no_fixed_card() -> None:
    """§13.5: a gold field pays choices, never its own fixed card; ordinary production leaves
    it out (the choices come with the gold rules)."""
    game = Game.new(GameConfig.for_players(3, scenario="new_shores", seed=2))
    gold = [h for h in game.topology.land_hexes if game.board.terrains[h] is T.GOLD]
    assert len(gold) == 2
    for number, where in game.token_hexes.items():
        assert not set(where) & set(gold), number


@pytest.mark.parametrize(("players", "seed"), [(3, 0), (3, 1), (4, 0), (4, 1)])
def test_random_new_shores_games_keep_every_invariant(players: int, seed: int) -> None:
    result = play_random_game(
        seed, players=players, scenario="new_shores", max_turns=120, check=True
    )
    assert result.violation is None
    game = result.game
    assert game is not None and not violations(game)
    assert game.turn > 20
