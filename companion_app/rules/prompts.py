"""What the game waits for: who must decide, and what."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any


class PromptKind(Enum):
    __hash__ = object.__hash__  # identity, as equality is: C speed for the hot dict lookups

    SETUP_SETTLEMENT = "setup_settlement"
    SETUP_CITY = "setup_city"
    SETUP_ROAD = "setup_road"
    ROLL = "roll"
    DISCARD = "discard"
    MOVE_ROBBER = "move_robber"
    CHOOSE_VICTIM = "choose_victim"
    TURN = "turn"
    TRADE_RESPONSE = "trade_response"
    GAME_OVER = "game_over"
    COMMIT_KNIGHTS = "commit_knights"
    LOSE_CITY = "lose_city"
    CHOOSE_PROGRESS_DECK = "choose_progress_deck"
    PLACE_METROPOLIS = "place_metropolis"
    RELOCATE_KNIGHT = "relocate_knight"
    AQUEDUCT = "aqueduct"
    PROGRESS_DISCARD = "progress_discard"
    FREE_ROAD = "free_road"
    SMITH = "smith"
    DESERTER_REMOVE = "deserter_remove"
    DESERTER_PLACE = "deserter_place"
    WEDDING_GIVE = "wedding_give"
    COMMERCIAL_HARBOR = "commercial_harbor"
    HARBOR_ANSWER = "harbor_answer"
    SPY = "spy"
    MASTER_MERCHANT = "master_merchant"


HAND_CARD_CHOICES: frozenset[PromptKind] = frozenset(
    {
        PromptKind.DISCARD,  # a 7, or a Saboteur
        PromptKind.WEDDING_GIVE,
        PromptKind.HARBOR_ANSWER,
        PromptKind.PROGRESS_DISCARD,
        PromptKind.SPY,  # the victim's progress cards, shown to the spy only
        PromptKind.MASTER_MERCHANT,  # the victim's hand, shown to the merchant only
    }
)
"""Decisions among hidden cards: the decider's own hand, or a victim's hand that only the
decider may see. Their options name the cards, so they are private to the decider."""

PRIVATE_CHOICES: frozenset[PromptKind] = HAND_CARD_CHOICES | {
    # The offers name the resources the player holds.
    PromptKind.COMMERCIAL_HARBOR,
}
"""Every decision whose options tell what a hand holds: shown only to the decider."""


class Stage(StrEnum):
    """What the game goes on with once the queue of pending prompts is empty.

    A roll's consequences come in steps that other players may interrupt with decisions (the
    knights they commit, the cities they lose, the cards they discard); the stage remembers
    where the roll stands meanwhile. The values are the state JSON's spelling (a ``str`` enum:
    ``Stage.DISCARD == "discard"``).
    """

    NONE = ""
    """Nothing pending: back to the roll or the turn of the active player."""
    COMMIT = "commit"
    """Evil barbarians: every player commits knights, then the attack is resolved (§7)."""
    ATTACK = "attack"
    """The attack is resolved and its prompts answered: the production dice come next (§3.3)."""
    DISCARD = "discard"
    """A 7: once the discards are made the robber moves (after the first attack, §3.4, §8)."""
    END_TURN = "end_turn"
    """The player ending the turn discards down to 4 progress cards first, then it ends (§9)."""


_WORDS = {
    PromptKind.SETUP_SETTLEMENT: "place a starting settlement",
    PromptKind.SETUP_CITY: "place a starting city",
    PromptKind.SETUP_ROAD: "place a road next to it",
    PromptKind.ROLL: "roll the dice",
    PromptKind.DISCARD: "discard {cards}",
    PromptKind.MOVE_ROBBER: "move the robber",
    PromptKind.CHOOSE_VICTIM: "choose whom to steal from",
    PromptKind.TURN: "trade, build, or end the turn",
    PromptKind.TRADE_RESPONSE: "accept or decline the trade offer",
    PromptKind.GAME_OVER: "has won the game",
    PromptKind.COMMIT_KNIGHTS: "choose the active knights that face the barbarians",
    PromptKind.LOSE_CITY: "the barbarians won: choose the city to lose",
    PromptKind.CHOOSE_PROGRESS_DECK: "tied strongest defender: choose a progress deck",
    PromptKind.PLACE_METROPOLIS: "place the metropolis on one of your cities",
    PromptKind.RELOCATE_KNIGHT: "move your displaced knight",
    PromptKind.AQUEDUCT: "Aqueduct: take a resource of your choice",
    PromptKind.PROGRESS_DISCARD: "more than 4 progress cards: discard {count}",
    PromptKind.FREE_ROAD: "build {roads} free, or stop",
    PromptKind.SMITH: "Smith: promote up to {knights} free, or stop",
    PromptKind.DESERTER_REMOVE: "Deserter: choose the knight you remove",
    PromptKind.DESERTER_PLACE: "Deserter: place your knight, or stop",
    PromptKind.WEDDING_GIVE: "Wedding: give {cards} of your choice",
    PromptKind.COMMERCIAL_HARBOR: "Commercial Harbor: offer a resource to an opponent, or stop",
    PromptKind.HARBOR_ANSWER: "Commercial Harbor: give a commodity of your choice",
    PromptKind.SPY: "Spy: take one progress card",
    PromptKind.MASTER_MERCHANT: "Master Merchant: take {cards}",
}


@dataclass(frozen=True, slots=True)
class Prompt:
    """The decision the game waits for. ``player`` is the seat who must decide: often the
    player on turn, but not always (discards on a 7, answering a trade offer)."""

    kind: PromptKind
    player: int
    count: int = 0
    """Cards to discard (DISCARD, PROGRESS_DISCARD), give or take (WEDDING_GIVE,
    MASTER_MERCHANT), roads (FREE_ROAD) or promotions (SMITH) still to go."""
    track: str = ""
    """The improvement track (PLACE_METROPOLIS)."""

    def describe(self, names: tuple[str, ...] | None = None) -> str:
        """Plain words for the top bar: "Anna: discard 4 cards"."""
        who = names[self.player] if names else f"Player {self.player + 1}"
        n = self.count
        return f"{who}: " + _WORDS[self.kind].format(
            count=n,
            cards=counted(n, "card"),
            roads=counted(n, "road"),
            knights=counted(n, "knight"),
        )

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind.value, "player": self.player}
        if self.count:
            data["count"] = self.count
        if self.track:
            data["track"] = self.track
        return data


def counted(n: int, noun: str) -> str:
    """``"1 card"``, ``"4 cards"``: the words the prompts and the app use for amounts."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
