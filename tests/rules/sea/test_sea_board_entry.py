"""A table's own New Shores board, entered position by position (R27): the printed map's
shape, its counts, the sea where the map has it; problems a table can enter are messages."""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion_app.rules.board import SEA_FRAMES, Frame, sea_board
from companion_app.rules.board_entry import board_from_description, board_to_description
from companion_app.rules.cards import Terrain
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import BoardError
from companion_app.rules.game import Game
from companion_app.rules.messages import Msg
from companion_app.rules.seamap import NEW_SHORES_3, NEW_SHORES_4

FRAME_3, FRAME_4 = SEA_FRAMES["new_shores_3"], SEA_FRAMES["new_shores_4"]


def entry_of(description: dict[str, Any], h: int) -> dict[str, Any]:
    entry: dict[str, Any] = next(e for e in description["hexes"] if e["hex"] == h)
    return entry


@pytest.mark.parametrize("frame", [FRAME_3, FRAME_4], ids=["3 players", "4 players"])
def test_the_printed_board_round_trips_through_a_description(frame: Frame) -> None:
    assert frame.sea_map is not None
    board = sea_board(frame.sea_map, 5)
    description = board_to_description(board)
    assert len(description["hexes"]) == frame.topology.hex_count
    assert board_from_description(description, frame) == board


def test_a_table_may_lay_the_land_its_own_way_and_the_robber_takes_the_desert() -> None:
    """R27: the same counts, land and tokens where the table put them; the robber on the
    desert (4 players)."""
    board = sea_board(NEW_SHORES_4, 0)
    description = board_to_description(board)
    desert = entry_of(description, NEW_SHORES_4.robber_start)
    other = entry_of(description, NEW_SHORES_4.cells[(2, 4)])  # the fields 12
    desert["terrain"], other["terrain"] = other["terrain"], desert["terrain"]
    desert["token"], other["token"] = other["token"], desert["token"]
    own = board_from_description(description, FRAME_4)
    assert own.desert_hex == NEW_SHORES_4.cells[(2, 4)]
    game = Game.new(GameConfig.for_players(4, scenario="new_shores", board=own))
    assert game.robber_hex == own.desert_hex


def test_the_sea_stays_where_the_map_has_it() -> None:
    board = sea_board(NEW_SHORES_3, 0)
    description = board_to_description(board)
    sea_h = NEW_SHORES_3.cells[(1, 3)]
    entry_of(description, sea_h).update(terrain="forest", token=3)
    with pytest.raises(BoardError) as caught:
        board_from_description(description, FRAME_3)
    assert isinstance(caught.value.message, Msg)
    assert str(caught.value) == f"hex {sea_h} is sea on this map, not forest"


def test_sea_and_gold_are_terrains_here_and_the_robber_key_is_not() -> None:
    description = board_to_description(sea_board(NEW_SHORES_3, 0))
    entry_of(description, 0)["terrain"] = "lake"
    with pytest.raises(BoardError, match=re.escape("the terrains are hills, forest")) as caught:
        board_from_description(description, FRAME_3)
    assert "gold, sea" in str(caught.value)
    description = board_to_description(sea_board(NEW_SHORES_3, 0)) | {"robber": 0}
    with pytest.raises(BoardError, match="unknown key 'robber'"):
        board_from_description(description, FRAME_3)


@st.composite
def sea_boards_entered(draw: st.DrawFn) -> tuple[dict[str, Any], Frame]:
    """The printed board with a few taps changed, as the screen would write them."""
    frame = draw(st.sampled_from([FRAME_3, FRAME_4]))
    assert frame.sea_map is not None
    description = board_to_description(sea_board(frame.sea_map, draw(st.integers(0, 99))))
    for _ in range(draw(st.integers(0, 3))):
        tap = draw(st.sampled_from(["empty hex", "hex", "swap", "harbour"]))
        hexes = description["hexes"]
        if tap == "empty hex" and hexes:
            del hexes[draw(st.integers(0, len(hexes) - 1))]
        elif tap == "hex" and hexes:
            entry = hexes[draw(st.integers(0, len(hexes) - 1))]
            entry["terrain"] = draw(st.sampled_from(list(Terrain))).value
            entry["token"] = draw(st.none() | st.sampled_from([2, 3, 4, 5, 6, 8, 9, 10, 11, 12]))
        elif tap == "swap" and len(hexes) > 1:
            a, b = draw(st.lists(st.sampled_from(hexes), min_size=2, max_size=2))
            a["token"], b["token"] = b["token"], a["token"]
        elif tap == "harbour":
            entry = description["harbours"][draw(st.integers(0, len(description["harbours"]) - 1))]
            entry["harbour"] = draw(st.sampled_from(["3:1", "brick", "lumber", "wool", "ore"]))
    return description, frame


@given(sea_boards_entered())
def test_every_problem_a_table_can_enter_is_a_message(
    entered: tuple[dict[str, Any], Frame],
) -> None:
    description, frame = entered
    try:
        board_from_description(description, frame)
    except BoardError as error:
        assert isinstance(error.message, Msg), str(error)
