"""How big and how clear the board's pieces, tokens and legal spots' markers are drawn, without a
window: the sizes a board of a given scale draws (worked examples at the game screen's board at
each window size, and every scale), what the board view is told to draw, highlights against every
terrain, and each player's letter."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion_app.presenters import board_picture as B
from companion_app.presenters import info_presenter as I
from companion_app.presenters.board_picture import (
    HIGHLIGHT,
    HIGHLIGHT_RIM,
    MIN_DRAWN_DP,
    MIN_ROAD_MARK_DP,
    ROAD_LETTER_SHARE,
    SQRT3,
    drawn_things,
    piece_scale,
    road_marks,
)
from companion_app.rules.actions import BuildCity, BuildRoad, BuildSettlement
from companion_app.rules.board import STARTER_BOARD
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.topology import EDGE_NODES


@pytest.mark.parametrize(
    ("window", "side_dp", "dp", "piece", "token", "node_spot", "edge_spot", "road_mark"),
    [
        # The game screen's board: its hex side in dp at each window size (as the tour finds it:
        # a hex's marker is 1.73 sides wide), and what is drawn there, in dp. 1920x1200 is laid
        # out as 1280x800 at 1.5 pixels a dp.
        ("1024x600", 44.5, 1.0, 44.0, 44.0, 44.5, 44.0, 24.0),
        ("1280x800", 55.4, 1.0, 44.0, 44.3, 50.6, 44.3, 24.0),
        ("800x1280", 54.8, 1.0, 44.0, 44.0, 50.6, 44.0, 24.0),
        ("1920x1200", 55.4, 1.5, 44.0, 44.3, 50.6, 44.3, 24.0),
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
    road_mark: float,
) -> None:
    scale = piece_scale(side_dp * dp, dp)
    drawn = (scale.piece, scale.token, scale.node_spot, scale.edge_spot, scale.road_mark)
    expected = [piece, token, node_spot, edge_spot, road_mark]
    assert [round(v / dp, 1) for v in drawn] == expected, window
    # A road's letter: 18 dp, its capitals about 13 dp high.
    assert round(scale.road_letter / dp, 1) == 18.0


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
    # A road's badge: at most 0.6 of its road, at least 24 dp where the road allows it.
    assert scale.road_mark <= 0.6 * side + 1e-9
    assert scale.road_mark >= min(0.6 * side, MIN_ROAD_MARK_DP * dp) - 1e-9
    assert scale.road_letter == pytest.approx(ROAD_LETTER_SHARE * scale.road_mark)


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
    picture = B.board_picture(game)
    geo = B.BoardGeometry(0, 0, 600, 520)  # hex sides of 50 px (the height is the limit)
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
    picture = B.board_only_picture(STARTER_BOARD)
    both = B.BoardPicture(**{**_fields(picture), "merchant_hex": picture.robber_hex})
    geo = B.BoardGeometry(0, 0, 553, 520)
    robber, merchant = drawn_things(both, geo, 1.0)
    cx, _ = geo.hex_centre(picture.robber_hex)
    assert robber.x < cx < merchant.x
    # 44 dp tokens on hex sides of 50: they touch and neither covers the other (0.6 of a side
    # apart they overlapped by 14 dp, the robber half hidden under the merchant).
    assert robber.width == merchant.width == pytest.approx(44.0)
    assert merchant.x - robber.x == pytest.approx(44.0)


def _fields(picture: B.BoardPicture) -> dict[str, object]:
    return {name: getattr(picture, name) for name in picture.__slots__}


def _luminance(rgba: tuple[float, ...]) -> float:
    def channel(c: float) -> float:
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in rgba[:3])
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def _contrast(a: tuple[float, ...], b: tuple[float, ...]) -> float:
    la, lb = sorted((_luminance(a), _luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@pytest.mark.parametrize("terrain", list(B.TERRAIN_COLOURS), ids=str)
def test_highlights_stand_out_on_every_terrain(terrain: object) -> None:
    """On each terrain the marker's rim or core stands out in lightness (contrast of 3 or more,
    for any eye) and its core differs in colour (a yellow core vanished on yellow fields)."""
    ground = B.TERRAIN_COLOURS[terrain]  # type: ignore[index]
    assert max(_contrast(HIGHLIGHT, ground), _contrast(HIGHLIGHT_RIM, ground)) >= 3.0
    distance = sum((a - b) ** 2 for a, b in zip(HIGHLIGHT[:3], ground[:3], strict=True)) ** 0.5
    assert distance >= 0.35
    assert _contrast(HIGHLIGHT, HIGHLIGHT_RIM) >= 7.0


def test_every_player_colour_has_its_own_letter() -> None:
    marks = {colour: B.player_mark(colour) for colour in B.PLAYER_COLOURS}
    assert len(set(marks.values())) == len(marks)
    assert marks["red"] != marks["orange"]
    for a, b in itertools.combinations(marks.values(), 2):
        assert not a.startswith(b) or a == b or len(a) != len(b)
    assert B.player_mark("Purple") == "P"  # a colour the table invented: its first letter


def test_the_player_panel_and_the_board_carry_the_same_letters() -> None:
    game, _nodes = _game_after_setup()
    picture = B.board_picture(game)
    lines = I.panel_lines(game)
    assert [line.mark for line in lines] == list(picture.marks) == ["R", "B", "W"]


# ---- the owner's letter on each road -----------------------------------------------------------

TABLET = B.BoardGeometry(0, 0, 1000, 44.5 * 10.4)
"""A board with the hex side of the game screen's board at 1024x600 (44.5 dp, one dp a pixel)."""


def _with_pieces(
    roads: tuple[tuple[int, int], ...],
    buildings: tuple[B.BuildingView, ...] = (),
    knights: tuple[B.KnightView, ...] = (),
    marks: tuple[str, ...] = ("R", "O", "B", "Br"),
) -> B.BoardPicture:
    base = B.board_only_picture(STARTER_BOARD)
    colours = tuple(B.player_colour(c) for c in ("red", "orange", "blue", "brown"))
    fields = {"roads": roads, "buildings": buildings, "knights": knights}
    return B.BoardPicture(**{**_fields(base), **fields, "colours": colours, "marks": marks})


def _along(geo: B.BoardGeometry, node: int, x: float, y: float) -> float:
    nx, ny = geo.node(node)
    return math.hypot(x - nx, y - ny)


def test_a_road_leaving_a_settlement_has_its_badge_beyond_the_settlement() -> None:
    """Edge 7 runs down from intersection 4 to 8 (44.5 px). With red's settlement on 4 (44 px
    square, outlined) the badge's middle is 33.3 px from it: its 18 px letter (capitals 13 px
    high) clears the square, and the letter stays on the road (11.25 px from 8)."""
    settlement = B.BuildingView(4, 0, "settlement", False, "")
    (mark,) = road_marks(_with_pieces(((7, 0),), (settlement,)), TABLET, 1.0)
    assert mark.spot == ("edge", 7)
    assert (mark.width, mark.height) == (24.0, 24.0)
    assert _along(TABLET, 4, mark.x, mark.y) == pytest.approx(33.25, abs=0.01)
    assert _along(TABLET, 8, mark.x, mark.y) == pytest.approx(11.25, abs=0.01)
    _x4, y4 = TABLET.node(4)
    assert mark.y + 13 / 2 < y4 - 44 / 2 - 2  # the letter's top under the settlement's outline
    # A second road from 8 (edge 12, to 12): the badge keeps half of itself (12 px) from 8, so
    # as not to cover that road's badge; 12.75 px, halfway from there to where its letter
    # clears the settlement (13.5 px from 8).
    first, second = road_marks(_with_pieces(((7, 0), (12, 0)), (settlement,)), TABLET, 1.0)
    assert _along(TABLET, 8, first.x, first.y) == pytest.approx(12.75)
    assert math.hypot(first.x - second.x, first.y - second.y) >= 24.0


def test_a_road_between_two_pieces_has_a_badge_only_where_its_letter_shows() -> None:
    """Edge 7 between settlements on 4 and 8: on the tablet's board their squares leave 0.5 px
    of the road, no room for a letter (no badge); at 1920x1200 (hex sides of 83 px, pieces of
    66 px, letters of 27 px with capitals 19 px high) 17 px of road show between the squares,
    and the letter in the middle but for about a pixel at either end."""
    settlements = tuple(B.BuildingView(n, 0, "settlement", False, "") for n in (4, 8))
    picture = _with_pieces(((7, 0),), settlements)
    assert road_marks(picture, TABLET, 1.0) == ()
    large = B.BoardGeometry(0, 0, 2000, 83.1 * 10.4)
    (mark,) = road_marks(picture, large, 1.5)
    assert (mark.x, mark.y) == pytest.approx(large.edge_mid(7))
    assert mark.height == pytest.approx(36.0)


def test_a_free_road_has_its_badge_in_the_middle_and_brown_a_wider_one() -> None:
    red, brown = road_marks(_with_pieces(((62, 0), (69, 3))), TABLET, 1.0)
    assert (red.x, red.y) == pytest.approx(TABLET.edge_mid(62))
    assert (brown.x, brown.y) == pytest.approx(TABLET.edge_mid(69))
    assert (red.width, brown.width) == pytest.approx((24.0, 33.6))
    assert brown.height == red.height == 24.0
    # A picture without letters (a board being entered has no players) has no badges.
    assert road_marks(_with_pieces(((62, 0),), marks=()), TABLET, 1.0) == ()


@given(
    roads=st.dictionaries(st.integers(0, 71), st.integers(0, 3), max_size=30),
    settled=st.sets(st.integers(0, 53), max_size=12),
    side=st.sampled_from([44.5, 55.4, 83.1]),
)
def test_badges_stay_on_their_roads_and_clear_of_each_others_letters(
    roads: dict[int, int], settled: set[int], side: float
) -> None:
    """Any roads with any pieces at their ends: each badge's middle lies on its road, at least
    half a letter from its ends, and two badges are at least 0.86 of a badge apart (roads meeting
    at an intersection: their rims may overlap, never their letters)."""
    geo = B.BoardGeometry(0, 0, 2000, side * 10.4)
    nodes = sorted(settled)
    buildings = tuple(
        B.BuildingView(n, i % 4, "city" if i % 3 else "settlement", i % 5 == 0, "")
        for i, n in enumerate(nodes[::2])
    )
    knights = tuple(B.KnightView(n, i % 4, 1, True) for i, n in enumerate(nodes[1::2]))
    picture = _with_pieces(tuple(sorted(roads.items())), buildings, knights)
    marks = road_marks(picture, geo, 1.0)
    # A badge on every road whose ends are free; where pieces stand, only on roads whose letter
    # the pieces leave more than half of.
    free = {e for e in roads if not set(EDGE_NODES[e]) & settled}
    assert free <= {m.spot[1] for m in marks} <= set(roads)
    letter = piece_scale(geo.size, 1.0).road_letter
    for m in marks:
        (ax, ay), (bx, by) = geo.edge(m.spot[1])
        to_a, to_b = math.hypot(m.x - ax, m.y - ay), math.hypot(m.x - bx, m.y - by)
        assert to_a + to_b == pytest.approx(geo.size)  # on the segment
        assert min(to_a, to_b) >= letter / 2 - 1e-9
    for m, n in itertools.combinations(marks, 2):
        assert math.hypot(m.x - n.x, m.y - n.y) >= 0.86 * m.height
