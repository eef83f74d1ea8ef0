"""What an action set off beyond what it says: production paid, cards stolen or moved, progress
cards drawn, a knight displaced.

The rules core records these while it applies an action (``Game.events`` holds those of the last
action), so the log, the statistics and the phones read what happened instead of comparing the
state before and after. Nothing here is part of the state JSON.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion_app.rules.cards import Card, Hand, ProgressCard
from companion_app.rules.messages import Msg, msg


@dataclass(frozen=True, slots=True)
class Shortage:
    """A card the bank could not pay in full (§4): with several takers nobody gets it, a single
    taker gets what is left."""

    card: Card
    owed: int
    """What every taker together was owed."""
    paid: int
    in_bank: int
    """The bank's stock of the card before the roll paid."""

    @property
    def words(self) -> Msg:
        card = self.card.words
        if self.paid == 0:
            if self.in_bank == 0:
                return msg("bank out of {card}: nobody gets {card}", card=card)
            return msg(
                "bank has {in_bank} for {owed} owed: nobody gets {card}",
                in_bank=self.card.counted(self.in_bank),
                card=card,
                owed=self.owed,
            )
        return msg(
            "bank had only {paid} of {owed} owed",
            paid=self.card.counted(self.paid),
            owed=self.owed,
        )


@dataclass(frozen=True, slots=True)
class Production:
    """What a roll's production dice paid (§4), per seat, with the reasons some got less."""

    number: int
    gained: tuple[Hand, ...]
    """What each seat received from the bank."""
    robbed: tuple[Hand, ...]
    """What the robber's hex withheld from each seat."""
    missed: tuple[tuple[Card, ...], ...]
    """Per seat, the cards owed that the bank could not pay in full."""
    shortages: tuple[Shortage, ...]


@dataclass(frozen=True, slots=True)
class Steal:
    """One random card taken by the robber's owner or the Bishop (§8, §10): private to both."""

    thief: int
    victim: int
    card: Card


@dataclass(frozen=True, slots=True)
class CardsMoved:
    """Cards passed from one hand to another in the open (monopolies, harvests, the starting
    city); ``giver`` is ``NOBODY`` for the bank."""

    giver: int
    taker: int
    hand: Hand


@dataclass(frozen=True, slots=True)
class ProgressDrawn:
    """A progress card drawn (§9): private to its drawer unless it is a VP card, shown at once."""

    player: int
    card: ProgressCard


@dataclass(frozen=True, slots=True)
class KnightDisplaced:
    """A knight pushed off its intersection (§6, Intrigue); its owner may relocate it."""

    owner: int
    node: int


@dataclass(frozen=True, slots=True)
class IslandSettled:
    """A player's first settlement on a small island: 2 Catan chits, 2 VP for good (§13.10,
    R23)."""

    player: int
    island: int
    """The island's index in ``Topology.islands`` (1 and up)."""


Event = Production | Steal | CardsMoved | ProgressDrawn | KnightDisplaced | IslandSettled
