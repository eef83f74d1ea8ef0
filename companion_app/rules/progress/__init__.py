"""Progress cards (§9, §10) and the merchant: one module per deck, each card declared whole
in its deck's module (:class:`~shared.CardRule`); the decks, the play actions' rules and the
legal plays are built here from those declarations.

Adding a card: its :class:`CardRule` in its deck's ``CARDS`` (and its name in
:class:`~companion_app.rules.cards.ProgressCard`), its text in ``help_texts.py``. A card
with a choice gets its own action class; one without is played with ``PlayProgress``.
"""

from __future__ import annotations

from collections.abc import Sequence

import companion_app.rules.progress.politics as politics
import companion_app.rules.progress.science as science
import companion_app.rules.progress.trade as trade
from companion_app.rules.actions import Action
from companion_app.rules.cards import PROGRESS_DECKS, DeckEntry, ProgressCard
from companion_app.rules.declare import ActionRule, Options, PromptRule
from companion_app.rules.progress.politics import deserter_level, is_open_road
from companion_app.rules.progress.science import alchemist_plays, dice_reason
from companion_app.rules.progress.shared import (
    DISCARD_RULE,
    EVENT_TRACK,
    SHARED_OPTIONS,
    SHARED_PROMPTS,
    SHARED_STOPS,
    CardRule,
    Plays,
    castle_draws,
    draws_card,
    give_rule,
    stop_rule,
)
from companion_app.rules.progress.trade import harbor_exchanges, harbor_opponents, merchant_hexes
from companion_app.rules.prompts import PromptKind
from companion_app.rules.state import GameState

DECKS = (science, politics, trade)
CARDS: tuple[CardRule, ...] = tuple(card for deck in DECKS for card in deck.CARDS)
"""Every card kind, as its deck's module declares it."""


def deck_entries(cards: Sequence[CardRule]) -> dict[ProgressCard, DeckEntry]:
    """Each declared card's deck, count and VP flag, in the declarations' order.

    :raises ValueError: for a card declared twice.
    """
    entries: dict[ProgressCard, DeckEntry] = {}
    for c in cards:
        if c.card in entries:
            raise ValueError(f"{c.card.title} is declared twice")
        entries[c.card] = DeckEntry(c.track, c.count, c.is_vp)
    return entries


PROGRESS_DECKS.clear()
PROGRESS_DECKS.update(deck_entries(CARDS))
if set(PROGRESS_DECKS) != set(ProgressCard):  # pragma: no cover - a declaration error
    raise AssertionError("every progress card is declared in one deck's module")
PLAYS = Plays(CARDS)
PLAY_TYPES: tuple[type[Action], ...] = PLAYS.types
"""Every action that plays a card."""


def card_of(a: Action) -> ProgressCard:
    """The card a play action plays."""
    return PLAYS.card_of(a)


def turn_plays(game: GameState, p: int) -> list[Action]:
    """Every legal progress-card play of the player on turn (after the roll)."""
    return PLAYS.turn_plays(game, p)


RULES: tuple[ActionRule, ...] = (
    *PLAYS.rules(),
    DISCARD_RULE,
    *science.RULES,
    *politics.RULES,
    *trade.RULES,
    give_rule({**politics.GIVES, **trade.GIVES}),
    stop_rule({**SHARED_STOPS, **science.STOPS, **politics.STOPS, **trade.STOPS}),
)
PROMPTS: tuple[PromptRule, ...] = (
    *SHARED_PROMPTS,
    *science.PROMPTS,
    *politics.PROMPTS,
    *trade.PROMPTS,
)
OPTIONS: dict[PromptKind, Options] = {
    **SHARED_OPTIONS,
    **science.OPTIONS,
    **politics.OPTIONS,
    **trade.OPTIONS,
}

__all__ = [
    "CARDS",
    "EVENT_TRACK",
    "OPTIONS",
    "PLAY_TYPES",
    "PROMPTS",
    "RULES",
    "alchemist_plays",
    "card_of",
    "castle_draws",
    "deck_entries",
    "deserter_level",
    "dice_reason",
    "draws_card",
    "harbor_exchanges",
    "harbor_opponents",
    "is_open_road",
    "merchant_hexes",
    "turn_plays",
]
