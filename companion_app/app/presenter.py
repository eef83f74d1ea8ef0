"""What the screens show, computed from the rules core's state without any Kivy import.

The widgets draw these values and send taps back as the rules core's own actions; every rule
(what is legal, who produces what, whose turn it is) is the rules core's. This module only
turns its state into words, colours, positions and the list of spots a tap may choose, so it
can be unit-tested without a window.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from companion_app.game_log import GameLog, production_words
from companion_app.rules.actions import (
    AcceptTrade,
    Action,
    ActivateKnight,
    BankTrade,
    BuildCity,
    BuildCityWall,
    BuildKnight,
    BuildRoad,
    BuildSettlement,
    BuyImprovement,
    ChaseRobber,
    ChooseProgressDeck,
    CommitKnights,
    DeclineTrade,
    DiscardCard,
    DiscardProgressCard,
    DisplaceKnight,
    EndTurn,
    EventDie,
    GiveCard,
    HarborExchange,
    LoseCity,
    MoveKnight,
    MoveRobber,
    OfferTrade,
    PlaceDeserter,
    PlaceMetropolis,
    PlayAlchemist,
    PlayBishop,
    PlayCrane,
    PlayDeserter,
    PlayDiplomat,
    PlayEngineer,
    PlayIntrigue,
    PlayInventor,
    PlayMasterMerchant,
    PlayMedicine,
    PlayMerchant,
    PlayMerchantFleet,
    PlayProgress,
    PlayResourceMonopoly,
    PlaySpy,
    PlayTradeMonopoly,
    PromoteKnight,
    RelocateKnight,
    RemoveKnight,
    Roll,
    StealFrom,
    StopEffect,
    TakeCard,
    TakeProgressCard,
    TakeResource,
)
from companion_app.rules.board import RED_NUMBERS, Board
from companion_app.rules.cards import (
    CARD_KINDS,
    TERRAIN_RESOURCE,
    TRACKS,
    Card,
    Harbour,
    Terrain,
    Track,
)
from companion_app.rules.game import Game
from companion_app.rules.pieces import CITY, DESTROYED_CITY, NOBODY, SETTLEMENT
from companion_app.rules.prompts import PromptKind, counted
from companion_app.rules.topology import (
    EDGE_COUNT,
    EDGE_HEXES,
    EDGE_NODES,
    HARBOUR_EDGES,
    HEX_COUNT,
    HEX_XY,
    NODE_COUNT,
    NODE_HEXES,
    NODE_XY,
)

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
UNKNOWN_TERRAIN: RGBA = (0.42, 0.42, 0.45, 1.0)
TERRAIN_COLOURS: dict[Terrain | None, RGBA] = {
    None: UNKNOWN_TERRAIN,
    Terrain.HILLS: (0.80, 0.40, 0.22, 1.0),
    Terrain.FOREST: (0.16, 0.46, 0.20, 1.0),
    Terrain.PASTURE: (0.55, 0.80, 0.35, 1.0),
    Terrain.FIELDS: (0.94, 0.78, 0.25, 1.0),
    Terrain.MOUNTAINS: (0.55, 0.56, 0.60, 1.0),
    Terrain.DESERT: (0.88, 0.80, 0.58, 1.0),
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
EVENT_WORDS: dict[EventDie, str] = {
    EventDie.SHIP: "ship",
    EventDie.TRADE: "yellow castle",
    EventDie.POLITICS: "blue castle",
    EventDie.SCIENCE: "green castle",
}
HIGHLIGHT: RGBA = (1.0, 1.0, 0.35, 1.0)


def player_colour(name: str) -> RGBA:
    """RGBA of a piece colour; unknown names get a neutral grey rather than an error."""
    return PLAYER_COLOURS.get(name.lower(), (0.6, 0.6, 0.6, 1.0))


def text_colour_on(background: RGBA) -> RGBA:
    """Black or white text, whichever reads better on ``background``."""
    r, g, b, _ = background
    return (0.05, 0.05, 0.05, 1.0) if 0.3 * r + 0.59 * g + 0.11 * b > 0.55 else (1, 1, 1, 1)


def pips(token: int) -> int:
    """Dots under a number token: how many of the 36 dice outcomes roll it."""
    return 6 - abs(7 - token)


def harbour_label(harbour: Harbour) -> str:
    return "3:1" if harbour is Harbour.GENERIC else f"2:1 {harbour.value}"


def hand_words(hand: Sequence[int], *, sign: str = "") -> str:
    """``"2 brick, 1 ore"`` (``"+2 brick"`` with a sign); ``"nothing"`` for an empty hand."""
    parts = [f"{sign}{n} {Card(c).label}" for c, n in enumerate(hand) if n]
    return ", ".join(parts) if parts else "nothing"


# ---- geometry --------------------------------------------------------------------------------

SQRT3 = math.sqrt(3.0)
# The island spans 10 half-widths by 16 half-sizes on the lattice; harbours sit outside it.
_SPAN_X = 10.0 * SQRT3 / 2.0 + 2.4
_SPAN_Y = 8.0 + 2.4


@dataclass(frozen=True, slots=True)
class BoardGeometry:
    """Pixel positions of the topology's ids inside a rectangle (Kivy: y grows upward).

    ``size`` is the hex size (centre to corner) in pixels; the lattice of
    :mod:`companion_app.rules.topology` is scaled to it and centred in the rectangle.
    """

    x: float
    y: float
    width: float
    height: float

    @property
    def size(self) -> float:
        return max(1.0, min(self.width / _SPAN_X, self.height / _SPAN_Y))

    @property
    def centre(self) -> tuple[float, float]:
        return (self.x + self.width / 2.0, self.y + self.height / 2.0)

    def lattice(self, lx: float, ly: float) -> tuple[float, float]:
        cx, cy = self.centre
        s = self.size
        return (cx + lx * s * SQRT3 / 2.0, cy - ly * s / 2.0)

    def hex_centre(self, h: int) -> tuple[float, float]:
        return self.lattice(*HEX_XY[h])

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
        return self.lattice(*NODE_XY[n])

    def edge(self, e: int) -> tuple[tuple[float, float], tuple[float, float]]:
        a, b = EDGE_NODES[e]
        return self.node(a), self.node(b)

    def edge_mid(self, e: int) -> tuple[float, float]:
        (ax, ay), (bx, by) = self.edge(e)
        return ((ax + bx) / 2.0, (ay + by) / 2.0)

    def harbour(self, slot: int) -> tuple[float, float]:
        """Where a harbour's marker goes: off the coast, outward from its edge's land hex."""
        e = HARBOUR_EDGES[slot]
        mx, my = self.edge_mid(e)
        hx, hy = self.hex_centre(EDGE_HEXES[e][0])
        dx, dy = mx - hx, my - hy
        length = math.hypot(dx, dy) or 1.0
        reach = self.size * 0.75
        return (mx + dx / length * reach, my + dy / length * reach)

    @property
    def target_radius(self) -> float:
        """Half a touch target. Intersections are a side apart and edge middles 0.87 side, so
        targets of one kind never overlap."""
        return self.size * 0.42

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

    def spot_at(self, px: float, py: float, spots: Iterable[Spot]) -> Spot | None:
        """The offered spot nearest to a touch, if the touch is within its target.

        Intersections and edges win over hexes: a hex's target is most of the hex around them.
        """
        best: dict[bool, tuple[float, Spot]] = {}
        for spot in spots:
            sx, sy = self.spot_position(spot)
            is_hex = spot[0] == "hex"
            d = math.hypot(px - sx, py - sy)
            if d <= self.reach(spot) and (is_hex not in best or d < best[is_hex][0]):
                best[is_hex] = (d, spot)
        for is_hex in (False, True):
            if is_hex in best:
                return best[is_hex][1]
        return None


Spot = tuple[str, int]
"""A tappable place on the board: ("node", id), ("edge", id), ("hex", id) or ("harbour", slot)."""


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
    if isinstance(action, BuildRoad | PlayDiplomat):
        return ("edge", action.edge)
    if isinstance(action, MoveRobber | PlayBishop | PlayMerchant):
        return ("hex", action.hex)
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
    )


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
        for h in range(HEX_COUNT)
    )


ROW_LENGTHS = (3, 4, 5, 4, 3)
"""Hexes per row, top to bottom (the topology numbers hexes row by row)."""


def board_rows(board: Board) -> list[str]:
    """The board in words, row by row and then the harbours, for laying out the tiles."""
    lines = []
    h = 0
    for row, length in enumerate(ROW_LENGTHS, start=1):
        cells = []
        for hx in range(h, h + length):
            token = board.tokens[hx]
            cells.append(board.terrains[hx].value + ("" if token is None else f" {token}"))
        lines.append(f"Row {row}: " + ", ".join(cells))
        h += length
    lines.append(
        "Harbours clockwise from the top left: "
        + ", ".join(harbour_label(hb).replace("2:1 ", "") for hb in board.harbours)
    )
    return lines


def entry_picture(
    terrains: Sequence[Terrain | None],
    tokens: Sequence[int | None],
    harbours: Sequence[Harbour | None],
) -> BoardPicture:
    """A board being entered: unknown hexes grey, unknown harbours as "?"."""
    hexes = tuple(
        HexView(h, terrains[h], tokens[h], pips(tokens[h] or 7), tokens[h] in RED_NUMBERS)
        for h in range(HEX_COUNT)
    )
    return BoardPicture(
        hexes=hexes,
        harbours=tuple(
            (s, "?" if h is None else harbour_label(h), h) for s, h in enumerate(harbours)
        ),
        roads=(),
        buildings=(),
        knights=(),
        robber_hex=None,
        merchant_hex=None,
        colours=(),
    )


def _harbours(board: Board) -> tuple[tuple[int, str, Harbour | None], ...]:
    return tuple((s, harbour_label(h), h) for s, h in enumerate(board.harbours))


def board_picture(game: Game) -> BoardPicture:
    """The board with every piece now on it."""
    metropolis_track = {
        node: TRACKS[i].value for i, node in enumerate(game.metropolis) if node != NOBODY
    }
    kinds = {SETTLEMENT: "settlement", CITY: "city", DESTROYED_CITY: "destroyed_city"}
    buildings = tuple(
        BuildingView(
            n,
            game.node_owner[n],
            kinds[game.node_level[n]],
            game.walls[n],
            metropolis_track.get(n, ""),
        )
        for n in range(NODE_COUNT)
        if game.node_owner[n] != NOBODY
    )
    knights = tuple(
        KnightView(n, game.knight_owner[n], game.knight_level[n], game.knight_active[n])
        for n in range(NODE_COUNT)
        if game.knight_owner[n] != NOBODY
    )
    roads = tuple(
        (e, game.edge_owner[e]) for e in range(EDGE_COUNT) if game.edge_owner[e] != NOBODY
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
        marks=tuple(PLAYER_MARKS.get(p.colour, p.colour[:1].upper()) for p in game.config.players),
    )


# ---- the top bar ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RollView:
    yellow: int
    red: int
    event: EventDie
    total: int
    words: str


def roll_view(game: Game) -> RollView | None:
    roll = game.last_roll
    if roll is None:
        return None
    words = f"{roll.yellow} + {roll.red} = {roll.total}, {EVENT_WORDS[roll.event]}"
    return RollView(roll.yellow, roll.red, roll.event, roll.total, words)


def production_lines(game: Game, log: GameLog) -> list[str]:
    """Who got what from the roll shown, every seat in seat order, with the robber's and the
    bank's reasons; a 7, or production held back by the barbarians, says so. The same roll's
    words stay after End turn (the log keeps the report until the next roll)."""
    report = log.last_roll
    if report is None:
        return []
    return production_words(game.config.names, report)


def bank_words(game: Game) -> str:
    """The bank's stock, every card kind: what production and trades can still pay."""
    stock = [f"{game.bank[c]} {Card(c).label}" for c in range(CARD_KINDS)]
    return "\n".join(" · ".join(stock[i : i + 2]) for i in range(0, len(stock), 2))


def turn_words(game: Game) -> str:
    """Whose turn it is: the setup round, or the turn number and the player on turn."""
    names = game.config.names
    if game.in_setup:
        round_no = 1 if game.prompt.kind is PromptKind.SETUP_SETTLEMENT else 2
        if game.prompt.kind is PromptKind.SETUP_ROAD:
            round_no = 1 if game.setup_step < 2 * game.player_count else 2
        return f"Setup round {round_no} · {names[game.prompt.player]}"
    if game.is_over:
        return f"Game over · {names[game.winner]} won"
    return f"Turn {game.turn + 1} · {names[game.active]}"


@dataclass(frozen=True, slots=True)
class PlacementStep:
    seat: int
    name: str
    piece: str
    """"settlement + road" (round 1) or "city + road" (round 2)."""
    state: str
    """"done", "now" or "next"."""
    note: str = ""
    """For a starting city placed: the starting resources it brought (§2)."""


def placement_order(game: Game) -> list[PlacementStep]:
    """The setup order (§2): seats in order with a settlement, then in reverse with a city.

    The rules core decides who places; this list is only the overview, and the test checks
    its "now" step against ``game.prompt.player``.
    """
    seats = list(game.seats)
    names = game.config.names
    order = [(s, "settlement + road") for s in seats] + [(s, "city + road") for s in seats[::-1]]
    current = game.setup_step // 2 if game.in_setup else len(order)
    steps = []
    for i, (seat, piece) in enumerate(order):
        state = "done" if i < current else "now" if i == current else "next"
        note = ""
        if piece.startswith("city") and state == "done" and game.in_setup:
            # Nothing but the starting city gives cards during setup: the hand is what it gave.
            note = "got " + hand_words(game.hand(seat))
        steps.append(PlacementStep(seat, names[seat], piece, state, note))
    return steps


def barbarian_track(game: Game) -> tuple[int, int]:
    """(ship position, spaces): the same two numbers the dice box's LEDs show."""
    return game.barbarian_position, game.config.barbarian_track_length


# ---- buttons for the actions not chosen on the board ------------------------------------------


def describe_action(game: Game, action: Action) -> str:
    """Button words for an action, in the game's own terms."""
    names = game.config.names
    if isinstance(action, EndTurn):
        return "End turn"
    if isinstance(action, BankTrade):
        rate = game.trade_rate(action.player, action.give)
        return f"Trade {rate} {action.give.label} for 1 {action.take.label}"
    if isinstance(action, DiscardCard):
        return f"Discard 1 {action.card.label}"
    if isinstance(action, StealFrom):
        return f"Steal from {names[action.victim]}"
    if isinstance(action, BuyImprovement):
        return f"Improve {action.track.value}"
    if isinstance(action, ChooseProgressDeck):
        return f"Draw from the {action.track.value} deck"
    if isinstance(action, TakeResource):
        return f"Take 1 {action.card.label}"
    if isinstance(action, CommitKnights):
        return (
            f"Commit {counted(len(action.nodes), 'knight')}"
            if action.nodes
            else "Commit no knights"
        )
    if isinstance(action, MoveKnight | DisplaceKnight):
        verb = "Move" if isinstance(action, MoveKnight) else "Displace with"
        return f"{verb} knight {action.node} → {action.to}"
    if isinstance(action, Roll):
        return f"Roll {action.yellow}+{action.red} {action.event.value}"
    if isinstance(action, PlayProgress):
        return f"Play {action.card.title}"
    if isinstance(action, PlayCrane):
        return f"Crane: improve {action.track.value}"
    if isinstance(action, PlayDeserter | PlaySpy | PlayMasterMerchant):
        return f"{_card_title(action)}: {names[action.victim]}"
    if isinstance(action, PlayMerchantFleet):
        return f"Merchant Fleet: {action.card.label} 2:1"
    if isinstance(action, PlayResourceMonopoly | PlayTradeMonopoly):
        return f"Monopoly on {action.card.label}"
    if isinstance(action, DiscardProgressCard):
        return f"Discard {action.card.title}"
    if isinstance(action, TakeProgressCard):
        return f"Take {action.card.title}"
    if isinstance(action, GiveCard):
        return f"Give 1 {action.card.label}"
    if isinstance(action, TakeCard):
        return f"Take 1 {action.card.label}"
    if isinstance(action, HarborExchange):
        return f"Offer 1 {action.card.label} to {names[action.to]}"
    if isinstance(action, StopEffect):
        return "Stop here"
    if isinstance(action, AcceptTrade):
        return "Accept the trade"
    if isinstance(action, DeclineTrade):
        return "Decline"
    if isinstance(action, PlayAlchemist):
        return f"Alchemist: yellow {action.yellow}, red {action.red}"
    if isinstance(action, PlayInventor):
        return f"Inventor: swap the tokens of hexes {action.hex} and {action.other}"
    from companion_app.rules.registry import summary  # the rules core's words for the action

    spot = action_spot(action)
    words = summary(action)
    what = words[:1].upper() + words[1:]
    if spot is not None:
        return f"{what} at {spot[0]} {spot[1]}"
    return what


@dataclass(frozen=True, slots=True)
class ActionGroup:
    """Legal actions of one type: placed on the board (``on_board``) or one button each."""

    type_name: str
    title: str
    actions: tuple[Action, ...]
    on_board: bool


_GROUP_TITLES = {
    "build_road": "Build a road",
    "build_settlement": "Build a settlement",
    "build_city": "Build a city",
    "build_city_wall": "Build a city wall",
    "build_knight": "Recruit a knight",
    "activate_knight": "Activate a knight",
    "promote_knight": "Promote a knight",
    "chase_robber": "Chase the robber",
    "move_robber": "Move the robber",
    "lose_city": "Choose the city to lose",
    "place_metropolis": "Place the metropolis",
    "relocate_knight": "Move the displaced knight",
}


def action_groups(actions: Iterable[Action]) -> list[ActionGroup]:
    """Legal actions grouped by type in the rules core's order; rolls are left out (the dice
    box or the on-screen roll button makes them)."""
    grouped: dict[str, list[Action]] = {}
    for action in actions:
        if isinstance(action, Roll):
            continue
        grouped.setdefault(action.type_name, []).append(action)
    groups = []
    for type_name, items in grouped.items():
        on_board = all(action_spot(a) is not None for a in items)
        title = _GROUP_TITLES.get(type_name, type_name.replace("_", " ").capitalize())
        groups.append(ActionGroup(type_name, title, tuple(items), on_board))
    return groups


def wants_board_tap(game: Game) -> bool:
    """True when every legal action is a place on the board (setup, robber, city to lose)."""
    actions = game.legal_actions()
    return bool(actions) and all(action_spot(a) is not None for a in actions)


def hand_counts(hand: Sequence[int]) -> dict[str, int]:
    return {Card(c).label: hand[c] for c in range(CARD_KINDS) if hand[c]}


# ---- the turn: the action bar, prompts and the choices behind each button ----------------------

PROGRESS_KEY = "progress"
"""The action bar's one button for every progress-card play."""
OFFER_KEY = "offer_trade"

_BAR: tuple[tuple[str, str, str], ...] = (
    # (key, section, title) in the order the bar shows them
    ("build_road", "Build", "Road"),
    ("build_settlement", "Build", "Settlement"),
    ("build_city", "Build", "City"),
    ("build_city_wall", "Build", "City wall"),
    ("build_knight", "Knights", "Recruit knight"),
    ("activate_knight", "Knights", "Activate"),
    ("promote_knight", "Knights", "Promote"),
    ("move_knight", "Knights", "Move knight"),
    ("displace_knight", "Knights", "Displace"),
    ("chase_robber", "Knights", "Chase robber"),
    ("buy_improvement", "Cities", "Improve city"),
    (PROGRESS_KEY, "Cards", "Progress card"),
    ("bank_trade", "Trade", "Bank / harbour"),
    (OFFER_KEY, "Trade", "Offer a player"),
)
_BAR_ORDER = {key: i for i, (key, _s, _t) in enumerate(_BAR)}
_BAR_TITLE = {key: title for key, _s, title in _BAR}


def bar_key(action: Action) -> str:
    """The action bar button that offers ``action`` (all card plays share one)."""
    if action.type_name.startswith("play_"):
        return PROGRESS_KEY
    return action.type_name


@dataclass(frozen=True, slots=True)
class BarButton:
    key: str
    title: str
    types: frozenset[str]
    """The action types behind the button (several for the progress cards)."""
    count: int


def action_bar(game: Game) -> list[BarButton]:
    """The turn's buttons: one per legal kind of action, none for what is not legal now.

    Rolls and End turn have their own big buttons; nothing here outside the ``turn`` prompt
    (and before the roll only the Alchemist, a progress card).
    """
    if game.prompt.kind not in (PromptKind.TURN, PromptKind.ROLL):
        return []
    grouped: dict[str, list[Action]] = {}
    for action in game.legal_actions():
        if isinstance(action, Roll | EndTurn):
            continue
        grouped.setdefault(bar_key(action), []).append(action)
    if game.prompt.kind is PromptKind.TURN and game.may_offer_trade():
        grouped[OFFER_KEY] = []
    if game.progress_hand(game.prompt.player):
        # Offered whenever cards are held (their number is public), playable or not, so the
        # bar does not tell the table that an Alchemist or a playable card is in the hand.
        grouped.setdefault(PROGRESS_KEY, [])
    buttons = [
        BarButton(
            key,
            _BAR_TITLE.get(key, key.replace("_", " ").capitalize()),
            frozenset(a.type_name for a in items) or frozenset({key}),
            len(items),
        )
        for key, items in grouped.items()
    ]
    return sorted(buttons, key=lambda b: _BAR_ORDER.get(b.key, len(_BAR)))


@dataclass(frozen=True, slots=True)
class Choice:
    """One thing to tap: a spot on the board or a button; it takes ``action`` or opens
    ``then``."""

    label: str
    spot: Spot | None = None
    action: Action | None = None
    then: ChoiceStep | None = None

    def leads_to(self, action: Action) -> bool:
        if self.action is not None:
            return self.action == action
        return self.then is not None and any(c.leads_to(action) for c in self.then.choices)


@dataclass(frozen=True, slots=True)
class ChoiceStep:
    title: str
    choices: tuple[Choice, ...]
    cols: int = 1
    """Button columns (dice faces and cards read well side by side)."""

    @property
    def spots(self) -> dict[Spot, Choice]:
        return {c.spot: c for c in self.choices if c.spot is not None}

    @property
    def buttons(self) -> list[Choice]:
        return [c for c in self.choices if c.spot is None]


KNIGHT_NAMES = {1: "basic", 2: "strong", 3: "mighty"}


def place_words(game: Game, node: int) -> str:
    """An intersection as the table finds it: by the numbers of its hexes ("by 8, 3, 5")."""
    tokens = [game.tokens[h] for h in NODE_HEXES[node] if game.tokens[h] is not None]
    if not tokens:
        return "on the coast"
    return "by " + ", ".join(str(t) for t in tokens)


def _knight_words(game: Game, node: int) -> str:
    level = KNIGHT_NAMES.get(game.knight_level[node], "")
    state = "active" if game.knight_active[node] else "inactive"
    return f"{level} knight ({state}) {place_words(game, node)}"


def choice_step(game: Game, actions: Sequence[Action], title: str) -> ChoiceStep:
    """The first step of choosing among ``actions`` (all of one bar button or one prompt)."""
    actions = [a for a in actions if not isinstance(a, CommitKnights)]
    first = actions[0] if actions else None
    if isinstance(first, MoveKnight | DisplaceKnight):
        return _two_spot_step(
            game, actions, title, "node", lambda a: (a.node, a.to), "tap where it goes"
        )
    if isinstance(first, PlayInventor):
        return _inventor_step(game, actions, title)
    if isinstance(first, BankTrade):
        return _bank_step(game, actions, title)
    if isinstance(first, PlayAlchemist):
        return _alchemist_step(actions, title)
    choices = tuple(Choice(describe_action(game, a), action_spot(a), a) for a in actions)
    cols = 2 if sum(1 for c in choices if c.spot is None) > 4 else 1
    return ChoiceStep(title, choices, cols)


def _progress_step(game: Game, actions: Sequence[Action], title: str) -> ChoiceStep:
    if not actions:
        return ChoiceStep("None of your progress cards can be played now", ())
    by_card: dict[str, list[Action]] = {}
    for a in actions:
        by_card.setdefault(_card_title(a), []).append(a)
    choices = []
    for card, items in by_card.items():
        if len(items) == 1 and action_spot(items[0]) is None:
            choices.append(Choice(f"Play {card}", None, items[0]))
        else:
            choices.append(Choice(f"Play {card}…", None, None, choice_step(game, items, card)))
    return ChoiceStep(title, tuple(choices), 2)


def _card_title(action: Action) -> str:
    from companion_app.rules.progress import card_of

    return card_of(action).title


def _two_spot_step(
    game: Game, actions: Sequence[Action], title: str, kind: str, ends: object, second: str
) -> ChoiceStep:
    assert callable(ends)
    by_first: dict[int, list[tuple[int, Action]]] = {}
    for a in actions:
        start, end = ends(a)
        by_first.setdefault(start, []).append((end, a))
    choices = tuple(
        Choice(
            _knight_words(game, start),
            (kind, start),
            None,
            ChoiceStep(
                f"{_knight_words(game, start).capitalize()}: {second}",
                tuple(Choice(describe_action(game, a), (kind, end), a) for end, a in items),
            ),
        )
        for start, items in sorted(by_first.items())
    )
    return ChoiceStep(f"{title}: tap your knight", choices)


def _inventor_step(game: Game, actions: Sequence[Action], title: str) -> ChoiceStep:
    """Either hex first; the second step offers its partners."""
    partners: dict[int, list[tuple[int, Action]]] = {}
    for a in actions:
        assert isinstance(a, PlayInventor)
        partners.setdefault(a.hex, []).append((a.other, a))
        partners.setdefault(a.other, []).append((a.hex, a))
    tokens = game.tokens
    return ChoiceStep(
        f"{title}: tap a number to swap",
        tuple(
            Choice(
                f"Swap the {tokens[h]} on hex {h}",
                ("hex", h),
                None,
                ChoiceStep(
                    f"{title}: swap the {tokens[h]} with…",
                    tuple(Choice(f"the {tokens[o]} on hex {o}", ("hex", o), a) for o, a in items),
                ),
            )
            for h, items in sorted(partners.items())
        ),
    )


def _bank_step(game: Game, actions: Sequence[Action], title: str) -> ChoiceStep:
    by_give: dict[Card, list[BankTrade]] = {}
    for a in actions:
        assert isinstance(a, BankTrade)
        by_give.setdefault(a.give, []).append(a)
    choices = []
    for give, items in by_give.items():
        rate = game.trade_rate(items[0].player, give)
        fleet = " (Merchant Fleet)" if give in game.fleet else ""
        choices.append(
            Choice(
                f"Give {rate} {give.label}{fleet}",
                None,
                None,
                ChoiceStep(
                    f"Give {rate} {give.label} for…",
                    tuple(Choice(f"1 {a.take.label}", None, a) for a in items),
                    4,
                ),
            )
        )
    return ChoiceStep(f"{title}: what do you give?", tuple(choices), 2)


def _alchemist_step(actions: Sequence[Action], title: str) -> ChoiceStep:
    by_yellow: dict[int, list[PlayAlchemist]] = {}
    for a in actions:
        assert isinstance(a, PlayAlchemist)
        by_yellow.setdefault(a.yellow, []).append(a)
    return ChoiceStep(
        f"{title}: the yellow die shows",
        tuple(
            Choice(
                f"Yellow {y}",
                None,
                None,
                ChoiceStep(
                    f"Yellow {y}; the red die shows",
                    tuple(Choice(f"Red {a.red}", None, a) for a in items),
                    6,
                ),
            )
            for y, items in sorted(by_yellow.items())
        ),
        6,
    )


def bar_step(game: Game, key: str) -> ChoiceStep:
    """What a tap on an action-bar button opens."""
    actions = [a for a in game.legal_actions() if bar_key(a) == key and not isinstance(a, Roll)]
    title = _BAR_TITLE.get(key, key)
    if key == PROGRESS_KEY:
        return _progress_step(game, actions, "Play a progress card")
    return choice_step(game, actions, title)


# ---- prompts: who decides, and what they see ------------------------------------------------

HIDDEN_CARD_PROMPTS = frozenset(
    {
        PromptKind.DISCARD,
        PromptKind.WEDDING_GIVE,
        PromptKind.HARBOR_ANSWER,
        PromptKind.PROGRESS_DISCARD,
        PromptKind.SPY,
        PromptKind.MASTER_MERCHANT,
    }
)
"""Prompts where the decider picks among hidden cards: theirs, or the victim's they may see."""


@dataclass(frozen=True, slots=True)
class PromptView:
    player: int
    name: str
    colour: RGBA
    headline: str
    """In big letters: "Pass the tablet to Blue", or "Red: your turn"."""
    words: str
    """The rules core's words for the decision (``describe_prompt``)."""
    hides_cards: bool
    """The cards to choose from are shown only after the decider taps "Show my cards"."""
    details: str
    """The offer to answer, the cards in question once revealed."""


def prompt_view(game: Game, revealed: bool = False) -> PromptView:
    prompt = game.prompt
    p = prompt.player
    names = game.config.names
    own_turn = p == game.active and prompt.kind in (PromptKind.TURN, PromptKind.ROLL)
    if game.is_over:
        headline = f"{names[game.winner]} has won!"
    elif holds_tablet(game) != p:
        headline = f"Pass the tablet to {names[p]}"
    elif own_turn:
        headline = f"{names[p]}: your turn"
    else:
        headline = f"{names[p]} decides"
    hides = prompt.kind in HIDDEN_CARD_PROMPTS
    details = ""
    if prompt.kind is PromptKind.TRADE_RESPONSE and game.offer is not None:
        offer = game.offer
        details = (
            f"{names[offer.player]} offers {hand_words(offer.give)} for {hand_words(offer.take)}"
        )
    elif hides and revealed:
        details = f"Your cards: {hand_words(game.hand(p))}"
        if prompt.kind is PromptKind.PROGRESS_DISCARD:
            details = "Your progress cards: " + card_list(game.progress_hands[p])
        if prompt.kind is PromptKind.SPY:
            details = f"{names[game.card_target]}'s progress cards: " + card_list(
                game.progress_hands[game.card_target]
            )
        if prompt.kind is PromptKind.MASTER_MERCHANT:
            details = f"{names[game.card_target]}'s cards: " + hand_words(
                game.hand(game.card_target)
            )
    elif prompt.kind is PromptKind.HARBOR_ANSWER and game.harbor_offer is not None:
        details = f"{names[game.active]} gives you 1 {game.harbor_offer.label}"
    elif not own_turn and not game.is_over:
        # What the decision is, in full (the top bar may have to shorten it).
        details = game.describe_prompt().split(": ", 1)[-1]
    return PromptView(
        p,
        names[p],
        player_colour(game.config.players[p].colour),
        headline,
        game.describe_prompt(),
        hides,
        details,
    )


def holds_tablet(game: Game) -> int:
    """Who has the tablet now: the player who took the last action (the first placer at the
    start)."""
    return game.history[-1].player if game.history else game.prompt.player


def card_list(cards: Iterable[object]) -> str:
    titles = [getattr(c, "title", str(c)) for c in cards]
    return ", ".join(titles) if titles else "none"


def prompt_step(game: Game) -> ChoiceStep | None:
    """The choices of a decision other than the turn's own (None for turn, roll, game over)."""
    kind = game.prompt.kind
    if kind in (PromptKind.TURN, PromptKind.ROLL, PromptKind.GAME_OVER) or game.in_setup:
        return None
    return choice_step(game, game.legal_actions(), game.describe_prompt())


@dataclass(frozen=True, slots=True)
class KnightChoice:
    node: int
    label: str
    strength: int


def commit_knights(game: Game) -> list[KnightChoice] | None:
    """Evil barbarians: the active knights the decider may send (None if not asked now)."""
    if game.prompt.kind is not PromptKind.COMMIT_KNIGHTS:
        return None
    nodes = sorted(
        {n for a in game.legal_actions() if isinstance(a, CommitKnights) for n in a.nodes}
    )
    return [KnightChoice(n, _knight_words(game, n), game.knight_level[n]) for n in nodes]


def commit_action(game: Game, nodes: Iterable[int]) -> Action | None:
    """The legal CommitKnights for exactly these knights, if there is one."""
    wanted = tuple(sorted(nodes))
    return next(
        (a for a in game.legal_actions() if isinstance(a, CommitKnights) and a.nodes == wanted),
        None,
    )


# ---- domestic trade -----------------------------------------------------------------------------


def offer_words(game: Game, offer: OfferTrade) -> str:
    """The offer as the table reads it; the rules core's objection when it is not legal."""
    reason = game.illegal_reason(offer)
    names = game.config.names
    text = f"To {names[offer.to]}: give {hand_words(offer.give)}, get {hand_words(offer.take)}"
    return text if reason is None else reason
