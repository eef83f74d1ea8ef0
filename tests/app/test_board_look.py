"""How big and how clear the board's pieces, tokens and legal spots' markers are drawn, without a
window: the sizes a board of a given scale draws (worked examples at the game screen's board at
each window size, and every scale), what the board view is told to draw, highlights against every
terrain, and each player's letter."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion_app.app import info_presenter as I
from companion_app.app import presenter as P
from companion_app.app.board_picture import (
    HIGHLIGHT,
    HIGHLIGHT_RIM,
    MIN_DRAWN_DP,
    SQRT3,
    drawn_things,
    piece_scale,
)
from companion_app.rules.actions import BuildCity, BuildRoad, BuildSettlement
from companion_app.rules.board import STARTER_BOARD
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game


@pytest.mark.parametrize(
    ("window", "side_dp", "dp", "piece", "token", "node_spot", "edge_spot"),
    [
        # The game screen's board: its hex side in dp at each window size (as the tour finds it:
        # a hex's marker is 1.73 sides wide), and what is drawn there, in dp. 1920x1200 is laid
        # out as 1280x800 at 1.5 pixels a dp.
        ("1024x600", 44.5, 1.0, 44.0, 44.0, 44.5, 44.0),
        ("1280x800", 55.4, 1.0, 44.0, 44.3, 50.6, 44.3),
        ("800x1280", 54.8, 1.0, 44.0, 44.0, 50.6, 44.0),
        ("1920x1200", 55.4, 1.5, 44.0, 44.3, 50.6, 44.3),
    ],
)
def test_sizes_drawn_at_each_window_size(
    window: str,
    side_dp: float,
    dp: float,
    piece: float,
    token: float,
    node_spot: float,
    edge_spot: float,
) -> None:
    scale = piece_scale(side_dp * dp, dp)
    drawn = (scale.piece, scale.token, scale.node_spot, scale.edge_spot)
    assert [round(v / dp, 1) for v in drawn] == [piece, token, node_spot, edge_spot], window


@given(side_dp=st.floats(10.0, 300.0), dp=st.sampled_from([1.0, 1.5, 2.0, 3.0]))
def test_at_least_44_dp_where_the_board_allows_it_and_never_more_than_its_room(
    side_dp: float, dp: float
) -> None:
    side = side_dp * dp
    scale = piece_scale(side, dp)
    least = MIN_DRAWN_DP * dp
    # Pieces on neighbouring intersections (a side apart) touch at most; a road's marker is at
    # most its road; the robber fits in its hex.
    assert scale.piece <= side
    assert scale.node_spot <= side
    assert scale.edge_spot <= side
    assert scale.token <= SQRT3 * side
    assert scale.node_spot >= scale.piece or scale.node_spot == side
    if side >= least:
        assert min(scale.piece, scale.token, scale.node_spot, scale.edge_spot) >= least - 1e-9
    else:  # a board too small for 44 dp: as big as it allows
        assert scale.piece == scale.node_spot == scale.edge_spot == side


def _game_after_setup() -> tuple[Game, list[int]]:
    """Setup (rules reference §2): a settlement and a road each, then a city and a road each."""
    game = Game.new(GameConfig.for_players(3, seed=5))
    settlements, cities = [4, 20, 51], [44, 30, 12]
    for node in settlements:
        game.apply(BuildSettlement(game.prompt.player, node))
        game.apply(next(a for a in game.legal_actions() if isinstance(a, BuildRoad)))
    for node in cities:
        game.apply(BuildCity(game.prompt.player, node))
        game.apply(next(a for a in game.legal_actions() if isinstance(a, BuildRoad)))
    return game, settlements + cities


def test_what_the_board_view_is_told_to_draw() -> None:
    game, nodes = _game_after_setup()
    picture = P.board_picture(game)
    geo = P.BoardGeometry(0, 0, 600, 520)  # hex sides of 50 px (the height is the limit)
    offered = [("node", 5), ("edge", 7), ("hex", 3)]
    drawn = drawn_things(picture, geo, 1.0, offered)
    kinds = [t.kind for t in drawn]
    # Markers of hexes under the robber, of roads under the pieces (outlined again over them),
    # of intersections over the pieces.
    assert kinds[:3] == ["hex spot", "robber", "edge spot"]
    assert sorted(kinds[3:-1]) == ["city"] * 3 + ["settlement"] * 3
    assert kinds[-1] == "node spot"
    pieces = [t for t in drawn if t.kind in ("settlement", "city")]
    assert sorted(t.spot[1] for t in pieces) == sorted(nodes)
    for t in pieces:
        assert (t.x, t.y) == geo.node(t.spot[1])
        assert t.width == t.height == 44.0  # 0.7 of a side would be 35
    robber = drawn[1]
    assert robber.spot == ("hex", game.robber_hex)
    assert (robber.x, robber.y) == geo.hex_centre(game.robber_hex)
    edge = drawn[2]
    assert edge.shown_size == edge.width == 44.0
    assert edge.height == pytest.approx(16.0)  # a third of a side across
    assert drawn[-1].shown_size == pytest.approx(50.0)  # round the piece, at most a side
    assert drawn[0].shown_size == pytest.approx(SQRT3 * 50)


def test_robber_and_merchant_on_one_hex_stand_side_by_side() -> None:
    picture = P.board_only_picture(STARTER_BOARD)
    both = P.BoardPicture(**{**_fields(picture), "merchant_hex": picture.robber_hex})
    geo = P.BoardGeometry(0, 0, 553, 520)
    robber, merchant = drawn_things(both, geo, 1.0)
    cx, _ = geo.hex_centre(picture.robber_hex)
    assert robber.x < cx < merchant.x
    assert merchant.x - robber.x == pytest.approx(0.6 * geo.size)


def _fields(picture: P.BoardPicture) -> dict[str, object]:
    return {name: getattr(picture, name) for name in picture.__slots__}


def _luminance(rgba: tuple[float, ...]) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgba[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("terrain", list(P.TERRAIN_COLOURS), ids=str)
def test_highlights_stand_out_on_every_terrain(terrain: object) -> None:
    """On each terrain the marker's rim or core stands out in lightness (contrast of 3 or more,
    for any eye) and its core differs in colour (a yellow core vanished on yellow fields)."""
    ground = P.TERRAIN_COLOURS[terrain]  # type: ignore[index]
    assert max(_contrast(HIGHLIGHT, ground), _contrast(HIGHLIGHT_RIM, ground)) >= 3.0
    distance = sum((a - b) ** 2 for a, b in zip(HIGHLIGHT[:3], ground[:3], strict=True)) ** 0.5
    assert distance >= 0.35
    assert _contrast(HIGHLIGHT, HIGHLIGHT_RIM) >= 7.0


def test_every_player_colour_has_its_own_letter() -> None:
    marks = {colour: P.player_mark(colour) for colour in P.PLAYER_COLOURS}
    assert len(set(marks.values())) == len(marks)
    assert marks["red"] != marks["orange"]
    for a, b in itertools.combinations(marks.values(), 2):
        assert not a.startswith(b) or a == b or len(a) != len(b)
    assert P.player_mark("Purple") == "P"  # a colour the table invented: its first letter


def test_the_player_panel_and_the_board_carry_the_same_letters() -> None:
    game, _nodes = _game_after_setup()
    picture = P.board_picture(game)
    lines = I.panel_lines(game)
    assert [line.mark for line in lines] == list(picture.marks) == ["R", "B", "W"]
