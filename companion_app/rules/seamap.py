"""The sea maps of Seafarers with Cities & Knights (§13): Heading for New Shores for 3 and 4
players, exactly as the rules reference prints them (§13.11).

A map is written as the reference writes it: rows y = 0… from north to south, in each row the
cells from the west in the odd-r layout (odd rows half a hex east), ``#`` a frame cell, ``.`` no
cell, ``~`` sea, a terrain letter with its number token (G fields, L forest, W pasture, B hills,
O mountains, $ gold field, D desert) and ``'`` for a hex of a small island. Harbour spots are
(x, y, side) of a land hex. :func:`parse_map` turns the text into a :class:`SeaMap`: its
:class:`~topology.Topology` (ids as on the islands: hexes in reading order, intersections top
to bottom then left to right, edges by their intersections; frame cells after the hexes) and
the printed terrain and tokens. ``docs/board.md`` ("Sea boards") says how to add a map.

Developer words: the maps are printed as the reference prints them, data and not sentences; a
map that does not parse is a declaration error, named for the engineer.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache

from companion_app.rules.cards import Harbour, Terrain
from companion_app.rules.topology import ISLAND_19, Topology, sea_topology

_LETTERS = {
    "G": Terrain.FIELDS,
    "L": Terrain.FOREST,
    "W": Terrain.PASTURE,
    "B": Terrain.HILLS,
    "O": Terrain.MOUNTAINS,
    "$": Terrain.GOLD,
    "D": Terrain.DESERT,
}


@dataclass(frozen=True, eq=False, slots=True)
class SeaMap:
    """A printed sea map: its geometry and what lies on it. One value per map (by identity)."""

    name: str
    """The map's id in board JSON (``"new_shores_3"``)."""
    players: int
    topology: Topology
    terrains: tuple[Terrain, ...]
    """Per hex as printed (``Terrain.SEA`` for sea hexes)."""
    tokens: tuple[int | None, ...]
    """Per hex as printed; None on sea and desert."""
    harbours: tuple[Harbour, ...] | None
    """The harbour of each slot when the map fixes them; None when they are shuffled onto the
    spots (``harbour_counts``) by the game's seed."""
    harbour_counts: Mapping[Harbour, int]
    robber_start: int
    """The hex the robber starts on (§13.11 setup 2)."""
    pirate_start: int
    """The cell (a sea hex, or ``hex_count + i`` for frame cell i) the pirate starts on."""
    cells: Mapping[tuple[int, int], int]
    """Each printed map cell (x, y) and its hex or cell id."""

    @property
    def terrain_counts(self) -> Counter[Terrain]:
        return Counter(self.terrains)

    @property
    def number_tokens(self) -> tuple[int, ...]:
        return tuple(sorted(t for t in self.tokens if t is not None))


def parse_map(
    name: str,
    players: int,
    text: str,
    harbour_spots: Sequence[tuple[int, int, str]],
    harbours: Sequence[Harbour] | Mapping[Harbour, int],
    robber: tuple[int, int],
    pirate: tuple[int, int],
) -> SeaMap:
    """A :class:`SeaMap` from its printed rows (see the module's words) and harbour spots;
    ``harbours`` is a list per spot (fixed) or the counts to shuffle."""
    kinds: dict[tuple[int, int], str] = {}
    printed: dict[tuple[int, int], tuple[Terrain, int | None]] = {}
    for y, line in enumerate(row for row in text.strip().splitlines() if row.strip()):
        words = line.split()
        if words[0] != f"y{y}":  # pragma: no cover - a declaration error
            raise AssertionError(f"{name}: row {y} is labelled {words[0]}")
        for x, word in enumerate(words[1:]):
            if word == ".":
                continue
            if word == "#":
                kinds[(x, y)] = "frame"
            elif word == "~":
                kinds[(x, y)] = "sea"
                printed[(x, y)] = (Terrain.SEA, None)
            else:
                small = word.endswith("'")
                number = word[1:].rstrip("'")
                kinds[(x, y)] = "small" if small else "land"
                printed[(x, y)] = (_LETTERS[word[0]], int(number) if number else None)
    topology, ids = sea_topology(kinds, harbour_spots)
    by_hex = sorted((ids[c], t) for c, t in printed.items())
    if isinstance(harbours, Mapping):
        fixed, counts = None, dict(harbours)
    else:
        fixed, counts = tuple(harbours), dict(Counter(harbours))
    return SeaMap(
        name=name,
        players=players,
        topology=topology,
        terrains=tuple(t for _, (t, _n) in by_hex),
        tokens=tuple(n for _, (_t, n) in by_hex),
        harbours=fixed,
        harbour_counts=counts,
        robber_start=ids[robber],
        pirate_start=ids[pirate],
        cells=ids,
    )


MAX_HEXES = 42
MAX_NODES = 108
MAX_EDGES = 149
MAX_CELLS = 68
"""The largest counts over the islands and the sea maps: bounds for ids read from outside and
for prebuilt actions. Written out, not counted, so that the maps are parsed on their first use
(only a sea game needs them) and not at import; they are checked against the maps when the maps
are parsed."""

NEW_SHORES_3: SeaMap
"""Heading for New Shores, 3 players (§13.11): 35 hexes (22 land, 13 sea), 24 frame cells,
the main island of 14 hexes, 8 harbours of fixed types; the robber on the hills 12 of the
north-west islet (R25), the pirate on the frame east of the gold 4."""
NEW_SHORES_4: SeaMap
"""Heading for New Shores, 4 players (§13.11): 42 hexes (28 land, 14 sea), 26 frame cells,
the base game's 19 hexes as the main island, 9 harbours shuffled onto their spots; the robber
on the desert, the pirate on the frame east of the gold 10."""
SEA_MAPS: dict[str, SeaMap]
"""Every sea map by its name in board JSON."""

_PARSED_ON_USE = ("NEW_SHORES_3", "NEW_SHORES_4", "SEA_MAPS")


@cache
def _sea_maps() -> dict[str, SeaMap]:
    """Every sea map by its name, parsed once on first use."""
    new_shores_3 = parse_map(
        "new_shores_3",
        3,
        """
y0  .     .     #     #     #     #     #
y1     .     #     B12'  $5'   ~     ~     #
y2  .     #     ~     ~     ~     W4'   O9'   #
y3     #     ~     G4    W6    ~     G3'   ~     #
y4  .     #     W2    O5    L10   ~     $4'   #
y5     #     B8    W10   W9    L8    ~     ~     #
y6  .     #     G11   O3    B11   ~     O8'   #
y7     .     #     G6    L5    ~     B10'  #
y8  .     .     #     #     #     #     #
    """,
        ((2, 3, "W"), (3, 3, "E"), (4, 5, "NE"), (3, 7, "E"), (3, 7, "SW"), (2, 7, "W"),
         (1, 5, "SW"), (1, 5, "NW")),
        (Harbour.GRAIN, Harbour.GENERIC, Harbour.WOOL, Harbour.GENERIC, Harbour.LUMBER,
         Harbour.BRICK, Harbour.GENERIC, Harbour.ORE),
        robber=(2, 1),
        pirate=(7, 4),
    )  # fmt: skip
    new_shores_4 = parse_map(
        "new_shores_4",
        4,
        """
y0  .     .     #     #     #     #     #     #
y1     .     #     O8'   W11'  ~     $4'   ~     #
y2  .     #     ~     ~     ~     ~     B5'   O2'   #
y3     #     ~     W5    L6    O4    ~     L9'   ~     #
y4  .     #     G12   B11   G3    W9    ~     $10'  #
y5     #     B6    L10   D     G11   L5    ~     ~     #
y6  .     #     O3    W4    B9    W8    ~     B3'   #
y7     .     #     G8    L2    O10   ~     G6'   #
y8  .     .     #     #     #     #     #     #
    """,
        ((2, 3, "NW"), (3, 3, "NE"), (5, 4, "NE"), (5, 5, "E"), (5, 6, "SE"), (3, 7, "SE"),
         (2, 7, "SW"), (2, 6, "W"), (2, 4, "W")),
        {Harbour.GENERIC: 4, Harbour.BRICK: 1, Harbour.LUMBER: 1, Harbour.WOOL: 1,
         Harbour.GRAIN: 1, Harbour.ORE: 1},
        robber=(3, 5),
        pirate=(8, 4),
    )  # fmt: skip
    maps = {m.name: m for m in (new_shores_3, new_shores_4)}
    from companion_app.rules.topology import ISLAND_30  # built on its first use

    every = (ISLAND_19, ISLAND_30, *(m.topology for m in maps.values()))
    largest = (
        max(t.hex_count for t in every),
        max(t.node_count for t in every),
        max(t.edge_count for t in every),
        max(t.cell_count for t in every),
    )
    if largest != (MAX_HEXES, MAX_NODES, MAX_EDGES, MAX_CELLS):  # pragma: no cover - declared wrong
        raise AssertionError(f"MAX_HEXES, MAX_NODES, MAX_EDGES, MAX_CELLS must be {largest}")
    return maps


def __getattr__(name: str) -> object:
    """The sea maps (``SEA_MAPS``, ``NEW_SHORES_3``, ``NEW_SHORES_4``), parsed on first use and
    kept as the module's own names from then on."""
    if name not in _PARSED_ON_USE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    maps = _sea_maps()
    globals().update(
        NEW_SHORES_3=maps["new_shores_3"], NEW_SHORES_4=maps["new_shores_4"], SEA_MAPS=maps
    )
    return globals()[name]
