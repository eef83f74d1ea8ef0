"""Which touch on the board takes which offered spot, without Kivy.

Every offered spot is a round touch target around its place (``BoardGeometry.reach``): a
finger needs 44 dp. A road's middle is only 0.87 of a hex side from the next road's middle, so
on a board whose sides are shorter than about 51 dp (a 7-inch tablet, 1024x600) road targets
would be smaller than a finger. There a road is chosen by its two ends instead: intersections
are a whole side apart. The first tap holds an end, and only the roads from it stay
highlighted, with rings round the held end and their far ends; a tap on the far end of one of
them takes that road; a tap on the held end lets go, a tap on another end holds that one
instead. Always two taps, so a second tap never lands on the next decision.

Roads are chosen by their middles whenever the targets fit, and also when intersections are
offered together with roads (no decision offers both; an intersection's tap would be
ambiguous).

Where even the hex sides are shorter than a finger (an 800x480 display: 31 dp), the board
zooms (:class:`BoardZoom`): the whole board is an overview, and a tap on it zooms into the
region around the tap until a side is ``ZOOMED_SIDE_DP``; there pieces are drawn and spots
are targets at 44 dp, and a tap takes a spot as above (a road by its ends). A tap on nothing
while zoomed, or a spot taken, goes back to the overview; two fingers pinch to zoom in or out
around their middle. Nothing here knows the board's shape beyond its geometry, so a larger
board (30 hexes for six players) zooms the same way.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass, replace

from companion_app.presenters.board_geometry import BoardGeometry, Spot

MIN_TARGET_DP = 44.0
"""The smallest touch target a finger hits reliably (the usual guideline for tablets)."""

ZOOMED_SIDE_DP = 48.0
"""A hex side once a tap has zoomed in: intersections a finger apart, pieces at 44 dp, with
a little room for the pieces' letters; roads are taken by their ends there (a road's middle
needs 51 dp sides)."""

MAX_ZOOM_SIDE_DP = 120.0
"""The largest hex side a pinch zooms to (about three hexes across a 7-inch display)."""

ROAD_END = "road end"
"""The kind of a target that is one end of offered roads: ``(ROAD_END, node)``."""


@dataclass(frozen=True, slots=True)
class Target:
    """A round touch target: a touch within ``reach`` of (x, y) is on it."""

    spot: Spot
    """The offered spot it takes, or ``(ROAD_END, node)``."""
    x: float
    y: float
    reach: float


class BoardTaps:
    """The touch targets of the spots offered on one board, and the end held between the two
    taps that choose a road by its ends."""

    def __init__(self, geometry: BoardGeometry, offered: Iterable[Spot], least: float) -> None:
        """``least`` is the smallest touch target in pixels (``MIN_TARGET_DP`` dp)."""
        self.geometry = geometry
        self._edge_nodes = geometry.topology.edge_nodes
        self.offered: tuple[Spot, ...] = tuple(offered)
        roads = [ident for kind, ident in self.offered if kind == "edge"]
        self.roads: frozenset[int] = frozenset(roads)
        nodes_offered = any(kind == "node" for kind, _ident in self.offered)
        self.by_ends = bool(roads) and not nodes_offered and 2 * geometry.target_radius < least
        """Roads are chosen by their two ends (their middles are too close for a finger)."""
        self.ends: dict[int, list[int]] = {}
        """Each end of an offered road, with the offered roads that meet there."""
        if self.by_ends:
            for edge in sorted(roads):
                for node in self._edge_nodes[edge]:
                    self.ends.setdefault(node, []).append(edge)
        self.held: int | None = None
        """The end tapped first, while a road is chosen by its ends."""

    def targets(self) -> list[Target]:
        """Every touch target now: the offered spots, with a road's ends in place of its
        middle when roads go by their ends."""
        geo = self.geometry
        found = []
        for spot in self.offered:
            if self.by_ends and spot[0] == "edge":
                continue
            found.append(Target(spot, *geo.spot_position(spot), geo.reach(spot)))
        for node in self.ends:
            found.append(Target((ROAD_END, node), *geo.node(node), geo.reach(("node", node))))
        return found

    def shown(self) -> list[Spot]:
        """The spots to highlight: all offered, or while an end is held only its roads, with
        rings (intersections' markers) round the held end and the far ends to tap next."""
        if self.held is None:
            return list(self.offered)
        roads = self.ends[self.held]
        far = [a if b == self.held else b for a, b in (self._edge_nodes[e] for e in roads)]
        return [*(("node", n) for n in [self.held, *far]), *(("edge", e) for e in roads)]

    def target_at(self, px: float, py: float) -> Target | None:
        """The target nearest to a touch, if the touch is within it. Intersections, roads and
        road ends win over hexes: a hex's target is most of the hex around them."""
        best: dict[bool, tuple[float, Target]] = {}
        for target in self.targets():
            is_hex = target.spot[0] == "hex"
            d = math.hypot(px - target.x, py - target.y)
            if d <= target.reach and (is_hex not in best or d < best[is_hex][0]):
                best[is_hex] = (d, target)
        for is_hex in (False, True):
            if is_hex in best:
                return best[is_hex][1]
        return None

    def tap(self, px: float, py: float) -> Spot | None:
        """A touch: the offered spot it takes, or None (nothing there, or an end held or let
        go; :attr:`held` tells which)."""
        target = self.target_at(px, py)
        if target is None:
            self.held = None
            return None
        kind, ident = target.spot
        if kind != ROAD_END:
            self.held = None
            return target.spot
        if self.held is not None:
            road = self.geometry.topology.edge_between.get((self.held, ident))
            if road is not None and road in self.ends[self.held]:
                self.held = None
                return ("edge", road)
        self.held = None if ident == self.held else ident
        return None

    def taps_for(self, spot: Spot) -> list[tuple[float, float]]:
        """Where to touch, in order, to take ``spot`` (with nothing held): its place, or a
        road's two ends, the one where more offered roads meet first."""
        geo = self.geometry
        if not (self.by_ends and spot[0] == "edge" and spot[1] in self.roads):
            return [geo.spot_position(spot)]
        a, b = self._edge_nodes[spot[1]]
        if len(self.ends[b]) > len(self.ends[a]):
            a, b = b, a
        return [geo.node(a), geo.node(b)]


@dataclass(frozen=True, slots=True)
class BoardZoom:
    """How a board too small for a finger is zoomed: ``factor`` times its whole size, with the
    lattice point ``focus`` in the middle of its rectangle (``factor`` 1: the overview)."""

    factor: float = 1.0
    focus: tuple[float, float] = (0.0, 0.0)

    def geometry(self, whole: BoardGeometry) -> BoardGeometry:
        """The zoomed geometry of a board whose whole fits ``whole``; the focus is kept where
        the view stays on the island."""
        zoomed = replace(whole, zoom=self.factor, focus=(0.0, 0.0))
        lx, ly = zoomed.focus_limits()
        fx, fy = self.focus
        return replace(zoomed, focus=(max(-lx, min(lx, fx)), max(-ly, min(ly, fy))))

    def into(self, whole: BoardGeometry, px: float, py: float, least: float) -> BoardZoom:
        """The zoom a tap at (px, py) on the overview opens: the region around the tap, hex
        sides of ``ZOOMED_SIDE_DP`` (``least`` is ``MIN_TARGET_DP`` in pixels)."""
        factor = zoom_for_side(whole, least * ZOOMED_SIDE_DP / MIN_TARGET_DP)
        if factor <= 1.0:
            return self
        return BoardZoom(factor, self.geometry(whole).lattice_at(px, py))

    def pinched(
        self,
        whole: BoardGeometry,
        middle: tuple[float, float],
        spread: float,
        least: float,
    ) -> BoardZoom:
        """Two fingers moved apart ``spread`` times as far as they were (less than 1: closer)
        around ``middle``: the lattice point under the middle stays under it."""
        largest = zoom_for_side(whole, least * MAX_ZOOM_SIDE_DP / MIN_TARGET_DP)
        factor = max(1.0, min(largest, self.factor * spread))
        before = self.geometry(whole)
        under = before.lattice_at(*middle)
        after = replace(before, zoom=factor)
        # Move the focus so that ``under`` is drawn at ``middle`` again.
        cx, cy = whole.x + whole.width / 2.0, whole.y + whole.height / 2.0
        s = after.size
        fx = under[0] - (middle[0] - cx) / (s * SQRT3_2)
        fy = under[1] + (middle[1] - cy) / (s / 2.0)
        return BoardZoom(factor, (fx, fy))


SQRT3_2 = math.sqrt(3.0) / 2.0


def zoom_for_side(whole: BoardGeometry, side: float) -> float:
    """The zoom at which hex sides are ``side`` pixels (1 where they are that already)."""
    return max(1.0, side / whole.size)


def needs_zoom(whole: BoardGeometry, least: float) -> bool:
    """The whole board's hex sides are shorter than a finger: the board zooms."""
    return whole.size < least - 0.5
