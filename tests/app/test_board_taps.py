"""Which touch takes which offered spot (:mod:`companion_app.presenters.board_taps`), without a
window.

Board areas are in pixels at one pixel per dp, so a finger's 44 dp is 44 px. The game screen's
board is 474 dp high at 1024x600 (hex sides of 45.6 dp) and 652 dp or more at the larger
sizes.
"""

from __future__ import annotations

import math

import pytest

from companion_app.presenters import board_picture as B
from companion_app.presenters.board_picture import piece_scale
from companion_app.presenters.board_taps import (
    MAX_ZOOM_SIDE_DP,
    MIN_TARGET_DP,
    ROAD_END,
    ZOOMED_SIDE_DP,
    BoardTaps,
    BoardZoom,
    Target,
    needs_zoom,
)
from companion_app.rules.actions import BuildRoad, BuildSettlement
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.topology import (
    EDGE_COUNT,
    EDGE_NODES,
    HEX_COUNT,
    NODE_COUNT,
    NODE_EDGES,
    NODE_NEIGHBOURS,
)

SEVEN_INCH = (4, 4, 610, 474)
"""The board's area at 1024x600: hex sides of 45.6, road middles 39.7 apart."""
ROOMY = (8, 8, 732, 652)
"""The board's area at 1280x800: hex sides of 62.7."""
EVERY_ROAD = [("edge", e) for e in range(EDGE_COUNT)]


def _taps(area: tuple[int, ...], offered: list[B.Spot]) -> BoardTaps:
    return BoardTaps(B.BoardGeometry(*area), offered, MIN_TARGET_DP)


def _overlap(a: Target, b: Target) -> bool:
    return math.hypot(a.x - b.x, a.y - b.y) < a.reach + b.reach - 0.01


def test_the_seven_inch_board_is_too_small_for_road_middles_and_right_for_their_ends() -> None:
    geo = B.BoardGeometry(*SEVEN_INCH)
    assert geo.size == pytest.approx(45.6, abs=0.05)
    # Middles 0.87 side apart: 39.5 px targets, under a finger's 44.
    assert 2 * geo.reach(("edge", 0)) == pytest.approx(39.2, abs=0.1)
    taps = _taps(SEVEN_INCH, EVERY_ROAD)
    assert taps.by_ends
    targets = taps.targets()
    assert {t.spot for t in targets} == {(ROAD_END, n) for n in range(NODE_COUNT)}
    assert min(2 * t.reach for t in targets) == pytest.approx(45.6, abs=0.05)
    assert not any(_overlap(a, b) for i, a in enumerate(targets) for b in targets[i + 1 :])


def test_a_roomy_board_takes_roads_by_their_middles() -> None:
    taps = _taps(ROOMY, EVERY_ROAD)
    assert not taps.by_ends
    assert min(2 * t.reach for t in taps.targets()) >= MIN_TARGET_DP
    for spot in EVERY_ROAD:
        (where,) = taps.taps_for(spot)
        assert taps.tap(*where) == spot


@pytest.mark.parametrize("area", [SEVEN_INCH, ROOMY])
def test_the_taps_for_each_road_take_that_road_and_no_other(area: tuple[int, ...]) -> None:
    for spot in EVERY_ROAD:
        taps = _taps(area, EVERY_ROAD)
        *first, last = taps.taps_for(spot)
        for where in first:
            assert taps.tap(*where) is None
        assert taps.tap(*last) == spot
        assert taps.held is None


def test_a_setup_road_is_two_taps_from_the_new_settlement() -> None:
    """§2: the road goes next to the settlement just placed; at 1024x600 its ends are tapped."""
    game = Game.new(GameConfig.for_players(4))
    game.apply(BuildSettlement(0, 4))
    spots = B.spots_for(game.legal_actions())
    roads = sorted(e for _kind, e in spots)
    assert roads == sorted(NODE_EDGES[4])
    taps = _taps(SEVEN_INCH, list(spots))
    geo = taps.geometry
    # The settlement's intersection: held, its roads stay highlighted, with rings round it
    # and round the far ends to tap next.
    assert taps.tap(*geo.node(4)) is None
    assert taps.held == 4
    far_ends = [a if b == 4 else b for a, b in (EDGE_NODES[e] for e in roads)]
    assert sorted(far_ends) == sorted(NODE_NEIGHBOURS[4])
    assert taps.shown() == [("node", n) for n in [4, *far_ends]] + [("edge", e) for e in roads]
    # The far end of the second road takes it: a BuildRoad for that edge.
    road = roads[1]
    far = next(n for n in EDGE_NODES[road] if n != 4)
    spot = taps.tap(*geo.node(far))
    assert spot == ("edge", road)
    assert spots[spot] == BuildRoad(0, road)
    assert taps.held is None
    assert taps.shown() == list(spots)


def test_an_end_with_one_road_is_held_too_never_taken_at_once() -> None:
    """A tap never both ends a choice and starts the next one: a road is always two taps."""
    taps = _taps(SEVEN_INCH, [("edge", 0)])
    a, b = EDGE_NODES[0]
    geo = taps.geometry
    assert taps.tap(*geo.node(b)) is None
    assert taps.held == b
    assert taps.tap(*geo.node(a)) == ("edge", 0)


def test_the_held_end_lets_go_and_another_end_is_held_instead() -> None:
    game = Game.new(GameConfig.for_players(4))
    game.apply(BuildSettlement(0, 4))
    taps = _taps(SEVEN_INCH, list(B.spots_for(game.legal_actions())))
    geo = taps.geometry
    far = list(NODE_NEIGHBOURS[4])
    assert taps.tap(*geo.node(4)) is None
    assert taps.tap(*geo.node(4)) is None  # again: let go
    assert taps.held is None
    # A far end first, then another far end: no road joins them, so the second is held.
    assert taps.tap(*geo.node(far[0])) is None
    assert taps.tap(*geo.node(far[1])) is None
    assert taps.held == far[1]
    # Away from every end: let go.
    x, y = geo.node(4)
    assert taps.tap(x + 3 * geo.size, y) is None
    assert taps.held is None


def test_hexes_and_intersections_are_taken_as_before_on_the_small_board() -> None:
    nodes = [("node", n) for n in range(NODE_COUNT)]
    hexes = [("hex", h) for h in range(HEX_COUNT)]
    for offered in (nodes, hexes):
        taps = _taps(SEVEN_INCH, offered)
        assert not taps.by_ends
        for spot in offered:
            x, y = taps.geometry.spot_position(spot)
            assert taps.tap(x + 3, y - 3) == spot
    # Next to a node but off its target: nothing.
    taps = _taps(SEVEN_INCH, [("node", 0)])
    x, y = taps.geometry.node(0)
    assert taps.tap(x, y + taps.geometry.reach(("node", 0)) * 1.1) is None
    # A node on a highlighted hex wins over the hex.
    taps = _taps(SEVEN_INCH, [("hex", 0), ("node", 4)])
    assert taps.tap(*taps.geometry.node(4)) == ("node", 4)


def test_a_tap_outside_the_offered_spots_chooses_nothing() -> None:
    taps = _taps(ROOMY, [("node", 10)])
    for n in range(NODE_COUNT):
        if n != 10:
            assert taps.tap(*taps.geometry.node(n)) is None


def test_roads_offered_with_intersections_go_by_their_middles() -> None:
    """No decision offers both; if one did, an intersection's tap would be ambiguous."""
    taps = _taps(SEVEN_INCH, [("node", 4), ("edge", NODE_EDGES[30][0])])
    assert not taps.by_ends
    assert {t.spot for t in taps.targets()} == {("node", 4), ("edge", NODE_EDGES[30][0])}


# ---- the zoom of a board too small for a finger (800x480) ------------------------------------

PI_DISPLAY = (4, 4, 380, 330)
"""About the board's area on the game screen at 800x480: hex sides of 31.7 px."""


def _zoomed_in(area: tuple[int, ...], at: tuple[float, float]) -> B.BoardGeometry:
    whole = B.BoardGeometry(*area)
    return BoardZoom().into(whole, *at, MIN_TARGET_DP).geometry(whole)


def test_only_a_board_with_sides_under_a_finger_zooms() -> None:
    assert B.BoardGeometry(*PI_DISPLAY).size == pytest.approx(31.7, abs=0.05)
    assert needs_zoom(B.BoardGeometry(*PI_DISPLAY), MIN_TARGET_DP)
    assert not needs_zoom(B.BoardGeometry(*SEVEN_INCH), MIN_TARGET_DP)
    assert not needs_zoom(B.BoardGeometry(*ROOMY), MIN_TARGET_DP)
    # Where it does not zoom, a tap opens no zoom.
    roomy = B.BoardGeometry(*ROOMY)
    assert BoardZoom().into(roomy, 300, 300, MIN_TARGET_DP) == BoardZoom()


def test_a_tap_on_the_overview_zooms_the_region_under_it_to_48_dp_sides() -> None:
    whole = B.BoardGeometry(*PI_DISPLAY)
    zoomed = _zoomed_in(PI_DISPLAY, whole.hex_centre(9))  # the middle hex
    assert zoomed.size == pytest.approx(ZOOMED_SIDE_DP)
    assert zoomed.zoom == pytest.approx(48 / 31.73, abs=0.01)
    # The tapped point comes to the middle of the board's area.
    x, y = zoomed.hex_centre(9)
    assert (x, y) == pytest.approx(
        (PI_DISPLAY[0] + PI_DISPLAY[2] / 2, PI_DISPLAY[1] + PI_DISPLAY[3] / 2), abs=0.01
    )
    # Zoomed, pieces are drawn and intersections are targets at a finger or more.
    assert piece_scale(zoomed.size, 1.0).piece >= 44
    assert 2 * zoomed.reach(("node", 0)) >= MIN_TARGET_DP


@pytest.mark.parametrize("corner", [(4, 4), (384, 334), (4, 334), (384, 4)])
def test_a_zoom_at_the_edge_stays_on_the_island(corner: tuple[float, float]) -> None:
    zoomed = _zoomed_in(PI_DISPLAY, corner)
    lx, ly = zoomed.focus_limits()
    assert abs(zoomed.focus[0]) <= lx + 1e-9
    assert abs(zoomed.focus[1]) <= ly + 1e-9
    assert lx > 0 and ly > 0  # zoomed, the view can move, only not past the island's frame


def test_every_intersection_is_taken_by_a_zoom_then_a_tap() -> None:
    whole = B.BoardGeometry(*PI_DISPLAY)
    offered = [("node", n) for n in range(NODE_COUNT)]
    for n in range(NODE_COUNT):
        zoomed = _zoomed_in(PI_DISPLAY, whole.node(n))
        x, y = zoomed.node(n)
        assert PI_DISPLAY[0] <= x <= PI_DISPLAY[0] + PI_DISPLAY[2], n
        assert PI_DISPLAY[1] <= y <= PI_DISPLAY[1] + PI_DISPLAY[3], n
        assert BoardTaps(zoomed, offered, MIN_TARGET_DP).tap(x, y) == ("node", n)


def test_every_road_is_taken_by_a_zoom_then_its_two_ends() -> None:
    whole = B.BoardGeometry(*PI_DISPLAY)
    for e in range(EDGE_COUNT):
        zoomed = _zoomed_in(PI_DISPLAY, whole.edge_mid(e))
        taps = BoardTaps(zoomed, EVERY_ROAD, MIN_TARGET_DP)
        assert taps.by_ends  # 48 dp sides: road middles 42 dp apart
        first, last = taps.taps_for(("edge", e))
        assert taps.tap(*first) is None
        assert taps.tap(*last) == ("edge", e)


def test_a_pinch_zooms_around_its_middle_and_out_to_the_overview() -> None:
    whole = B.BoardGeometry(*PI_DISPLAY)
    middle = (150.0, 160.0)
    under = whole.lattice_at(*middle)
    spread = BoardZoom().pinched(whole, middle, 2.0, MIN_TARGET_DP)
    assert spread.factor == pytest.approx(2.0)
    zoomed = spread.geometry(whole)
    assert zoomed.lattice(*under) == pytest.approx(middle, abs=0.01)
    # Never beyond sides of 120 dp, never below the whole board.
    assert spread.pinched(whole, middle, 100.0, MIN_TARGET_DP).geometry(whole).size == (
        pytest.approx(MAX_ZOOM_SIDE_DP)
    )
    out = spread.pinched(whole, middle, 0.1, MIN_TARGET_DP)
    assert out.factor == 1.0
    assert out.geometry(whole).size == pytest.approx(whole.size)
