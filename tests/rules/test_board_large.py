"""The 5-6 player island (§12): its topology, components, the balanced generator, the table's
own board, the robber's desert, and the configs that choose it.

Rules reference (``../shared/rules/cities-and-knights.md``) §12: 30 land hexes in rows of
3-4-5-6-5-4-3 (2 desert, 6 fields, 6 forest, 6 pasture, 5 hills, 5 mountains), 28 number tokens,
11 harbours (5 generic, two wool, one of each other resource), banks of 24 / 18, 8 Defender
cards, green and brown, the robber on the desert nearer the middle.
"""

from __future__ import annotations

import re
import subprocess
import sys
from collections import Counter
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from companion_app.rules import board as board_module
from companion_app.rules import topology
from companion_app.rules.__main__ import state_digest
from companion_app.rules.board import (
    FRAME_19,
    FRAME_30,
    RED_NUMBERS,
    STARTER_BOARD,
    Board,
    frame_for_players,
    random_balanced_board,
    validate_board,
)
from companion_app.rules.board_entry import board_from_description, board_to_description
from companion_app.rules.cards import (
    BANK_START,
    BANK_START_LARGE,
    Harbour,
    Terrain,
    bank_start,
    defender_cards_in_box,
)
from companion_app.rules.config import MAX_PLAYERS, GameConfig, PlayerConfig
from companion_app.rules.errors import BoardError, ConfigError
from companion_app.rules.game import Game
from companion_app.rules.randomplay import play_random_game
from companion_app.rules.rng import SplitMix64
from companion_app.rules.topology import ISLAND_19, ISLAND_30, TOPOLOGIES, Topology

SEEDS = st.integers(min_value=0, max_value=2**64 - 1)


def raises(match: str) -> Any:
    return pytest.raises(BoardError, match=re.escape(match))


# --------------------------------------------------------------------------------------------
# §12: the 30-hex island's geometry, checked like the 19-hex one


@pytest.mark.parametrize("island", [ISLAND_19, ISLAND_30], ids=["19", "30"])
def test_s12_each_island_is_a_consistent_planar_map(island: Topology) -> None:
    hexes, nodes, edges = island.hex_count, island.node_count, island.edge_count
    assert nodes - edges + hexes == 1  # Euler: V - E + F = 2 with the sea as a face
    assert sum(island.rows) == hexes
    for h, corners in enumerate(island.hex_nodes):
        assert len(set(corners)) == 6
        ring = zip(corners, corners[1:] + corners[:1], strict=True)
        assert all((a, b) in island.edge_between for a, b in ring), h
    assert list(island.edge_nodes) == sorted(set(island.edge_nodes))
    for n in range(nodes):
        assert 1 <= len(island.node_hexes[n]) <= 3
        assert 2 <= len(island.node_edges[n]) <= 3
        assert all(n in island.node_neighbours[m] for m in island.node_neighbours[n])
        assert all(n in island.hex_nodes[h] for h in island.node_hexes[n])
    for a in range(hexes):
        for b in island.hex_neighbours[a]:
            assert a in island.hex_neighbours[b]
            assert len(set(island.hex_nodes[a]) & set(island.hex_nodes[b])) == 2
    coast = island.coastal_edges
    assert set(coast) == {e for e in range(edges) if len(island.edge_hexes[e]) == 1}
    for i, e in enumerate(coast):  # a closed ring, clockwise
        assert set(island.edge_nodes[e]) & set(island.edge_nodes[coast[(i + 1) % len(coast)]])
    harbour_nodes = [n for e in island.harbour_edges for n in island.edge_nodes[e]]
    assert len(harbour_nodes) == len(set(harbour_nodes)) == 2 * island.harbour_count
    assert set(island.harbour_edges) <= set(coast)
    assert 0 in island.edge_hexes[island.harbour_edges[0]]  # slot 0 touches the top-left hex
    assert sum(s is not None for s in island.node_harbour_slot) == 2 * island.harbour_count


def test_s12_thirty_hexes_in_rows_of_3_4_5_6_5_4_3() -> None:
    island = ISLAND_30
    assert island.rows == (3, 4, 5, 6, 5, 4, 3)
    counts = (island.hex_count, island.node_count, island.edge_count, island.harbour_count)
    assert counts == (30, 80, 109, 11)
    assert len(island.coastal_edges) == 38
    assert Counter(len(n) for n in island.hex_neighbours) == {3: 6, 4: 10, 6: 14}
    # The middle row's six hexes: ids 12-17, each end touching three neighbours.
    assert [len(island.hex_neighbours[h]) for h in range(12, 18)] == [3, 6, 6, 6, 6, 3]
    # The eleven harbours go round the whole coast: top, right, bottom and left sides.
    touched = [island.edge_hexes[e][0] for e in island.harbour_edges]
    assert touched == [0, 1, 2, 11, 17, 26, 29, 27, 23, 12, 7]
    assert TOPOLOGIES == {19: ISLAND_19, 30: ISLAND_30}


def test_the_30_hex_island_and_the_sea_maps_are_built_only_for_a_game_that_needs_them() -> None:
    """Loading the rules core, and a 4-player game and its state's round trip, build neither the
    30-hex island nor a sea map; a 6-player game builds the island once, the one the module
    names."""
    code = """
import companion_app.rules
from companion_app.rules import board, seamap, topology
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game

def built():
    return topology._island_30.cache_info().currsize, seamap._sea_maps.cache_info().currsize

print(*built())
four = Game.new(GameConfig.for_players(4, seed=3))
Game.from_json(four.to_json())
print(*built(), four.topology is topology.ISLAND_19, four.board.frame is board.FRAME_19)
six = Game.new(GameConfig.for_players(6, seed=3))
print(*built(), six.topology is topology.ISLAND_30, six.board.frame is board.FRAMES[30])
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["0 0", "0 0 True True", "1 0 True True"]


def test_the_19_hex_names_are_the_19_hex_island() -> None:
    """The module's upper-case names keep meaning the base island (3-4 players unchanged)."""
    assert topology.HEX_COUNT == 19 and topology.EDGE_COUNT == 72
    assert topology.EDGE_NODES is ISLAND_19.edge_nodes
    assert topology.HARBOUR_EDGES is ISLAND_19.harbour_edges
    assert STARTER_BOARD.topology is ISLAND_19 and STARTER_BOARD.frame is FRAME_19


# --------------------------------------------------------------------------------------------
# §12: components


def test_s12_component_tables() -> None:
    assert sum(FRAME_30.terrain_counts.values()) == 30
    assert FRAME_30.terrain_counts[Terrain.DESERT] == 2
    assert FRAME_30.terrain_counts[Terrain.FIELDS] == 6
    assert FRAME_30.terrain_counts[Terrain.HILLS] == FRAME_30.terrain_counts[Terrain.MOUNTAINS] == 5
    assert len(FRAME_30.number_tokens) == 28
    assert FRAME_30.token_counts == {2: 2, 12: 2} | {n: 3 for n in (3, 4, 5, 6, 8, 9, 10, 11)}
    assert sum(FRAME_30.harbour_counts.values()) == 11
    assert FRAME_30.harbour_counts[Harbour.GENERIC] == 5
    assert FRAME_30.harbour_counts[Harbour.WOOL] == 2
    assert bank_start(3) == bank_start(4) == BANK_START == (19,) * 5 + (12,) * 3
    assert bank_start(5) == bank_start(6) == BANK_START_LARGE == (24,) * 5 + (18,) * 3
    assert [defender_cards_in_box(n) for n in (3, 4, 5, 6)] == [6, 6, 8, 8]
    assert [frame_for_players(n) for n in (3, 4, 5, 6)] == [FRAME_19, FRAME_19, FRAME_30, FRAME_30]


# --------------------------------------------------------------------------------------------
# The random balanced board on 30 hexes: the same balance rules as on 19 (docs/board.md)


def assert_balanced(board: Board) -> None:
    validate_board(board)
    island = board.topology
    for a in range(island.hex_count):
        for b in island.hex_neighbours[a]:
            ta, tb = board.tokens[a], board.tokens[b]
            assert ta is None or ta != tb, (a, b)
            assert not (ta in RED_NUMBERS and tb in RED_NUMBERS), (a, b)


@settings(max_examples=60)
@given(SEEDS)
def test_s12_random_large_board_is_balanced_and_seeded(seed: int) -> None:
    board = random_balanced_board(seed, FRAME_30)
    assert board.frame is FRAME_30
    assert_balanced(board)
    assert random_balanced_board(seed, FRAME_30) == board
    assert len(board.deserts) == 2
    assert all(board.tokens[h] is None for h in board.deserts)


@settings(max_examples=60)
@given(SEEDS)
def test_s12_robber_starts_on_the_desert_nearer_the_middle(seed: int) -> None:
    """§12 Ruling: on a random board the desert nearer the middle, the first in reading order
    when both are as near."""
    board = random_balanced_board(seed, FRAME_30)
    a, b = board.deserts
    da, db = ISLAND_30.hex_distance2(a), ISLAND_30.hex_distance2(b)
    assert board.desert_hex == (a if da <= db else b)
    assert Game.new(GameConfig.for_players(5, seed=seed)).robber_hex == (
        random_balanced_board(seed, FRAME_30).desert_hex
    )


def test_s12_robber_start_worked_example() -> None:
    """Deserts on hex 14 (middle row, one hex from the middle) and hex 0 (a corner): 14; on
    hexes 14 and 15, as near as each other: 14, the first in reading order."""
    board = random_balanced_board(3, FRAME_30)
    terrains = list(board.terrains)
    tokens = list(board.tokens)
    for h in board.deserts:
        terrains[h], tokens[h] = Terrain.FIELDS, 0
    for near, far in ((14, 0), (14, 15)):
        t, k = list(terrains), list(tokens)
        t[near], t[far], k[near], k[far] = Terrain.DESERT, Terrain.DESERT, None, None
        assert Board(tuple(t), tuple(k), board.harbours).desert_hex == near
    assert ISLAND_30.hex_distance2(14) == ISLAND_30.hex_distance2(15) == 3


# --------------------------------------------------------------------------------------------
# The table's own board on the 30-hex frame


def test_s12_description_round_trip_with_the_tables_robber() -> None:
    board = random_balanced_board(5, FRAME_30)
    description = board_to_description(board)
    assert len(description["hexes"]) == 30 and len(description["harbours"]) == 11
    assert "robber" not in description
    assert board_from_description(description, FRAME_30) == board
    other = next(h for h in board.deserts if h != board.desert_hex)
    chosen = board_from_description(description | {"robber": other}, FRAME_30)
    assert chosen.desert_hex == other and chosen.robber_start == other
    assert board_to_description(chosen)["robber"] == other
    assert Board.from_json(chosen.to_json()) == chosen
    # The rule's own desert named: the same board as without it (one board, one JSON).
    assert board_from_description(description | {"robber": board.desert_hex}, FRAME_30) == board


def test_s12_description_errors_on_the_large_frame() -> None:
    board = random_balanced_board(5, FRAME_30)
    description = board_to_description(board)
    with raises("hex 30 does not exist; hexes are numbered 0-29"):
        board_from_description(
            description | {"hexes": [*description["hexes"][:29], {"hex": 30, "terrain": "hills"}]},
            FRAME_30,
        )
    with raises("harbour slot 10 is missing; a board has 11 harbours"):
        board_from_description(description | {"harbours": description["harbours"][:10]}, FRAME_30)
    not_desert = next(h for h in range(30) if h not in board.deserts)
    with raises(f"hex {not_desert} is not one of them"):
        board_from_description(description | {"robber": not_desert}, FRAME_30)
    with raises("the robber's desert must be a hex number"):
        board_from_description(description | {"robber": "middle"}, FRAME_30)
    # A 19-hex description keeps its two keys; the 30-hex one read as 19 names the first misfit.
    with raises("the board description has an unknown key 'robber'; the keys are hexes"):
        board_from_description(board_to_description(STARTER_BOARD) | {"robber": 9})
    with raises("hex 19 does not exist; hexes are numbered 0-18"):
        board_from_description(description)


def test_s12_large_board_counts_are_validated() -> None:
    board = random_balanced_board(8, FRAME_30)
    harbours = list(board.harbours)
    harbours[harbours.index(Harbour.WOOL)] = Harbour.GENERIC
    with raises("3:1 harbour: 6 on the table, a board has 5"):
        validate_board(replace(board, harbours=tuple(harbours)))
    with raises("a board has 11 harbours, but 9 are given"):
        validate_board(replace(board, harbours=board.harbours[:9]))
    with raises("a board has 19 land hexes (30 with 5-6 players), but 29 terrains are given"):
        validate_board(replace(board, terrains=board.terrains[:29]))
    with raises("hex 9 is not one of them"):
        validate_board(replace(STARTER_BOARD, robber_start=9))  # one desert: no choice


# --------------------------------------------------------------------------------------------
# Configs for 3-6 players


def test_s12_configs_for_five_and_six_players() -> None:
    assert MAX_PLAYERS == 6
    six = GameConfig.for_players(6, seed=9)
    assert [p.colour for p in six.players] == ["red", "blue", "white", "orange", "green", "brown"]
    assert six.board == random_balanced_board(9, FRAME_30)
    assert GameConfig.from_json(six.to_json()) == six
    with pytest.raises(ConfigError, match="5 players play on the 30-hex board"):
        GameConfig.for_players(5, board=STARTER_BOARD)
    with pytest.raises(ConfigError, match="4 players play on the 19-hex board"):
        GameConfig.for_players(4, board=random_balanced_board(1, FRAME_30))
    seven = (*six.players, PlayerConfig("Black", "black"))
    with pytest.raises(ConfigError, match="3-6 players"):
        GameConfig(players=seven, board=six.board)


def test_s12_four_player_config_json_is_unchanged() -> None:
    """3-4 players: the same config JSON as before the extension (digests and checksums)."""
    data = GameConfig.for_players(4, seed=3).to_json()
    assert list(data) == [
        "players",
        "board",
        "seed",
        "first_player",
        "vp_target",
        "barbarian_track_length",
        "easy_start",
        "quick_knights",
        "evil_barbarians",
    ]
    assert list(data["board"]) == ["terrains", "tokens", "harbours"]
    assert data["board"] == STARTER_BOARD.to_json()


def test_s12_a_six_player_game_starts_with_the_large_bank_and_island() -> None:
    game = Game.new(GameConfig.for_players(6, seed=2))
    assert game.topology is ISLAND_30
    assert game.bank == list(BANK_START_LARGE)
    assert len(game.node_owner) == 80 and len(game.edge_owner) == 109
    assert Game.from_json(game.to_json()).to_json() == game.to_json()


@pytest.mark.parametrize(
    ("players", "seed", "digest"),
    [
        (3, 5, "aa8340e946c5a48400d4a90fe9e08a1ed34edd7daeb8ce636b8782a5739d9006"),
        (3, 6, "43ec415d8a9877e8b756aa89d206ca64841e18bce34e3d35d169010592de3b06"),
        (4, 5, "6b2cd73bee6177b99475b9b8d0a0c2bbed0939e50893c2a32dd352161837e89e"),
        (4, 6, "cf9b4300663a7f8b3d0f4fce09ec5689cfdebd14a17d7d8f041d65d5f6223599"),
    ],
)
def test_three_and_four_player_states_are_byte_for_byte_as_before_the_extension(
    players: int, seed: int, digest: str
) -> None:
    """The digests of random games' final states (80 turns) taken before 5-6 players existed:
    the same state JSON, so journals' and exports' checksums hold."""
    result = play_random_game(seed, players=players, max_turns=80)
    assert result.game is not None
    assert state_digest(result.game.to_json()) == digest


@pytest.mark.parametrize("deserts", [(0, 29), (14, 15), (0, 1), (12, 17), (2, 27), (8, 21)])
def test_s12_unlimited_search_finds_a_balanced_layout_for_desert_pairs(
    deserts: tuple[int, int],
) -> None:
    """The generator's last attempt is exhaustive; on 30 hexes it ends for deserts side by
    side, at opposite corners and in the middle alike."""
    tokens = board_module._deal_tokens(
        SplitMix64(sum(deserts)).below, FRAME_30, frozenset(deserts), None
    )
    assert [tokens[h] for h in deserts] == [None, None]
    assert sorted(t for t in tokens if t is not None) == sorted(FRAME_30.number_tokens)
    for a, b in FRAME_30.adjacent_pairs:
        assert tokens[a] is None or tokens[a] != tokens[b]
        assert not (tokens[a] in RED_NUMBERS and tokens[b] in RED_NUMBERS)
