"""The fixed geometry of the islands: stable ids for hexes, intersections, edges and harbours.

Two islands, each a :class:`Topology`: the base game's 19 hexes (3-4 players) and the 5-6
player extension's 30 hexes (§12). A board owns its island (``Board.topology``), a game its
board's. Ids are the public names the UI taps and the journal stores, so they never change:

* **Hexes**, row by row from the top, left to right: rows of 3, 4, 5, 4, 3 (ids 0-18) or of
  3, 4, 5, 6, 5, 4, 3 (ids 0-29)::

          0   1   2                       0   1   2
        3   4   5   6                   3   4   5   6
      7   8   9  10  11               7   8   9  10  11
       12  13  14  15              12  13  14  15  16  17
         16  17  18                  18  19  20  21  22
                                       23  24  25  26
                                         27  28  29

  Hexes are pointy-top.
* **Intersections**, sorted by their position on the board: top to bottom, then left to
  right (``node_xy``): 0-53 on 19 hexes, 0-79 on 30.
* **Edges**, sorted by their two intersection ids (lower id first): 0-71 on 19 hexes, 0-108
  on 30.
* **Harbour slots**: coastal edges clockwise from the top left (slot 0 touches the top-left
  hex 0): nine on 19 hexes, spaced 3, 3, 4 coastal edges apart as on the base game's frame;
  eleven on 30, spaced 4, 3, 3, 4, 3, 4, 3, 3, 4, 3, 4 apart round its 38 coastal edges.

Coordinates use a lattice of integers: x in units of half a hex width (sqrt(3)/2 of the hex
size), y in units of half the hex size, y growing downward, the island's middle at (0, 0).
The UI scales them to pixels.

The module's upper-case names (``HEX_COUNT``, ``EDGE_NODES``...) are the 19-hex island's, as
they always were; code that serves both islands reads a game's or a board's ``topology``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

# Corner offsets of a pointy-top hex, clockwise from the top corner.
_CORNER_OFFSETS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
# The six neighbouring hex centres, in the order the 19-hex island always listed them.
_NEIGHBOUR_OFFSETS = ((2, 0), (1, -3), (-1, -3), (-2, 0), (-1, 3), (1, 3))


@dataclass(frozen=True, eq=False, slots=True)
class Topology:
    """One island's geometry. Compared by identity: there is one value per island."""

    rows: tuple[int, ...]
    """Hexes per row, top to bottom."""
    hex_xy: tuple[tuple[int, int], ...]
    """Centre of each hex on the integer lattice."""
    node_xy: tuple[tuple[int, int], ...]
    """Position of each intersection on the integer lattice."""
    hex_nodes: tuple[tuple[int, ...], ...]
    """The six intersections of each hex, clockwise from its top corner."""
    edge_nodes: tuple[tuple[int, int], ...]
    """The two intersections of each edge, lower id first."""
    edge_between: dict[tuple[int, int], int]
    """Edge id by either ordering of its two intersections."""
    node_hexes: tuple[tuple[int, ...], ...]
    """The land hexes (1 to 3) touching each intersection."""
    node_edges: tuple[tuple[int, ...], ...]
    """The edges (2 or 3) meeting at each intersection."""
    node_neighbours: tuple[tuple[int, ...], ...]
    """The intersections one edge away from each intersection (same order as node_edges)."""
    edge_hexes: tuple[tuple[int, ...], ...]
    """The land hexes (1 or 2) on either side of each edge."""
    hex_neighbours: tuple[tuple[int, ...], ...]
    """The land hexes sharing an edge with each hex."""
    coastal_edges: tuple[int, ...]
    """The coastal edges, clockwise round the island from the top left."""
    harbour_edges: tuple[int, ...]
    """The coastal edge of each harbour slot; its two intersections use the harbour."""
    node_harbour_slot: tuple[int | None, ...]
    """The harbour slot an intersection touches, if any."""

    @property
    def hex_count(self) -> int:
        return len(self.hex_xy)

    @property
    def node_count(self) -> int:
        return len(self.node_xy)

    @property
    def edge_count(self) -> int:
        return len(self.edge_nodes)

    @property
    def harbour_count(self) -> int:
        return len(self.harbour_edges)

    def hex_distance2(self, h: int) -> int:
        """How far hex ``h`` lies from the island's middle, squared (in units of a twelfth of
        the hex size squared: 3x² + y² on the lattice)."""
        x, y = self.hex_xy[h]
        return 3 * x * x + y * y


def _hex_centres(rows: tuple[int, ...]) -> tuple[tuple[int, int], ...]:
    """Each row centred on x = 0; neighbouring rows differ by one hex, so by half a hex."""
    middle = (len(rows) - 1) // 2
    return tuple(
        (2 * k - (width - 1), 3 * (r - middle))
        for r, width in enumerate(rows)
        for k in range(width)
    )


def _coastal_edges_clockwise(
    edge_nodes: tuple[tuple[int, int], ...],
    edge_hexes: tuple[tuple[int, ...], ...],
    node_xy: tuple[tuple[int, int], ...],
) -> tuple[int, ...]:
    coastal = [e for e in range(len(edge_nodes)) if len(edge_hexes[e]) == 1]

    def bearing(e: int) -> float:
        a, b = edge_nodes[e]
        x = (node_xy[a][0] + node_xy[b][0]) * math.sqrt(3) / 2
        y = (node_xy[a][1] + node_xy[b][1]) * 0.5
        # Clockwise angle from straight up, starting just left of north so hex 0 comes first.
        return (math.atan2(x, -y) + 2 * math.pi + 0.6) % (2 * math.pi)

    return tuple(sorted(coastal, key=bearing))


def _build(rows: tuple[int, ...], harbour_gaps: tuple[int, ...]) -> Topology:
    hex_xy = _hex_centres(rows)
    hex_count = len(hex_xy)
    node_xy = tuple(
        sorted(
            {(x + dx, y + dy) for x, y in hex_xy for dx, dy in _CORNER_OFFSETS},
            key=lambda p: (p[1], p[0]),
        )
    )
    node_at = {p: i for i, p in enumerate(node_xy)}
    hex_nodes = tuple(
        tuple(node_at[(x + dx, y + dy)] for dx, dy in _CORNER_OFFSETS) for x, y in hex_xy
    )
    edge_nodes = tuple(
        sorted(
            {
                (min(a, b), max(a, b))
                for corners in hex_nodes
                for a, b in zip(corners, corners[1:] + corners[:1], strict=True)
            }
        )
    )
    edge_between: dict[tuple[int, int], int] = {}
    for e, (a, b) in enumerate(edge_nodes):
        edge_between[(a, b)] = e
        edge_between[(b, a)] = e
    node_count = len(node_xy)
    node_hexes = tuple(
        tuple(h for h in range(hex_count) if n in hex_nodes[h]) for n in range(node_count)
    )
    node_edges = tuple(
        tuple(e for e, pair in enumerate(edge_nodes) if n in pair) for n in range(node_count)
    )
    node_neighbours = tuple(
        tuple(
            edge_nodes[e][1] if edge_nodes[e][0] == n else edge_nodes[e][0] for e in node_edges[n]
        )
        for n in range(node_count)
    )
    edge_hexes = tuple(
        tuple(h for h in range(hex_count) if a in hex_nodes[h] and b in hex_nodes[h])
        for a, b in edge_nodes
    )
    hex_at = {xy: h for h, xy in enumerate(hex_xy)}
    hex_neighbours = tuple(
        tuple(
            hex_at[(x + dx, y + dy)] for dx, dy in _NEIGHBOUR_OFFSETS if (x + dx, y + dy) in hex_at
        )
        for x, y in hex_xy
    )
    coastal = _coastal_edges_clockwise(edge_nodes, edge_hexes, node_xy)
    if sum(harbour_gaps) != len(coastal):  # pragma: no cover - a declaration error
        raise AssertionError(f"harbour gaps cover {sum(harbour_gaps)} of {len(coastal)} edges")
    harbour_edges = tuple(coastal[sum(harbour_gaps[:i])] for i in range(len(harbour_gaps)))
    node_harbour_slot = tuple(
        next((s for s, e in enumerate(harbour_edges) if n in edge_nodes[e]), None)
        for n in range(node_count)
    )
    return Topology(
        rows=rows,
        hex_xy=hex_xy,
        node_xy=node_xy,
        hex_nodes=hex_nodes,
        edge_nodes=edge_nodes,
        edge_between=edge_between,
        node_hexes=node_hexes,
        node_edges=node_edges,
        node_neighbours=node_neighbours,
        edge_hexes=edge_hexes,
        hex_neighbours=hex_neighbours,
        coastal_edges=coastal,
        harbour_edges=harbour_edges,
        node_harbour_slot=node_harbour_slot,
    )


ISLAND_19 = _build((3, 4, 5, 4, 3), (3, 3, 4) * 3)
"""The base game's island (3-4 players): 19 hexes, 54 intersections, 72 edges, 9 harbours."""
ISLAND_30 = _build((3, 4, 5, 6, 5, 4, 3), (4, 3, 3, 4, 3, 4, 3, 3, 4, 3, 4))
"""The 5-6 player extension's island (§12): 30 hexes, 80 intersections, 109 edges, 11
harbours."""
TOPOLOGIES: dict[int, Topology] = {t.hex_count: t for t in (ISLAND_19, ISLAND_30)}
"""Each island by its number of land hexes."""
MAX_HEXES = ISLAND_30.hex_count
MAX_NODES = ISLAND_30.node_count
MAX_EDGES = ISLAND_30.edge_count
"""The largest island's counts: bounds for ids read from outside and for prebuilt actions."""


# ---- the 19-hex island's names, as they always were -------------------------------------------

HEX_COUNT = ISLAND_19.hex_count
NODE_COUNT = ISLAND_19.node_count
EDGE_COUNT = ISLAND_19.edge_count
HARBOUR_COUNT = ISLAND_19.harbour_count
HEX_AXIAL: tuple[tuple[int, int], ...] = tuple(
    ((x - y // 3) // 2, y // 3) for x, y in ISLAND_19.hex_xy
)
"""(q, r) axial coordinates of each hex id (19 hexes)."""
HEX_XY = ISLAND_19.hex_xy
NODE_XY = ISLAND_19.node_xy
HEX_NODES = ISLAND_19.hex_nodes
EDGE_NODES = ISLAND_19.edge_nodes
EDGE_BETWEEN = ISLAND_19.edge_between
NODE_HEXES = ISLAND_19.node_hexes
NODE_EDGES = ISLAND_19.node_edges
NODE_NEIGHBOURS = ISLAND_19.node_neighbours
EDGE_HEXES = ISLAND_19.edge_hexes
HEX_NEIGHBOURS = ISLAND_19.hex_neighbours
COASTAL_EDGES = ISLAND_19.coastal_edges
HARBOUR_EDGES = ISLAND_19.harbour_edges
NODE_HARBOUR_SLOT = ISLAND_19.node_harbour_slot
