"""The game's state: the data of a game in progress and the indexes derived from it.

Nothing here applies a rule. :class:`GameState` holds the pieces, cards, decks and the prompt
queue (every field is in the state JSON, see :mod:`codec`), the indexes derived from them
(pieces per player, trade rates, hexes per number) and read-only questions about them that
every layer asks (victory points, supplies left, whose turn). The rules change a state only
through :mod:`operations`, :mod:`turnflow` and the mechanic modules; :class:`~game.Game` is
the state with the public API on top.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import count
from typing import Any

from companion_app.rules.actions import Action, OfferTrade, Roll
from companion_app.rules.cards import (
    ABILITY_LEVEL,
    CARD_KINDS,
    COMMODITIES,
    TERRAIN_RESOURCE,
    Card,
    Hand,
    Harbour,
    ProgressCard,
    Terrain,
    bank_start,
    new_decks,
)
from companion_app.rules.config import GameConfig
from companion_app.rules.events import Event
from companion_app.rules.messages import Msg, msg
from companion_app.rules.pieces import (
    CITIES_PER_PLAYER,
    CITY,
    DESTROYED_CITY,
    DISCARD_LIMIT,
    DISCARD_LIMIT_PER_WALL,
    NOBODY,
    ROADS_PER_PLAYER,
    SETTLEMENT,
    SETTLEMENTS_PER_PLAYER,
    SHIPS_PER_PLAYER,
)
from companion_app.rules.prompts import Prompt, PromptKind, Stage
from companion_app.rules.rng import SplitMix64

_COPIED_LISTS = (
    "bank",
    "node_owner",
    "node_level",
    "edge_owner",
    "knight_owner",
    "knight_level",
    "knight_active",
    "knight_flags",
    "walls",
    "metropolis",
    "defender_cards",
    "committed",
    "pending",
    "turns_taken",
    "road_length",
    "fleet",
    "tokens",
    "harbor_done",
    "events",
    "road_ends_of",
    "ship_networks",
    "route_paths",
    "route_cores",
    "ship_owner",
    "ships_placed",
    "trade_rates",
)
"""The state's flat lists (of immutable items): a copy copies each."""
_COPIED_NESTED_LISTS = (
    "hands",
    "improvements",
    "decks",
    "progress_hands",
    "revealed_vp",
    "roads_of",
    "buildings_of",
    "knights_of",
    "ships_of",
    "islands_settled",
)
"""The state's lists of lists: a copy copies each inner list too. Every other field is
immutable (ints, tuples, frozen dataclasses, enums) or replaced whole, never changed in place
(the config, the board and its topology, ``token_hexes``): a copy shares it."""


ShipMoves = list[tuple[list[int], dict[int, int], list[Action], list[Action] | None]]
"""The last ship moves listed (none, or one): the movable ships, the spots with where each is
reached from, the moves, which follow from those two and the network alone, and once asked
the ships built on those spots followed by the moves."""
ShipSpots = list[tuple[int, list[int], dict[int, int], list[Action] | None]]
"""The last spots listed (none, or one): the board mark, the spots, whence each is reached,
once asked a ship built on each."""
ShipNetwork = tuple[
    list[int],
    list[int],
    list[int],
    tuple[int, ...],
    dict[int, int],
    tuple[tuple[int, int], ...],
    ShipMoves,
    ShipSpots,
]
"""A player's ships, buildings and knights (copies), and what follows from them alone: the
open ships (§13.3); per intersection, how many of those buildings and ship ends hold it; the
coast and sea edges there that none of the player's ships holds, each with the intersection
(in edge order, an edge between two such twice); the last moves and spots listed (kept by
value or board mark, see :data:`ShipMoves`, :data:`ShipSpots`; their lists are listed as they
are, never changed). A state's copy shares it."""


BOARD_MARKS = count(1)
"""The source of :attr:`GameState.board_mark`: each drawn once in the process."""

_copy_list = list.copy


def copy_fields(fields: dict[str, Any]) -> dict[str, Any]:
    """``fields`` (a state's ``__dict__``) with every list of the state copied, so that nothing
    done to the one changes the other."""
    fields = fields.copy()
    for name in _COPIED_LISTS:
        fields[name] = _copy_list(fields[name])  # no slice object made, unlike [:]
    for name in _COPIED_NESTED_LISTS:
        fields[name] = list(map(_copy_list, fields[name]))
    rng = object.__new__(SplitMix64)  # its state set here: no __init__ call
    rng.state = fields["rng"].state
    fields["rng"] = rng
    return fields


SETUP_KINDS = (PromptKind.SETUP_SETTLEMENT, PromptKind.SETUP_CITY, PromptKind.SETUP_ROAD)
ALL_CARDS = range(CARD_KINDS)


_NEEDS: dict[Hand, tuple[tuple[int, int], ...]] = {}
"""Per price asked before, its cards that are not 0: a price names one to four of eight."""
_NEEDS_KEPT = 256


Needs = tuple[tuple[int, int], ...]
"""A price as its cards that are not 0: (card, how many)."""


def needs_of(cost: Hand) -> Needs:
    """``cost``'s cards that are not 0, for :func:`holds` (a price of the rules, made once)."""
    return tuple((c, n) for c, n in enumerate(cost) if n)


def holds(hand: Sequence[int], needs: Needs) -> bool:
    """``hand`` holds at least the price ``needs`` stands for (see :func:`needs_of`)."""
    for c, n in needs:  # noqa: SIM110 - faster than all(genexpr)
        if hand[c] < n:
            return False
    return True


def affords(hand: Sequence[int], cost: Hand) -> bool:
    """``hand`` holds at least ``cost``."""
    needs = _NEEDS.get(cost)
    if needs is None:
        if len(cost) != len(hand):
            raise ValueError(f"a hand of {len(hand)} cards against a price of {len(cost)}")
        needs = needs_of(cost)
        if len(_NEEDS) < _NEEDS_KEPT:  # the prices of the rules; offers' asks vary
            _NEEDS[cost] = needs
    for c, n in needs:  # noqa: SIM110 - faster than all(genexpr)
        if hand[c] < n:
            return False
    return True


@dataclass(frozen=True, slots=True)
class VictoryPoints:
    """A player's victory points by source (§11); :attr:`total` is ``victory_points``.

    Counts, not points: ``settlements`` includes destroyed cities (1 VP each), ``cities``
    counts every standing city (2 VP each, metropolises included), ``metropolises`` the
    metropolis bonuses (+2 each).
    """

    settlements: int
    cities: int
    metropolises: int
    longest_road: bool
    defender_cards: int
    merchant: bool
    vp_cards: int
    """Printer and Constitution, revealed (1 VP each)."""
    island_chits: int = 0
    """Catan chits of small islands settled (§13.10: 2 per island, 1 VP each); on a sea board
    ``longest_road`` is the Longest Trade Route (§13.6)."""

    @property
    def total(self) -> int:
        return (
            self.island_chits
            + self.settlements
            + 2 * self.cities
            + 2 * self.metropolises
            + (2 if self.longest_road else 0)
            + self.defender_cards
            + (1 if self.merchant else 0)
            + self.vp_cards
        )


class AttackFigures:
    """How an attack's figures read, for one that happened and for one forecast."""

    __slots__ = ()
    strength: int
    defence: tuple[int, ...]

    @property
    def total_defence(self) -> int:
        return sum(self.defence)

    @property
    def defended(self) -> bool:
        """Catan wins on a defence at least as strong as the barbarians (§7.3)."""
        return self.total_defence >= self.strength


@dataclass(frozen=True, slots=True)
class BarbarianAttack(AttackFigures):
    """What happened at one barbarian attack (§7), kept for the table to see afterwards.

    ``defence`` is each seat's active-knight strength that counted; ``defender`` the single
    strongest who took a Defender of Catan card (``NOBODY`` otherwise); ``tied`` the strongest
    who tied and draw a progress card of their choice instead; ``losers`` the lowest defenders
    who each lose a city of their choice (in the order they choose).
    """

    number: int
    """1 for the game's first attack."""
    strength: int
    defence: tuple[int, ...]
    defender: int = NOBODY
    tied: tuple[int, ...] = ()
    losers: tuple[int, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "number": self.number,
            "strength": self.strength,
            "defence": list(self.defence),
            "defender": self.defender,
            "tied": list(self.tied),
            "losers": list(self.losers),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> BarbarianAttack:
        """The inverse of :meth:`to_json` for trusted data (the app's own records); state JSON
        from outside is read by :mod:`codec`, which checks every field.

        :raises KeyError, TypeError, ValueError: for malformed data."""
        return cls(
            number=int(data["number"]),
            strength=int(data["strength"]),
            defence=tuple(int(x) for x in data["defence"]),
            defender=int(data["defender"]),
            tied=tuple(int(x) for x in data["tied"]),
            losers=tuple(int(x) for x in data["losers"]),
        )


@dataclass(frozen=True, slots=True)
class SpecialBuildPhase:
    """The special build phase after a turn, while it lasts (5-6 players, §12). The seats after
    ``after`` build in seat order, each at most once; one who builds passes over those before."""

    after: int
    """The seat whose turn just ended (the next turn is the seat after it)."""
    builder: int = NOBODY
    """The seat building now, or the last who built; NOBODY before anyone built."""
    building: bool = False
    """``builder`` is building now (else the table says who builds next)."""

    def to_json(self) -> dict[str, Any]:
        return {"after": self.after, "builder": self.builder, "building": self.building}


class GameState:
    """A game of Cities & Knights in progress: its data and derived indexes.

    Seats are 0 … n-1 in seat order (``config.players``). Public attributes are read-only for
    callers outside the rules core.
    """

    def __init__(self, config: GameConfig) -> None:  # noqa: PLR0915 - one line per field
        """The empty board before the setup rounds (§2)."""
        self.config = config
        self.board = config.board
        topology = self.topology = config.board.topology
        """The board's island: its hexes, intersections, edges and harbour slots."""
        nodes, edges = topology.node_count, topology.edge_count
        n = self.player_count = len(config.players)
        self.seats: tuple[int, ...] = tuple((config.first_player + i) % n for i in range(n))
        self.bank: list[int] = list(bank_start(n))
        self.hands: list[list[int]] = [[0] * CARD_KINDS for _ in range(n)]
        self.node_owner: list[int] = [NOBODY] * nodes
        self.node_level: list[int] = [0] * nodes
        self.edge_owner: list[int] = [NOBODY] * edges
        """The road on each edge, NOBODY where none."""
        self.ship_owner: list[int] = [NOBODY] * edges
        """The ship on each edge (Seafarers, §13.3), NOBODY where none: a coast edge holds a
        road or a ship, never both."""
        self.ships_placed: list[int] = []
        """Edges of the ships placed this turn (built, Road Building): they do not move this
        turn (§13.3 item 6, R14)."""
        self.ship_moved = False
        """The player on turn has moved a ship this turn (once per turn, §13.3 item 6)."""
        self.knight_owner: list[int] = [NOBODY] * nodes
        self.knight_level: list[int] = [0] * nodes
        self.knight_active: list[bool] = [False] * nodes
        self.knight_flags: list[int] = [0] * nodes
        """What the knight did this turn: ACTIVATED / ACTED / PROMOTED bits."""
        self.walls: list[bool] = [False] * nodes
        self.improvements: list[list[int]] = [[0, 0, 0] for _ in range(n)]
        """City-improvement level per player per track (trade, politics, science)."""
        self.metropolis: list[int] = [NOBODY, NOBODY, NOBODY]
        """The intersection carrying each track's metropolis."""
        self.barbarian_position = 0
        self.barbarian_attacks = 0
        self.last_attack: BarbarianAttack | None = None
        """The latest barbarian attack's outcome (§7), None before the first."""
        self.defender_cards: list[int] = [0] * n
        self.islands_settled: list[list[int]] = [[] for _ in range(n)]
        """Per player, the small islands (``Topology.islands`` indexes) where their first
        settlement took 2 Catan chits: 2 VP each, kept for good (§13.10, R23)."""
        self.committed: list[int] = []
        """Evil barbarians: the knights committed to the coming attack."""
        self.robber_hex: int = self.board.desert_hex
        self.robber_unlocked = False
        """Set by the first barbarian attack (§8): until then the robber stays in the desert."""
        self.robber_by_knight = False
        sea = self.board.frame.sea_map
        self.pirate_cell: int = NOBODY if sea is None else sea.pirate_start
        """Where the pirate stands on a sea board (§13.4): a sea hex or a frame cell (cell
        ``hex_count + i``, ``Topology.cell_xy``); NOBODY on an island. Like the robber it
        stays on its start until the first barbarian attack (R7)."""
        self.active: int = config.first_player
        self.rolled = False
        self.setup_step = 0
        self.setup_node: int = NOBODY
        self.pending: list[Prompt] = []
        """Decisions queued before play goes on (discards, city losses, deck choices...)."""
        self.stage = Stage.NONE
        """What happens once ``pending`` is empty (see :class:`Stage`)."""
        self.displaced: tuple[int, int, bool, int] | None = None
        """The displaced knight waiting to be relocated: (node, level, active, flags)."""
        self.offer: OfferTrade | None = None
        self.victims: tuple[int, ...] = ()
        self.turn = 0
        self.turns_taken: list[int] = [0] * n
        self.longest_road_holder: int = NOBODY
        self.road_length: list[int] = [0] * n
        self.winner: int = NOBODY
        self.special_build: SpecialBuildPhase | None = None
        """The special build phase after a turn (5-6 players, §12), None outside it."""
        self.rng = SplitMix64(config.seed)
        self.decks: list[list[ProgressCard]] = new_decks(self.rng)
        """The three progress decks (trade, politics, science), top card first (§9)."""
        self.progress_hands: list[list[ProgressCard]] = [[] for _ in range(n)]
        """Progress cards held, VP cards excepted, in almanac order."""
        self.revealed_vp: list[list[ProgressCard]] = [[] for _ in range(n)]
        """Printer / Constitution: revealed at once when drawn (§9)."""
        self.merchant_hex: int = NOBODY
        self.merchant_owner: int = NOBODY
        self.fleet: list[Card] = []
        """Merchant Fleet: cards the player on turn trades 2:1 this turn (§10)."""
        self.alchemist: tuple[int, int] | None = None
        self.tokens: list[int | None] = list(self.board.tokens)
        """Number token per hex; the Inventor swaps them (§10)."""
        self.card_target: int = NOBODY
        """The other player of a card's follow-up: Spy / Master Merchant victim, Deserter
        victim, the Commercial Harbor opponent answering."""
        self.deserter: tuple[int, bool] | None = None
        """Deserter: the level and side of the knight the player may place."""
        self.harbor_open = False
        """A Commercial Harbor was played this turn: its exchanges may be made (§10)."""
        self.harbor_done: list[int] = []
        """Commercial Harbor: opponents already asked this turn (a void exchange counts)."""
        self.harbor_offer: Card | None = None
        self.last_roll: Roll | None = None
        self.last_production: tuple[Hand, ...] = ()
        self.events: list[Event] = []
        """What the last action set off (production, steals, draws...): see :mod:`events`.
        Not part of the state JSON; a loaded state starts with none."""
        self.prompt = Prompt(PromptKind.SETUP_SETTLEMENT, self.active)
        self.token_hexes: dict[int, tuple[int, ...]] = {}
        """Hexes per number token (2-12), for production."""
        self.index_tokens()
        self.rebuild_indexes()

    def copied_fields(self) -> dict[str, Any]:
        """The instance's fields with every list in the state copied: what a copy, an undo
        record or a snapshot of this state holds (see :func:`copy_fields`)."""
        return copy_fields(self.__dict__)

    def index_tokens(self) -> None:
        """Re-derive :attr:`token_hexes` and :attr:`gold_token_hexes` after the tokens changed
        (the Inventor)."""
        tokens = self.tokens
        # A gold field pays resources of choice (§13.5), not a fixed card: it is left out here.
        gold = self.board.frame.sea_map is not None and Terrain.GOLD in self.board.terrains
        terrains = self.board.terrains
        found: dict[int, list[int]] = {t: [] for t in range(2, 13)}
        gold_hexes: dict[int, tuple[int, ...]] = {}
        for h, t in enumerate(tokens):  # one pass over the hexes, not one a number
            if t is None:
                continue
            if gold and terrains[h] is Terrain.GOLD:
                gold_hexes[t] = (*gold_hexes.get(t, ()), h)
            elif t in found:
                found[t].append(h)
        self.token_hexes = {t: tuple(hexes) for t, hexes in found.items()}
        self.gold_token_hexes = gold_hexes
        """The gold fields per number token, only numbers that have one (§13.5); replaced
        whole, never changed in place."""

    def rebuild_indexes(self) -> None:
        """Derived lookups (pieces per player, supplies, trade rates) from the board arrays."""
        self.board_mark = next(BOARD_MARKS)
        """New when a piece or knight comes or goes, a knight is promoted or the pirate moves."""
        n = self.player_count
        self.roads_of: list[list[int]] = [[] for _ in range(n)]
        self.buildings_of: list[list[int]] = [[] for _ in range(n)]
        for e, owner in enumerate(self.edge_owner):
            if owner != NOBODY:
                self.roads_of[owner].append(e)
        for node, owner in enumerate(self.node_owner):
            if owner != NOBODY:
                self.buildings_of[owner].append(node)
        self.ships_of: list[list[int]] = [[] for _ in range(n)]
        for e, owner in enumerate(self.ship_owner):
            if owner != NOBODY:
                self.ships_of[owner].append(e)
        self.knights_of: list[list[int]] = [[] for _ in range(n)]
        for node, owner in enumerate(self.knight_owner):
            if owner != NOBODY:
                self.knights_of[owner].append(node)
        self.road_ends_of: list[tuple[int, ...] | None] = [None] * n
        """:meth:`road_ends` per player, None until asked after the roads changed."""
        self.route_paths: list[int | None] = [None] * n
        """Per player on a sea board, the edges (a bit per edge id) of one path as long as
        ``road_length`` (the Longest Trade Route, §13.6), measured with it; None until
        measured. A piece added then needs only the paths through it."""
        self.route_cores: list[int] = [NOBODY] * n
        """Per player on a sea board, a piece every path as long as ``road_length`` holds (the
        one whose coming made the route that long), or NOBODY when not known."""
        self.ship_networks: list[ShipNetwork | None] = [None] * n
        """Per player, what the ship listing keeps (see :data:`ShipNetwork`), None until
        asked; each use checks it against the player's ships, buildings and knights."""
        self.trade_rates: list[tuple[int, ...]] = [()] * n
        """Per player, :meth:`update_trade_rates`'s tuple: replaced whole, never changed."""
        for p in range(n):
            self.update_trade_rates(p)

    def update_trade_rates(self, p: int) -> None:
        """Best maritime rate per card: harbours, then the Merchant Guild (trade level 3)."""
        rates = [4] * CARD_KINDS
        harbour_slot = self.topology.node_harbour_slot
        for node in self.buildings_of[p]:
            slot = harbour_slot[node]
            if slot is None:
                continue
            harbour = self.board.harbours[slot]
            if harbour is Harbour.GENERIC:
                for c in ALL_CARDS:
                    rates[c] = min(rates[c], 3)
            else:
                resource = harbour.resource
                assert resource is not None
                rates[resource] = 2
        if self.improvements[p][0] >= ABILITY_LEVEL:
            for c in COMMODITIES:
                rates[c] = 2
        if self.merchant_owner == p:
            resource = TERRAIN_RESOURCE[self.board.terrains[self.merchant_hex]]
            assert resource is not None
            rates[resource] = 2
        if p == self.active:
            for c in self.fleet:
                rates[c] = 2
        self.trade_rates[p] = tuple(rates)

    # ---- reading the state ----------------------------------------------------------------

    def settlements_on_board(self, player: int) -> int:
        return sum(1 for node in self.buildings_of[player] if self.node_level[node] == SETTLEMENT)

    def cities_on_board(self, player: int) -> int:
        """City pieces on the board, destroyed cities included."""
        return sum(1 for node in self.buildings_of[player] if self.node_level[node] >= CITY)

    def cities_of(self, player: int) -> list[int]:
        """Intersections of the player's standing cities (metropolises included)."""
        level = self.node_level
        return [node for node in self.buildings_of[player] if level[node] == CITY]

    def destroyed_cities_of(self, player: int) -> list[int]:
        level = self.node_level
        return [node for node in self.buildings_of[player] if level[node] == DESTROYED_CITY]

    def metropolis_owner(self, track_index: int) -> int:
        node = self.metropolis[track_index]
        return NOBODY if node == NOBODY else self.node_owner[node]

    def knight_strength(self, player: int) -> int:
        """Total level of the player's active knights (§7.2)."""
        return sum(self.knight_level[n] for n in self.knights_of[player] if self.knight_active[n])

    def knights_at_level(self, player: int, level: int) -> int:
        knight_level = self.knight_level
        return [knight_level[n] for n in self.knights_of[player]].count(level)

    def walls_of(self, player: int) -> int:
        return sum(1 for node in self.buildings_of[player] if self.walls[node])

    def barbarian_strength(self) -> int:
        """Cities on the board, metropolises included (§7.1)."""
        return self.node_level.count(CITY)

    def settlements_left(self, player: int) -> int:
        return SETTLEMENTS_PER_PLAYER - self.settlements_on_board(player)

    def cities_left(self, player: int) -> int:
        return CITIES_PER_PLAYER - self.cities_on_board(player)

    def roads_left(self, player: int) -> int:
        return ROADS_PER_PLAYER - len(self.roads_of[player])

    def ships_left(self, player: int) -> int:
        return SHIPS_PER_PLAYER - len(self.ships_of[player])

    def city_upgrade_reason(self, p: int, node: int) -> Msg | None:
        """Why ``p`` cannot turn ``node`` into a city (price aside), or None (§5, §7)."""
        last = self.topology.node_count - 1
        if not 0 <= node <= last:
            return msg(
                "intersection {node} does not exist (intersections are 0-{last})",
                node=node,
                last=last,
            )
        destroyed = self.destroyed_cities_of(p)
        if destroyed:
            if node not in destroyed:
                return msg(
                    "rebuild your destroyed city on {node} before any other city (§7)",
                    node=destroyed[0],
                )
        elif self.node_owner[node] != p or self.node_level[node] != SETTLEMENT:
            return msg(
                "a city upgrades one of your settlements; intersection {node} has none", node=node
            )
        elif self.cities_left(p) == 0:
            return msg(
                "no cities left in the supply (each player has {count})", count=CITIES_PER_PLAYER
            )
        return None

    def affords(self, player: int, cost: Hand) -> bool:
        """The player holds at least ``cost``."""
        return affords(self.hands[player], cost)

    def hand(self, player: int) -> Hand:
        return tuple(self.hands[player])

    def card_count(self, player: int) -> int:
        return sum(self.hands[player])

    def discard_limit(self, player: int) -> int:
        """7, plus 2 for each city wall the player has (§3.4)."""
        return DISCARD_LIMIT + DISCARD_LIMIT_PER_WALL * self.walls_of(player)

    def victory_points(self, player: int) -> int:
        """VP per §11 from what is on the board and the cards held."""
        buildings = self.buildings_of[player]
        level = self.node_level
        vp = len(buildings)
        for node in buildings:
            if level[node] == CITY:
                vp += 1
        if self.longest_road_holder == player:
            vp += 2
        owner = self.node_owner
        for node in self.metropolis:
            if node != NOBODY and owner[node] == player:
                vp += 2
        vp += len(self.revealed_vp[player])
        if self.merchant_owner == player:
            vp += 1
        return vp + self.defender_cards[player] + 2 * len(self.islands_settled[player])

    def victory_point_breakdown(self, player: int) -> VictoryPoints:
        """Where the player's VP come from (§11); its total equals :meth:`victory_points`."""
        levels = [self.node_level[node] for node in self.buildings_of[player]]
        return VictoryPoints(
            settlements=len(levels) - levels.count(CITY),
            cities=levels.count(CITY),
            metropolises=sum(
                1 for node in self.metropolis if node != NOBODY and self.node_owner[node] == player
            ),
            longest_road=self.longest_road_holder == player,
            defender_cards=self.defender_cards[player],
            merchant=self.merchant_owner == player,
            vp_cards=len(self.revealed_vp[player]),
            island_chits=2 * len(self.islands_settled[player]),
        )

    def trade_rate(self, player: int, card: Card) -> int:
        """How many of ``card`` the player gives the bank for one card (4, 3 or 2)."""
        return self.trade_rates[player][card]

    @property
    def is_over(self) -> bool:
        return self.winner != NOBODY

    @property
    def awaiting_roll(self) -> bool:
        """True while the rules core waits for the dice: the dice box is armed only then. With
        5-6 players also while the table says who special-builds: the next player's roll ends
        the phase (§12)."""
        kind = self.prompt.kind
        return kind is PromptKind.ROLL or kind is PromptKind.WHO_BUILDS

    @property
    def alchemist_dice(self) -> tuple[int, int] | None:
        """(yellow, red) fixed by an Alchemist for the coming roll, else None (§10).

        The dice box is told these values, so its next roll reports them with the event die.
        """
        return self.alchemist

    @property
    def in_setup(self) -> bool:
        return self.prompt.kind in SETUP_KINDS

    def next_seat(self, player: int) -> int:
        return (player + 1) % self.player_count

    def seat_order(self) -> list[int]:
        """Every seat in turn order, the active player first."""
        n = self.player_count
        return [(self.active + i) % n for i in range(n)]

    def road_ends(self, player: int) -> tuple[int, ...]:
        """Intersections at an end of one of the player's roads, in id order (kept until the
        player's roads change: a turn's listing asks it for settlements, knights, Intrigue)."""
        ends = self.road_ends_of[player]
        if ends is None:
            edge_nodes = self.topology.edge_nodes
            nodes = {node for e in self.roads_of[player] for node in edge_nodes[e]}
            ends = self.road_ends_of[player] = tuple(sorted(nodes))
        return ends

    def has_road_at(self, player: int, node: int) -> bool:
        """One of the player's roads ends on ``node``."""
        edge_owner = self.edge_owner
        return any(edge_owner[e] == player for e in self.topology.node_edges[node])

    def progress_hand(self, player: int) -> tuple[ProgressCard, ...]:
        """The player's progress cards in hand (VP cards are in ``revealed_vp``)."""
        return tuple(self.progress_hands[player])

    def special_builders_left(self) -> tuple[int, ...]:
        """The seats that may still special-build in this phase, in its order (§12): those
        after the turn's player, after the last who built; empty outside the phase."""
        phase = self.special_build
        if phase is None:
            return ()
        n = self.player_count
        order = [(phase.after + i) % n for i in range(1, n)]
        if phase.builder != NOBODY:
            order = order[order.index(phase.builder) + 1 :]
        return tuple(order)

    def in_easy_start(self) -> bool:
        """Variant: the active player's first two turns (7s re-rolled, no event die)."""
        return self.config.easy_start and self.turns_taken[self.active] < 2
