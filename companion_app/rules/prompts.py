"""What the game waits for: who must decide, and what (each kind is declared, with its words,
as a ``PromptRule`` in the module of the mechanic that answers it)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import Any

from companion_app.rules.config import MAX_PLAYERS
from companion_app.rules.messages import Msg, nmsg


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
    HARBOR_ANSWER = "harbor_answer"
    SPY = "spy"
    MASTER_MERCHANT = "master_merchant"
    MOVE_ROBBER_OR_PIRATE = "move_robber_or_pirate"
    """A 7 on a sea board after the first attack: the roller moves the robber or the pirate
    (§13.4)."""
    MOVE_PIRATE = "move_pirate"
    """A knight chased the pirate: its owner moves it (§13.7 item 8)."""
    FREE_SHIP = "free_ship"
    """The Diplomat removed the player's own ship: they place it again, as a ship (R14)."""
    GOLD = "gold"
    """A gold field paid: the player takes ``count`` resources of their choice (§13.5)."""
    WHO_BUILDS = "who_builds"
    """5-6 players, after a turn (§12): the table says who special-builds next, or nobody;
    the next player's roll ends the phase too."""
    SPECIAL_BUILD = "special_build"
    """5-6 players (§12): one player's special build, until they are done."""


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
    GOLD = "gold"
    """The gold fields' choices, in seat order from the roller; then the Aqueduct (§13.5, R4)."""
    END_TURN = "end_turn"
    """The player ending the turn discards down to 4 progress cards first, then it ends (§9)."""


@dataclass(frozen=True, slots=True)
class Prompt:
    """The decision the game waits for. ``player`` is the seat who must decide: often the
    player on turn, but not always (discards on a 7, answering a trade offer)."""

    kind: PromptKind
    player: int
    count: int = 0
    """Cards to discard (DISCARD, PROGRESS_DISCARD), give or take (WEDDING_GIVE,
    MASTER_MERCHANT), roads (FREE_ROAD), promotions (SMITH) or gold choices (GOLD) still to
    go."""
    track: str = ""
    """The improvement track (PLACE_METROPOLIS); "politics" on the Diplomat's own road coming
    back on a sea board (FREE_ROAD: a road, never a ship, R14)."""

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"kind": self.kind.value, "player": self.player}
        if self.count:
            data["count"] = self.count
        if self.track:
            data["track"] = self.track
        return data


TURN_PROMPTS = tuple(Prompt(PromptKind.TURN, p) for p in range(MAX_PLAYERS))
"""The turn prompt of each seat, built once: the prompt after nearly every action."""
ROLL_PROMPTS = tuple(Prompt(PromptKind.ROLL, p) for p in range(MAX_PLAYERS))


def knights_counted(n: int) -> Msg:
    return nmsg("{count} knight", "{count} knights", n)
