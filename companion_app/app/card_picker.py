"""The covered card picker: one screen for every "choose several cards" decision.

A 7's discard (and the Saboteur's), the Wedding's gifts, a Commercial Harbor answer, the
progress cards over the limit, the Spy's and the Master Merchant's picks: the cards to choose
from are rows that never move during the decision, each with − / + and what is chosen, a running
count, and one Confirm. What the rows offer is read off the rules core's legal actions; Confirm
turns the choice into the rules core's own one-card actions, applied in order.

A discard or a gift starts with a suggestion (from the kinds held most), so a player who agrees
confirms at once. Kivy-free: the game screen's controller holds one and the tests drive it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion_app.rules.actions import (
    Action,
    DiscardCard,
    DiscardProgressCard,
    GiveCard,
    TakeCard,
    TakeProgressCard,
)
from companion_app.rules.cards import Card, ProgressCard
from companion_app.rules.game import Game
from companion_app.rules.prompts import HAND_CARD_CHOICES, PromptKind, counted

PICKER_PROMPTS = HAND_CARD_CHOICES
"""The decisions the picker answers; all of them private (shown after "Show my cards")."""

PICKED_TYPES = (DiscardCard, GiveCard, DiscardProgressCard, TakeCard, TakeProgressCard)
"""The one-card actions a card picker's Confirm makes, several for one decision."""

_SUGGESTED = frozenset({PromptKind.DISCARD, PromptKind.WEDDING_GIVE, PromptKind.HARBOR_ANSWER})
"""Giving cards away: a suggestion is filled in (the kinds held most go first)."""

_VERBS = {
    PromptKind.DISCARD: "Discard",
    PromptKind.WEDDING_GIVE: "Give",
    PromptKind.HARBOR_ANSWER: "Give",
    PromptKind.PROGRESS_DISCARD: "Put back",
    PromptKind.SPY: "Take",
    PromptKind.MASTER_MERCHANT: "Take",
}

Key = Card | ProgressCard


@dataclass(slots=True)
class PickerRow:
    key: Key
    label: str
    held: int
    """How many the hand the cards come from holds (the row's most)."""
    chosen: int = 0


@dataclass(slots=True)
class CardPicker:
    """A decision's rows and what is chosen so far."""

    kind: PromptKind
    player: int
    count: int
    """How many cards the decision takes."""
    verb: str
    rows: list[PickerRow] = field(default_factory=list)
    name: str = ""
    """The deciding player, named in the title (the tablet is theirs now)."""
    about: str = ""
    """Whose cards the rows are, or whom they go to: "from Red's hand" (the Spy, the Master
    Merchant), "to Red" (a gift), else ""."""

    @property
    def chosen(self) -> int:
        return sum(r.chosen for r in self.rows)

    @property
    def ready(self) -> bool:
        return self.chosen == self.count

    def can_add(self, index: int) -> bool:
        row = self.rows[index]
        return self.chosen < self.count and row.chosen < row.held

    def can_remove(self, index: int) -> bool:
        return self.rows[index].chosen > 0

    def add(self, index: int) -> None:
        if self.can_add(index):
            self.rows[index].chosen += 1

    def remove(self, index: int) -> None:
        if self.can_remove(index):
            self.rows[index].chosen -= 1

    @property
    def heading(self) -> str:
        """Who chooses what: "Blue: discard 4 cards"."""
        noun = (
            "progress card"
            if self.kind in (PromptKind.PROGRESS_DISCARD, PromptKind.SPY)
            else "card"
        )
        whose = f" {self.about}" if self.about else ""
        who = f"{self.name}: " if self.name else ""
        what = f"{self.verb.lower() if who else self.verb} {counted(self.count, noun)}{whose}"
        return f"{who}{what}"

    @property
    def tally(self) -> str:
        """The running count: "3 of 4 chosen"."""
        return f"{self.chosen} of {self.count} chosen"

    @property
    def title(self) -> str:
        return f"{self.heading} · {self.tally}"

    @property
    def confirm_words(self) -> str:
        if not self.ready:
            return f"Choose {self.count - self.chosen} more"
        picked = ", ".join(f"{r.chosen} {r.label}" for r in self.rows if r.chosen)
        return f"{self.verb} {picked}"

    def actions(self) -> list[Action]:
        """The rules core's one-card actions for the choice, rows in order (empty until ready)."""
        if not self.ready:
            return []
        return [self.action_for(r.key) for r in self.rows for _ in range(r.chosen)]

    def action_for(self, key: Key) -> Action:
        """The rules core's action for one card of row ``key``."""
        p, kind = self.player, self.kind
        if isinstance(key, ProgressCard):
            if kind is PromptKind.SPY:
                return TakeProgressCard(p, key)
            return DiscardProgressCard(p, key)
        if kind is PromptKind.DISCARD:
            return DiscardCard(p, key)
        if kind is PromptKind.MASTER_MERCHANT:
            return TakeCard(p, key)
        return GiveCard(p, key)


def card_picker(game: Game) -> CardPicker | None:
    """The picker for the decision now due, or None when it is not a card decision."""
    prompt = game.prompt
    kind = prompt.kind
    if kind not in PICKER_PROMPTS:
        return None
    p = prompt.player
    legal = game.legal_actions()
    if not legal:
        return None
    rows: list[PickerRow]
    if kind in (PromptKind.PROGRESS_DISCARD, PromptKind.SPY):
        owner = p if kind is PromptKind.PROGRESS_DISCARD else game.card_target
        held = game.progress_hand(owner)
        offered = {a.card for a in legal if isinstance(a, DiscardProgressCard | TakeProgressCard)}
        rows = [
            PickerRow(c, c.title, held.count(c)) for c in sorted(offered, key=lambda c: c.order)
        ]
        count = prompt.count if kind is PromptKind.PROGRESS_DISCARD else 1
    else:
        owner = game.card_target if kind is PromptKind.MASTER_MERCHANT else p
        cards = {a.card for a in legal if isinstance(a, DiscardCard | GiveCard | TakeCard)}
        rows = [PickerRow(c, c.label, game.hands[owner][c]) for c in sorted(cards)]
        count = 1 if kind is PromptKind.HARBOR_ANSWER else prompt.count
    count = min(count, sum(r.held for r in rows))
    names = game.config.names
    if owner != p:
        about = f"from {names[owner]}'s hand"
    elif kind in (PromptKind.WEDDING_GIVE, PromptKind.HARBOR_ANSWER):
        about = f"to {names[game.active]}"
    else:
        about = ""
    picker = CardPicker(kind, p, count, _VERBS[kind], rows, names[p], about)
    if kind in _SUGGESTED:
        suggest(picker)
    return picker


def suggest(picker: CardPicker) -> None:
    """Fill the choice from the kinds held most (ties: the first row), one card at a time."""
    while not picker.ready:
        left = [r.held - r.chosen for r in picker.rows]
        best = max(range(len(left)), key=lambda i: (left[i], -i))
        if left[best] <= 0:
            return
        picker.rows[best].chosen += 1
