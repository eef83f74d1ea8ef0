"""The fixed geometry of the 19-hex island: stable ids for hexes, intersections and edges.

Ids are the public names the UI taps and the journal stores, so they never change:

* **Hexes 0–18**, row by row from the top, left to right (rows of 3, 4, 5, 4, 3)::

          0   1   2
        3   4   5   6
      7   8   9  10  11
       12  13  14  15
         16  17  18

  Hexes are pointy-top. Hex ``h`` sits at axial coordinates ``HEX_AXIAL[h] = (q, r)``.
* **Intersections 0–53**, sorted by their position on the board: top to bottom, then left to
  right (``NODE_XY``).
* **Edges 0–71**, sorted by their two intersection ids (lower id first).
* **Harbour slots 0–8**: nine coastal edges, clockwise from the top left (slot 0 touches the
  top-left hex 0), spaced 3, 3, 4 coastal edges apart as on the base game's frame.

Coordinates use a lattice of integers: x in units of half a hex width (sqrt(3)/2 of the hex
size), y in units of half the hex size, y growing downward. The UI scales them to pixels.
"""

from __future__ import annotations

import math

HEX_COUNT = 19
NODE_COUNT = 54
EDGE_COUNT = 72
HARBOUR_COUNT = 9


def _axial_hexes() -> tuple[tuple[int, int], ...]:
    return tuple((q, r) for r in range(-2, 3) for q in range(max(-2, -2 - r), min(2, 2 - r) + 1))


HEX_AXIAL: tuple[tuple[int, int], ...] = _axial_hexes()
"""(q, r) axial coordinates of each hex id."""

HEX_XY: tuple[tuple[int, int], ...] = tuple((2 * q + r, 3 * r) for q, r in HEX_AXIAL)
"""Centre of each hex on the integer lattice."""

# Corner offsets of a pointy-top hex, clockwise from the top corner.
_CORNER_OFFSETS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))

_corner_points = sorted(
    {(x + dx, y + dy) for x, y in HEX_XY for dx, dy in _CORNER_OFFSETS},
    key=lambda p: (p[1], p[0]),
)
NODE_XY: tuple[tuple[int, int], ...] = tuple(_corner_points)
"""Position of each intersection on the integer lattice."""
_node_at = {p: i for i, p in enumerate(NODE_XY)}

HEX_NODES: tuple[tuple[int, ...], ...] = tuple(
    tuple(_node_at[(x + dx, y + dy)] for dx, dy in _CORNER_OFFSETS) for x, y in HEX_XY
)
"""The six intersections of each hex, clockwise from its top corner."""

_edge_pairs = sorted(
    {
        (min(a, b), max(a, b))
        for corners in HEX_NODES
        for a, b in zip(corners, corners[1:] + corners[:1], strict=True)
    }
)
EDGE_NODES: tuple[tuple[int, int], ...] = tuple(_edge_pairs)
"""The two intersections of each edge, lower id first."""
EDGE_BETWEEN: dict[tuple[int, int], int] = {}
"""Edge id by either ordering of its two intersections."""
for _e, (_a, _b) in enumerate(EDGE_NODES):
    EDGE_BETWEEN[(_a, _b)] = _e
    EDGE_BETWEEN[(_b, _a)] = _e

NODE_HEXES: tuple[tuple[int, ...], ...] = tuple(
    tuple(h for h in range(HEX_COUNT) if n in HEX_NODES[h]) for n in range(NODE_COUNT)
)
"""The land hexes (1 to 3) touching each intersection."""
NODE_EDGES: tuple[tuple[int, ...], ...] = tuple(
    tuple(e for e, pair in enumerate(EDGE_NODES) if n in pair) for n in range(NODE_COUNT)
)
"""The edges (2 or 3) meeting at each intersection."""
NODE_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(EDGE_NODES[e][1] if EDGE_NODES[e][0] == n else EDGE_NODES[e][0] for e in NODE_EDGES[n])
    for n in range(NODE_COUNT)
)
"""The intersections one edge away from each intersection (same order as NODE_EDGES)."""
EDGE_HEXES: tuple[tuple[int, ...], ...] = tuple(
    tuple(h for h in range(HEX_COUNT) if a in HEX_NODES[h] and b in HEX_NODES[h])
    for a, b in EDGE_NODES
)
"""The land hexes (1 or 2) on either side of each edge."""

_AXIAL_DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
_hex_at = {qr: h for h, qr in enumerate(HEX_AXIAL)}
HEX_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(_hex_at[(q + dq, r + dr)] for dq, dr in _AXIAL_DIRECTIONS if (q + dq, r + dr) in _hex_at)
    for q, r in HEX_AXIAL
)
"""The land hexes sharing an edge with each hex."""


def _coastal_edges_clockwise() -> tuple[int, ...]:
    coastal = [e for e in range(EDGE_COUNT) if len(EDGE_HEXES[e]) == 1]

    def bearing(e: int) -> float:
        a, b = EDGE_NODES[e]
        x = (NODE_XY[a][0] + NODE_XY[b][0]) * math.sqrt(3) / 2
        y = (NODE_XY[a][1] + NODE_XY[b][1]) * 0.5
        # Clockwise angle from straight up, starting just left of north so hex 0 comes first.
        return (math.atan2(x, -y) + 2 * math.pi + 0.6) % (2 * math.pi)

    return tuple(sorted(coastal, key=bearing))


COASTAL_EDGES: tuple[int, ...] = _coastal_edges_clockwise()
"""The 30 coastal edges, clockwise round the island."""

_HARBOUR_GAPS = (3, 3, 4) * 3
HARBOUR_EDGES: tuple[int, ...] = tuple(
    COASTAL_EDGES[sum(_HARBOUR_GAPS[:i])] for i in range(HARBOUR_COUNT)
)
"""The coastal edge of each harbour slot; its two intersections use the harbour."""

NODE_HARBOUR_SLOT: tuple[int | None, ...] = tuple(
    next((s for s, e in enumerate(HARBOUR_EDGES) if n in EDGE_NODES[e]), None)
    for n in range(NODE_COUNT)
)
"""The harbour slot an intersection touches, if any."""
