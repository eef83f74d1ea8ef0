"""The card picker: one screen for every "choose several cards" decision.

A 7's discard (and the Saboteur's), the Wedding's gifts, a Commercial Harbor answer, the
progress cards over the limit, the Spy's and the Master Merchant's picks, a gold field's choice
from the bank's resources (§13.5, the one picker with nothing hidden): the cards to choose
from are rows that never move during the decision, each with − / + and what is chosen, a running
count, and one Confirm. What the rows offer is read off the rules core's legal actions; Confirm
turns the choice into the rules core's own one-card actions, applied in order.

A discard or a gift starts with a suggestion (from the kinds held most), so a player who agrees
confirms at once. Kivy-free: the game screen's controller holds one and the tests drive it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from companion_app.i18n.current import n_, render
from companion_app.rules.actions import (
    Action,
    DiscardCard,
    DiscardProgressCard,
    GiveCard,
    TakeCard,
    TakeGold,
    TakeProgressCard,
)
from companion_app.rules.cards import Card, ProgressCard
from companion_app.rules.declare import PickedHand
from companion_app.rules.game import Game
from companion_app.rules.messages import Msg
from companion_app.rules.prompts import PromptKind
from companion_app.rules.registry import PICKER_PROMPTS, picked_from, picker_heading, prompt_rule

__all__ = ["PICKED_TYPES", "CardPicker", "PickerRow", "card_picker", "suggest"]

PICKED_TYPES = (DiscardCard, GiveCard, DiscardProgressCard, TakeCard, TakeProgressCard, TakeGold)
"""The one-card actions a card picker's Confirm makes, several for one decision."""

Key = Card | ProgressCard


@dataclass(slots=True)
class PickerRow:
    key: Key
    held: int
    """How many the hand the cards come from holds (the row's most; the bank's for gold)."""
    chosen: int = 0

    @property
    def label(self) -> str:
        """The card's name in the table's language now: a switch renames an open picker's
        rows."""
        key = self.key
        return render(key.words if isinstance(key, Card) else key.title)


@dataclass(slots=True)
class CardPicker:
    """A decision's rows and what is chosen so far."""

    kind: PromptKind
    player: int
    count: int
    """How many cards the decision takes."""
    words: Msg
    """Who chooses what, one sentence of the prompt's declaration ("Blue: discard 4 cards"),
    rendered when shown: a switch of language reads an open picker's heading anew."""
    confirm: str
    """Confirm's words once the choice is made, a message id with ``{cards}`` ("Discard
    {cards}"), rendered when shown, as the heading."""
    rows: list[PickerRow] = field(default_factory=list)
    answers: dict[Key, Action] = field(default_factory=dict)
    """The rules core's one-card action for each row's card (from the legal actions)."""
    hidden: bool = True
    """The rows are a hand's (covered until the decider shows them); False for the bank's."""

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
        return render(self.words)

    @property
    def tally(self) -> str:
        """The running count: "3 of 4 chosen"."""
        return n_(
            "{chosen} of {count} chosen",
            "{chosen} of {count} chosen",
            self.count,
            chosen=self.chosen,
        )

    @property
    def title(self) -> str:
        return f"{self.heading} · {self.tally}"

    @property
    def confirm_words(self) -> str:
        if not self.ready:
            return n_("Choose {count} more", "Choose {count} more", self.count - self.chosen)
        picked = ", ".join(
            render(r.key.counted(r.chosen)) if isinstance(r.key, Card) else f"{r.chosen} {r.label}"
            for r in self.rows
            if r.chosen
        )
        return render(Msg(self.confirm, (("cards", picked),)))

    def actions(self) -> list[Action]:
        """The rules core's one-card actions for the choice, rows in order (empty until ready)."""
        if not self.ready:
            return []
        return [self.action_for(r.key) for r in self.rows for _card in range(r.chosen)]

    def action_for(self, key: Key) -> Action:
        """The rules core's action for one card of row ``key``."""
        return self.answers[key]


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
    picked = picked_from(game)
    pick = prompt_rule(game).picker
    if picked is None or pick is None:  # pragma: no cover - a picker prompt names its hand
        return None
    owner, hand = picked
    answers: dict[Key, Action] = {}
    for a in legal:
        if isinstance(a, PICKED_TYPES):
            answers.setdefault(a.card, a)
    if hand.progress:
        held_cards = game.progress_hand(owner)
        keys = sorted((k for k in answers if isinstance(k, ProgressCard)), key=lambda c: c.order)
        rows = [PickerRow(k, held_cards.count(k)) for k in keys]
    else:
        from_hand = game.bank if hand is PickedHand.BANK else game.hands[owner]
        cards = sorted(k for k in answers if isinstance(k, Card))
        rows = [PickerRow(c, from_hand[c]) for c in cards]
    # A gold choice the bank cannot meet is lost (R3): never more than the rows hold.
    count = min(pick.count or prompt.count, sum(r.held for r in rows))
    words = picker_heading(game, count)
    if words is None:  # pragma: no cover - a picker prompt declares its heading
        return None
    hidden = hand is not PickedHand.BANK
    picker = CardPicker(kind, p, count, words, pick.confirm, rows, answers, hidden)
    if pick.suggested:
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
