"""Actions as data: small immutable values, one class per kind, with a JSON form.

Every change to a game is one of these, applied by :meth:`Game.apply`. Random outcomes that come
from outside (the dice) are fields of the action; internal randomness (which card a steal takes)
comes from the game's seeded generator, so a list of actions replays exactly.

JSON shape: ``{"type": "<snake_case kind>", "player": <seat>, ...fields}``; cards and hands use
card names (``"brick"``), hands are ``{"brick": 1, "ore": 2}``. See ``docs/actions.md``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, ClassVar, TypeVar

from companion_app.rules.cards import CARD_KINDS, Card, Hand, ProgressCard, Track
from companion_app.rules.errors import MalformedActionError
from companion_app.rules.jsonshape import MAX_INT, show


class EventDie(Enum):
    """The event die's faces: three show the barbarian ship, one each a coloured castle gate."""

    __hash__ = object.__hash__  # identity, as equality is: C speed for the hot dict lookups

    SHIP = "ship"
    TRADE = "trade"  # yellow castle
    POLITICS = "politics"  # blue castle
    SCIENCE = "science"  # green castle


EVENT_DIE_FACES: tuple[EventDie, ...] = (
    EventDie.SHIP,
    EventDie.SHIP,
    EventDie.SHIP,
    EventDie.TRADE,
    EventDie.POLITICS,
    EventDie.SCIENCE,
)


@dataclass(frozen=True, slots=True)
class Action:
    """Base of all actions: the seat of the player who takes it."""

    player: int
    type_name: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"type": self.type_name}
        for field in dataclasses.fields(self):
            data[field.name] = _encode(str(field.type), getattr(self, field.name))
        return data


@dataclass(frozen=True, slots=True)
class BuildRoad(Action):
    """Build a road on an edge (free in setup, else 1 brick + 1 lumber)."""

    edge: int
    type_name: ClassVar[str] = "build_road"


@dataclass(frozen=True, slots=True)
class BuildSettlement(Action):
    """Build a settlement on an intersection (free in setup round 1)."""

    node: int
    type_name: ClassVar[str] = "build_settlement"


@dataclass(frozen=True, slots=True)
class BuildCity(Action):
    """Upgrade an own settlement to a city, or (setup round 2) place the starting city."""

    node: int
    type_name: ClassVar[str] = "build_city"


@dataclass(frozen=True, slots=True)
class BuildShip(Action):
    """Build a ship on a coast or sea edge (§13.3: free in setup and by Road Building, else 1
    lumber + 1 wool)."""

    edge: int
    type_name: ClassVar[str] = "build_ship"


@dataclass(frozen=True, slots=True)
class MoveShip(Action):
    """Move an open ship from ``edge`` to the edge ``to`` (§13.3 item 6, once per turn)."""

    edge: int
    to: int
    type_name: ClassVar[str] = "move_ship"


@dataclass(frozen=True, slots=True)
class Roll(Action):
    """The three dice as rolled by the dice box (or the virtual dice)."""

    yellow: int
    red: int
    event: EventDie
    type_name: ClassVar[str] = "roll"

    @property
    def total(self) -> int:
        return self.yellow + self.red


@dataclass(frozen=True, slots=True)
class DiscardCard(Action):
    """Discard one card to the bank (on a 7, one action per card)."""

    card: Card
    type_name: ClassVar[str] = "discard"


@dataclass(frozen=True, slots=True)
class MoveRobber(Action):
    hex: int
    type_name: ClassVar[str] = "move_robber"


@dataclass(frozen=True, slots=True)
class StealFrom(Action):
    """Steal one random resource/commodity card from a player next to the robber."""

    victim: int
    type_name: ClassVar[str] = "steal"


@dataclass(frozen=True, slots=True)
class BankTrade(Action):
    """Maritime trade: give ``rate`` cards of one kind for one card of another, at the best
    rate the player has for the given kind (4:1 bank, 3:1 or 2:1 harbour, ...)."""

    give: Card
    take: Card
    type_name: ClassVar[str] = "bank_trade"


@dataclass(frozen=True, slots=True)
class OfferTrade(Action):
    """Domestic trade offer from the player on turn to one other player."""

    to: int
    give: Hand
    take: Hand
    type_name: ClassVar[str] = "offer_trade"


@dataclass(frozen=True, slots=True)
class AcceptTrade(Action):
    type_name: ClassVar[str] = "accept_trade"


@dataclass(frozen=True, slots=True)
class DeclineTrade(Action):
    type_name: ClassVar[str] = "decline_trade"


@dataclass(frozen=True, slots=True)
class EndTurn(Action):
    type_name: ClassVar[str] = "end_turn"


@dataclass(frozen=True, slots=True)
class StartSpecialBuild(Action):
    """5-6 players (§12): ``builder`` starts their special build. The table answers (``player``
    is the seat whose turn comes next); seats before ``builder`` in the phase's order pass."""

    builder: int
    type_name: ClassVar[str] = "start_special_build"


@dataclass(frozen=True, slots=True)
class NobodyBuilds(Action):
    """5-6 players (§12): nobody (else) special-builds; the next player rolls. ``player`` is
    that next player."""

    type_name: ClassVar[str] = "nobody_builds"


@dataclass(frozen=True, slots=True)
class EndSpecialBuild(Action):
    """5-6 players (§12): the builder is done with their special build."""

    type_name: ClassVar[str] = "end_special_build"


@dataclass(frozen=True, slots=True)
class BuildCityWall(Action):
    """A city wall under an own city (2 brick; one per city, three per player)."""

    node: int
    type_name: ClassVar[str] = "build_city_wall"


@dataclass(frozen=True, slots=True)
class BuildKnight(Action):
    """A new basic knight, inactive, on a free intersection at an own road (1 wool + 1 ore)."""

    node: int
    type_name: ClassVar[str] = "build_knight"


@dataclass(frozen=True, slots=True)
class ActivateKnight(Action):
    node: int
    type_name: ClassVar[str] = "activate_knight"


@dataclass(frozen=True, slots=True)
class PromoteKnight(Action):
    node: int
    type_name: ClassVar[str] = "promote_knight"


@dataclass(frozen=True, slots=True)
class MoveKnight(Action):
    """An active knight moves along its owner's roads to a free intersection."""

    node: int
    to: int
    type_name: ClassVar[str] = "move_knight"


@dataclass(frozen=True, slots=True)
class DisplaceKnight(Action):
    """An active knight moves onto a weaker opponent knight's intersection along own roads."""

    node: int
    to: int
    type_name: ClassVar[str] = "displace_knight"


@dataclass(frozen=True, slots=True)
class RelocateKnight(Action):
    """The owner of a displaced knight puts it on a free intersection along their roads."""

    to: int
    type_name: ClassVar[str] = "relocate_knight"


@dataclass(frozen=True, slots=True)
class ChaseRobber(Action):
    """An active knight next to the robber chases it away (then move the robber, steal)."""

    node: int
    type_name: ClassVar[str] = "chase_robber"


@dataclass(frozen=True, slots=True)
class MovePirate(Action):
    """Move the pirate to another sea hex or frame cell (a cell id, §13.4), then steal."""

    cell: int
    type_name: ClassVar[str] = "move_pirate"


@dataclass(frozen=True, slots=True)
class ChasePirate(Action):
    """An active knight on a corner of the pirate's cell chases it away (§13.7 item 8)."""

    node: int
    type_name: ClassVar[str] = "chase_pirate"


@dataclass(frozen=True, slots=True)
class TakeGold(Action):
    """A gold field's choice: one resource of the player's choice from the bank (§13.5)."""

    card: Card
    type_name: ClassVar[str] = "take_gold"


@dataclass(frozen=True, slots=True)
class BuyImprovement(Action):
    """The next level of a city-improvement track, paid in its commodity."""

    track: Track
    type_name: ClassVar[str] = "buy_improvement"


@dataclass(frozen=True, slots=True)
class PlaceMetropolis(Action):
    """Put a track's metropolis on one of the player's cities."""

    node: int
    type_name: ClassVar[str] = "place_metropolis"


@dataclass(frozen=True, slots=True)
class LoseCity(Action):
    """After a lost barbarian attack: the city the player chooses to lose."""

    node: int
    type_name: ClassVar[str] = "lose_city"


@dataclass(frozen=True, slots=True)
class ChooseProgressDeck(Action):
    """A tied strongest defender picks the progress deck to draw from."""

    track: Track
    type_name: ClassVar[str] = "choose_progress_deck"


@dataclass(frozen=True, slots=True)
class CommitKnights(Action):
    """Evil barbarians variant: the active knights this player sends against the attack."""

    nodes: tuple[int, ...]
    type_name: ClassVar[str] = "commit_knights"


@dataclass(frozen=True, slots=True)
class TakeResource(Action):
    """Aqueduct: a player who got nothing from a production roll takes one resource."""

    card: Card
    type_name: ClassVar[str] = "take_resource"


# ---- progress cards (§9, §10) ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayProgress(Action):
    """Play a progress card that needs no choice when played: Irrigation, Mining, Road
    Building, Smith, Saboteur, Warlord, Wedding, Commercial Harbor. Follow-up choices come as
    prompts."""

    card: ProgressCard
    type_name: ClassVar[str] = "play_progress"


@dataclass(frozen=True, slots=True)
class PlayAlchemist(Action):
    """Before the roll: fix the production dice; the dice box then rolls only the event die."""

    yellow: int
    red: int
    type_name: ClassVar[str] = "play_alchemist"


@dataclass(frozen=True, slots=True)
class PlayCrane(Action):
    """Buy the next level of ``track`` for one commodity less."""

    track: Track
    type_name: ClassVar[str] = "play_crane"


@dataclass(frozen=True, slots=True)
class PlayEngineer(Action):
    """A free city wall under the city on ``node``."""

    node: int
    type_name: ClassVar[str] = "play_engineer"


@dataclass(frozen=True, slots=True)
class PlayInventor(Action):
    """Swap the number tokens of two hexes (``hex`` < ``other``), none of them 2, 12, 6, 8."""

    hex: int
    other: int
    type_name: ClassVar[str] = "play_inventor"


@dataclass(frozen=True, slots=True)
class PlayMedicine(Action):
    """Upgrade the settlement on ``node`` to a city for 2 ore + 1 grain."""

    node: int
    type_name: ClassVar[str] = "play_medicine"


@dataclass(frozen=True, slots=True)
class PlayBishop(Action):
    """Move the robber to ``hex`` and steal from everyone with a building there."""

    hex: int
    type_name: ClassVar[str] = "play_bishop"


@dataclass(frozen=True, slots=True)
class PlayDeserter(Action):
    """``victim`` removes one of their knights (their choice); you may place one."""

    victim: int
    type_name: ClassVar[str] = "play_deserter"


@dataclass(frozen=True, slots=True)
class PlayDiplomat(Action):
    """Remove the open road on ``edge``."""

    edge: int
    type_name: ClassVar[str] = "play_diplomat"


@dataclass(frozen=True, slots=True)
class PlayIntrigue(Action):
    """Displace the opponent's knight on ``node`` (touched by one of your roads)."""

    node: int
    type_name: ClassVar[str] = "play_intrigue"


@dataclass(frozen=True, slots=True)
class PlaySpy(Action):
    """Look at ``victim``'s progress cards and take one (not a VP card)."""

    victim: int
    type_name: ClassVar[str] = "play_spy"


@dataclass(frozen=True, slots=True)
class PlayMasterMerchant(Action):
    """Look at the cards of ``victim`` (more VP than you) and take 2."""

    victim: int
    type_name: ClassVar[str] = "play_master_merchant"


@dataclass(frozen=True, slots=True)
class PlayMerchant(Action):
    """Put the merchant on ``hex``, next to one of your settlements or cities."""

    hex: int
    type_name: ClassVar[str] = "play_merchant"


@dataclass(frozen=True, slots=True)
class PlayMerchantFleet(Action):
    """For the rest of this turn trade ``card`` 2:1 with the bank."""

    card: Card
    type_name: ClassVar[str] = "play_merchant_fleet"


@dataclass(frozen=True, slots=True)
class PlayResourceMonopoly(Action):
    """Every other player gives you 2 of the resource ``card`` (1 if they have 1)."""

    card: Card
    type_name: ClassVar[str] = "play_resource_monopoly"


@dataclass(frozen=True, slots=True)
class PlayTradeMonopoly(Action):
    """Every other player gives you 1 of the commodity ``card``."""

    card: Card
    type_name: ClassVar[str] = "play_trade_monopoly"


@dataclass(frozen=True, slots=True)
class DiscardProgressCard(Action):
    """Hand limit: put one progress card under its deck."""

    card: ProgressCard
    type_name: ClassVar[str] = "discard_progress"


@dataclass(frozen=True, slots=True)
class TakeProgressCard(Action):
    """Spy: the card taken from the victim's hand."""

    card: ProgressCard
    type_name: ClassVar[str] = "take_progress"


@dataclass(frozen=True, slots=True)
class GiveCard(Action):
    """Wedding: a card the giver chooses for the player on turn; Commercial Harbor: the
    commodity the opponent gives back."""

    card: Card
    type_name: ClassVar[str] = "give_card"


@dataclass(frozen=True, slots=True)
class TakeCard(Action):
    """Master Merchant: one card taken from the victim's hand."""

    card: Card
    type_name: ClassVar[str] = "take_card"


@dataclass(frozen=True, slots=True)
class HarborExchange(Action):
    """Commercial Harbor: give the resource ``card`` to ``to``, who answers with a commodity."""

    to: int
    card: Card
    type_name: ClassVar[str] = "harbor_exchange"


@dataclass(frozen=True, slots=True)
class RemoveKnight(Action):
    """Deserter: the victim's choice of the knight that leaves the board."""

    node: int
    type_name: ClassVar[str] = "remove_knight"


@dataclass(frozen=True, slots=True)
class PlaceDeserter(Action):
    """Deserter: where the player places their knight (free, normal placement rules)."""

    node: int
    type_name: ClassVar[str] = "place_deserter"


@dataclass(frozen=True, slots=True)
class StopEffect(Action):
    """Stop a card's follow-up early: fewer free roads or promotions, no more Commercial Harbor
    exchanges, no deserter placed, the Diplomat's road not re-placed."""

    type_name: ClassVar[str] = "stop_effect"


ACTION_TYPES: dict[str, type[Action]] = {}
"""Every action type by its JSON name: filled by :mod:`registry` from the declared rules as the
rules core loads (this layer cannot import it), so a type parses only once it has a rule."""


def _encode(kind: str, value: object) -> object:
    if isinstance(value, Card):
        return value.label
    if isinstance(value, Enum):
        return value.value
    if kind == "Hand" and isinstance(value, tuple):
        return {Card(i).label: n for i, n in enumerate(value) if n}
    if isinstance(value, tuple):
        return list(value)
    return value


MAX_ACTION_LIST = 64
"""The longest list an action carries (the knights committed to an attack)."""


_E = TypeVar("_E", bound=Enum)


def _member(cls: type[_E], value: object) -> _E:
    """The member of ``cls`` with this value; ValueError (without a repr of the value)."""
    for member in cls:
        if isinstance(value, str) and member.value == value:
            return member
    raise ValueError("no such member")


def _decode(kind: str, name: str, value: object) -> object:  # noqa: PLR0912 - one branch per field type, each with its own message
    if kind == "int":
        if not isinstance(value, int) or isinstance(value, bool) or abs(value) > MAX_INT:
            raise MalformedActionError(f"{name} must be an integer, got {show(value)}")
        return value
    if kind == "Card":
        if not isinstance(value, str) or value.upper() not in Card.__members__:
            raise MalformedActionError(f"{name} must be a card name, got {show(value)}")
        return Card.parse(value)
    if kind == "EventDie":
        try:
            return _member(EventDie, value)
        except ValueError:
            faces = ", ".join(f.value for f in EventDie)
            got = show(value)
            raise MalformedActionError(f"{name} must be one of {faces}, got {got}") from None
    if kind == "Hand":
        return hand_from_json(name, value)
    if kind == "Track":
        try:
            return _member(Track, value)
        except ValueError:
            tracks = ", ".join(t.value for t in Track)
            got = show(value)
            raise MalformedActionError(f"{name} must be one of {tracks}, got {got}") from None
    if kind == "ProgressCard":
        try:
            return _member(ProgressCard, value)
        except ValueError:
            raise MalformedActionError(
                f"{name} must be a progress card name, got {show(value)}"
            ) from None
    if kind == "tuple[int, ...]":
        if (
            not isinstance(value, list)
            or len(value) > MAX_ACTION_LIST
            or not all(
                isinstance(v, int) and not isinstance(v, bool) and abs(v) <= MAX_INT for v in value
            )
        ):
            raise MalformedActionError(f"{name} must be a list of integers, got {show(value)}")
        return tuple(value)
    raise MalformedActionError(f"field {name} has an unknown type {kind}")  # pragma: no cover


def hand_from_json(name: str, value: object) -> Hand:
    """``{"brick": 1}`` to an eight-count hand.

    :raises MalformedActionError: for unknown cards or counts that are not whole numbers >= 0.
    """
    if not isinstance(value, Mapping):
        raise MalformedActionError(f"{name} must map card names to counts, got {show(value)}")
    counts = [0] * CARD_KINDS
    for card_name, n in value.items():
        if not isinstance(card_name, str) or card_name.upper() not in Card.__members__:
            raise MalformedActionError(f"{name}: {show(card_name)} is not a card")
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n <= MAX_INT:
            raise MalformedActionError(f"{name}: count of {card_name} must be >= 0, got {show(n)}")
        counts[Card.parse(card_name)] = n
    return tuple(counts)


def action_from_json(data: object) -> Action:
    """Parse the JSON form of an action.

    :raises MalformedActionError: naming what is wrong with the data.
    """
    if not isinstance(data, Mapping):
        raise MalformedActionError(f"an action is a JSON object, got {show(data)}")
    type_name = data.get("type")
    cls = ACTION_TYPES.get(type_name) if isinstance(type_name, str) else None
    if cls is None:
        known = ", ".join(sorted(ACTION_TYPES))
        raise MalformedActionError(f"unknown action type {show(type_name)}; known: {known}")
    shape = _SHAPES.get(cls)
    if shape is None:
        fields = dataclasses.fields(cls)
        shape = _SHAPES[cls] = (
            tuple((f.name, str(f.type)) for f in fields),
            frozenset(f.name for f in fields) | {"type"},
        )
    named, expected = shape
    if len(data) != len(expected) or not expected.issuperset(data):
        extra = sorted(
            k if isinstance(k, str) and k.isidentifier() and len(k) <= 40 else show(k)
            for k in set(data) - expected
        )
        if extra:
            listed = ", ".join(extra[:5]) + (", ..." if len(extra) > 5 else "")
            raise MalformedActionError(f"{type_name} has unexpected fields: {listed}")
    values: dict[str, object] = {}
    for name, kind in named:
        if name not in data:
            raise MalformedActionError(f"{type_name} needs the field {name!r}")
        values[name] = _decode(kind, name, data[name])
    return cls(**values)  # type: ignore[arg-type]


_SHAPES: dict[type[Action], tuple[tuple[tuple[str, str], ...], frozenset[str]]] = {}
"""Per action type, its fields' names and types and the keys its JSON has: read once."""


_A = TypeVar("_A", bound=Action)


def reused(action: Callable[..., _A]) -> Callable[..., _A]:
    """``action``'s constructor keeping each value it made, so listing the legal actions on every
    turn builds no new ones (actions are immutable; their fields are seats, ids and names of
    the game, so the values kept stay few)."""
    made: dict[tuple[Any, ...], _A] = {}

    def make(*args: Any) -> _A:
        value = made.get(args)
        if value is None:
            value = made[args] = action(*args)
        return value

    return make
