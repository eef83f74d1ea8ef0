"""The 30-hex island of five and six players (§12) drawn and tapped without a window: the same
geometry, zoom and road-by-ends mechanisms as the 19-hex island, read from the board's topology.

Board areas are in pixels at one pixel per dp (as in ``test_board_taps.py``): the game screen's
board is 474 dp high at 1024x600, 652 dp at 1280x800, and 338 dp at 800x480.
"""

from __future__ import annotations

import math

import pytest

from companion_app.presenters import board_picture as B
from companion_app.presenters.board_geometry import SEA_MARGIN, island_frame
from companion_app.presenters.board_picture import piece_scale
from companion_app.presenters.board_taps import (
    MIN_TARGET_DP,
    ZOOMED_SIDE_DP,
    BoardTaps,
    BoardZoom,
    needs_zoom,
)
from companion_app.rules.board import FRAME_30, random_balanced_board
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.topology import ISLAND_19, ISLAND_30

SEVEN_INCH = (4, 4, 610, 474)
ROOMY = (8, 8, 732, 652)
PI_DISPLAY = (4, 4, 384, 338)
EVERY_ROAD = [("edge", e) for e in range(ISLAND_30.edge_count)]
EVERY_NODE = [("node", n) for n in range(ISLAND_30.node_count)]


def _geometry(area: tuple[int, ...]) -> B.BoardGeometry:
    return B.BoardGeometry(*area, topology=ISLAND_30)


def _zoomed_in(area: tuple[int, ...], at: tuple[float, float]) -> B.BoardGeometry:
    whole = _geometry(area)
    return BoardZoom().into(whole, *at, MIN_TARGET_DP).geometry(whole)


def test_the_thirty_hex_frame_is_taller_and_wider_than_the_nineteen() -> None:
    small, large = island_frame(ISLAND_19), island_frame(ISLAND_30)
    # 19 hexes: 10 half-widths by 16 half-sizes plus the harbours' 2.4 (as always drawn).
    assert small.span_x == pytest.approx(10 * math.sqrt(3) / 2 + 2.4)
    assert small.span_y == pytest.approx(8 + 2.4)
    # 30 hexes: six across the middle row (12 half-widths), seven rows (22 half-sizes).
    assert large.span_x == pytest.approx(12 * math.sqrt(3) / 2 + 2.4)
    assert large.span_y == pytest.approx(11 + 2.4)


def test_the_nineteen_hex_sea_is_the_regular_hexagon_it_always_was() -> None:
    geo = B.BoardGeometry(0, 0, 1000, 1000)
    cx, cy = geo.centre
    radius = geo.size * 5.6
    expected = [
        (cx + radius * math.cos(math.radians(60 * i)), cy + radius * math.sin(math.radians(60 * i)))
        for i in range(6)
    ]
    corners = geo.sea_corners()
    flat = [c for xy in sorted(corners) for c in xy]
    assert flat == pytest.approx([c for xy in sorted(expected) for c in xy], abs=1e-6)


def test_the_thirty_hex_sea_holds_every_intersection_and_harbour() -> None:
    geo = _geometry((0, 0, 1000, 1000))
    corners = geo.sea_corners()
    cx, cy = geo.centre

    def inside(x: float, y: float) -> bool:
        for (ax, ay), (bx, by) in zip(corners, corners[1:] + corners[:1], strict=True):
            # Corners go round anticlockwise: a point inside is left of every side.
            if (bx - ax) * (y - ay) - (by - ay) * (x - ax) < 0:
                return False
        return True

    for n in range(ISLAND_30.node_count):
        assert inside(*geo.node(n)), n
    for slot in range(ISLAND_30.harbour_count):
        assert inside(*geo.harbour(slot)), slot
    # The sea's sides stand SEA_MARGIN beyond the outermost intersections.
    top = max(geo.node(n)[1] for n in range(ISLAND_30.node_count))
    assert max(y for _x, y in corners) == pytest.approx(top + SEA_MARGIN * geo.size)
    assert cx > 0 and cy > 0


def test_the_thirty_hex_board_zooms_on_a_seven_inch_tablet_and_not_at_1280x800() -> None:
    seven = _geometry(SEVEN_INCH)
    assert seven.size == pytest.approx(474 / 13.4, abs=0.05)  # 35 dp sides: under a finger
    assert needs_zoom(seven, MIN_TARGET_DP)
    roomy = _geometry(ROOMY)
    assert roomy.size == pytest.approx(652 / 13.4, abs=0.05)  # 48.7 dp
    assert not needs_zoom(roomy, MIN_TARGET_DP)
    # There roads go by their ends: middles 42 dp apart, ends 48.7.
    taps = BoardTaps(roomy, EVERY_ROAD, MIN_TARGET_DP)
    assert taps.by_ends
    assert min(2 * t.reach for t in taps.targets()) >= MIN_TARGET_DP


@pytest.mark.parametrize("area", [SEVEN_INCH, PI_DISPLAY])
def test_every_intersection_of_thirty_hexes_is_taken_by_a_zoom_then_a_tap(
    area: tuple[int, ...],
) -> None:
    whole = _geometry(area)
    for n in range(ISLAND_30.node_count):
        zoomed = _zoomed_in(area, whole.node(n))
        assert zoomed.size == pytest.approx(ZOOMED_SIDE_DP)
        x, y = zoomed.node(n)
        assert area[0] <= x <= area[0] + area[2], n
        assert area[1] <= y <= area[1] + area[3], n
        taps = BoardTaps(zoomed, EVERY_NODE, MIN_TARGET_DP)
        assert min(2 * t.reach for t in taps.targets()) >= MIN_TARGET_DP
        assert taps.tap(x, y) == ("node", n)


@pytest.mark.parametrize("area", [SEVEN_INCH, PI_DISPLAY])
def test_every_road_of_thirty_hexes_is_taken_by_a_zoom_then_its_two_ends(
    area: tuple[int, ...],
) -> None:
    whole = _geometry(area)
    for e in range(ISLAND_30.edge_count):
        zoomed = _zoomed_in(area, whole.edge_mid(e))
        taps = BoardTaps(zoomed, EVERY_ROAD, MIN_TARGET_DP)
        assert taps.by_ends
        first, last = taps.taps_for(("edge", e))
        assert taps.tap(*first) is None
        assert taps.tap(*last) == ("edge", e)


def test_a_six_player_game_is_pictured_on_its_own_island() -> None:
    game = Game.new(GameConfig.for_players(6, seed=5))
    picture = B.board_picture(game)
    assert picture.topology is ISLAND_30
    assert len(picture.hexes) == 30
    assert len(picture.harbours) == 11
    assert len(picture.colours) == len(picture.marks) == 6
    assert picture.marks[4:] == ("G", "Br")
    geo = _zoomed_in(SEVEN_INCH, _geometry(SEVEN_INCH).hex_centre(29))
    # Zoomed in, every piece and marker is drawn at a finger's size.
    assert piece_scale(geo.size, 1.0).piece >= 44
    assert B.drawn_things(picture, geo, 1.0, [("hex", 29)])


def test_the_rows_of_a_thirty_hex_board_read_seven_rows_and_eleven_harbours() -> None:
    board = random_balanced_board(3, FRAME_30)
    rows = B.board_rows(board)
    assert [len(line.split(": ", 1)[1].split(", ")) for line in rows[:7]] == [3, 4, 5, 6, 5, 4, 3]
    assert rows[7].startswith("Harbours clockwise from the top left: ")
    assert len(rows[7].split(": ", 1)[1].split(", ")) == 11
