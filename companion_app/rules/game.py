"""The game: state, the prompt it waits for, legal actions, applying them, undo, JSON.

Style of python-chess: :meth:`Game.legal_actions` lists exactly the legal choices now (domestic
trade offers excepted: their amounts are free, :meth:`Game.is_legal` decides them);
:meth:`Game.apply` rejects anything else with :class:`IllegalActionError` naming the rule and
leaves the state untouched; :meth:`Game.undo` takes the last action back.

Section numbers (§) refer to the project's rules reference.
"""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from companion_app.rules import cities_knights as ck
from companion_app.rules import codec, progress
from companion_app.rules.actions import (
    EVENT_DIE_FACES,
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
    PromoteKnight,
    RelocateKnight,
    RemoveKnight,
    Roll,
    StealFrom,
    StopEffect,
    TakeCard,
    TakeProgressCard,
    TakeResource,
    action_from_json,
)
from companion_app.rules.cards import (
    ABILITY_LEVEL,
    BANK_START,
    CARD_KINDS,
    COMMODITIES,
    COSTS,
    TERRAIN_COMMODITY,
    TERRAIN_RESOURCE,
    TRACKS,
    Build,
    Card,
    Hand,
    Harbour,
    ProgressCard,
    Track,
)
from companion_app.rules.config import GameConfig
from companion_app.rules.errors import IllegalActionError, ReplayError, RulesError
from companion_app.rules.pieces import (
    CITIES_PER_PLAYER,
    CITY,
    DESTROYED_CITY,
    DISCARD_LIMIT,
    DISCARD_LIMIT_PER_WALL,
    LONGEST_ROAD_MIN,
    NOBODY,
    ROADS_PER_PLAYER,
    SETTLEMENT,
    SETTLEMENTS_PER_PLAYER,
)
from companion_app.rules.prompts import Prompt, PromptKind, Stage
from companion_app.rules.rng import SplitMix64
from companion_app.rules.topology import (
    EDGE_COUNT,
    EDGE_NODES,
    HEX_COUNT,
    HEX_NODES,
    NODE_COUNT,
    NODE_EDGES,
    NODE_HARBOUR_SLOT,
    NODE_HEXES,
    NODE_NEIGHBOURS,
)

STATE_VERSION = codec.STATE_VERSION
SNAPSHOT_EVERY = 128
"""Actions between the state snapshots undo starts from (undo replays at most this many)."""

_CARDS = tuple(Card)
_ALL_CARDS = range(CARD_KINDS)


class NothingToUndoError(RulesError):
    """Undo with no action taken yet."""


@dataclass(frozen=True, slots=True)
class VictoryPoints:
    """A player's victory points by source (§11); :attr:`total` is ``Game.victory_points``.

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

    @property
    def total(self) -> int:
        return (
            self.settlements
            + 2 * self.cities
            + 2 * self.metropolises
            + (2 if self.longest_road else 0)
            + self.defender_cards
            + (1 if self.merchant else 0)
            + self.vp_cards
        )


# Prebuilt action values, so listing legal actions does not construct objects on the hot path.
_MAX_SEATS = 4
_ROAD = [[BuildRoad(p, e) for e in range(EDGE_COUNT)] for p in range(_MAX_SEATS)]
_SETTLE = [[BuildSettlement(p, n) for n in range(NODE_COUNT)] for p in range(_MAX_SEATS)]
_CITY = [[BuildCity(p, n) for n in range(NODE_COUNT)] for p in range(_MAX_SEATS)]
_ROBBER = [[MoveRobber(p, h) for h in range(HEX_COUNT)] for p in range(_MAX_SEATS)]
_DISCARD = [[DiscardCard(p, c) for c in _CARDS] for p in range(_MAX_SEATS)]
_STEAL = [[StealFrom(p, v) for v in range(_MAX_SEATS)] for p in range(_MAX_SEATS)]
_TRADE = [[[BankTrade(p, g, t) for t in _CARDS] for g in _CARDS] for p in range(_MAX_SEATS)]
_END = [EndTurn(p) for p in range(_MAX_SEATS)]
_ACCEPT = [AcceptTrade(p) for p in range(_MAX_SEATS)]
_DECLINE = [DeclineTrade(p) for p in range(_MAX_SEATS)]
_ROLLS = [
    tuple(
        Roll(p, y, r, e)
        for y in range(1, 7)
        for r in range(1, 7)
        for e in (EventDie.SHIP, EventDie.TRADE, EventDie.POLITICS, EventDie.SCIENCE)
    )
    for p in range(_MAX_SEATS)
]

_ALLOWED: dict[PromptKind, tuple[type[Action], ...]] = {
    PromptKind.SETUP_SETTLEMENT: (BuildSettlement,),
    PromptKind.SETUP_CITY: (BuildCity,),
    PromptKind.SETUP_ROAD: (BuildRoad,),
    PromptKind.ROLL: (Roll, *progress.PLAY_TYPES),
    PromptKind.DISCARD: (DiscardCard,),
    PromptKind.MOVE_ROBBER: (MoveRobber,),
    PromptKind.CHOOSE_VICTIM: (StealFrom,),
    PromptKind.TURN: (
        BuildRoad,
        BuildSettlement,
        BuildCity,
        BankTrade,
        OfferTrade,
        EndTurn,
        BuildCityWall,
        BuildKnight,
        ActivateKnight,
        PromoteKnight,
        MoveKnight,
        DisplaceKnight,
        ChaseRobber,
        BuyImprovement,
        *progress.PLAY_TYPES,
    ),
    PromptKind.TRADE_RESPONSE: (AcceptTrade, DeclineTrade),
    PromptKind.GAME_OVER: (),
    PromptKind.COMMIT_KNIGHTS: (CommitKnights,),
    PromptKind.LOSE_CITY: (LoseCity,),
    PromptKind.CHOOSE_PROGRESS_DECK: (ChooseProgressDeck,),
    PromptKind.PLACE_METROPOLIS: (PlaceMetropolis,),
    PromptKind.RELOCATE_KNIGHT: (RelocateKnight,),
    PromptKind.AQUEDUCT: (TakeResource,),
    PromptKind.PROGRESS_DISCARD: (DiscardProgressCard,),
    PromptKind.FREE_ROAD: (BuildRoad, StopEffect),
    PromptKind.SMITH: (PromoteKnight, StopEffect),
    PromptKind.DESERTER_REMOVE: (RemoveKnight,),
    PromptKind.DESERTER_PLACE: (PlaceDeserter, StopEffect),
    PromptKind.WEDDING_GIVE: (GiveCard,),
    PromptKind.COMMERCIAL_HARBOR: (HarborExchange, StopEffect),
    PromptKind.HARBOR_ANSWER: (GiveCard,),
    PromptKind.SPY: (TakeProgressCard,),
    PromptKind.MASTER_MERCHANT: (TakeCard,),
}
_BEFORE_ROLL_QUICK_KNIGHTS = (Roll, ChaseRobber, *progress.PLAY_TYPES)
_CARD_PROMPTS = frozenset(
    {
        PromptKind.PROGRESS_DISCARD,
        PromptKind.FREE_ROAD,
        PromptKind.SMITH,
        PromptKind.DESERTER_REMOVE,
        PromptKind.DESERTER_PLACE,
        PromptKind.WEDDING_GIVE,
        PromptKind.COMMERCIAL_HARBOR,
        PromptKind.HARBOR_ANSWER,
        PromptKind.SPY,
        PromptKind.MASTER_MERCHANT,
    }
)
_SETUP_KINDS = (PromptKind.SETUP_SETTLEMENT, PromptKind.SETUP_CITY, PromptKind.SETUP_ROAD)


def _affords(hand: Sequence[int], cost: Hand) -> bool:
    return all(h >= c for h, c in zip(hand, cost, strict=True))


class Game:
    """A game of Cities & Knights in progress. Create with :meth:`new` or :meth:`from_json`.

    Seats are 0 … n-1 in seat order (``config.players``). Public attributes are read-only for
    callers; only :meth:`apply` and :meth:`undo` change a game.
    """

    # ---- construction ---------------------------------------------------------------------

    def __init__(self, config: GameConfig) -> None:
        """Use :meth:`new`; this sets up the empty board before the setup rounds."""
        self.config = config
        self.board = config.board
        n = self.player_count = len(config.players)
        self.seats: tuple[int, ...] = tuple((config.first_player + i) % n for i in range(n))
        self.bank: list[int] = list(BANK_START)
        self.hands: list[list[int]] = [[0] * CARD_KINDS for _ in range(n)]
        self.node_owner: list[int] = [NOBODY] * NODE_COUNT
        self.node_level: list[int] = [0] * NODE_COUNT
        self.edge_owner: list[int] = [NOBODY] * EDGE_COUNT
        self.knight_owner: list[int] = [NOBODY] * NODE_COUNT
        self.knight_level: list[int] = [0] * NODE_COUNT
        self.knight_active: list[bool] = [False] * NODE_COUNT
        self.knight_flags: list[int] = [0] * NODE_COUNT
        """What the knight did this turn: ACTIVATED / ACTED / PROMOTED bits."""
        self.walls: list[bool] = [False] * NODE_COUNT
        self.improvements: list[list[int]] = [[0, 0, 0] for _ in range(n)]
        """City-improvement level per player per track (trade, politics, science)."""
        self.metropolis: list[int] = [NOBODY, NOBODY, NOBODY]
        """The intersection carrying each track's metropolis."""
        self.barbarian_position = 0
        self.barbarian_attacks = 0
        self.last_attack: ck.BarbarianAttack | None = None
        """The latest barbarian attack's outcome (§7), None before the first."""
        self.defender_cards: list[int] = [0] * n
        self.committed: list[int] = []
        """Evil barbarians: the knights committed to the coming attack."""
        self.robber_hex: int = self.board.desert_hex
        self.robber_unlocked = False
        """Set by the first barbarian attack (§8): until then the robber stays in the desert."""
        self.robber_by_knight = False
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
        self.rng = SplitMix64(config.seed)
        self.decks: list[list[ProgressCard]] = progress.new_decks(self.rng)
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
        self.harbor_done: list[int] = []
        """Commercial Harbor: opponents already offered an exchange this play."""
        self.harbor_offer: Card | None = None
        self.last_roll: Roll | None = None
        self.last_production: tuple[Hand, ...] = ()
        self.prompt = Prompt(PromptKind.SETUP_SETTLEMENT, self.active)
        self.history: list[Action] = []
        """Actions applied since :meth:`at_history_start`."""
        self._restored_from: dict[str, Any] | None = None
        self._snapshots: list[tuple[int, dict[str, Any]]] = []
        """(len(history), to_json()) every :data:`SNAPSHOT_EVERY` actions: undo replays from
        the latest one instead of from the start."""
        self._token_hexes: dict[int, tuple[int, ...]] = {}
        self._index_tokens()
        self._legal_cache: list[Action] | None = None
        self._rebuild_indexes()

    @classmethod
    def new(cls, config: GameConfig) -> Game:
        """A new game at the first setup placement (§2)."""
        return cls(config)

    @classmethod
    def replay(cls, config: GameConfig, actions: Iterable[Action]) -> Game:
        """A new game with ``actions`` applied in order.

        :raises ReplayError: at the first action that is not legal where it stands.
        """
        return replay_onto(cls(config), actions)

    def _index_tokens(self) -> None:
        tokens = self.tokens
        self._token_hexes = {
            t: tuple(h for h in range(HEX_COUNT) if tokens[h] == t) for t in range(2, 13)
        }

    def _rebuild_indexes(self) -> None:
        """Derived lookups (pieces per player, supplies, trade rates) from the board arrays."""
        n = self.player_count
        self.roads_of: list[list[int]] = [[] for _ in range(n)]
        self.buildings_of: list[list[int]] = [[] for _ in range(n)]
        for e, owner in enumerate(self.edge_owner):
            if owner != NOBODY:
                self.roads_of[owner].append(e)
        for node, owner in enumerate(self.node_owner):
            if owner != NOBODY:
                self.buildings_of[owner].append(node)
        self.knights_of: list[list[int]] = [[] for _ in range(n)]
        for node, owner in enumerate(self.knight_owner):
            if owner != NOBODY:
                self.knights_of[owner].append(node)
        self.trade_rates: list[list[int]] = [[4] * CARD_KINDS for _ in range(n)]
        for p in range(n):
            self._update_trade_rates(p)

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
        return sum(1 for n in self.knights_of[player] if self.knight_level[n] == level)

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

    def city_upgrade_reason(self, p: int, node: int) -> str | None:
        """Why ``p`` cannot turn ``node`` into a city (price aside), or None (§5, §7)."""
        if not 0 <= node < NODE_COUNT:
            return f"intersection {node} does not exist (intersections are 0-{NODE_COUNT - 1})"
        destroyed = self.destroyed_cities_of(p)
        if destroyed:
            if node not in destroyed:
                return f"rebuild your destroyed city on {destroyed[0]} before any other city (§7)"
        elif self.node_owner[node] != p or self.node_level[node] != SETTLEMENT:
            return f"a city upgrades one of your settlements; intersection {node} has none"
        elif self.cities_left(p) == 0:
            return f"no cities left in the supply (each player has {CITIES_PER_PLAYER})"
        return None

    def affords(self, player: int, cost: Hand) -> bool:
        """The player holds at least ``cost``."""
        return _affords(self.hands[player], cost)

    def hand(self, player: int) -> Hand:
        return tuple(self.hands[player])

    def card_count(self, player: int) -> int:
        return sum(self.hands[player])

    def discard_limit(self, player: int) -> int:
        """7, plus 2 for each city wall the player has (§3.4)."""
        return DISCARD_LIMIT + DISCARD_LIMIT_PER_WALL * self.walls_of(player)

    def victory_points(self, player: int) -> int:
        """VP per §11 from what is on the board and the cards held."""
        vp = 0
        for node in self.buildings_of[player]:
            vp += 2 if self.node_level[node] == CITY else 1
        if self.longest_road_holder == player:
            vp += 2
        for node in self.metropolis:
            if node != NOBODY and self.node_owner[node] == player:
                vp += 2
        vp += len(self.revealed_vp[player])
        if self.merchant_owner == player:
            vp += 1
        return vp + self.defender_cards[player]

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
        )

    def trade_rate(self, player: int, card: Card) -> int:
        """How many of ``card`` the player gives the bank for one card (4, 3 or 2)."""
        return self.trade_rates[player][card]

    @property
    def is_over(self) -> bool:
        return self.winner != NOBODY

    @property
    def awaiting_roll(self) -> bool:
        """True while the rules core waits for the dice: the dice box is armed only then."""
        return self.prompt.kind is PromptKind.ROLL

    @property
    def alchemist_dice(self) -> tuple[int, int] | None:
        """(yellow, red) fixed by an Alchemist for the coming roll, else None (§10).

        The dice box is told these values, so its next roll reports them with the event die.
        """
        return self.alchemist

    @property
    def in_setup(self) -> bool:
        return self.prompt.kind in _SETUP_KINDS

    def next_seat(self, player: int) -> int:
        return (player + 1) % self.player_count

    def seat_order(self) -> list[int]:
        """Every seat in turn order, the active player first."""
        n = self.player_count
        return [(self.active + i) % n for i in range(n)]

    def describe_prompt(self) -> str:
        return self.prompt.describe(self.config.names)

    # ---- legality ---------------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every legal action now, except domestic trade offers (see :meth:`is_legal`).

        The list is cached until the state changes; do not modify it.
        """
        if self._legal_cache is None:
            self._legal_cache = self._generate_legal()
        return self._legal_cache

    def may_offer_trade(self) -> bool:
        """True while the player on turn may make domestic trade offers."""
        return self.prompt.kind is PromptKind.TURN and self.card_count(self.active) > 0

    def is_legal(self, action: Action) -> bool:
        return self.illegal_reason(action) is None

    def illegal_reason(self, action: Action) -> str | None:
        """Why ``action`` is not legal now, in words naming the rule; None if it is legal."""
        prompt = self.prompt
        if prompt.kind is PromptKind.GAME_OVER:
            return "the game is over"
        allowed = _ALLOWED[prompt.kind]
        if prompt.kind is PromptKind.ROLL and self.config.quick_knights:
            allowed = _BEFORE_ROLL_QUICK_KNIGHTS
        if not isinstance(action, allowed):
            return f"{action.type_name} is not possible now: {self.describe_prompt()}"
        if action.player != prompt.player:
            names = self.config.names
            who = names[action.player] if 0 <= action.player < len(names) else action.player
            return f"it is not {who}'s decision: {self.describe_prompt()}"
        check = _CHECKS[type(action)]
        return check(self, action)

    def _generate_legal(self) -> list[Action]:
        prompt = self.prompt
        p = prompt.player
        kind = prompt.kind
        if kind is PromptKind.TURN:
            return self._legal_turn_actions(p)
        if kind is PromptKind.ROLL:
            if self.alchemist is None:
                rolls = [*_ROLLS[p], *progress.alchemist_plays(self, p)]
            else:
                y, r = self.alchemist
                rolls = [roll for roll in _ROLLS[p] if roll.yellow == y and roll.red == r]
            if self.config.quick_knights:
                rolls.extend(ck.chase_actions(self, p))
            return rolls
        if kind is PromptKind.DISCARD:
            hand = self.hands[p]
            return [_DISCARD[p][c] for c in _ALL_CARDS if hand[c]]
        if kind is PromptKind.SETUP_SETTLEMENT:
            return [_SETTLE[p][n] for n in range(NODE_COUNT) if self._free_building_spot(n)]
        if kind is PromptKind.SETUP_CITY:
            return [_CITY[p][n] for n in range(NODE_COUNT) if self._free_building_spot(n)]
        if kind is PromptKind.SETUP_ROAD:
            edge_owner = self.edge_owner
            return [_ROAD[p][e] for e in NODE_EDGES[self.setup_node] if edge_owner[e] == NOBODY]
        if kind is PromptKind.MOVE_ROBBER:
            return [_ROBBER[p][h] for h in self._robber_targets()]
        if kind is PromptKind.CHOOSE_VICTIM:
            return [_STEAL[p][v] for v in self.victims]
        if kind is PromptKind.TRADE_RESPONSE:
            assert self.offer is not None
            if _affords(self.hands[p], self.offer.take):
                return [_ACCEPT[p], _DECLINE[p]]
            return [_DECLINE[p]]
        if kind is PromptKind.LOSE_CITY:
            return [LoseCity(p, n) for n in ck.cities_without_metropolis(self, p)]
        if kind is PromptKind.PLACE_METROPOLIS:
            return [PlaceMetropolis(p, n) for n in ck.cities_without_metropolis(self, p)]
        if kind is PromptKind.CHOOSE_PROGRESS_DECK:
            return [ChooseProgressDeck(p, t) for t in TRACKS]
        if kind is PromptKind.COMMIT_KNIGHTS:
            return ck.commit_options(self, p)
        if kind is PromptKind.RELOCATE_KNIGHT:
            assert self.displaced is not None
            spots = ck.relocation_spots(self, p, self.displaced[0])
            return [RelocateKnight(p, n) for n in spots]
        if kind is PromptKind.AQUEDUCT:
            return ck.aqueduct_options(self, p)
        if kind in _CARD_PROMPTS:
            return progress.prompt_actions(self, kind, p)
        return []

    def _robber_targets(self) -> list[int]:
        """Every other hex; a knight chases it to another hex with a number token (§6)."""
        tokens = self.tokens
        return [
            h
            for h in range(HEX_COUNT)
            if h != self.robber_hex and (not self.robber_by_knight or tokens[h] is not None)
        ]

    def _legal_turn_actions(self, p: int) -> list[Action]:
        hand = self.hands[p]
        actions: list[Action] = []
        if len(self.roads_of[p]) < ROADS_PER_PLAYER and _affords(hand, COSTS[Build.ROAD]):
            roads = _ROAD[p]
            actions.extend(roads[e] for e in self._road_spots(p))
        if _affords(hand, COSTS[Build.SETTLEMENT]) and self.settlements_left(p) > 0:
            settle = _SETTLE[p]
            actions.extend(settle[n] for n in self._settlement_spots(p))
        if _affords(hand, COSTS[Build.CITY]):
            city = _CITY[p]
            destroyed = self.destroyed_cities_of(p)
            if destroyed:
                actions.extend(city[n] for n in destroyed)
            elif self.cities_left(p) > 0:
                level = self.node_level
                actions.extend(city[n] for n in self.buildings_of[p] if level[n] == SETTLEMENT)
        bank = self.bank
        rates = self.trade_rates[p]
        trades = _TRADE[p]
        for g in _ALL_CARDS:
            if hand[g] >= rates[g]:
                row = trades[g]
                actions.extend(row[t] for t in _ALL_CARDS if t != g and bank[t])
        actions.extend(ck.wall_actions(self, p))
        if self.knights_of[p] or self.roads_of[p]:
            actions.extend(ck.knight_turn_actions(self, p))
        actions.extend(ck.improvement_actions(self, p))
        if self.progress_hands[p]:
            actions.extend(progress.turn_plays(self, p))
        actions.append(_END[p])
        return actions

    def _free_building_spot(self, node: int) -> bool:
        """Empty, no knight on it, and the distance rule holds (§2, base rules)."""
        owner = self.node_owner
        if owner[node] != NOBODY or self.knight_owner[node] != NOBODY:
            return False
        return all(owner[m] == NOBODY for m in NODE_NEIGHBOURS[node])

    def _blocks(self, player: int, node: int) -> bool:
        """An opponent's building or knight on ``node`` stops ``player``'s roads passing it."""
        owner = self.node_owner[node]
        if owner != NOBODY and owner != player:
            return True
        knight = self.knight_owner[node]
        return knight != NOBODY and knight != player

    def _road_spots(self, p: int) -> list[int]:
        """Empty edges connected to the player's network (§5, base rules)."""
        edge_owner = self.edge_owner
        seen: set[int] = set()
        spots: list[int] = []
        frontier: set[int] = set(self.buildings_of[p])
        for e in self.roads_of[p]:
            for node in EDGE_NODES[e]:
                if not self._blocks(p, node):
                    frontier.add(node)
        for node in frontier:
            for e in NODE_EDGES[node]:
                if edge_owner[e] == NOBODY and e not in seen:
                    seen.add(e)
                    spots.append(e)
        spots.sort()
        return spots

    def road_ends(self, player: int) -> list[int]:
        """Intersections at an end of one of the player's roads, in id order."""
        return sorted({node for e in self.roads_of[player] for node in EDGE_NODES[e]})

    def has_road_at(self, player: int, node: int) -> bool:
        """One of the player's roads ends on ``node``."""
        edge_owner = self.edge_owner
        return any(edge_owner[e] == player for e in NODE_EDGES[node])

    def _settlement_spots(self, p: int) -> list[int]:
        return [n for n in self.road_ends(p) if self._free_building_spot(n)]

    # ---- applying ---------------------------------------------------------------------------

    def apply(self, action: Action) -> None:
        """Apply a legal action.

        :raises IllegalActionError: naming the rule if ``action`` is not legal now; the state
            is then unchanged.
        """
        reason = self.illegal_reason(action)
        if reason is not None:
            raise IllegalActionError(reason)
        self._apply_unchecked(action)

    def apply_json(self, data: object) -> Action:
        """Parse and apply an action's JSON form; returns the parsed action.

        :raises MalformedActionError: for data that describes no action.
        :raises IllegalActionError: for an action not legal now.
        """
        action = action_from_json(data)
        self.apply(action)
        return action

    def _apply_unchecked(self, action: Action) -> None:
        _EFFECTS[type(action)](self, action)
        history = self.history
        history.append(action)
        self._legal_cache = None
        self._check_win()
        if len(history) % SNAPSHOT_EVERY == 0:
            self._snapshots.append((len(history), self.to_json()))

    def undo(self) -> Action:
        """Take back the last action (a roll included) by replaying the others.

        :raises NothingToUndoError: if no action was taken yet (since :meth:`from_json`).
        """
        if not self.history:
            raise NothingToUndoError("nothing to undo: no action was taken yet")
        history = self.history
        undone = history[-1]
        kept = len(history) - 1
        snapshots = self._snapshots
        while snapshots and snapshots[-1][0] > kept:
            snapshots.pop()
        if snapshots:
            start, state = snapshots[-1]
            fresh = Game._loaded(state)
        else:
            start, fresh = 0, self.at_history_start()
        fresh.history = history[:start]
        fresh._snapshots = snapshots
        fresh._restored_from = self._restored_from
        replay_onto(fresh, history[start:kept], checked=False)
        self.__dict__.update(fresh.__dict__)
        return undone

    def at_history_start(self) -> Game:
        """A new game in the state :attr:`history` starts from: a fresh game, or the restored
        state of :meth:`from_json`."""
        if self._restored_from is None:
            return Game(self.config)
        return Game.from_json(self._restored_from)

    # ---- setup (§2) -------------------------------------------------------------------------

    def _setup_player(self, step: int) -> int:
        """Placement k (two steps each): seats in order, then in reverse order."""
        k = step // 2
        n = self.player_count
        return self.seats[k] if k < n else self.seats[2 * n - 1 - k]

    def _advance_setup(self) -> None:
        self.setup_step += 1
        n = self.player_count
        if self.setup_step == 4 * n:
            self.active = self.config.first_player
            self._start_turn_prompt()
            return
        p = self._setup_player(self.setup_step)
        if self.setup_step % 2 == 1:
            self.prompt = Prompt(PromptKind.SETUP_ROAD, p)
        elif self.setup_step // 2 < n:
            self.prompt = Prompt(PromptKind.SETUP_SETTLEMENT, p)
        else:
            self.prompt = Prompt(PromptKind.SETUP_CITY, p)
        self.active = p

    # ---- pieces -----------------------------------------------------------------------------

    def _place_building(self, p: int, node: int, level: int) -> None:
        self.node_owner[node] = p
        self.node_level[node] = level
        insort(self.buildings_of[p], node)  # kept sorted: legal actions in id order
        if NODE_HARBOUR_SLOT[node] is not None:
            self._update_trade_rates(p)

    def _update_trade_rates(self, p: int) -> None:
        """Best maritime rate per card: harbours, then the Merchant Guild (trade level 3)."""
        rates = self.trade_rates[p]
        rates[:] = [4] * CARD_KINDS
        for node in self.buildings_of[p]:
            slot = NODE_HARBOUR_SLOT[node]
            if slot is None:
                continue
            harbour = self.board.harbours[slot]
            if harbour is Harbour.GENERIC:
                for c in _ALL_CARDS:
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

    def _pay(self, p: int, cost: Hand) -> None:
        hand = self.hands[p]
        bank = self.bank
        for c, n in enumerate(cost):
            if n:
                hand[c] -= n
                bank[c] += n

    def _give_from_bank(self, p: int, card: int, n: int) -> int:
        n = min(n, self.bank[card])
        self.bank[card] -= n
        self.hands[p][card] += n
        return n

    # ---- longest road (§11) -----------------------------------------------------------------

    def longest_road(self, p: int) -> int:
        """Length of the player's longest road; opponents' buildings and knights break it."""
        own = set(self.roads_of[p])
        if not own:
            return 0
        best = 0

        def walk(node: int, used: int, length: int) -> None:
            nonlocal best
            if length > best:
                best = length
            if length and self._blocks(p, node):
                return
            for e in NODE_EDGES[node]:
                if e in own and not used >> e & 1:
                    a, b = EDGE_NODES[e]
                    walk(b if a == node else a, used | 1 << e, length + 1)

        starts = {node for e in own for node in EDGE_NODES[e]}
        for node in starts:
            walk(node, 0, 0)
            if best == len(own):
                break
        return best

    def _update_longest_road(self, players: Iterable[int]) -> None:
        for p in players:
            self.road_length[p] = self.longest_road(p)
        lengths = self.road_length
        best = max(lengths)
        holder = self.longest_road_holder
        if holder != NOBODY and lengths[holder] >= LONGEST_ROAD_MIN and lengths[holder] == best:
            return
        if best >= LONGEST_ROAD_MIN and lengths.count(best) == 1:
            self.longest_road_holder = lengths.index(best)
        else:
            self.longest_road_holder = NOBODY

    def _road_owners_at(self, node: int) -> set[int]:
        return {self.edge_owner[e] for e in NODE_EDGES[node]} - {NOBODY}

    # ---- turn flow (§3) ---------------------------------------------------------------------

    def _finish_turn(self) -> None:
        flags = self.knight_flags
        for node in range(NODE_COUNT):
            flags[node] = 0
        ended = self.active
        self.turns_taken[ended] += 1
        self.turn += 1
        self.active = self.next_seat(ended)
        self.last_production = ()
        if self.fleet:
            self.fleet = []
            self._update_trade_rates(ended)
        self._start_turn_prompt()

    def _start_turn_prompt(self) -> None:
        self.rolled = False
        self.prompt = Prompt(PromptKind.ROLL, self.active)

    def _next_prompt(self) -> None:
        """Show the next queued decision, or go on with what the queue interrupted."""
        if self.pending:
            self.prompt = self.pending[0]
            return
        stage, self.stage = self.stage, Stage.NONE
        if stage is Stage.COMMIT:
            ck.resolve_attack(self)
            self._next_prompt()
        elif stage is Stage.ATTACK:
            assert self.last_roll is not None
            self._resolve_dice(self.last_roll)
        elif stage is Stage.END_TURN:
            self._finish_turn()
        elif stage is Stage.DISCARD and self.robber_unlocked:
            self.robber_by_knight = False
            self.prompt = Prompt(PromptKind.MOVE_ROBBER, self.active)
        else:
            kind = PromptKind.TURN if self.rolled else PromptKind.ROLL
            self.prompt = Prompt(kind, self.active)

    def _pending_done(self) -> None:
        self.pending.pop(0)
        self._next_prompt()

    def pending_step_done(self) -> None:
        """One step of a counted prompt (cards to discard, free roads...) is done."""
        progress._count_down(self)

    def draw_progress(self, p: int, track: Track, queue_at: int) -> ProgressCard | None:
        """``p`` draws the top card of ``track``'s deck (§9); see :func:`progress.draw`."""
        return progress.draw(self, p, track, queue_at)

    def view_for(self, player: int) -> dict[str, Any]:
        """The state as ``player`` may see it (JSON-compatible): their own cards in full,
        others' cards as counts, the decks' order hidden. See :func:`progress.view_for`."""
        return progress.view_for(self, player)

    def progress_hand(self, player: int) -> tuple[ProgressCard, ...]:
        """The player's progress cards in hand (VP cards are in ``revealed_vp``)."""
        return tuple(self.progress_hands[player])

    def in_easy_start(self) -> bool:
        """Variant: the active player's first two turns (7s re-rolled, no event die)."""
        return self.config.easy_start and self.turns_taken[self.active] < 2

    def _resolve_dice(self, roll: Roll) -> None:
        """Production, or a 7's discards and robber, after the event die (§3.4)."""
        if roll.total == 7:
            self._start_seven()
        else:
            gained = self._produce(roll.total)
            ck.queue_aqueduct(self, gained)
            self._next_prompt()

    def _check_win(self) -> None:
        """A player wins on reaching the VP target during their own turn (§11)."""
        if self.prompt.kind in _SETUP_KINDS or self.prompt.kind is PromptKind.GAME_OVER:
            return
        if self.victory_points(self.active) >= self.config.vp_target:
            self.winner = self.active
            self.prompt = Prompt(PromptKind.GAME_OVER, self.active)

    def _produce(self, number: int) -> list[list[int]]:
        """Production for a non-7 roll with commodities, robber and bank shortage (§4)."""
        n = self.player_count
        owed = [[0] * CARD_KINDS for _ in range(n)]
        terrains = self.board.terrains
        owner = self.node_owner
        level = self.node_level
        for h in self._token_hexes[number]:
            if h == self.robber_hex:
                continue
            resource = TERRAIN_RESOURCE[terrains[h]]
            assert resource is not None
            commodity = TERRAIN_COMMODITY.get(terrains[h])
            for node in HEX_NODES[h]:
                p = owner[node]
                if p == NOBODY:
                    continue
                if level[node] == CITY:
                    if commodity is None:
                        owed[p][resource] += 2
                    else:
                        owed[p][resource] += 1
                        owed[p][commodity] += 1
                else:
                    owed[p][resource] += 1
        gained = [[0] * CARD_KINDS for _ in range(n)]
        bank = self.bank
        for c in _ALL_CARDS:
            takers = [p for p in range(n) if owed[p][c]]
            if not takers:
                continue
            total = sum(owed[p][c] for p in takers)
            if total <= bank[c]:
                for p in takers:
                    gained[p][c] = self._give_from_bank(p, c, owed[p][c])
            elif len(takers) == 1:
                gained[takers[0]][c] = self._give_from_bank(takers[0], c, owed[takers[0]][c])
        self.last_production = tuple(tuple(g) for g in gained)
        return gained

    def _start_seven(self) -> None:
        """On a 7: discards over the limit, in seat order from the roller (§3.4)."""
        self.last_production = ()
        for p in self.seat_order():
            count = self.card_count(p)
            if count > self.discard_limit(p):
                self.pending.append(Prompt(PromptKind.DISCARD, p, count // 2))
        self.stage = Stage.DISCARD
        self._next_prompt()

    # ---- JSON -------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The whole state (not the history) as JSON-compatible data."""
        return codec.state_to_json(self)

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Game:
        """A game in the state :meth:`to_json` described, without history (undo starts here).

        :raises StateError: naming what is wrong.
        """
        game = cls._loaded(data)
        game._restored_from = game.to_json()
        return game

    @classmethod
    def _loaded(cls, data: Mapping[str, Any]) -> Game:
        game = cls(codec.config_of(data))
        codec.load_state(game, data)
        game._index_tokens()
        game._rebuild_indexes()
        return game


def replay_steps(
    game: Game, actions: Iterable[Action], *, checked: bool = True
) -> Iterator[tuple[int, Action]]:
    """Apply ``actions`` to ``game`` in order, yielding ``(index, action)`` after each.

    The one replay loop. ``checked=False`` skips the legality check for a history this core
    wrote itself (undo).

    :raises ReplayError: at the first action that cannot be applied where it stands; an
        unexpected failure inside the rules core is reported the same way, so a file or a
        journal row can never crash a caller.
    """
    for index, action in enumerate(actions):
        try:
            if checked:
                game.apply(action)
            else:
                game._apply_unchecked(action)
        except IllegalActionError as exc:
            raise ReplayError(index, action, str(exc)) from exc
        except Exception as exc:  # a rules bug, met through hostile input: still one error
            raise ReplayError(
                index, action, f"the rules core cannot apply it ({type(exc).__name__}: {exc})"
            ) from exc
        yield index, action


def replay_onto(game: Game, actions: Iterable[Action], *, checked: bool = True) -> Game:
    """``game`` with ``actions`` applied in order (see :func:`replay_steps`)."""
    for _ in replay_steps(game, actions, checked=checked):
        pass
    return game


# ---- per-action checks: the reason an action is illegal, or None --------------------------


def _check_build_road(game: Game, a: BuildRoad) -> str | None:
    p, e = a.player, a.edge
    if not 0 <= e < EDGE_COUNT:
        return f"edge {e} does not exist (edges are 0-{EDGE_COUNT - 1})"
    if game.edge_owner[e] != NOBODY:
        return f"edge {e} already has a road"
    if game.roads_left(p) == 0:
        return f"no roads left in the supply (each player has {ROADS_PER_PLAYER})"
    if game.prompt.kind is PromptKind.SETUP_ROAD:
        if game.setup_node not in EDGE_NODES[e]:
            return f"the starting road must touch the piece just placed on {game.setup_node}"
        return None
    free = game.prompt.kind is PromptKind.FREE_ROAD
    if not free and not _affords(game.hands[p], COSTS[Build.ROAD]):
        return "a road costs 1 brick + 1 lumber (§5)"
    if e not in game._road_spots(p):
        return f"edge {e} is not connected to your roads or buildings (or a piece blocks it)"
    return None


def _check_settlement_like(game: Game, node: int, what: str) -> str | None:
    if not 0 <= node < NODE_COUNT:
        return f"intersection {node} does not exist (intersections are 0-{NODE_COUNT - 1})"
    if game.node_owner[node] != NOBODY:
        return f"intersection {node} is already built on"
    if game.knight_owner[node] != NOBODY:
        return f"a knight stands on intersection {node}; no {what} there (§6)"
    if not game._free_building_spot(node):
        return f"distance rule: intersection {node} is next to another building"
    return None


def _check_build_settlement(game: Game, a: BuildSettlement) -> str | None:
    p, node = a.player, a.node
    reason = _check_settlement_like(game, node, "settlement")
    if reason:
        return reason
    if game.settlements_left(p) == 0:
        return f"no settlements left in the supply (each player has {SETTLEMENTS_PER_PLAYER})"
    if game.prompt.kind is PromptKind.SETUP_SETTLEMENT:
        return None
    if not _affords(game.hands[p], COSTS[Build.SETTLEMENT]):
        return "a settlement costs 1 brick + 1 lumber + 1 wool + 1 grain (§5)"
    if not game.has_road_at(p, node):
        return f"intersection {node} is not at the end of one of your roads"
    return None


def _check_build_city(game: Game, a: BuildCity) -> str | None:
    p, node = a.player, a.node
    if game.prompt.kind is PromptKind.SETUP_CITY:
        return _check_settlement_like(game, node, "city")
    reason = game.city_upgrade_reason(p, node)
    if reason:
        return reason
    if not _affords(game.hands[p], COSTS[Build.CITY]):
        return "a city costs 3 ore + 2 grain (§5)"
    return None


def _check_roll(game: Game, a: Roll) -> str | None:
    reason = progress.dice_reason(a.yellow, a.red)
    if reason:
        return reason
    fixed = game.alchemist
    if fixed is not None and (a.yellow, a.red) != fixed:
        return f"the Alchemist fixed the dice at yellow {fixed[0]}, red {fixed[1]} (§10)"
    return None


def _check_discard(game: Game, a: DiscardCard) -> str | None:
    if game.hands[a.player][a.card] == 0:
        return f"you hold no {a.card.label} to discard"
    return None


def _check_move_robber(game: Game, a: MoveRobber) -> str | None:
    if not 0 <= a.hex < HEX_COUNT:
        return f"hex {a.hex} does not exist (hexes are 0-{HEX_COUNT - 1})"
    if a.hex == game.robber_hex:
        return "the robber must move to another hex"
    if a.hex not in game._robber_targets():
        return "a knight chases the robber to a hex with a number token (§6)"
    return None


def _check_steal(game: Game, a: StealFrom) -> str | None:
    if a.victim not in game.victims:
        return f"player {a.victim} has no building next to the robber or no cards"
    return None


def _check_bank_trade(game: Game, a: BankTrade) -> str | None:
    if a.give == a.take:
        return "a trade gives one kind of card for another"
    rate = game.trade_rate(a.player, a.give)
    if game.hands[a.player][a.give] < rate:
        return f"trading {a.give.label} needs {rate} of them"
    if game.bank[a.take] == 0:
        return f"the bank has no {a.take.label} left"
    return None


def _check_offer(game: Game, a: OfferTrade) -> str | None:
    if not 0 <= a.to < game.player_count or a.to == a.player:
        return f"a trade offer goes to another player, not {a.to}"
    if len(a.give) != CARD_KINDS or len(a.take) != CARD_KINDS:
        return "an offer lists counts for all eight cards"
    if min(a.give) < 0 or min(a.take) < 0:
        return "card counts in an offer are >= 0"
    if not any(a.give) or not any(a.take):
        return "a trade gives at least one card and takes at least one"
    if any(g and t for g, t in zip(a.give, a.take, strict=True)):
        return "an offer cannot give and take the same kind of card"
    if not _affords(game.hands[a.player], a.give):
        return "you do not hold the cards you offer"
    return None


def _check_accept(game: Game, a: AcceptTrade) -> str | None:
    assert game.offer is not None
    if not _affords(game.hands[a.player], game.offer.take):
        return "you do not hold the cards asked for"
    return None


def _ok(game: Game, a: Action) -> str | None:
    return None


# ---- per-action effects ---------------------------------------------------------------------


def _do_build_road(game: Game, a: BuildRoad) -> None:
    p = a.player
    game.edge_owner[a.edge] = p
    insort(game.roads_of[p], a.edge)
    game._update_longest_road((p,))
    if game.prompt.kind is PromptKind.SETUP_ROAD:
        game._advance_setup()
    elif game.prompt.kind is PromptKind.FREE_ROAD:
        game.pending_step_done()
    else:
        game._pay(p, COSTS[Build.ROAD])


def _do_build_settlement(game: Game, a: BuildSettlement) -> None:
    p, node = a.player, a.node
    game._place_building(p, node, SETTLEMENT)
    if game.prompt.kind is PromptKind.SETUP_SETTLEMENT:
        game.setup_node = node
        game._advance_setup()
        return
    game._pay(p, COSTS[Build.SETTLEMENT])
    broken = game._road_owners_at(node) - {p}
    if broken:
        game._update_longest_road(broken)


def _do_build_city(game: Game, a: BuildCity) -> None:
    p, node = a.player, a.node
    if game.prompt.kind is PromptKind.SETUP_CITY:
        game._place_building(p, node, CITY)
        for h in NODE_HEXES[node]:
            resource = TERRAIN_RESOURCE[game.board.terrains[h]]
            if resource is not None:
                game._give_from_bank(p, resource, 1)
        game.setup_node = node
        game._advance_setup()
        return
    game.node_level[node] = CITY
    game._pay(p, COSTS[Build.CITY])


def _do_roll(game: Game, a: Roll) -> None:
    """Event die first (§3.3), then the production dice."""
    game.last_roll = a
    game.rolled = True
    game.alchemist = None
    if game.in_easy_start():
        if a.total == 7:
            game.rolled = False  # easy start: a 7 is rolled again
            return
    elif a.event is EventDie.SHIP:
        if ck.advance_barbarians(game):
            game._next_prompt()
            return
    else:
        progress.castle_draws(game, progress.EVENT_TRACK[a.event.value], a.red)
    game._resolve_dice(a)


def _do_discard(game: Game, a: DiscardCard) -> None:
    game.hands[a.player][a.card] -= 1
    game.bank[a.card] += 1
    game.pending_step_done()


def _do_move_robber(game: Game, a: MoveRobber) -> None:
    game.robber_hex = a.hex
    game.victims = tuple(progress.robbable(game, a.hex))
    game.robber_by_knight = False
    if game.victims:
        game.prompt = Prompt(PromptKind.CHOOSE_VICTIM, game.active)
    else:
        game._next_prompt()


def _do_steal(game: Game, a: StealFrom) -> None:
    progress.steal_random(game, a.victim, a.player)
    game.victims = ()
    game._next_prompt()


def _do_bank_trade(game: Game, a: BankTrade) -> None:
    p = a.player
    rate = game.trade_rates[p][a.give]
    game.hands[p][a.give] -= rate
    game.bank[a.give] += rate
    game.bank[a.take] -= 1
    game.hands[p][a.take] += 1


def _do_offer(game: Game, a: OfferTrade) -> None:
    game.offer = a
    game.prompt = Prompt(PromptKind.TRADE_RESPONSE, a.to)


def _do_accept(game: Game, a: AcceptTrade) -> None:
    offer = game.offer
    assert offer is not None
    giver, taker = game.hands[offer.player], game.hands[offer.to]
    for c in _ALL_CARDS:
        giver[c] += offer.take[c] - offer.give[c]
        taker[c] += offer.give[c] - offer.take[c]
    game.offer = None
    game.prompt = Prompt(PromptKind.TURN, game.active)


def _do_decline(game: Game, a: DeclineTrade) -> None:
    game.offer = None
    game.prompt = Prompt(PromptKind.TURN, game.active)


def _do_end_turn(game: Game, a: EndTurn) -> None:
    """A 5th progress card held on one's own turn is discarded now (§3.6, §9)."""
    over = progress.over_limit(game, a.player)
    if over > 0:
        game.pending.append(Prompt(PromptKind.PROGRESS_DISCARD, a.player, over))
        game.stage = Stage.END_TURN
        game._next_prompt()
        return
    game._finish_turn()


_CHECKS: dict[type[Action], Callable[[Game, Any], str | None]] = {
    BuildRoad: _check_build_road,
    BuildSettlement: _check_build_settlement,
    BuildCity: _check_build_city,
    Roll: _check_roll,
    DiscardCard: _check_discard,
    MoveRobber: _check_move_robber,
    StealFrom: _check_steal,
    BankTrade: _check_bank_trade,
    OfferTrade: _check_offer,
    AcceptTrade: _check_accept,
    DeclineTrade: _ok,
    EndTurn: _ok,
    BuildCityWall: ck.check_wall,
    BuildKnight: ck.check_build_knight,
    ActivateKnight: ck.check_activate,
    PromoteKnight: ck.check_promote,
    MoveKnight: ck.check_move,
    DisplaceKnight: ck.check_displace,
    RelocateKnight: ck.check_relocate,
    ChaseRobber: ck.check_chase,
    BuyImprovement: ck.check_improvement,
    PlaceMetropolis: ck.check_place_metropolis,
    LoseCity: ck.check_lose_city,
    ChooseProgressDeck: ck.check_deck_choice,
    CommitKnights: ck.check_commit,
    TakeResource: ck.check_take_resource,
    **{t: progress.check_play for t in progress.PLAY_TYPES},
    DiscardProgressCard: progress.check_discard_progress,
    TakeProgressCard: progress.check_take_progress,
    GiveCard: progress.check_give,
    TakeCard: progress.check_take_card,
    HarborExchange: progress.check_harbor,
    RemoveKnight: progress.check_remove_knight,
    PlaceDeserter: progress.check_place_deserter,
    StopEffect: progress.check_stop,
}
_EFFECTS: dict[type[Action], Callable[[Game, Any], None]] = {
    BuildRoad: _do_build_road,
    BuildSettlement: _do_build_settlement,
    BuildCity: _do_build_city,
    Roll: _do_roll,
    DiscardCard: _do_discard,
    MoveRobber: _do_move_robber,
    StealFrom: _do_steal,
    BankTrade: _do_bank_trade,
    OfferTrade: _do_offer,
    AcceptTrade: _do_accept,
    DeclineTrade: _do_decline,
    EndTurn: _do_end_turn,
    BuildCityWall: ck.do_wall,
    BuildKnight: ck.do_build_knight,
    ActivateKnight: ck.do_activate,
    PromoteKnight: ck.do_promote,
    MoveKnight: ck.do_move,
    DisplaceKnight: ck.do_displace,
    RelocateKnight: ck.do_relocate,
    ChaseRobber: ck.do_chase,
    BuyImprovement: ck.do_improvement,
    PlaceMetropolis: ck.do_place_metropolis,
    LoseCity: ck.do_lose_city,
    ChooseProgressDeck: ck.do_deck_choice,
    CommitKnights: ck.do_commit,
    TakeResource: ck.do_take_resource,
    **{t: progress.do_play for t in progress.PLAY_TYPES},
    DiscardProgressCard: progress.do_discard_progress,
    TakeProgressCard: progress.do_take_progress,
    GiveCard: progress.do_give,
    TakeCard: progress.do_take_card,
    HarborExchange: progress.do_harbor,
    RemoveKnight: progress.do_remove_knight,
    PlaceDeserter: progress.do_place_deserter,
    StopEffect: progress.do_stop,
}

__all__ = [
    "EVENT_DIE_FACES",
    "NOBODY",
    "Game",
    "NothingToUndoError",
    "ReplayError",
    "replay_onto",
    "replay_steps",
]
