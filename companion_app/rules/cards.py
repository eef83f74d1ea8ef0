"""Cards, terrains and costs: the game's vocabulary as small enums and fixed tables, and their
names at the table (messages, :mod:`messages`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum, IntEnum

from companion_app.rules.messages import Msg, msg, nmsg, pmsg
from companion_app.rules.rng import SplitMix64


class Card(IntEnum):
    """Resource and commodity cards. The first five are resources, the last three commodities.

    Hands and the bank are tuples/lists of eight counts indexed by these values.
    """

    BRICK = 0
    LUMBER = 1
    WOOL = 2
    GRAIN = 3
    ORE = 4
    CLOTH = 5
    COIN = 6
    PAPER = 7

    @property
    def is_resource(self) -> bool:
        return self < Card.CLOTH

    @property
    def label(self) -> str:
        """The card's name in JSON and code ("brick"); a reader gets :attr:`words`."""
        return self.name.lower()

    @property
    def words(self) -> Msg:
        """The card's name at the table."""
        return CARD_WORDS[self]

    def counted(self, n: int) -> Msg:
        """``n`` of this card: "2 brick" (each language's plural forms)."""
        return _COUNTED[self](n)

    @classmethod
    def parse(cls, name: str) -> Card:
        """:raises KeyError: for a name that is no card."""
        return cls[name.upper()]

    def amount(self, n: int) -> tuple[int, ...]:
        """A hand of ``n`` of this card and nothing else."""
        return tuple(n if c == self else 0 for c in range(CARD_KINDS))


CARD_KINDS = 8
CARD_WORDS: dict[Card, Msg] = {
    Card.BRICK: pmsg("card", "brick"),
    Card.LUMBER: pmsg("card", "lumber"),
    Card.WOOL: pmsg("card", "wool"),
    Card.GRAIN: pmsg("card", "grain"),
    Card.ORE: pmsg("card", "ore"),
    Card.CLOTH: pmsg("card", "cloth"),
    Card.COIN: pmsg("card", "coin"),
    Card.PAPER: pmsg("card", "paper"),
}
_COUNTED: dict[Card, Callable[[int], Msg]] = {
    Card.BRICK: lambda n: nmsg("{count} brick", "{count} brick", n),
    Card.LUMBER: lambda n: nmsg("{count} lumber", "{count} lumber", n),
    Card.WOOL: lambda n: nmsg("{count} wool", "{count} wool", n),
    Card.GRAIN: lambda n: nmsg("{count} grain", "{count} grain", n),
    Card.ORE: lambda n: nmsg("{count} ore", "{count} ore", n),
    Card.CLOTH: lambda n: nmsg("{count} cloth", "{count} cloth", n),
    Card.COIN: lambda n: nmsg("{count} coin", "{count} coin", n),
    Card.PAPER: lambda n: nmsg("{count} paper", "{count} paper", n),
}
RESOURCES: tuple[Card, ...] = tuple(c for c in Card if c.is_resource)
COMMODITIES: tuple[Card, ...] = (Card.CLOTH, Card.COIN, Card.PAPER)
BANK_START: tuple[int, ...] = (19, 19, 19, 19, 19, 12, 12, 12)
"""The bank at the start (§1): 19 of each resource, 12 of each commodity."""
BANK_START_LARGE: tuple[int, ...] = (24, 24, 24, 24, 24, 18, 18, 18)
"""The bank at the start with 5 or 6 players (§12): 24 of each resource, 18 of each
commodity."""
LARGE_GAME_PLAYERS = 5
"""From this many players on, a game is played with the 5-6 player extension (§12)."""


def bank_start(players: int) -> tuple[int, ...]:
    """The bank at the start for a game of ``players`` (§1, §12)."""
    return BANK_START_LARGE if players >= LARGE_GAME_PLAYERS else BANK_START


def defender_cards_in_box(players: int) -> int:
    """The Defender of Catan cards in the box: 6, or 8 with 5-6 players (§1, §12). Still
    awarded after they run out (§1), so a count to show, never a cap."""
    return 8 if players >= LARGE_GAME_PLAYERS else 6


Hand = tuple[int, ...]
"""Eight counts indexed by Card."""
EMPTY_HAND: Hand = (0,) * CARD_KINDS


def hand_of(**counts: int) -> Hand:
    """A hand from card names: ``hand_of(brick=1, lumber=1)``."""
    result = [0] * CARD_KINDS
    for name, n in counts.items():
        result[Card.parse(name)] = n
    return tuple(result)


class Terrain(Enum):
    __hash__ = object.__hash__  # identity, as equality is: C speed for the hot dict lookups

    HILLS = "hills"
    FOREST = "forest"
    PASTURE = "pasture"
    FIELDS = "fields"
    MOUNTAINS = "mountains"
    DESERT = "desert"
    GOLD = "gold"
    """A gold field (§13.5): a land hex with a number that pays resources of the owner's
    choice."""
    SEA = "sea"
    """A sea hex inside a sea board's frame (§13.2): never a token, never produces."""


ISLAND_TERRAINS: tuple[Terrain, ...] = (
    Terrain.HILLS,
    Terrain.FOREST,
    Terrain.PASTURE,
    Terrain.FIELDS,
    Terrain.MOUNTAINS,
    Terrain.DESERT,
)
"""The terrains of the base game's and the extension's islands (§1, §12): no gold, no sea."""

TERRAIN_WORDS: dict[Terrain, Msg] = {
    Terrain.HILLS: pmsg("terrain", "hills"),
    Terrain.FOREST: pmsg("terrain", "forest"),
    Terrain.PASTURE: pmsg("terrain", "pasture"),
    Terrain.FIELDS: pmsg("terrain", "fields"),
    Terrain.MOUNTAINS: pmsg("terrain", "mountains"),
    Terrain.DESERT: pmsg("terrain", "desert"),
    Terrain.GOLD: pmsg("terrain", "gold field"),
    Terrain.SEA: pmsg("terrain", "sea"),
}
"""A terrain's name at the table."""

TERRAIN_RESOURCE: dict[Terrain, Card | None] = {
    Terrain.HILLS: Card.BRICK,
    Terrain.FOREST: Card.LUMBER,
    Terrain.PASTURE: Card.WOOL,
    Terrain.FIELDS: Card.GRAIN,
    Terrain.MOUNTAINS: Card.ORE,
    Terrain.DESERT: None,
    Terrain.GOLD: None,
    Terrain.SEA: None,
}
"""What a settlement on the terrain produces (a gold field's choice is no fixed card, §13.5)."""

TERRAIN_COMMODITY: dict[Terrain, Card | None] = {
    Terrain.FOREST: Card.PAPER,
    Terrain.PASTURE: Card.CLOTH,
    Terrain.MOUNTAINS: Card.COIN,
}
"""The commodity a city takes instead of its second resource (§4); hills and fields give 2."""

TERRAIN_COUNTS: dict[Terrain, int] = {
    Terrain.HILLS: 3,
    Terrain.FOREST: 4,
    Terrain.PASTURE: 4,
    Terrain.FIELDS: 4,
    Terrain.MOUNTAINS: 3,
    Terrain.DESERT: 1,
}
NUMBER_TOKENS: tuple[int, ...] = (2, 3, 3, 4, 4, 5, 5, 6, 6, 8, 8, 9, 9, 10, 10, 11, 11, 12)
TERRAIN_COUNTS_LARGE: dict[Terrain, int] = {
    Terrain.HILLS: 5,
    Terrain.FOREST: 6,
    Terrain.PASTURE: 6,
    Terrain.FIELDS: 6,
    Terrain.MOUNTAINS: 5,
    Terrain.DESERT: 2,
}
"""The 30-hex island's terrains (§12)."""
NUMBER_TOKENS_LARGE: tuple[int, ...] = (
    2,
    2,
    *(n for n in (3, 4, 5, 6, 8, 9, 10, 11) for _ in range(3)),
    12,
    12,
)
"""The 28 number tokens of the 30-hex island (§12)."""


class Harbour(Enum):
    """A harbour's trade: 3:1 for anything, or 2:1 for one resource."""

    GENERIC = "3:1"
    BRICK = "brick"
    LUMBER = "lumber"
    WOOL = "wool"
    GRAIN = "grain"
    ORE = "ore"

    @property
    def resource(self) -> Card | None:
        return None if self is Harbour.GENERIC else Card.parse(self.value)

    @property
    def words(self) -> Msg:
        """The harbour's name at the table: "3:1 harbour", "2:1 ore harbour"."""
        card = self.resource
        if card is None:
            return msg("3:1 harbour")
        return msg("2:1 {resource} harbour", resource=card.words)


HARBOUR_COUNTS: dict[Harbour, int] = {h: (4 if h is Harbour.GENERIC else 1) for h in Harbour}
HARBOUR_COUNTS_LARGE: dict[Harbour, int] = HARBOUR_COUNTS | {Harbour.GENERIC: 5, Harbour.WOOL: 2}
"""The 30-hex island's 11 harbours (§12): 5 generic 3:1, two wool 2:1, one of each other."""


class Build(Enum):
    """Things bought with cards (§5)."""

    __hash__ = object.__hash__  # identity, as equality is: C speed for the hot dict lookups

    ROAD = "road"
    SETTLEMENT = "settlement"
    CITY = "city"
    CITY_WALL = "city_wall"
    KNIGHT = "knight"
    ACTIVATE_KNIGHT = "activate_knight"
    PROMOTE_KNIGHT = "promote_knight"
    SHIP = "ship"
    """Seafarers (§13.3)."""


COSTS: dict[Build, Hand] = {
    Build.ROAD: hand_of(brick=1, lumber=1),
    Build.SETTLEMENT: hand_of(brick=1, lumber=1, wool=1, grain=1),
    Build.CITY: hand_of(ore=3, grain=2),
    Build.CITY_WALL: hand_of(brick=2),
    Build.KNIGHT: hand_of(wool=1, ore=1),
    Build.ACTIVATE_KNIGHT: hand_of(grain=1),
    Build.PROMOTE_KNIGHT: hand_of(wool=1, ore=1),
    Build.SHIP: hand_of(lumber=1, wool=1),
}


class Track(Enum):
    """The three city-improvement tracks (§9), named by their progress-card colour's theme."""

    __hash__ = object.__hash__  # identity, as equality is: C speed for the hot dict lookups

    TRADE = "trade"  # yellow, cloth
    POLITICS = "politics"  # blue, coin
    SCIENCE = "science"  # green, paper

    @property
    def commodity(self) -> Card:
        return TRACK_COMMODITY[self]

    @property
    def index(self) -> int:
        return _TRACK_INDEX[self]

    @property
    def words(self) -> Msg:
        """The track's name at the table."""
        return TRACK_WORDS[self]


TRACKS: tuple[Track, ...] = (Track.TRADE, Track.POLITICS, Track.SCIENCE)
_TRACK_INDEX = {t: i for i, t in enumerate(TRACKS)}
TRACK_COMMODITY: dict[Track, Card] = {
    Track.TRADE: Card.CLOTH,
    Track.POLITICS: Card.COIN,
    Track.SCIENCE: Card.PAPER,
}
TRACK_WORDS: dict[Track, Msg] = {
    Track.TRADE: pmsg("track", "trade"),
    Track.POLITICS: pmsg("track", "politics"),
    Track.SCIENCE: pmsg("track", "science"),
}
"""A track's name at the table."""
IMPROVEMENT_NAMES: dict[Track, tuple[Msg, ...]] = {
    Track.TRADE: (
        pmsg("improvement", "Market"),
        pmsg("improvement", "Trading House"),
        pmsg("improvement", "Merchant Guild"),
        pmsg("improvement", "Bank"),
        pmsg("improvement", "Great Exchange"),
    ),
    Track.POLITICS: (
        pmsg("improvement", "Town Hall"),
        pmsg("improvement", "Church"),
        pmsg("improvement", "Fortress"),
        pmsg("improvement", "Cathedral"),
        pmsg("improvement", "High Assembly"),
    ),
    Track.SCIENCE: (
        pmsg("improvement", "Abbey"),
        pmsg("improvement", "Library"),
        pmsg("improvement", "Aqueduct"),
        pmsg("improvement", "Theater"),
        pmsg("improvement", "University"),
    ),
}
"""Each track's city improvements, level 1 to 5, by name at the table."""
MAX_IMPROVEMENT_LEVEL = 5
METROPOLIS_LEVEL = 4
ABILITY_LEVEL = 3
"""Level 3 gives the track's ability: Merchant Guild, Fortress, Aqueduct (§9)."""


def improvement_cost(track: Track, level: int) -> Hand:
    """Level ``level`` of a track costs ``level`` of its commodity (§5)."""
    counts = [0] * CARD_KINDS
    counts[track.commodity] = level
    return tuple(counts)


class ProgressCard(Enum):
    """The 25 kinds of progress card (§10), in the almanac's order (a hand is sorted by it).

    Each is declared with its deck, count and play in ``rules/progress/<deck>.py``.
    """

    __hash__ = object.__hash__  # identity, as equality is: C speed for the hot dict lookups

    ALCHEMIST = "alchemist"
    CRANE = "crane"
    ENGINEER = "engineer"
    INVENTOR = "inventor"
    IRRIGATION = "irrigation"
    MEDICINE = "medicine"
    MINING = "mining"
    PRINTER = "printer"
    ROAD_BUILDING = "road_building"
    SMITH = "smith"
    BISHOP = "bishop"
    CONSTITUTION = "constitution"
    DESERTER = "deserter"
    DIPLOMAT = "diplomat"
    INTRIGUE = "intrigue"
    SABOTEUR = "saboteur"
    SPY = "spy"
    WARLORD = "warlord"
    WEDDING = "wedding"
    COMMERCIAL_HARBOR = "commercial_harbor"
    MASTER_MERCHANT = "master_merchant"
    MERCHANT = "merchant"
    MERCHANT_FLEET = "merchant_fleet"
    RESOURCE_MONOPOLY = "resource_monopoly"
    TRADE_MONOPOLY = "trade_monopoly"

    @property
    def track(self) -> Track:
        """The deck (and castle colour) the card belongs to."""
        return PROGRESS_DECKS[self].track

    @property
    def count(self) -> int:
        """How many of this card its deck holds (§10)."""
        return PROGRESS_DECKS[self].count

    @property
    def is_vp(self) -> bool:
        """Printer and Constitution: 1 VP, revealed at once, never in the hand (§9)."""
        return PROGRESS_DECKS[self].is_vp

    @property
    def order(self) -> int:
        """Position in the almanac order; hands are kept sorted by it."""
        return _PROGRESS_ORDER[self]

    @property
    def title(self) -> Msg:
        """The card's name at the table."""
        return PROGRESS_WORDS[self]


PROGRESS_WORDS: dict[ProgressCard, Msg] = {
    ProgressCard.ALCHEMIST: pmsg("progress card", "Alchemist"),
    ProgressCard.CRANE: pmsg("progress card", "Crane"),
    ProgressCard.ENGINEER: pmsg("progress card", "Engineer"),
    ProgressCard.INVENTOR: pmsg("progress card", "Inventor"),
    ProgressCard.IRRIGATION: pmsg("progress card", "Irrigation"),
    ProgressCard.MEDICINE: pmsg("progress card", "Medicine"),
    ProgressCard.MINING: pmsg("progress card", "Mining"),
    ProgressCard.PRINTER: pmsg("progress card", "Printer"),
    ProgressCard.ROAD_BUILDING: pmsg("progress card", "Road Building"),
    ProgressCard.SMITH: pmsg("progress card", "Smith"),
    ProgressCard.BISHOP: pmsg("progress card", "Bishop"),
    ProgressCard.CONSTITUTION: pmsg("progress card", "Constitution"),
    ProgressCard.DESERTER: pmsg("progress card", "Deserter"),
    ProgressCard.DIPLOMAT: pmsg("progress card", "Diplomat"),
    ProgressCard.INTRIGUE: pmsg("progress card", "Intrigue"),
    ProgressCard.SABOTEUR: pmsg("progress card", "Saboteur"),
    ProgressCard.SPY: pmsg("progress card", "Spy"),
    ProgressCard.WARLORD: pmsg("progress card", "Warlord"),
    ProgressCard.WEDDING: pmsg("progress card", "Wedding"),
    ProgressCard.COMMERCIAL_HARBOR: pmsg("progress card", "Commercial Harbor"),
    ProgressCard.MASTER_MERCHANT: pmsg("progress card", "Master Merchant"),
    ProgressCard.MERCHANT: pmsg("progress card", "Merchant"),
    ProgressCard.MERCHANT_FLEET: pmsg("progress card", "Merchant Fleet"),
    ProgressCard.RESOURCE_MONOPOLY: pmsg("progress card", "Resource Monopoly"),
    ProgressCard.TRADE_MONOPOLY: pmsg("progress card", "Trade Monopoly"),
}
"""Each progress card's name at the table."""


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """A card's place in the decks, as its declaration in ``rules/progress/`` gives it."""

    track: Track
    count: int
    is_vp: bool


PROGRESS_DECKS: dict[ProgressCard, DeckEntry] = {}
"""Each card's deck, count and whether it is a VP card, in the declarations' order: filled by
``rules/progress/`` from each card's declaration in its deck's module as the rules core loads
(this layer cannot import it)."""
_PROGRESS_ORDER = {c: i for i, c in enumerate(ProgressCard)}
PROGRESS_DECK_SIZE = 18
PROGRESS_CARD_TOTAL = 54
PROGRESS_HAND_LIMIT = 4
"""Progress cards a player may hold, VP cards not counted (§9)."""


def deck_composition(track: Track) -> tuple[ProgressCard, ...]:
    """The unshuffled deck of one colour: every card of the track, ``count`` times each."""
    return tuple(
        card
        for card, entry in PROGRESS_DECKS.items()
        if entry.track is track
        for _ in range(entry.count)
    )


def new_decks(rng: SplitMix64) -> list[list[ProgressCard]]:
    """The three decks, each shuffled from the game's generator; the top card is index 0."""
    decks: list[list[ProgressCard]] = []
    for track in TRACKS:
        deck = list(deck_composition(track))
        rng.shuffle(deck)
        decks.append(deck)
    return decks
