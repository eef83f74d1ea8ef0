"""Pixel geometry of a board's island, without Kivy: where each hex, intersection, edge and
harbour of its topology is drawn inside a rectangle, zoomed or not, and the sea around it.

The island is the board's (``Board.topology``): the base game's 19 hexes or the 5-6 player
extension's 30. Everything here reads it from the geometry, so both islands are drawn, zoomed
and tapped by the same code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

from companion_app.rules.topology import ISLAND_19, Topology

SQRT3 = math.sqrt(3.0)

FRAME_MARGIN = 2.4
"""Hex sizes added to the island's span on each axis: room for the harbours and the sea."""

SEA_MARGIN = 5.6 * SQRT3 / 2.0 - 4.0
"""How far the sea reaches beyond the outermost intersections, in hex sizes (the 19-hex
island's sea: a hexagon of radius 5.6 round an island 4 sizes from its middle to its coast)."""

_SEA_NORMALS = tuple(math.radians(30.0 + 60.0 * k) for k in range(6))
"""The outward directions of the sea's six sides (a flat-topped hexagon round a pointy-topped
island)."""


@dataclass(frozen=True, slots=True)
class IslandFrame:
    """An island's extent in hex sizes: its span with room for the harbours, and how far the
    sea's six sides stand from its middle."""

    span_x: float
    span_y: float
    sea: tuple[float, ...]
    """The distance of each sea side (in ``_SEA_NORMALS`` order) from the middle."""


SEA_BOARD_REACH_X = 1.0
SEA_BOARD_REACH_Y = 0.75
"""How far a sea board is shown beyond its cells' centres, in hex sizes: east and west the
whole frame cells (half a hex is 0.87 of a size) and a sliver, north and south three quarters
of their height. The frame is a ring of sea, and the board's height is what a low window lacks
(at 800x480 Home's picture keeps the robber and the pirate at 44 dp so)."""


@cache
def island_frame(topology: Topology) -> IslandFrame:
    """The frame of ``topology`` (once per island): the island with room for its harbours and
    the sea, or a sea board's cells, its frame cells shown as far as ``SEA_BOARD_REACH_*``."""
    if topology.has_sea:
        centres = [
            (x * SQRT3 / 2.0, -y / 2.0)
            for x, y in (topology.cell_xy(c) for c in range(topology.cell_count))
        ]
        xs = [x for x, _ in centres]
        ys = [y for _, y in centres]
        sea = tuple(
            max(x * math.cos(a) + y * math.sin(a) for x, y in centres) for a in _SEA_NORMALS
        )
        return IslandFrame(
            max(xs) - min(xs) + 2 * SEA_BOARD_REACH_X,
            max(ys) - min(ys) + 2 * SEA_BOARD_REACH_Y,
            sea,
        )
    points = [(x * SQRT3 / 2.0, -y / 2.0) for x, y in topology.node_xy]
    xs = [x for x, _ in points]
    ys = [y for _, y in points]
    sea = tuple(
        max(x * math.cos(a) + y * math.sin(a) for x, y in points) + SEA_MARGIN for a in _SEA_NORMALS
    )
    return IslandFrame((max(xs) - min(xs)) + FRAME_MARGIN, (max(ys) - min(ys)) + FRAME_MARGIN, sea)


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """Pixel positions of the topology's ids inside a rectangle (Kivy: y grows upward).

    ``size`` is the hex size (centre to corner) in pixels; the lattice of ``topology`` is scaled
    to it and centred in the rectangle. Zoomed (``zoom`` > 1, see
    :mod:`companion_app.presenters.board_taps`), the hexes are ``zoom`` times larger and the
    lattice point ``focus`` is in the middle of the rectangle.
    """

    x: float
    y: float
    width: float
    height: float
    zoom: float = 1.0
    focus: tuple[float, float] = (0.0, 0.0)
    topology: Topology = ISLAND_19

    @property
    def frame(self) -> IslandFrame:
        return island_frame(self.topology)

    @property
    def size(self) -> float:
        frame = self.frame
        return max(1.0, min(self.width / frame.span_x, self.height / frame.span_y)) * self.zoom

    @property
    def centre(self) -> tuple[float, float]:
        """Where the lattice's origin (the middle of the island) is."""
        fx, fy = self.focus
        s = self.size
        return (
            self.x + self.width / 2.0 - fx * s * SQRT3 / 2.0,
            self.y + self.height / 2.0 + fy * s / 2.0,
        )

    def lattice_at(self, px: float, py: float) -> tuple[float, float]:
        """The lattice point under a pixel (the inverse of :meth:`lattice`)."""
        cx, cy = self.centre
        s = self.size
        return ((px - cx) / (s * SQRT3 / 2.0), (cy - py) / (s / 2.0))

    def focus_limits(self) -> tuple[float, float]:
        """How far from the island's middle the focus may go on each axis, so a zoomed view
        never shows more sea beyond the island's frame than the whole board does."""
        s = self.size
        frame = self.frame
        return (
            max(0.0, frame.span_x / SQRT3 - self.width / (s * SQRT3)),
            max(0.0, frame.span_y - self.height / s),
        )

    def lattice(self, lx: float, ly: float) -> tuple[float, float]:
        cx, cy = self.centre
        s = self.size
        return (cx + lx * s * SQRT3 / 2.0, cy - ly * s / 2.0)

    def hex_centre(self, h: int) -> tuple[float, float]:
        """The middle of a hex, or of any cell of a sea board (a frame cell after the hexes)."""
        return self.lattice(*self.topology.cell_xy(h))

    def hex_corners(self, h: int) -> list[tuple[float, float]]:
        """Six corners, clockwise from the top one, as the topology numbers them."""
        x, y = self.hex_centre(h)
        s = self.size
        return [
            (
                x + s * math.cos(math.radians(90 - 60 * i)),
                y + s * math.sin(math.radians(90 - 60 * i)),
            )
            for i in range(6)
        ]

    def node(self, n: int) -> tuple[float, float]:
        return self.lattice(*self.topology.node_xy[n])

    def edge(self, e: int) -> tuple[tuple[float, float], tuple[float, float]]:
        a, b = self.topology.edge_nodes[e]
        return self.node(a), self.node(b)

    def edge_mid(self, e: int) -> tuple[float, float]:
        (ax, ay), (bx, by) = self.edge(e)
        return ((ax + bx) / 2.0, (ay + by) / 2.0)

    def harbour_edge(self, slot: int) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two ends of a harbour's coastal edge (its pier's ends)."""
        return self.edge(self.topology.harbour_edges[slot])

    def harbour(self, slot: int) -> tuple[float, float]:
        """Where a harbour's marker goes: off the coast, outward from its edge's land hex."""
        e = self.topology.harbour_edges[slot]
        mx, my = self.edge_mid(e)
        land = set(self.topology.land_hexes)
        hx, hy = self.hex_centre(next(h for h in self.topology.edge_hexes[e] if h in land))
        dx, dy = mx - hx, my - hy
        length = math.hypot(dx, dy) or 1.0
        reach = self.size * 0.75
        return (mx + dx / length * reach, my + dy / length * reach)

    def sea_corners(self) -> list[tuple[float, float]]:
        """The sea round the island: a hexagon whose sides stand ``SEA_MARGIN`` beyond the
        outermost intersections (a regular one round the 19-hex island)."""
        cx, cy = self.centre
        s = self.size
        sides = self.frame.sea
        corners = []
        for k in range(6):
            # The corner between side k and side k+1 (their normals 60 degrees apart).
            a, b = _SEA_NORMALS[k], _SEA_NORMALS[(k + 1) % 6]
            da, db = sides[k], sides[(k + 1) % 6]
            det = math.sin(b - a)
            x = (da * math.sin(b) - db * math.sin(a)) / det
            y = (db * math.cos(a) - da * math.cos(b)) / det
            corners.append((cx + x * s, cy + y * s))
        return corners

    @property
    def target_radius(self) -> float:
        """Half a touch target. Intersections are a side apart and edge middles 0.87 side, so
        targets of one kind never overlap."""
        return self.size * 0.43

    def reach(self, spot: Spot) -> float:
        """How far from its centre a touch still takes ``spot``, as large as it can be without
        two spots of a kind overlapping: a hex 0.8 side (centres are 1.73 sides apart), an
        intersection half a side (they are a side apart), an edge middle 0.43 side (0.87 apart)."""
        kind = spot[0]
        if kind == "hex":
            return self.size * 0.8
        if kind == "node":
            return self.size * 0.5
        return self.target_radius

    def spot_position(self, spot: Spot) -> tuple[float, float]:
        kind, ident = spot
        if kind == "node":
            return self.node(ident)
        if kind == "edge":
            return self.edge_mid(ident)
        if kind == "harbour":
            return self.harbour(ident)
        return self.hex_centre(ident)


Spot = tuple[str, int]
"""A tappable place on the board: ("node", id), ("edge", id), ("hex", id) or ("harbour", slot)."""
