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
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from functools import cache

# Corner offsets of a pointy-top hex, clockwise from the top corner.
_CORNER_OFFSETS = ((0, -2), (1, -1), (1, 1), (0, 2), (-1, 1), (-1, -1))
# The six neighbouring hex centres, in the order the 19-hex island always listed them.
_NEIGHBOUR_OFFSETS = ((2, 0), (1, -3), (-1, -3), (-2, 0), (-1, 3), (1, 3))


class EdgeKind(Enum):
    """What may be built on an edge (§13.2)."""

    LAND = "land"
    """Two land hexes: roads only."""
    COAST = "coast"
    """A land hex and a sea hex or the frame: one road or one ship."""
    SEA = "sea"
    """Sea or frame on both sides: ships only."""


class NodeKind(Enum):
    """What an intersection touches (§13.2)."""

    LAND = "land"
    """Land hexes only."""
    COASTAL = "coastal"
    """Land and sea (or the frame): settlements, cities and knights as on land."""
    SEA = "sea"
    """Sea hexes and frame cells only: nothing is built there."""


@dataclass(frozen=True, eq=False, slots=True)
class Topology:
    """One board's geometry. Compared by identity: there is one value per island or sea map.

    On an island every hex is land and the frame is the plastic one round it; on a sea board
    (§13.2) the hexes are the *inside* hexes, land and sea, and the frame is a ring of frame
    cells (``frame_xy``) that count as sea for coasts, ships and the pirate.
    """

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
    """The hexes (1 to 3) touching each intersection (land or sea; never a frame cell)."""
    node_edges: tuple[tuple[int, ...], ...]
    """The edges (2 or 3) meeting at each intersection."""
    node_neighbours: tuple[tuple[int, ...], ...]
    """The intersections one edge away from each intersection (same order as node_edges)."""
    edge_hexes: tuple[tuple[int, ...], ...]
    """The hexes (1 or 2) on either side of each edge; one where the other side is the frame."""
    hex_neighbours: tuple[tuple[int, ...], ...]
    """The hexes sharing an edge with each hex."""
    coastal_edges: tuple[int, ...]
    """The coast edges: on an island clockwise round it from the top left, on a sea board in
    id order."""
    harbour_edges: tuple[int, ...]
    """The coastal edge of each harbour slot; its two intersections use the harbour."""
    node_harbour_slot: tuple[int | None, ...]
    """The harbour slot an intersection touches, if any."""
    land_hexes: tuple[int, ...]
    """The land hexes in id order: every hex of an island."""
    edge_kinds: tuple[EdgeKind, ...]
    """Per edge: land, coast or sea (§13.2). An island's edge on the frame is coast."""
    node_kinds: tuple[NodeKind, ...]
    """Per intersection: land, coastal or sea (§13.2)."""
    islands: tuple[tuple[int, ...], ...]
    """The land hexes of each island: the main island (index 0) first, where the setup is
    played, then the small islands by their first hex id."""
    hex_island: tuple[int | None, ...]
    """Per hex, the index of its island in ``islands``; None for a sea hex."""
    node_island: tuple[int | None, ...]
    """Per intersection, the island of the land hexes it touches (hexes of two islands never
    share a corner); None for a sea intersection."""
    setup_nodes: tuple[int, ...]
    """The intersections the setup may build on, in id order: the main island's (§13.11)."""
    frame_xy: tuple[tuple[int, int], ...]
    """The frame cells of a sea board, in reading order; frame cell ``i`` is *cell*
    ``hex_count + i``. Empty on an island."""
    cell_edges: tuple[tuple[int, ...], ...]
    """Per cell (hexes, then frame cells), its edges on the board: all six of a hex, those
    shared with a hex for a frame cell. A pirate on the cell blocks these (§13.4)."""
    node_ship_edges: tuple[tuple[int, ...], ...]
    """Per intersection, its coast and sea edges: where a ship may lie (§13.2)."""
    node_road_edges: tuple[tuple[int, ...], ...]
    """Per intersection, its land and coast edges: where a road may lie (§13.2); on an
    island ``node_edges`` itself."""
    has_sea: bool
    """A sea board (§13): sea hexes and a frame of cells, ships and the pirate."""
    node_links: tuple[tuple[tuple[int, int], ...], ...]
    """Per intersection, ``node_edges`` and ``node_neighbours`` paired: each edge with the
    intersection it leads to (the walks along roads and ships)."""

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

    @property
    def cell_count(self) -> int:
        """Hexes and frame cells: the places the pirate may be named by (§13.4)."""
        return len(self.hex_xy) + len(self.frame_xy)

    @property
    def sea_cells(self) -> tuple[int, ...]:
        """The sea hexes and frame cells in cell id order: where the pirate may stand (R5)."""
        land = set(self.land_hexes)
        return tuple(c for c in range(self.cell_count) if c not in land)

    def cell_xy(self, cell: int) -> tuple[int, int]:
        """The centre of a hex or frame cell on the lattice."""
        if cell < len(self.hex_xy):
            return self.hex_xy[cell]
        return self.frame_xy[cell - len(self.hex_xy)]

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


def _islands(
    land: Sequence[int], hex_neighbours: tuple[tuple[int, ...], ...], small: frozenset[int]
) -> tuple[tuple[int, ...], ...]:
    """The land hexes joined edge to edge, the one without small-island marks first."""
    land_set = set(land)
    seen: set[int] = set()
    groups: list[tuple[int, ...]] = []
    for start in land:
        if start in seen:
            continue
        group = {start}
        todo = [start]
        while todo:
            h = todo.pop()
            for n in hex_neighbours[h]:
                if n in land_set and n not in group:
                    group.add(n)
                    todo.append(n)
        seen |= group
        groups.append(tuple(sorted(group)))
    main = [g for g in groups if not small & set(g)]
    marked_wrong = [g for g in groups if small & set(g) and not set(g) <= small]
    if len(main) != 1 or marked_wrong:  # pragma: no cover - a declaration error
        raise AssertionError(f"a map needs one main island and whole small islands: {groups}")
    return (main[0], *sorted((g for g in groups if g is not main[0]), key=lambda g: g[0]))


def _build(
    hex_xy: tuple[tuple[int, int], ...],
    rows: tuple[int, ...],
    harbour_edges_of: Callable[[tuple[int, ...], dict[tuple[int, int], int]], tuple[int, ...]],
    land: tuple[int, ...] | None = None,
    frame_xy: tuple[tuple[int, int], ...] = (),
    small: frozenset[int] = frozenset(),
) -> Topology:
    """The geometry of hexes at ``hex_xy``; ``land`` the land hexes (all if None), ``frame_xy``
    a sea board's frame cells, ``small`` the hexes marked as small islands.
    ``harbour_edges_of(coastal_edges, edge_between)`` names each harbour slot's edge."""
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
    # Each hex and edge added to its intersections (and each hex to its edges) in id order: one
    # pass, the same tuples as asking every intersection about every hex and edge.
    hexes_at: list[list[int]] = [[] for _ in range(node_count)]
    sides_of: dict[int, list[int]] = {}
    for h, corners in enumerate(hex_nodes):
        for i, n in enumerate(corners):
            hexes_at[n].append(h)
            sides_of.setdefault(edge_between[(n, corners[(i + 1) % 6])], []).append(h)
    edges_at: list[list[int]] = [[] for _ in range(node_count)]
    for e, (a, b) in enumerate(edge_nodes):
        edges_at[a].append(e)
        edges_at[b].append(e)
    node_hexes = tuple(map(tuple, hexes_at))
    node_edges = tuple(map(tuple, edges_at))
    node_neighbours = tuple(
        tuple(
            edge_nodes[e][1] if edge_nodes[e][0] == n else edge_nodes[e][0] for e in node_edges[n]
        )
        for n in range(node_count)
    )
    edge_hexes = tuple(tuple(sides_of[e]) for e in range(len(edge_nodes)))
    hex_at = {xy: h for h, xy in enumerate(hex_xy)}
    hex_neighbours = tuple(
        tuple(
            hex_at[(x + dx, y + dy)] for dx, dy in _NEIGHBOUR_OFFSETS if (x + dx, y + dy) in hex_at
        )
        for x, y in hex_xy
    )
    land_hexes = tuple(range(hex_count)) if land is None else tuple(sorted(land))
    is_land = [False] * hex_count
    for h in land_hexes:
        is_land[h] = True
    if frame_xy:
        coastal = tuple(
            e for e in range(len(edge_nodes)) if sum(is_land[h] for h in edge_hexes[e]) == 1
        )
    else:
        coastal = _coastal_edges_clockwise(edge_nodes, edge_hexes, node_xy)
    harbour_edges = harbour_edges_of(coastal, edge_between)
    node_harbour_slot = tuple(
        next((s for s, e in enumerate(harbour_edges) if n in edge_nodes[e]), None)
        for n in range(node_count)
    )
    edge_kinds = tuple(
        (EdgeKind.SEA, EdgeKind.COAST, EdgeKind.LAND)[sum(is_land[h] for h in hexes)]
        for hexes in edge_hexes
    )
    # Three cells meet at each corner; those that are no hex are the frame.
    node_kinds = tuple(
        NodeKind.SEA
        if not any(is_land[h] for h in hexes)
        else NodeKind.LAND
        if len(hexes) == 3 and all(is_land[h] for h in hexes)
        else NodeKind.COASTAL
        for hexes in node_hexes
    )
    islands = _islands(land_hexes, hex_neighbours, small)
    island_of: dict[int, int] = {h: i for i, group in enumerate(islands) for h in group}
    hex_island = tuple(island_of.get(h) for h in range(hex_count))
    node_island = tuple(
        next((island_of[h] for h in hexes if h in island_of), None) for hexes in node_hexes
    )
    main = set(islands[0])
    setup_nodes = tuple(n for n in range(node_count) if main & set(node_hexes[n]))
    cell_edges = tuple(
        tuple(
            sorted(
                edge_between[(corners[i], corners[(i + 1) % 6])]
                for i in range(6)
                if (corners[i], corners[(i + 1) % 6]) in edge_between
            )
        )
        for corners in (
            *hex_nodes,
            *(
                tuple(node_at.get((x + dx, y + dy), -1) for dx, dy in _CORNER_OFFSETS)
                for x, y in frame_xy
            ),
        )
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
        land_hexes=land_hexes,
        edge_kinds=edge_kinds,
        node_kinds=node_kinds,
        islands=islands,
        hex_island=hex_island,
        node_island=node_island,
        setup_nodes=setup_nodes,
        frame_xy=frame_xy,
        cell_edges=cell_edges,
        node_ship_edges=tuple(
            tuple(e for e in edges if edge_kinds[e] is not EdgeKind.LAND) for edges in node_edges
        ),
        node_road_edges=tuple(
            tuple(e for e in edges if edge_kinds[e] is not EdgeKind.SEA) for edges in node_edges
        )
        if frame_xy
        else node_edges,
        has_sea=bool(frame_xy),
        node_links=tuple(
            tuple(zip(edges, nodes, strict=True))
            for edges, nodes in zip(node_edges, node_neighbours, strict=True)
        ),
    )


def _island(rows: tuple[int, ...], harbour_gaps: tuple[int, ...]) -> Topology:
    """An island of ``rows`` hexes, its harbour slots ``harbour_gaps`` coastal edges apart."""

    def harbours(coastal: tuple[int, ...], _: dict[tuple[int, int], int]) -> tuple[int, ...]:
        if sum(harbour_gaps) != len(coastal):  # pragma: no cover - a declaration error
            raise AssertionError(f"harbour gaps cover {sum(harbour_gaps)} of {len(coastal)} edges")
        return tuple(coastal[sum(harbour_gaps[:i])] for i in range(len(harbour_gaps)))

    return _build(_hex_centres(rows), rows, harbours)


HEX_SIDES = ("NE", "E", "SE", "SW", "W", "NW")
"""A pointy-top hex's sides, clockwise: side ``i`` joins corners ``i`` and ``i + 1`` of
``hex_nodes`` (corner 0 the top one)."""


def odd_r_xy(x: int, y: int) -> tuple[int, int]:
    """The lattice centre of map cell (x, y) in the odd-r layout of §13.11 (odd rows half a hex
    east), before a map is moved to centre on (0, 0)."""
    return 2 * x + (y & 1), 3 * y


def sea_topology(
    cells: dict[tuple[int, int], str],
    harbour_spots: Sequence[tuple[int, int, str]],
) -> tuple[Topology, dict[tuple[int, int], int]]:
    """The topology of a sea map and each map cell's id (hex, or ``hex_count + i`` for a frame
    cell). ``cells`` maps (x, y) of the odd-r layout to ``"land"``, ``"small"`` (land of a small
    island), ``"sea"`` or ``"frame"``; every hex must be surrounded by hexes and frame cells.
    ``harbour_spots`` are (x, y, side) with a side of :data:`HEX_SIDES`, in slot order."""
    order = sorted(cells, key=lambda c: (c[1], c[0]))
    xs = [odd_r_xy(x, y)[0] for x, y in order]
    ys = [odd_r_xy(x, y)[1] for x, y in order]
    # Centre the map on the lattice's (0, 0), keeping corners on integer points.
    dx, dy = -((min(xs) + max(xs)) // 2), -((min(ys) + max(ys)) // 2 // 3 * 3)

    def xy(c: tuple[int, int]) -> tuple[int, int]:
        x, y = odd_r_xy(*c)
        return x + dx, y + dy

    inside = [c for c in order if cells[c] != "frame"]
    frame = [c for c in order if cells[c] == "frame"]
    hex_id = {c: h for h, c in enumerate(inside)}
    at = {xy(c) for c in order}
    for c in inside:
        x, y = xy(c)
        if any((x + ox, y + oy) not in at for ox, oy in _NEIGHBOUR_OFFSETS):
            raise AssertionError(f"map cell {c} is not closed in by the frame")  # pragma: no cover
    row_counts: dict[int, int] = {}
    for _, y in inside:
        row_counts[y] = row_counts.get(y, 0) + 1
    rows = tuple(row_counts[y] for y in sorted(row_counts))
    hex_xy = tuple(xy(c) for c in inside)

    def harbours(_: tuple[int, ...], edge_between: dict[tuple[int, int], int]) -> tuple[int, ...]:
        edges = []
        for x, y, side in harbour_spots:
            hx, hy = xy((x, y))
            i = HEX_SIDES.index(side)
            a = _CORNER_OFFSETS[i]
            b = _CORNER_OFFSETS[(i + 1) % 6]
            ends = (nodes[(hx + a[0], hy + a[1])], nodes[(hx + b[0], hy + b[1])])
            edges.append(edge_between[ends])
        return tuple(edges)

    corners = sorted(
        {(x + ox, y + oy) for x, y in hex_xy for ox, oy in _CORNER_OFFSETS},
        key=lambda p: (p[1], p[0]),
    )
    nodes = {p: i for i, p in enumerate(corners)}
    topology = _build(
        hex_xy,
        rows,
        harbours,
        land=tuple(hex_id[c] for c in inside if cells[c] in ("land", "small")),
        frame_xy=tuple(xy(c) for c in frame),
        small=frozenset(hex_id[c] for c in inside if cells[c] == "small"),
    )
    ids = dict(hex_id)
    ids.update({c: len(inside) + i for i, c in enumerate(frame)})
    return topology, ids


ISLAND_19 = _island((3, 4, 5, 4, 3), (3, 3, 4) * 3)
"""The base game's island (3-4 players): 19 hexes, 54 intersections, 72 edges, 9 harbours."""
ISLAND_30: Topology
"""The 5-6 player extension's island (§12): 30 hexes, 80 intersections, 109 edges, 11
harbours. Built on first use: only a game of 5 or 6 needs it."""
TOPOLOGIES: dict[int, Topology]
"""Each island by its number of land hexes (the sea maps' topologies are in
:mod:`companion_app.rules.seamap`)."""


@cache
def _island_30() -> Topology:
    """:data:`ISLAND_30`, built once on first use."""
    return _island((3, 4, 5, 6, 5, 4, 3), (4, 3, 3, 4, 3, 4, 3, 3, 4, 3, 4))


def __getattr__(name: str) -> object:
    """``ISLAND_30`` and ``TOPOLOGIES``, built on first use and kept as the module's own names
    from then on."""
    if name not in ("ISLAND_30", "TOPOLOGIES"):
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    island = _island_30()
    globals().update(ISLAND_30=island, TOPOLOGIES={t.hex_count: t for t in (ISLAND_19, island)})
    return globals()[name]


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
