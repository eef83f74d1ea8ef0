"""The board as the screens draw it, computed from the rules core's state without Kivy: the
palette (players, terrains, dice, tracks), pixel geometry of the topology's ids, the spot an
action is chosen by, and the pictures of the board with its pieces.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from companion_app.i18n.current import _, render
from companion_app.presenters.board_geometry import SQRT3 as SQRT3
from companion_app.presenters.board_geometry import BoardGeometry as BoardGeometry
from companion_app.presenters.board_geometry import Spot as Spot
from companion_app.rules.actions import (
    Action,
    ActivateKnight,
    BuildCity,
    BuildCityWall,
    BuildKnight,
    BuildRoad,
    BuildSettlement,
    BuildShip,
    ChasePirate,
    ChaseRobber,
    EventDie,
    LoseCity,
    MovePirate,
    MoveRobber,
    PlaceDeserter,
    PlaceMetropolis,
    PlayBishop,
    PlayDiplomat,
    PlayEngineer,
    PlayIntrigue,
    PlayMedicine,
    PlayMerchant,
    PromoteKnight,
    RelocateKnight,
    RemoveKnight,
)
from companion_app.rules.board import RED_NUMBERS, Board
from companion_app.rules.cards import (
    TERRAIN_RESOURCE,
    TERRAIN_WORDS,
    TRACKS,
    Card,
    Harbour,
    Terrain,
    Track,
)
from companion_app.rules.game import Game
from companion_app.rules.pieces import CITY, DESTROYED_CITY, NOBODY, SETTLEMENT
from companion_app.rules.topology import ISLAND_19, Topology

RGBA = tuple[float, float, float, float]

# ---- colours ---------------------------------------------------------------------------------

PLAYER_COLOURS: dict[str, RGBA] = {
    "red": (0.85, 0.16, 0.14, 1.0),
    "blue": (0.16, 0.38, 0.86, 1.0),
    "white": (0.96, 0.96, 0.93, 1.0),
    "orange": (0.98, 0.56, 0.10, 1.0),
    "green": (0.18, 0.62, 0.26, 1.0),
    "brown": (0.52, 0.33, 0.18, 1.0),
}
"""The piece colours a table can pick (the base game's four plus the 5-6 extension's two)."""

PLAYER_MARKS: dict[str, str] = {
    "red": "R",
    "blue": "B",
    "white": "W",
    "orange": "O",
    "green": "G",
    "brown": "Br",
}
"""A letter on each building, so red and orange (or any two colours) differ without colour."""

SEA: RGBA = (0.13, 0.33, 0.55, 1.0)
FRAME_SEA: RGBA = (0.07, 0.19, 0.34, 1.0)
"""A sea board's frame (§13.1): sea the pirate sails and ships border, darker than the sea
hexes inside it, so the board's edge reads."""
GOLD: RGBA = (0.86, 0.60, 0.02, 1.0)
"""A gold field (§13.5): deeper and more orange than the fields' straw, with a gleam drawn on."""
UNKNOWN_TERRAIN: RGBA = (0.42, 0.42, 0.45, 1.0)
TERRAIN_COLOURS: dict[Terrain | None, RGBA] = {
    None: UNKNOWN_TERRAIN,
    Terrain.HILLS: (0.80, 0.40, 0.22, 1.0),
    Terrain.FOREST: (0.16, 0.46, 0.20, 1.0),
    Terrain.PASTURE: (0.55, 0.80, 0.35, 1.0),
    Terrain.FIELDS: (0.94, 0.78, 0.25, 1.0),
    Terrain.MOUNTAINS: (0.55, 0.56, 0.60, 1.0),
    Terrain.DESERT: (0.88, 0.80, 0.58, 1.0),
    Terrain.GOLD: GOLD,
    Terrain.SEA: SEA,
}
RESOURCE_COLOURS: dict[Card, RGBA] = {
    card: TERRAIN_COLOURS[terrain] for terrain, card in TERRAIN_RESOURCE.items() if card is not None
}
"""Each resource in the colour of the terrain that produces it (cards, harbours)."""
EVENT_COLOURS: dict[EventDie, RGBA] = {
    EventDie.SHIP: (0.15, 0.15, 0.18, 1.0),
    EventDie.TRADE: (0.95, 0.80, 0.15, 1.0),
    EventDie.POLITICS: (0.20, 0.40, 0.90, 1.0),
    EventDie.SCIENCE: (0.20, 0.70, 0.30, 1.0),
}
TRACK_COLOURS: dict[Track, RGBA] = {
    Track.TRADE: EVENT_COLOURS[EventDie.TRADE],
    Track.POLITICS: EVENT_COLOURS[EventDie.POLITICS],
    Track.SCIENCE: EVENT_COLOURS[EventDie.SCIENCE],
}
"""Each track (and its metropolis) in the colour of its castle on the event die."""
HIGHLIGHT: RGBA = (0.45, 0.95, 1.0, 1.0)
"""The core of a legal spot's marker: light cyan, a colour no terrain, harbour or piece has."""
HIGHLIGHT_RIM: RGBA = (0.05, 0.05, 0.08, 1.0)
"""The marker's rim: on a light terrain (fields, pasture, desert) the dark rim stands out, on a
dark one (forest, mountains, the sea) the light core."""


def player_colour(name: str) -> RGBA:
    """RGBA of a piece colour; unknown names get a neutral grey rather than an error."""
    return PLAYER_COLOURS.get(name.lower(), (0.6, 0.6, 0.6, 1.0))


def player_mark(name: str) -> str:
    """The letter that marks a piece colour's player on the board and in the lists."""
    return PLAYER_MARKS.get(name.lower(), name[:1].upper())


def text_colour_on(background: RGBA) -> RGBA:
    """Black or white text, whichever reads better on ``background``."""
    r, g, b, _alpha = background
    return (0.05, 0.05, 0.05, 1.0) if 0.3 * r + 0.59 * g + 0.11 * b > 0.55 else (1, 1, 1, 1)


def pips(token: int) -> int:
    """Dots under a number token: how many of the 36 dice outcomes roll it."""
    return 6 - abs(7 - token)


def harbour_label(harbour: Harbour) -> str:
    """The harbour's trade as the board shows it, its card named in the table's language."""
    card = harbour.resource
    return "3:1" if card is None else f"2:1 {render(card.words)}"


def action_spot(action: Action) -> Spot | None:
    """The board place an action is chosen by tapping, or None for actions chosen by button."""
    if isinstance(
        action,
        BuildSettlement
        | BuildCity
        | BuildCityWall
        | BuildKnight
        | ActivateKnight
        | PromoteKnight
        | ChaseRobber
        | ChasePirate
        | LoseCity
        | PlaceMetropolis
        | PlayEngineer
        | PlayMedicine
        | PlayIntrigue
        | RemoveKnight
        | PlaceDeserter,
    ):
        return ("node", action.node)
    if isinstance(action, RelocateKnight):
        return ("node", action.to)
    if isinstance(action, BuildRoad | BuildShip | PlayDiplomat):
        return ("edge", action.edge)
    if isinstance(action, MoveRobber | PlayBishop | PlayMerchant):
        return ("hex", action.hex)
    if isinstance(action, MovePirate):
        return ("hex", action.cell)  # a sea hex or a frame cell: a cell as a hex is tapped
    return None


def spots_for(actions: Iterable[Action]) -> dict[Spot, Action]:
    """Tappable spots of a set of actions that each pick one place (first action wins)."""
    result: dict[Spot, Action] = {}
    for action in actions:
        spot = action_spot(action)
        if spot is not None and spot not in result:
            result[spot] = action
    return result


# ---- the board's pieces ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HexView:
    hex: int
    terrain: Terrain | None
    """None while a table's own board is being entered and this hex is still unknown."""
    token: int | None
    pips: int
    red: bool


@dataclass(frozen=True, slots=True)
class BuildingView:
    node: int
    owner: int
    kind: str
    """"settlement", "city" or "destroyed_city" (counts as a settlement, drawn as a ruin)."""
    wall: bool
    metropolis: str
    """The track of a metropolis on this city, else ""."""


@dataclass(frozen=True, slots=True)
class KnightView:
    node: int
    owner: int
    level: int
    active: bool


@dataclass(frozen=True, slots=True)
class BoardPicture:
    """Everything the board view draws."""

    hexes: tuple[HexView, ...]
    harbours: tuple[tuple[int, str, Harbour | None], ...]
    roads: tuple[tuple[int, int], ...]
    """(edge, owner)"""
    buildings: tuple[BuildingView, ...]
    knights: tuple[KnightView, ...]
    robber_hex: int | None
    merchant_hex: int | None
    colours: tuple[RGBA, ...]
    """Player colours by seat."""
    marks: tuple[str, ...] = ()
    """Player letters by seat (``PLAYER_MARKS``), drawn on their buildings."""
    topology: Topology = ISLAND_19
    """The island the ids belong to (the board's: 19 or 30 hexes, or a sea board)."""
    pirate_cell: int | None = None
    """Where the pirate stands on a sea board (a sea hex or a frame cell, §13.4)."""
    ships: tuple[tuple[int, int], ...] = ()
    """(edge, owner) of each ship on a sea board (§13.3)."""


def board_only_picture(board: Board) -> BoardPicture:
    """A board with no pieces yet (new game, "build your table")."""
    return BoardPicture(
        hexes=_hex_views(board),
        harbours=_harbours(board),
        roads=(),
        buildings=(),
        knights=(),
        robber_hex=board.desert_hex,
        merchant_hex=None,
        colours=(),
        topology=board.topology,
        pirate_cell=_pirate_start(board),
    )


def _pirate_start(board: Board) -> int | None:
    """The pirate's printed start on a sea board's map (None on an island: the maps are not
    parsed for it)."""
    if board.sea_map is None:
        return None
    from companion_app.rules.seamap import SEA_MAPS

    sea = SEA_MAPS.get(board.sea_map)
    return None if sea is None else sea.pirate_start


def _hex_views(board: Board, tokens: Sequence[int | None] | None = None) -> tuple[HexView, ...]:
    """The hexes with ``tokens`` (the game's, which an Inventor may have swapped), else the
    board's as laid out."""
    numbers = board.tokens if tokens is None else tokens
    return tuple(
        HexView(
            h,
            board.terrains[h],
            numbers[h],
            0 if numbers[h] is None else pips(numbers[h] or 0),
            numbers[h] in RED_NUMBERS,
        )
        for h in range(board.topology.hex_count)
    )


def board_rows(board: Board) -> list[str]:
    """The board in words, row by row (the topology numbers hexes row by row) and then the
    harbours, for laying out the tiles."""
    lines = []
    h = 0
    for row, length in enumerate(board.topology.rows, start=1):
        cells = []
        for hx in range(h, h + length):
            token = board.tokens[hx]
            terrain = render(TERRAIN_WORDS[board.terrains[hx]])
            cells.append(terrain + ("" if token is None else f" {token}"))
        lines.append(_("Row {row}: {hexes}").format(row=row, hexes=", ".join(cells)))
        h += length
    lines.append(
        _("Harbours clockwise from the top left: {harbours}").format(
            harbours=", ".join(harbour_label(hb).replace("2:1 ", "") for hb in board.harbours)
        )
    )
    return lines


def entry_picture(
    terrains: Sequence[Terrain | None],
    tokens: Sequence[int | None],
    harbours: Sequence[Harbour | None],
    topology: Topology = ISLAND_19,
    robber: int | None = None,
) -> BoardPicture:
    """A board being entered on ``topology``: unknown hexes grey, unknown harbours as "?", the
    robber on the desert the table chose for it (30 hexes)."""
    hexes = tuple(
        HexView(h, terrains[h], tokens[h], pips(tokens[h] or 7), tokens[h] in RED_NUMBERS)
        for h in range(topology.hex_count)
    )
    return BoardPicture(
        hexes=hexes,
        harbours=tuple(
            (s, "?" if h is None else harbour_label(h), h) for s, h in enumerate(harbours)
        ),
        roads=(),
        buildings=(),
        knights=(),
        robber_hex=robber,
        merchant_hex=None,
        colours=(),
        topology=topology,
    )


def _harbours(board: Board) -> tuple[tuple[int, str, Harbour | None], ...]:
    return tuple((s, harbour_label(h), h) for s, h in enumerate(board.harbours))


def board_picture(game: Game) -> BoardPicture:
    """The board with every piece now on it."""
    metropolis_track = {
        node: TRACKS[i].value for i, node in enumerate(game.metropolis) if node != NOBODY
    }
    kinds = {SETTLEMENT: "settlement", CITY: "city", DESTROYED_CITY: "destroyed_city"}
    topology = game.board.topology
    buildings = tuple(
        BuildingView(
            n,
            game.node_owner[n],
            kinds[game.node_level[n]],
            game.walls[n],
            metropolis_track.get(n, ""),
        )
        for n in range(topology.node_count)
        if game.node_owner[n] != NOBODY
    )
    knights = tuple(
        KnightView(n, game.knight_owner[n], game.knight_level[n], game.knight_active[n])
        for n in range(topology.node_count)
        if game.knight_owner[n] != NOBODY
    )
    roads = tuple(
        (e, game.edge_owner[e]) for e in range(topology.edge_count) if game.edge_owner[e] != NOBODY
    )
    ships = tuple(
        (e, game.ship_owner[e]) for e in range(topology.edge_count) if game.ship_owner[e] != NOBODY
    )
    return BoardPicture(
        hexes=_hex_views(game.board, game.tokens),
        harbours=_harbours(game.board),
        roads=roads,
        buildings=buildings,
        knights=knights,
        robber_hex=game.robber_hex,
        merchant_hex=None if game.merchant_hex == NOBODY else game.merchant_hex,
        colours=tuple(player_colour(p.colour) for p in game.config.players),
        marks=tuple(player_mark(p.colour) for p in game.config.players),
        topology=topology,
        pirate_cell=None if game.pirate_cell == NOBODY else game.pirate_cell,
        ships=ships,
    )


# ---- what a player must make out, and how big it is drawn --------------------------------------

MIN_DRAWN_DP = 44.0
"""Pieces, the robber and the merchant, and the markers of legal spots are drawn at least this
big (the size of a touch target), as far as the board's scale allows: read from across a table."""

MIN_ROAD_MARK_DP = 24.0
"""A road's badge is at least this wide, its letter ``ROAD_LETTER_SHARE`` of it (18 dp, capitals
13 dp high): read from across a table on a 7-inch tablet, where a road is only 45 dp long."""

ROAD_LETTER_SHARE = 0.75
"""The size of the owner's letter on a road's badge, as a share of the badge's height."""


@dataclass(frozen=True, slots=True)
class PieceScale:
    """How big things are drawn on a board whose hexes have sides of ``side`` pixels.

    Each is the larger of a share of the side and ``MIN_DRAWN_DP``, but never more than the
    room the board leaves it: a piece on an intersection at most a side (neighbouring
    intersections are a side apart, so two pieces touch and never overlap), the robber and the
    merchant at most the circle inside their hex, a road's marker at most the road (a side
    long). A road's badge is the larger of 0.42 side and ``MIN_ROAD_MARK_DP``, at most 0.6 side
    (a letter, not a piece: it shares its road with the pieces at the road's ends).
    """

    side: float
    piece: float
    """Width and height of a settlement, a city or a knight."""
    token: float
    """Diameter of the robber's and the merchant's round tokens."""
    node_spot: float
    """Outer diameter of the ring around a legal intersection."""
    edge_spot: float
    """Length, along its road, of a legal road's marker."""
    edge_spot_width: float
    """Its width across the road."""
    road_mark: float
    """Height (and least width) of the badge with its owner's letter on a road."""
    road_letter: float
    """Size of the letter on that badge."""


def piece_scale(side: float, dp: float) -> PieceScale:
    """Sizes for hex sides of ``side`` pixels, where one dp is ``dp`` pixels."""
    least = MIN_DRAWN_DP * dp
    piece = min(side, max(least, 0.7 * side))
    road_mark = min(0.6 * side, max(MIN_ROAD_MARK_DP * dp, 0.42 * side))
    return PieceScale(
        side=side,
        piece=piece,
        token=min(SQRT3 * side, max(least, 0.8 * side)),
        node_spot=min(side, max(least, piece + 0.12 * side)),
        edge_spot=min(side, max(least, 0.8 * side)),
        edge_spot_width=0.32 * side,
        road_mark=road_mark,
        road_letter=ROAD_LETTER_SHARE * road_mark,
    )


@dataclass(frozen=True, slots=True)
class Drawn:
    """One thing on the board a player must make out: a piece, a token or a spot's marker."""

    kind: str
    """"settlement", "city", "destroyed_city", "knight", "robber", "merchant", "pirate",
    "node spot", "edge spot", "hex spot", "road mark" or "ship mark"."""
    spot: Spot
    """Where it stands."""
    x: float
    y: float
    """Its centre in pixels."""
    width: float
    height: float
    """Its size in pixels; for an edge spot ``width`` lies along the road."""
    angle: float = 0.0
    """Degrees anticlockwise from the x axis of ``width`` (an edge spot lies along its edge)."""

    @property
    def shown_size(self) -> float:
        """The size a player reads it by: its smaller side; along the road for a road's marker
        (a road is long and narrow, its marker too)."""
        return self.width if self.kind == "edge spot" else min(self.width, self.height)


def drawn_things(
    picture: BoardPicture, geo: BoardGeometry, dp: float, offered: Iterable[Spot] = ()
) -> tuple[Drawn, ...]:
    """Every piece, token and legal spot's marker with its place and drawn size, in the order
    they are drawn: hex markers (a sea cell's too), the robber, the merchant and the pirate,
    road markers, buildings, knights, intersection markers (over the pieces: a knight
    to promote shows its ring). A road's marker is outlined again over the pieces, so its
    whole length shows beside a city."""
    scale = piece_scale(geo.size, dp)
    s = geo.size
    spots = list(offered)
    things: list[Drawn] = []
    for kind, ident in spots:
        if kind == "hex" and ident < geo.topology.cell_count:
            x, y = geo.hex_centre(ident)
            things.append(Drawn("hex spot", (kind, ident), x, y, SQRT3 * s, 2.0 * s))
    both = picture.robber_hex is not None and picture.robber_hex == picture.merchant_hex
    for kind, h in (("robber", picture.robber_hex), ("merchant", picture.merchant_hex)):
        if h is None:
            continue
        x, y = geo.hex_centre(h)
        if both:  # side by side, touching: neither hides the other
            x += (-1.0 if kind == "robber" else 1.0) * max(0.3 * s, scale.token / 2.0)
        things.append(Drawn(kind, ("hex", h), x, y, scale.token, scale.token))
    things.extend(_at_sea(picture, geo, scale))
    for kind, ident in spots:
        if kind == "edge":
            (ax, ay), (bx, by) = geo.edge(ident)
            angle = math.degrees(math.atan2(by - ay, bx - ax))
            x, y = geo.edge_mid(ident)
            things.append(
                Drawn(
                    "edge spot", (kind, ident), x, y, scale.edge_spot, scale.edge_spot_width, angle
                )
            )
    for b in picture.buildings:
        x, y = geo.node(b.node)
        things.append(Drawn(b.kind, ("node", b.node), x, y, scale.piece, scale.piece))
    for k in picture.knights:
        x, y = geo.node(k.node)
        things.append(Drawn("knight", ("node", k.node), x, y, scale.piece, scale.piece))
    for kind, ident in spots:
        if kind == "node":
            x, y = geo.node(ident)
            things.append(Drawn("node spot", (kind, ident), x, y, scale.node_spot, scale.node_spot))
    return tuple(things)


def _at_sea(picture: BoardPicture, geo: BoardGeometry, scale: PieceScale) -> list[Drawn]:
    """The pirate: a token as the robber's, on its sea hex or frame cell."""
    if picture.pirate_cell is None:
        return []
    x, y = geo.hex_centre(picture.pirate_cell)
    spot = ("hex", picture.pirate_cell)
    return [Drawn("pirate", spot, x, y, scale.token, scale.token)]


def ship_marks(picture: BoardPicture, geo: BoardGeometry, dp: float) -> tuple[Drawn, ...]:
    """The badge on each ship (§13.3), placed as a road's (:func:`road_marks`: clear of the
    pieces at its ends, its owner's letter readable): a ship is a piece on an edge as a road
    is, told from one by its line and its badge's hull and sail."""
    marks = road_marks(replace(picture, roads=picture.ships), geo, dp)
    return tuple(replace(mark, kind="ship mark") for mark in marks)


WALL_MARGIN = 0.12
"""How far a city wall reaches out of its city's square, as a share of the piece's size."""

METROPOLIS_REACH = 0.64 + 0.09
"""How far a metropolis's ring (0.64 of the piece out, a line 0.09 of it wide) reaches from its
middle at most, as a share of the piece's size."""


def _piece_reach(piece: float, building: BuildingView | None) -> float:
    """How far out from its intersection, horizontally or vertically, a piece is drawn."""
    if building is None:
        return piece / 2.0
    if building.metropolis:
        return METROPOLIS_REACH * piece
    return piece * (0.5 + (WALL_MARGIN if building.wall else 0.0))


def road_marks(picture: BoardPicture, geo: BoardGeometry, dp: float) -> tuple[Drawn, ...]:
    """The badge on each road, in its owner's colour with the owner's letter: whose road it is
    without telling colours apart (red from orange, or for a colour-blind player).

    Badges are drawn under the pieces, so a piece at a road's end stays whole and readable; a
    badge sits where its letter clears those pieces (the middle of its road when neither end is
    taken, nearer the free end when one is). Towards an intersection where another road ends,
    a badge stays on its road (the badges of two roads meeting there overlap by their rims at
    most); towards one without, only its letter does. A road whose pieces would cover more
    than half of its letter has no badge (between two pieces on a small board: they cover the
    road too), since half an O reads as a G. A mark of two letters ("Br") gets a wider badge,
    the same letter size."""
    scale = piece_scale(geo.size, dp)
    buildings = {b.node: b for b in picture.buildings}
    occupied = set(buildings) | {k.node for k in picture.knights}
    clearance = 0.5 * scale.road_letter  # half a capital letter and a piece's outline
    edge_nodes = geo.topology.edge_nodes
    roads_at = Counter(node for edge, _owner in picture.roads for node in edge_nodes[edge])
    things: list[Drawn] = []
    for edge, owner in picture.roads:
        mark = picture.marks[owner] if owner < len(picture.marks) else ""
        if not mark:
            continue
        (ax, ay), (bx, by) = geo.edge(edge)
        length = math.hypot(bx - ax, by - ay) or 1.0
        ux, uy = (bx - ax) / length, (by - ay) / length
        width = scale.road_mark * (1.0 + 0.4 * (len(mark) - 1))
        a, b = edge_nodes[edge]
        # How near each end the badge's middle may come: its letter on the road, the whole
        # badge where another road's badge may be pushed towards the same intersection.
        near_a, near_b = (
            min(length / 2.0, width / 2.0 if roads_at[n] > 1 else clearance) for n in (a, b)
        )
        # Along the road, the letter's box leaves a piece's square where it clears it across
        # the larger of the road's two directions.
        along = max(abs(ux), abs(uy))
        start, end = near_a, length - near_b
        if a in occupied:
            start = (_piece_reach(scale.piece, buildings.get(a)) + clearance) / along
        if b in occupied:
            end = length - (_piece_reach(scale.piece, buildings.get(b)) + clearance) / along
        t = min(max((start + end) / 2.0, near_a), length - near_b)
        if max(0.0, start - t) + max(0.0, t - end) > clearance:
            continue  # more than half its letter under the pieces: unreadable, or misread
        # Upright (angle 0), whatever way the road runs: the letter is read, not the badge.
        x, y = ax + ux * t, ay + uy * t
        things.append(Drawn("road mark", ("edge", edge), x, y, width, scale.road_mark))
    return tuple(things)
