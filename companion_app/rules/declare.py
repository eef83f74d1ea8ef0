"""How a mechanic declares its actions: one :class:`ActionRule` per action type.

A mechanic module lists its rules in ``RULES`` and the answers to the prompts it owns in
``OPTIONS``; :mod:`registry` collects them, and ``Game.legal_actions``, ``Game.apply``, the
app's buttons and the game log read the registry. Adding an action touches its mechanic module
(and the action's dataclass in :mod:`actions`): its check, its effect, the prompts it answers
and its words.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from companion_app.rules.actions import Action
from companion_app.rules.messages import Msg, Plural
from companion_app.rules.prompts import PromptKind
from companion_app.rules.state import GameState
from companion_app.rules.words import Line, Telling

Check = Callable[[GameState, Any], Msg | None]
"""Why the action is illegal now (price, place, timing), in words naming the rule; None if
legal. Called only when the action answers the prompt shown and is its player's."""
Effect = Callable[[GameState, Any], None]
"""Applies a legal action."""
Options = Callable[[GameState, int], list[Action]]
"""The legal actions of a player for a prompt (or a part of the turn), in a stable order."""
Button = Callable[[GameState, Any, Sequence[str]], Msg]
"""What the action's button says to its decider (state before the action, the seats' names)."""
Told = Callable[[Telling, Any], list[Line]]
"""The action's own log lines, read after it: public text, and private detail for its
audience (the card stolen, the progress card taken)."""


@dataclass(frozen=True, eq=False, slots=True)
class ActionRule:
    """One action type: when it may be taken, whether it is legal, what it does, its words.
    One value per action type, compared by identity."""

    action: type[Action]
    check: Check
    effect: Effect
    prompts: tuple[PromptKind, ...]
    """The prompts it answers."""
    summary: Msg
    """A short description of the kind of action ("build a road")."""
    button: Button
    told: Told
    quick_knights_prompts: tuple[PromptKind, ...] = ()
    """Further prompts it answers in the quick knights variant (§3)."""
    private: bool = False
    """Its choices name what the player's hand holds (the Commercial Harbor's offers): on the
    shared screen they wait behind the cover until the player uncovers them."""
    sea: bool = False
    """Only a game on a sea board has it (Seafarers, §13): the pirate, gold, ships."""


def no_check(state: GameState, action: Any) -> Msg | None:
    """For actions legal whenever their prompt is shown."""
    return None


def nothing_told(t: Telling, action: Any) -> list[Line]:
    """For actions the log says nothing of (what follows them speaks for them)."""
    return []


class PickedHand(Enum):
    """Whose cards a card picker shows."""

    OWN = "own"
    """The decider's resource and commodity cards."""
    OWN_PROGRESS = "own_progress"
    """The decider's progress cards."""
    TARGET = "target"
    """The resource and commodity cards of the card's other player (``card_target``)."""
    TARGET_PROGRESS = "target_progress"
    """The progress cards of the card's other player."""
    BANK = "bank"
    """The bank's resources (a gold field's choice, §13.5): nothing hidden, nothing to cover."""

    @property
    def progress(self) -> bool:
        return self in (PickedHand.OWN_PROGRESS, PickedHand.TARGET_PROGRESS)

    @property
    def target(self) -> bool:
        return self in (PickedHand.TARGET, PickedHand.TARGET_PROGRESS)


@dataclass(frozen=True, slots=True)
class CardPick:
    """A decision among hidden cards, answered by one card picker: several one-card actions."""

    hand: PickedHand
    heading: Plural
    """Who chooses what, one sentence counted by the cards to choose: "{player}: discard
    {count} card(s)", "{player}: take {count} card(s) from {target}'s hand"."""
    confirm: str
    """Confirm's words once the choice is made, ``{cards}`` the cards chosen: "Discard
    {cards}"."""
    count: int = 0
    """How many cards the decision takes: the prompt's count when 0."""
    suggested: bool = False
    """Cards given away: the picker starts from a suggestion (the kinds held most)."""


class Decider(Enum):
    """Who decides a prompt."""

    ON_TURN = "on turn"
    """The player on turn, in the turn's own order (the roll, then the turn)."""
    ASKED = "asked"
    """The player the prompt names: the player on turn during a card's or a roll's
    follow-up, or another (a discard, an answer, a victim's choice)."""
    NOBODY = "nobody"
    """The game is over."""


@dataclass(frozen=True, eq=False, slots=True)
class PromptRule:
    """One kind of prompt, declared once beside the actions that answer it: who decides, what
    the shared screen and the phones may show of it, and its words. One value per prompt kind,
    compared by identity.

    The words are message ids (marked ``N_``) with named placeholders, or, where they carry a
    count, one sentence with its plural (marked ``Nn_``, ``{count}``): a count glued into a
    sentence would keep the case of a phrase alone ("odrzuć 1 karta"). ``words`` and
    ``sea_words`` are counted by the prompt's count; ``details`` reads ``{offerer}``,
    ``{gives}``, ``{takes}`` (a domestic offer), ``{active}``, ``{offered}`` (a Commercial Harbor
    offer) and, on the phone, ``phone_details`` as well or, marked ``Nn_``, counted by the
    decider's cards; ``shown`` reads ``{target}`` and ``{cards}``; a picker's ``heading``
    (marked ``Nn_``) ``{player}`` (the decider), ``{count}``, ``{active}`` and ``{target}``.
    """

    kind: PromptKind
    words: str | Plural
    """The banner's words after the decider's name: "move the robber", "discard {count} card(s)"."""
    decider: Decider = Decider.ASKED
    private: bool = False
    """Its options tell what a hand holds: shown on the shared screen only once the decider
    uncovers them, and always asked even with one option."""
    phone: bool = False
    """A phone may answer it (a private decision of one seat)."""
    picker: CardPick | None = None
    always_asked: bool = False
    """Asked even with a single option (else the app takes it at once)."""
    shown: str = ""
    """A private prompt's cards in words once the decider uncovered them (the picker's hand,
    else the decider's own): ``{target}`` names the card's other player, ``{cards}`` the
    cards."""
    details: str = ""
    """The banner's second line, on the tablet (for a private prompt, while covered)."""
    phone_details: str | Plural = ""
    """The same on the decider's phone."""
    sea: bool = False
    """Only a game on a sea board asks it (Seafarers, §13)."""
    sea_words: str | Plural = ""
    """The banner's words on a sea board, where they differ (a ship may stand for a road,
    §13.3; ``{pieces}`` counts roads or ships); not for a prompt naming a track (the
    Diplomat's own road comes back as a road, R14)."""

    @property
    def asked_always(self) -> bool:
        return self.always_asked or self.private
