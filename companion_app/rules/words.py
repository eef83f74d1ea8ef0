"""The game in words, for the mechanics' declarations of their actions: how a place, a hex, a
hand and the dice read at the table, and what an action's log lines are made of.

Each :class:`~declare.ActionRule` carries the action's words: its ``button`` (what the decider
reads on the button, before the action) and its ``told`` lines (what the log says after it: a
public ``text`` and, for a private detail such as the card stolen, a ``detail`` only its
``audience`` reads). Player names are arguments, so a caller may name the seats as it likes.
Every word is a message (:mod:`messages`): the reader's language renders it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from companion_app.rules.actions import EventDie, Roll
from companion_app.rules.cards import CARD_KINDS, TERRAIN_WORDS, Card, Hand
from companion_app.rules.events import CardsMoved, Event, Steal
from companion_app.rules.messages import Msg, listing, msg, pmsg
from companion_app.rules.prompts import PromptKind
from companion_app.rules.state import SETUP_KINDS, GameState

EVERYONE: frozenset[int] = frozenset()
"""The audience of a line with nothing private in it."""

EVENT_WORDS: dict[EventDie, Msg] = {
    EventDie.SHIP: pmsg("event die", "ship"),
    EventDie.TRADE: pmsg("event die", "yellow castle"),
    EventDie.POLITICS: pmsg("event die", "blue castle"),
    EventDie.SCIENCE: pmsg("event die", "green castle"),
}


class LineKind(Enum):
    """What a log line is about (the log colours and filters by it)."""

    TURN = "turn"
    SETUP = "setup"
    ROLL = "roll"
    PRODUCTION = "production"
    SEVEN = "seven"
    DISCARD = "discard"
    ROBBER = "robber"
    STEAL = "steal"
    BUILD = "build"
    KNIGHT = "knight"
    IMPROVEMENT = "improvement"
    TRADE = "trade"
    BARBARIANS = "barbarians"
    ATTACK = "attack"
    DRAW = "draw"
    PROGRESS = "progress"
    CARDS = "cards"
    WIN = "win"


@dataclass(frozen=True, slots=True)
class Line:
    """One line of the log: ``text`` for everyone, ``detail`` for the seats in ``audience``."""

    kind: LineKind
    text: Msg
    audience: frozenset[int] = EVERYONE
    detail: Msg | None = None


@dataclass(frozen=True, slots=True)
class Prior:
    """What an action's log words read from the moment before it: the prompt it answered, whose
    turn it was, the other player of a card's follow-up."""

    prompt: PromptKind
    active: int
    card_target: int

    @classmethod
    def of(cls, state: GameState) -> Prior:
        return cls(state.prompt.kind, state.active, state.card_target)


@dataclass(frozen=True, slots=True)
class Telling:
    """What an action's log words read: the game after it, the moment before, its events."""

    game: GameState
    names: Sequence[str]
    prior: Prior
    events: Sequence[Event]

    def who(self, seat: int) -> str:
        return self.names[seat]

    @property
    def in_setup(self) -> bool:
        """The action was a setup placement (§2)."""
        return self.prior.prompt in SETUP_KINDS

    def received(self, seat: int) -> Hand:
        """The cards ``seat`` received in the open (:class:`~events.CardsMoved`)."""
        total = [0] * CARD_KINDS
        for event in self.events:
            if isinstance(event, CardsMoved) and event.taker == seat:
                for c, n in enumerate(event.hand):
                    total[c] += n
        return tuple(total)

    def given(self, seat: int) -> Hand:
        """The cards ``seat`` handed to another player in the open."""
        total = [0] * CARD_KINDS
        for event in self.events:
            if isinstance(event, CardsMoved) and event.giver == seat:
                for c, n in enumerate(event.hand):
                    total[c] += n
        return tuple(total)


def hand_words(hand: Sequence[int], *, sign: str = "") -> Msg:
    """``"2 brick, 1 ore"`` (``"+2 brick, +1 ore"`` with the sign ``"+"``); ``"nothing"`` if
    empty."""
    parts = [Card(c).counted(n) for c, n in enumerate(hand) if n]
    if sign:
        parts = [msg("+{cards}", cards=part) for part in parts]
    return listing(parts, msg("nothing"))


def place_words(state: GameState, node: int) -> Msg:
    """An intersection as the table finds it: by the numbers of its hexes ("by 8, 3, 5")."""
    tokens = [
        state.tokens[h] for h in state.topology.node_hexes[node] if state.tokens[h] is not None
    ]
    if not tokens:
        return msg("on the coast")
    return msg("by {numbers}", numbers=", ".join(str(t) for t in tokens))


def hex_words(state: GameState, h: int) -> Msg:
    """A hex as the table finds it: "the 8 hills", "the desert"."""
    terrain = TERRAIN_WORDS[state.board.terrains[h]]
    token = state.tokens[h]
    if token is None:
        return msg("the {terrain}", terrain=terrain)
    return msg("the {number} {terrain}", number=token, terrain=terrain)


def cell_words(state: GameState, cell: int) -> Msg:
    """Where the pirate stands (§13.4), by the land nearest it, as the table finds the sea: "the
    sea beside the 10 gold field", "the frame beside the 8 hills"."""
    topology = state.topology
    if cell in topology.land_hexes:
        return hex_words(state, cell)
    land = hex_words(state, nearest_land(state, cell))
    if cell < topology.hex_count:
        return msg("the sea beside {hex}", hex=land)
    return msg("the frame beside {hex}", hex=land)


def nearest_land(state: GameState, cell: int) -> int:
    """The land hex nearest a sea cell, hex by hex outwards (one with a number first, then the
    lowest id); the cell's own hex, or the frame cell's first, on a board without land."""
    topology = state.topology
    if cell < topology.hex_count:
        ring = {cell}
    else:
        ring = {h for e in topology.cell_edges[cell] for h in topology.edge_hexes[e]}
    first = min(ring)
    land, seen = set(topology.land_hexes), set(ring)
    while ring:
        found = sorted(ring & land, key=lambda h: (state.tokens[h] is None, h))
        if found:
            return found[0]
        ring = {n for h in ring for n in topology.hex_neighbours[h]} - seen
        seen |= ring
    return first


def dice_words(roll: Roll) -> Msg:
    """``"3 + 4 = 7, ship"``."""
    return msg(
        "{yellow} + {red} = {total}, {event}",
        yellow=roll.yellow,
        red=roll.red,
        total=roll.total,
        event=EVENT_WORDS[roll.event],
    )


def steal_lines(t: Telling) -> list[Line]:
    """One line per card stolen, victims in seat order: which card only for the thief and the
    victim (§8)."""
    lines = []
    steals = sorted((e for e in t.events if isinstance(e, Steal)), key=lambda e: e.victim)
    for event in steals:
        thief, victim = t.who(event.thief), t.who(event.victim)
        lines.append(
            Line(
                LineKind.STEAL,
                msg("{thief} steals a card from {victim}", thief=thief, victim=victim),
                frozenset({event.thief, event.victim}),
                msg(
                    "{thief} steals {card} from {victim}",
                    thief=thief,
                    card=event.card.counted(1),
                    victim=victim,
                ),
            )
        )
    return lines
