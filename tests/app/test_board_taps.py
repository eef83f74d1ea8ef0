"""Which touch takes which offered spot (:mod:`companion_app.app.board_taps`), without a window.

Board areas are in pixels at one pixel per dp, so a finger's 44 dp is 44 px. The game screen's
board is 474 dp high at 1024x600 (hex sides of 45.6 dp) and 652 dp or more at the larger
sizes.
"""

from __future__ import annotations

import math

import pytest

from companion_app.app import board_picture as B
from companion_app.app.board_taps import MIN_TARGET_DP, ROAD_END, BoardTaps, Target
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
