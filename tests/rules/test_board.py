"""The board model: topology, the starter layout, the balanced generator, descriptions.

Rules reference (``../shared/rules/cities-and-knights.md``): §1 components (19 land hexes,
number tokens, 9 harbours), §2 setup (board as in the base game, beginner layout or random, the
robber on the desert).
"""

from __future__ import annotations

import ast
import copy
import inspect
import itertools
import json
import re
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion_app.rules import board as board_module
from companion_app.rules.board import (
    FRAME_19,
    FRAME_30,
    RED_NUMBERS,
    STARTER_BOARD,
    Board,
    Frame,
    random_balanced_board,
    validate_board,
)
from companion_app.rules.board_entry import board_from_description, board_to_description
from companion_app.rules.cards import (
    HARBOUR_COUNTS,
    ISLAND_TERRAINS,
    NUMBER_TOKENS,
    TERRAIN_COUNTS,
    Harbour,
    Terrain,
)
from companion_app.rules.errors import BoardError, RulesError
from companion_app.rules.messages import Msg
from companion_app.rules.rng import SplitMix64
from companion_app.rules.topology import (
    COASTAL_EDGES,
    EDGE_BETWEEN,
    EDGE_COUNT,
    EDGE_HEXES,
    EDGE_NODES,
    HARBOUR_COUNT,
    HARBOUR_EDGES,
    HEX_COUNT,
    HEX_NEIGHBOURS,
    HEX_NODES,
    NODE_COUNT,
    NODE_EDGES,
    NODE_HARBOUR_SLOT,
    NODE_HEXES,
    NODE_NEIGHBOURS,
)

REPO = Path(__file__).resolve().parents[2]
SEEDS = st.integers(min_value=0, max_value=2**64 - 1)
ADJACENT = [(a, b) for a in range(HEX_COUNT) for b in HEX_NEIGHBOURS[a] if a < b]


def raises(match: str) -> Any:
    """``pytest.raises(BoardError)`` whose message contains ``match`` literally."""
    return pytest.raises(BoardError, match=re.escape(match))


# --------------------------------------------------------------------------------------------
# §1 components, §2 setup: the island's geometry


def test_s1_topology_counts() -> None:
    """§1/§2: 19 land hexes, 54 intersections, 72 edges, 9 harbours; Euler's formula holds."""
    assert (HEX_COUNT, NODE_COUNT, EDGE_COUNT, HARBOUR_COUNT) == (19, 54, 72, 9)
    assert len(HEX_NODES) == 19
    assert len(NODE_HEXES) == len(NODE_EDGES) == 54
    assert len(EDGE_NODES) == len(EDGE_HEXES) == 72
    assert NODE_COUNT - EDGE_COUNT + HEX_COUNT == 1  # V - E + F = 2 with the sea as a face


def test_s1_every_hex_has_six_distinct_intersections_and_edges() -> None:
    for h, nodes in enumerate(HEX_NODES):
        assert len(set(nodes)) == 6, h
        ring = zip(nodes, nodes[1:] + nodes[:1], strict=True)
        assert all((a, b) in EDGE_BETWEEN for a, b in ring), h


def test_s1_intersections_touch_one_to_three_hexes_and_have_degree_two_or_three() -> None:
    assert all(1 <= len(hexes) <= 3 for hexes in NODE_HEXES)
    assert all(2 <= len(edges) <= 3 for edges in NODE_EDGES)
    assert Counter(len(h) for h in NODE_HEXES) == {1: 18, 2: 12, 3: 24}
    for n in range(NODE_COUNT):
        assert all(n in NODE_NEIGHBOURS[m] for m in NODE_NEIGHBOURS[n])
        assert all(n in HEX_NODES[h] for h in NODE_HEXES[n])


def test_s1_edges_are_sorted_pairs_with_one_or_two_hexes() -> None:
    assert list(EDGE_NODES) == sorted(EDGE_NODES)
    assert len(set(EDGE_NODES)) == EDGE_COUNT
    for e, (a, b) in enumerate(EDGE_NODES):
        assert a < b
        assert EDGE_BETWEEN[(a, b)] == EDGE_BETWEEN[(b, a)] == e
        assert 1 <= len(EDGE_HEXES[e]) <= 2


def test_s1_thirty_coastal_edges_form_a_closed_ring() -> None:
    assert len(COASTAL_EDGES) == 30
    assert set(COASTAL_EDGES) == {e for e in range(EDGE_COUNT) if len(EDGE_HEXES[e]) == 1}
    for i, e in enumerate(COASTAL_EDGES):
        following = COASTAL_EDGES[(i + 1) % 30]
        assert set(EDGE_NODES[e]) & set(EDGE_NODES[following]), (e, following)


def test_s1_hex_adjacency_is_symmetric_with_42_pairs() -> None:
    for a in range(HEX_COUNT):
        assert a not in HEX_NEIGHBOURS[a]
        assert all(a in HEX_NEIGHBOURS[b] for b in HEX_NEIGHBOURS[a])
        for b in HEX_NEIGHBOURS[a]:
            assert len(set(HEX_NODES[a]) & set(HEX_NODES[b])) == 2  # they share an edge
    assert len(ADJACENT) == 42
    assert Counter(len(n) for n in HEX_NEIGHBOURS) == {3: 6, 4: 6, 6: 7}


def test_s1_nine_harbour_slots_on_distinct_coastal_edges_sharing_no_intersection() -> None:
    assert len(HARBOUR_EDGES) == len(set(HARBOUR_EDGES)) == 9
    assert set(HARBOUR_EDGES) <= set(COASTAL_EDGES)
    nodes = [n for e in HARBOUR_EDGES for n in EDGE_NODES[e]]
    assert len(nodes) == len(set(nodes)) == 18
    assert 0 in EDGE_HEXES[HARBOUR_EDGES[0]]  # slot 0 touches the top-left hex
    for n in range(NODE_COUNT):
        slot = NODE_HARBOUR_SLOT[n]
        assert slot is None or n in EDGE_NODES[HARBOUR_EDGES[slot]]
    assert sum(s is not None for s in NODE_HARBOUR_SLOT) == 18


def test_s1_component_tables() -> None:
    """§1: 19 terrain hexes, 18 number tokens (no 7), 4 generic + 5 special harbours."""
    assert sum(TERRAIN_COUNTS.values()) == HEX_COUNT
    assert len(NUMBER_TOKENS) == HEX_COUNT - 1 and 7 not in NUMBER_TOKENS
    assert sum(HARBOUR_COUNTS.values()) == HARBOUR_COUNT
    assert HARBOUR_COUNTS[Harbour.GENERIC] == 4


# --------------------------------------------------------------------------------------------
# §2 setup: the beginner layout


def test_s2_starter_board_is_valid() -> None:
    validate_board(STARTER_BOARD)
    assert STARTER_BOARD.desert_hex == 9
    assert STARTER_BOARD.tokens[9] is None
    assert STARTER_BOARD.hexes_with_token(6) == (4, 17)
    assert STARTER_BOARD.hexes_with_token(8) == (11, 12)
    assert STARTER_BOARD.hexes_with_token(7) == ()


def _starter_docstring() -> str:
    tree = ast.parse(inspect.getsource(board_module))
    for node, following in zip(tree.body, tree.body[1:], strict=False):
        if (
            isinstance(node, ast.Assign)
            and any(isinstance(t, ast.Name) and t.id == "STARTER_BOARD" for t in node.targets)
            and isinstance(following, ast.Expr)
            and isinstance(following.value, ast.Constant)
        ):
            return str(following.value.value)
    raise AssertionError("STARTER_BOARD has no docstring")


def _parse_layout(text: str) -> tuple[list[tuple[str, int | None]], list[str]]:
    """(terrain, token) per hex from 'row N: ...' lines, and the harbour list after 'slots'."""
    hexes: list[tuple[str, int | None]] = []
    for line in text.splitlines():
        match = re.match(r"\s*row \d[^:]*:\s*(.*)$", line)
        if match:
            for item in match.group(1).split(","):
                words = item.split()
                hexes.append((words[0], int(words[1]) if len(words) > 1 else None))
    harbour_text = text.split("(slots 0")[1].split(":", 1)[1].split(".")[0]
    return hexes, [h.strip() for h in harbour_text.replace("\n", " ").split(",")]


def _as_layout(board: Board) -> tuple[list[tuple[str, int | None]], list[str]]:
    return (
        [(t.value, n) for t, n in zip(board.terrains, board.tokens, strict=True)],
        [h.value for h in board.harbours],
    )


def test_s2_starter_board_matches_its_docstring() -> None:
    assert _parse_layout(_starter_docstring()) == _as_layout(STARTER_BOARD)


def test_s2_starter_board_matches_docs() -> None:
    docs = (REPO / "docs" / "board.md").read_text()
    starter_section = docs.split("## The starter layout")[1].split("## ")[0]
    assert _parse_layout(starter_section.replace("–", "-")) == _as_layout(STARTER_BOARD)


def test_s2_docs_description_example_is_the_starter_board() -> None:
    docs = (REPO / "docs" / "board.md").read_text()
    blocks = re.findall(r"```json\n(.*?)```", docs, flags=re.S)
    example = next(b for b in blocks if '"hexes"' in b)
    assert board_from_description(json.loads(example)) == STARTER_BOARD


# --------------------------------------------------------------------------------------------
# §2 setup: the random balanced board


def assert_balanced(board: Board) -> None:
    validate_board(board)
    assert board.tokens[board.desert_hex] is None
    for a, b in ADJACENT:
        ta, tb = board.tokens[a], board.tokens[b]
        assert ta is None or ta != tb, f"hexes {a} and {b} both show {ta}"
        assert not (ta in RED_NUMBERS and tb in RED_NUMBERS), (a, b, ta, tb)


@given(SEEDS)
def test_s2_generated_boards_are_valid_and_balanced(seed: int) -> None:
    assert_balanced(random_balanced_board(seed))


@given(SEEDS)
def test_s2_generator_is_deterministic_per_seed(seed: int) -> None:
    assert random_balanced_board(seed) == random_balanced_board(seed)
    assert random_balanced_board(seed) == random_balanced_board(seed + 2**64)  # low 64 bits


@given(SEEDS, SEEDS)
def test_s2_generator_differs_across_seeds(a: int, b: int) -> None:
    if a != b:
        assert random_balanced_board(a) != random_balanced_board(b)


def test_s2_generator_shuffles_desert_tokens_and_harbours() -> None:
    boards = [random_balanced_board(seed) for seed in range(300)]
    assert {b.desert_hex for b in boards} == set(range(HEX_COUNT))
    assert len({b.harbours for b in boards}) > 250
    assert len({b.tokens for b in boards}) == 300
    for b in boards:
        assert_balanced(b)


def test_s2_generator_known_seed_is_pinned() -> None:
    """Saved games and tables rely on a seed's board: changing the generator is deliberate."""
    assert random_balanced_board(2024).to_json() == {
        "terrains": [
            "fields", "forest", "hills", "mountains", "forest", "hills", "pasture", "forest",
            "mountains", "desert", "fields", "hills", "fields", "pasture", "mountains",
            "pasture", "fields", "pasture", "forest",
        ],
        "tokens": [11, 6, 4, 6, 10, 9, 12, 5, 11, None, 5, 8, 4, 8, 3, 2, 3, 9, 10],
        "harbours": ["3:1", "wool", "3:1", "ore", "lumber", "brick", "3:1", "grain", "3:1"],
    }  # fmt: skip


@pytest.mark.parametrize("desert", range(HEX_COUNT))
def test_s2_unlimited_search_finds_a_balanced_layout_for_every_desert_hex(desert: int) -> None:
    """The generator's last attempt is exhaustive, so it ends for any desert position."""
    rng = SplitMix64(desert)
    tokens = board_module._deal_tokens(rng.below, FRAME_19, frozenset({desert}), None)
    assert tokens[desert] is None
    assert sorted(t for t in tokens if t is not None) == sorted(NUMBER_TOKENS)
    for a, b in ADJACENT:
        assert tokens[a] is None or tokens[a] != tokens[b]
        assert not (tokens[a] in RED_NUMBERS and tokens[b] in RED_NUMBERS)


def test_s2_generator_restarts_and_falls_back_when_out_of_budget(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """With a budget too small for any attempt, the unlimited last attempt still delivers."""
    calls: list[int | None] = []
    real = board_module._deal_tokens

    def counting(
        below: Any, frame: Frame, deserts: frozenset[int], budget: int | None
    ) -> tuple[int | None, ...]:
        calls.append(budget)
        return real(below, frame, deserts, budget)

    monkeypatch.setattr(board_module, "_NODE_BUDGET", 1)
    monkeypatch.setattr(board_module, "_deal_tokens", counting)
    assert_balanced(random_balanced_board(7))
    assert calls == [1] * board_module._BUDGETED_ATTEMPTS + [None]


# --------------------------------------------------------------------------------------------
# JSON round trips


@given(SEEDS)
def test_json_round_trip(seed: int) -> None:
    board = random_balanced_board(seed)
    data = json.loads(json.dumps(board.to_json()))
    assert Board.from_json(data) == board
    assert board_from_description(json.loads(json.dumps(board_to_description(board)))) == board


def test_starter_json_round_trip() -> None:
    assert Board.from_json(json.loads(json.dumps(STARTER_BOARD.to_json()))) == STARTER_BOARD


@pytest.mark.parametrize(
    "data",
    [
        [],
        {},
        {"terrains": "hills", "tokens": [], "harbours": []},
        {"terrains": ["lava"], "tokens": [], "harbours": []},
        {**STARTER_BOARD.to_json(), "tokens": ["6"] * 19},
        {**STARTER_BOARD.to_json(), "tokens": [True] * 19},
        {**STARTER_BOARD.to_json(), "harbours": ["2:1"] * 9},
    ],
)
def test_from_json_rejects_malformed_data(data: Any) -> None:
    with raises("board JSON is malformed"):
        Board.from_json(data)


def test_from_json_validates_the_board() -> None:
    data = STARTER_BOARD.to_json()
    data["tokens"][9] = 5
    with raises("hex 9: the desert must not have a number token"):
        Board.from_json(data)


# --------------------------------------------------------------------------------------------
# validate_board: mutations of valid boards (§1 components, §2 setup)


def with_tokens(board: Board, changes: dict[int, int | None]) -> Board:
    tokens = list(board.tokens)
    for h, t in changes.items():
        tokens[h] = t
    return replace(board, tokens=tuple(tokens))


def swap_tokens(board: Board, a: int, b: int) -> Board:
    return with_tokens(board, {a: board.tokens[b], b: board.tokens[a]})


def test_board_error_is_a_value_error() -> None:
    assert issubclass(BoardError, RulesError) and issubclass(BoardError, ValueError)


def test_s1_mutation_wrong_sizes() -> None:
    with raises("a board has 19 land hexes (30 with 5-6 players), but 18 terrains are given"):
        validate_board(replace(STARTER_BOARD, terrains=STARTER_BOARD.terrains[:18]))
    with raises("a board has 19 land hexes, but 20 token entries are given"):
        validate_board(replace(STARTER_BOARD, tokens=(*STARTER_BOARD.tokens, 5)))
    with raises("a board has 9 harbours, but 8 are given"):
        validate_board(replace(STARTER_BOARD, harbours=STARTER_BOARD.harbours[1:]))


def test_s1_mutation_wrong_types() -> None:
    terrains: Any = ("hills", *STARTER_BOARD.terrains[1:])
    with raises("hex 0: 'hills' is not a terrain"):
        validate_board(replace(STARTER_BOARD, terrains=terrains))
    tokens: Any = ("10", *STARTER_BOARD.tokens[1:])
    with raises("hex 0: the token must be a number or None, got '10'"):
        validate_board(replace(STARTER_BOARD, tokens=tokens))
    harbours: Any = (*STARTER_BOARD.harbours[:8], "ore")
    with raises("harbour slot 8: 'ore' is not a harbour"):
        validate_board(replace(STARTER_BOARD, harbours=harbours))


def test_s1_mutation_terrain_count() -> None:
    terrains = list(STARTER_BOARD.terrains)
    terrains[2] = Terrain.HILLS  # a forest becomes hills
    with raises("hills: 4 hexes, a board has 3"):
        validate_board(replace(STARTER_BOARD, terrains=tuple(terrains)))
    terrains = list(STARTER_BOARD.terrains)
    terrains[9] = Terrain.FOREST  # no desert any more (and five forests)
    with raises("forest: 5 hexes, a board has 4"):
        validate_board(replace(STARTER_BOARD, terrains=tuple(terrains)))
    terrains = list(STARTER_BOARD.terrains)
    terrains[2] = Terrain.DESERT  # a second desert instead of a forest
    with raises("desert: 2 hexes, a board has 1"):
        validate_board(replace(STARTER_BOARD, terrains=tuple(terrains)))


def test_s1_mutation_terrain_count_names_the_surplus_first() -> None:
    """The kind there is too much of is named, since that tile lies on the table."""
    terrains: list[Terrain] = [
        Terrain.FOREST if t is Terrain.HILLS else t for t in STARTER_BOARD.terrains
    ]
    with raises("forest: 7 hexes, a board has 4"):
        validate_board(replace(STARTER_BOARD, terrains=tuple(terrains)))
    terrains = [Terrain.HILLS if t is Terrain.DESERT else t for t in STARTER_BOARD.terrains]
    with raises("hills: 4 hexes, a board has 3"):
        validate_board(replace(with_tokens(STARTER_BOARD, {9: 2}), terrains=tuple(terrains)))


def test_s1_count_wording_has_plural_forms() -> None:
    """One hex reads in the singular, any other count in the plural (the reader's language
    picks its own forms from the count)."""
    assert str(board_module._terrain_count(Terrain.HILLS, 1, 3)) == "hills: 1 hex, a board has 3"
    assert (
        str(board_module._terrain_count(Terrain.FIELDS, 0, 4)) == "fields: 0 hexes, a board has 4"
    )
    assert str(board_module._token_count(12, 1, 2)) == "number 12: 1 token, a board has 2"


FRAMES_ENTERED = st.sampled_from([FRAME_19, FRAME_30])


@st.composite
def boards_entered_on_the_screen(draw: st.DrawFn) -> tuple[dict[str, Any], Frame]:
    """A description as the build-table screen writes it: a valid board with a few taps
    changed. A position may be left empty, a hex given any terrain and any token of 2-6 and
    8-12 or none yet, two hexes' tokens swapped, a slot any harbour, the robber any hex (on 30
    hexes)."""
    frame = draw(FRAMES_ENTERED)
    board = random_balanced_board(draw(SEEDS), frame)
    description = board_to_description(board)
    hexes, slots = frame.topology.hex_count, frame.topology.harbour_count
    for _ in range(draw(st.integers(0, 3))):
        taps = ["empty hex", "empty slot", "hex", "swap tokens", "harbour", "robber"]
        tap = draw(st.sampled_from(taps))
        if tap == "empty hex" and description["hexes"]:
            del description["hexes"][draw(st.integers(0, len(description["hexes"]) - 1))]
        elif tap == "empty slot" and description["harbours"]:
            del description["harbours"][draw(st.integers(0, len(description["harbours"]) - 1))]
        elif tap == "hex" and description["hexes"]:
            entry = description["hexes"][draw(st.integers(0, len(description["hexes"]) - 1))]
            entry["terrain"] = draw(st.sampled_from(ISLAND_TERRAINS)).value  # the palette
            entry["token"] = draw(st.none() | st.sampled_from(sorted(set(NUMBER_TOKENS))))
        elif tap == "swap tokens" and len(description["hexes"]) > 1:
            a, b = draw(st.lists(st.sampled_from(description["hexes"]), min_size=2, max_size=2))
            a["token"], b["token"] = b["token"], a["token"]
        elif tap == "harbour" and description["harbours"]:
            entry = description["harbours"][draw(st.integers(0, len(description["harbours"]) - 1))]
            entry["harbour"] = draw(st.sampled_from(list(Harbour))).value
        elif tap == "robber" and frame is FRAME_30:
            description["robber"] = draw(st.integers(0, hexes - 1))
    assert slots == len(board.harbours)
    return description, frame


@given(boards_entered_on_the_screen())
def test_s2_every_problem_a_table_can_enter_is_a_message(
    entered: tuple[dict[str, Any], Frame],
) -> None:
    """What the build-table screen shows is a message in the table's language, never the
    English of a broken file: each refusal of a board entered tap by tap carries one."""
    description, frame = entered
    try:
        board_from_description(description, frame)
    except BoardError as error:
        assert isinstance(error.message, Msg), str(error)


def test_s2_mutation_token_swapped_onto_the_desert() -> None:
    board = swap_tokens(STARTER_BOARD, 9, 4)  # the 6 of hex 4 moves onto the desert
    with raises("hex 4 (hills) has no number token; every hex except the desert has one"):
        validate_board(board)
    board = swap_tokens(STARTER_BOARD, 9, 14)  # hex 14's 4 moves onto the desert (hex 9 first)
    with raises("hex 9: the desert must not have a number token (it has 4)"):
        validate_board(board)


@given(SEEDS, st.integers(min_value=0, max_value=HEX_COUNT - 1))
def test_s2_mutation_any_token_moved_onto_the_desert(seed: int, h: int) -> None:
    """The first problem named is on the lower of the two hexes involved."""
    board = random_balanced_board(seed)
    desert = board.desert_hex
    if h == desert:
        return
    mutated = swap_tokens(board, desert, h)
    expected = (
        f"hex {desert}: the desert must not have a number token"
        if desert < h
        else f"hex {h} ({board.terrains[h].value}) has no number token"
    )
    with raises(expected):
        validate_board(mutated)


def test_s1_mutation_token_that_does_not_exist() -> None:
    with raises("hex 4: token 7 does not exist; the tokens show 2-6 and 8-12"):
        validate_board(with_tokens(STARTER_BOARD, {4: 7}))
    with raises("hex 0: token 13 does not exist"):
        validate_board(with_tokens(STARTER_BOARD, {0: 13}))


def test_s1_mutation_token_count() -> None:
    board = with_tokens(STARTER_BOARD, {2: 5})  # the 9 of hex 2 becomes a third 5
    with raises("number 5: 3 tokens, a board has 2"):
        validate_board(board)
    board = with_tokens(STARTER_BOARD, {1: 3})  # the only 2 becomes a third 3
    with raises("number 3: 3 tokens, a board has 2"):
        validate_board(board)


def test_s1_mutation_harbour_count() -> None:
    harbours = list(STARTER_BOARD.harbours)
    harbours[1] = Harbour.GENERIC  # wool becomes 3:1
    with raises("3:1 harbour: 5 on the table, a board has 4"):
        validate_board(replace(STARTER_BOARD, harbours=tuple(harbours)))
    harbours = list(STARTER_BOARD.harbours)
    harbours[8] = Harbour.GRAIN  # ore becomes a second grain
    with raises("2:1 grain harbour: 2 on the table, a board has 1"):
        validate_board(replace(STARTER_BOARD, harbours=tuple(harbours)))


def test_s2_mutation_two_sixes_adjacent() -> None:
    # Starter: hex 4 shows 6; hex 5 (its neighbour) shows 4; hex 17 shows the other 6.
    board = swap_tokens(STARTER_BOARD, 5, 17)
    with raises(
        "hexes 4 and 5 are next to each other and both show a red number (6 and 6); "
        "a 6 or an 8 must not touch another 6 or 8"
    ):
        validate_board(board)


def test_s2_mutation_six_next_to_eight() -> None:
    board = swap_tokens(STARTER_BOARD, 5, 11)  # hex 5 gets the 8 of hex 11
    with raises("hexes 4 and 5 are next to each other and both show a red number (6 and 8)"):
        validate_board(board)


def test_s2_mutation_eight_next_to_eight() -> None:
    board = swap_tokens(STARTER_BOARD, 13, 11)  # hex 13 gets an 8, next to hex 12's 8
    with raises("hexes 12 and 13 are next to each other and both show a red number (8 and 8)"):
        validate_board(board)


@given(SEEDS, st.sampled_from(ADJACENT))
def test_s2_mutation_any_adjacent_reds_are_rejected(seed: int, pair: tuple[int, int]) -> None:
    board = random_balanced_board(seed)
    a, b = pair
    if board.desert_hex in pair:
        return
    if board.tokens[a] != 6:
        board = swap_tokens(board, a, board.hexes_with_token(6)[0])
    if board.tokens[b] != 8:
        board = swap_tokens(board, b, board.hexes_with_token(8)[0])
    assert (board.tokens[a], board.tokens[b]) == (6, 8)
    with raises("are next to each other and both show a red number"):
        validate_board(board)


def test_s2_equal_numbers_adjacent_are_allowed_on_a_tables_board() -> None:
    """Only the generator avoids equal neighbours; a table's own board may have them."""
    board = swap_tokens(STARTER_BOARD, 14, 16)  # hex 14 gets a 5, next to hex 15's 5
    assert board.tokens[14] == board.tokens[15] == 5
    validate_board(board)


def test_first_problem_is_the_most_basic() -> None:
    """Counts come before placement: a wrong terrain count is named before adjacent reds."""
    terrains = list(STARTER_BOARD.terrains)
    terrains[2] = Terrain.HILLS
    board = replace(swap_tokens(STARTER_BOARD, 5, 11), terrains=tuple(terrains))
    with raises("hills: 4 hexes"):
        validate_board(board)
    board = with_tokens(swap_tokens(STARTER_BOARD, 5, 11), {9: 5})  # desert token + reds
    with raises("hex 9: the desert must not have a number token"):
        validate_board(board)


# --------------------------------------------------------------------------------------------
# board_from_description: a table's own board (§2 setup)


def starter_description() -> dict[str, Any]:
    return board_to_description(STARTER_BOARD)


def hex_entry(description: dict[str, Any], h: int) -> dict[str, Any]:
    entry: dict[str, Any] = next(e for e in description["hexes"] if e["hex"] == h)
    return entry


def test_s2_description_of_the_starter_board() -> None:
    description = starter_description()
    assert description["hexes"][0] == {"hex": 0, "terrain": "mountains", "token": 10}
    assert description["hexes"][9] == {"hex": 9, "terrain": "desert", "token": None}
    assert description["harbours"][1] == {"slot": 1, "harbour": "wool"}
    assert board_from_description(description) == STARTER_BOARD


def test_s2_description_any_order_any_case_desert_token_left_out() -> None:
    description = starter_description()
    description["hexes"].reverse()
    description["harbours"] = description["harbours"][4:] + description["harbours"][:4]
    for entry in description["hexes"]:
        entry["terrain"] = entry["terrain"].upper()
    del hex_entry(description, 9)["token"]
    hex_entry(description, 3)["terrain"] = " Fields "
    description["harbours"][0]["harbour"] = "BRICK"
    for entry in description["harbours"]:
        if entry["harbour"] == "3:1":
            entry["harbour"] = "Generic"
            break
    assert board_from_description(description) == STARTER_BOARD


def mutate(change: Any) -> dict[str, Any]:
    description = copy.deepcopy(starter_description())
    change(description)
    return description


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(d: Any) -> None:
        for key in path[:-1]:
            d = d[key]
        d[path[-1]] = value

    return change


def _delete(path: tuple[Any, ...]) -> Any:
    def change(d: Any) -> None:
        for key in path[:-1]:
            d = d[key]
        del d[path[-1]]

    return change


def _append(key: str, value: Any) -> Any:
    return lambda d: d[key].append(value)


DESCRIPTION_ERRORS: list[tuple[str, Any, str]] = [
    ("unknown top-level key", _set(("harbors",), []), "unknown key 'harbors'"),
    ("no hexes", _delete(("hexes",)), "the board description has no 'hexes' list"),
    ("hexes not a list", _set(("hexes",), {"0": "hills"}), "'hexes' must be a list"),
    ("hexes a string", _set(("hexes",), "hills"), "'hexes' must be a list of 19 entries"),
    ("entry not an object", _set(("hexes", 3), 7), "hexes[3] must be an object"),
    ("unknown entry key", _set(("hexes", 3, "tokn"), 12), "hexes[3] has an unknown key 'tokn'"),
    ("no position", _delete(("hexes", 3, "hex")), "hexes[3] has no 'hex' position"),
    (
        "position a string",
        _set(("hexes", 3, "hex"), "4"),
        "hexes[3]: the hex position must be a whole number, got '4'",
    ),
    ("position a bool", _set(("hexes", 1, "hex"), True), "hexes[1]: the hex position must be"),
    (
        "unknown position",
        _set(("hexes", 3, "hex"), 23),
        "hex 23 does not exist; hexes are numbered 0-18",
    ),
    ("negative position", _set(("hexes", 3, "hex"), -1), "hex -1 does not exist"),
    ("duplicated position", _set(("hexes", 3, "hex"), 5), "hex 5 is listed twice"),
    (
        "missing position",
        _delete(("hexes", 7)),
        "hex 7 is missing; a board has 19 hexes",
    ),
    (
        "unknown terrain",
        _set(("hexes", 5, "terrain"), "hill"),
        "hex 5: unknown terrain 'hill'; the terrains are hills, forest, pasture, fields, "
        "mountains, desert",
    ),
    ("terrain not a name", _set(("hexes", 4, "terrain"), 3), "hex 4: the terrain must be a name"),
    ("terrain missing", _delete(("hexes", 4, "terrain")), "hex 4: the terrain must be a name"),
    (
        "token a string",
        _set(("hexes", 5, "token"), "6"),
        "hex 5: the token must be a number (2-6 and 8-12) or null, got '6'",
    ),
    ("token a float", _set(("hexes", 4, "token"), 6.0), "hex 4: the token must be a number"),
    ("token a bool", _set(("hexes", 4, "token"), True), "hex 4: the token must be a number"),
    (
        "token 7",
        _set(("hexes", 5, "token"), 7),
        "hex 5: token 7 does not exist; the tokens show 2-6 and 8-12",
    ),
    (
        "token on the desert",
        _set(("hexes", 9, "token"), 5),
        "hex 9: the desert must not have a number token",
    ),
    ("hex without token", _delete(("hexes", 5, "token")), "hex 5 (pasture) has no number token"),
    (
        "6 next to 8",
        lambda d: (hex_entry(d, 5).update(token=8), hex_entry(d, 11).update(token=4)),
        "hexes 4 and 5 are next to each other and both show a red number (6 and 8)",
    ),
    (
        "terrain count",
        _set(("hexes", 2, "terrain"), "Hills"),
        "hills: 4 hexes, a board has 3",
    ),
    ("token count", _set(("hexes", 2, "token"), 5), "number 5: 3 tokens, a board has 2"),
    ("no harbours", _delete(("harbours",)), "the board description has no 'harbours' list"),
    ("harbours not a list", _set(("harbours",), None), "'harbours' must be a list of 9 entries"),
    ("harbour entry not object", _set(("harbours", 2), "3:1"), "harbours[2] must be an object"),
    ("harbour entry unknown key", _set(("harbours", 2, "port"), "ore"), "unknown key 'port'"),
    ("no slot", _delete(("harbours", 2, "slot")), "harbours[2] has no 'slot' position"),
    ("slot a string", _set(("harbours", 2, "slot"), "2"), "the slot position must be a whole"),
    (
        "unknown slot",
        _set(("harbours", 2, "slot"), 9),
        "harbour slot 9 does not exist; harbour slots are numbered 0-8",
    ),
    ("duplicated slot", _set(("harbours", 2, "slot"), 3), "harbour slot 3 is listed twice"),
    (
        "missing slot",
        _delete(("harbours", 3)),
        "harbour slot 3 is missing; a board has 9 harbours",
    ),
    (
        "unknown harbour",
        _set(("harbours", 3, "harbour"), "wood"),
        "harbour slot 3: unknown harbour 'wood'; the harbours are 3:1, brick, lumber, wool, "
        "grain, ore",
    ),
    ("harbour not a name", _set(("harbours", 3, "harbour"), 3), "harbour slot 3: the harbour"),
    (
        "harbour count",
        _set(("harbours", 1, "harbour"), "3:1"),
        "3:1 harbour: 5 on the table, a board has 4",
    ),
    (
        "harbour missing",
        _set(("harbours", 8, "harbour"), "wool"),
        "2:1 wool harbour: 2 on the table",
    ),
]


@pytest.mark.parametrize(
    ("change", "message"),
    [pytest.param(change, message, id=name) for name, change, message in DESCRIPTION_ERRORS],
)
def test_s2_description_errors_name_the_problem(change: Any, message: str) -> None:
    with raises(message):
        board_from_description(mutate(change))


@pytest.mark.parametrize("description", [[], "hexes", None, 19])
def test_s2_description_must_be_an_object(description: Any) -> None:
    with raises("a board description must be an object with 'hexes' and 'harbours'"):
        board_from_description(description)


def test_s2_description_reports_problems_in_reading_order() -> None:
    """Hex entries before harbour entries before board rules; entries in list order."""

    def several(d: dict[str, Any]) -> None:
        d["hexes"][4]["terrain"] = "lava"  # first in reading order
        d["hexes"][6]["hex"] = 30
        d["harbours"][0]["harbour"] = "wood"
        hex_entry(d, 9)["token"] = 5

    with raises("hex 4: unknown terrain 'lava'"):
        board_from_description(mutate(several))

    def later(d: dict[str, Any]) -> None:
        d["harbours"][0]["harbour"] = "wood"
        hex_entry(d, 9)["token"] = 5
        del d["hexes"][12]

    with raises("hex 12 is missing"):
        board_from_description(mutate(later))

    def later_but_complete(d: dict[str, Any]) -> None:
        later(d)
        d["hexes"].append(starter_hex(12))

    with raises("harbour slot 0: unknown harbour 'wood'"):
        board_from_description(mutate(later_but_complete))


def starter_hex(h: int) -> dict[str, Any]:
    return hex_entry(starter_description(), h)


def test_s2_description_error_examples_in_docs_are_real() -> None:
    """Every message in the docs' table of description errors is one the code produces."""
    docs = (REPO / "docs" / "board.md").read_text()
    after_header = docs.split("| problem | message |")[1].splitlines()[1:]
    table = "\n".join(itertools.takewhile(lambda line: line.startswith("|"), after_header))
    not_an_object: Any = []
    cases = [mutate(change) for _, change, _ in DESCRIPTION_ERRORS] + [not_an_object]
    produced: list[str] = []
    for description in cases:
        with pytest.raises(BoardError) as info:
            board_from_description(description)
        produced.append(str(info.value))
    quoted = re.findall(r"`([^`]+)`", table)
    assert len(quoted) >= 20
    for message in quoted:
        stem = message.split("...")[0].rstrip("; ")
        assert any(stem in p for p in produced), message
