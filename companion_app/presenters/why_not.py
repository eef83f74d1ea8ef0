"""Why not, on the tablet: the action bar's kinds of action that are not on it now, each with
the rules core's reason in the table's language.

A reason that tells what the hand holds (``Reason.private``) reads only once the player on turn
has uncovered their cards; until then its row says so. Uncovered, the rows also name each
progress card in the hand that cannot be played now, and why.
"""

from __future__ import annotations

from dataclasses import dataclass

from companion_app.i18n import Catalogue
from companion_app.i18n.current import _
from companion_app.presenters.choices import (
    PROGRESS_KEY,
    BarButton,
    action_bar,
    bar_title,
)
from companion_app.rules.actions import Action, PlayProgress
from companion_app.rules.cards import ProgressCard
from companion_app.rules.game import Game
from companion_app.rules.messages import N_
from companion_app.rules.registry import is_turn
from companion_app.rules.whynot import Kind, Reason
from companion_app.rules.whynot_words import ASKED, PROGRESS_TITLES, SEA_ASKED

WHY_NOT_KEY = "why_not"
"""The action bar's button that asks why the missing kinds are missing."""
WHY_NOT_TITLE = N_("Why not?")


def _bar_key(kind: type[Action]) -> str:
    """The action bar's button for a kind of action (all card plays share one)."""
    return PROGRESS_KEY if kind is PlayProgress else kind.type_name


BAR_KINDS: tuple[tuple[str, Kind], ...] = tuple((_bar_key(kind), kind) for kind in ASKED)
"""Each kind of action the turn offers besides rolling and ending it (the rules core's
:data:`~companion_app.rules.whynot_words.ASKED`, in its order, which is the bar's), with the
bar's button that offers it: the rows ask about them and are titled as the buttons are."""
SEA_BAR_KINDS: tuple[tuple[str, Kind], ...] = tuple((_bar_key(kind), kind) for kind in SEA_ASKED)
"""What a sea board's turn offers besides (§13.3, §13.7): asked after the others, there only."""


@dataclass(frozen=True, slots=True)
class WhyNotRow:
    title: str
    """The button's title ("City"), or the progress card's name."""
    text: str
    """The reason, or "" while it waits behind the cover."""
    rule: str
    """When this kind of action is possible, under a reason about the moment."""
    covered: bool


def why_not_button(game: Game) -> list[BarButton]:
    """The bar's "Why not?", on the turn's own decisions while some kind is missing."""
    if not is_turn(game) or game.is_over:
        return []
    return [BarButton(WHY_NOT_KEY, _(WHY_NOT_TITLE), frozenset(), 0)]


def _row(title: str, reason: Reason, language: Catalogue, revealed: bool) -> WhyNotRow:
    if reason.private and not revealed:
        return WhyNotRow(title, "", "", True)
    rule = language.render(reason.rule) if reason.rule is not None else ""
    return WhyNotRow(title, language.render(reason.text), rule, False)


def why_not_rows(game: Game, language: Catalogue, *, revealed: bool) -> list[WhyNotRow]:
    """The kinds the bar does not offer now, in the bar's order, with their reasons; and,
    ``revealed``, each progress card held that cannot be played now."""
    player = game.prompt.player
    shown = {button.key for button in action_bar(game)}
    rows = []
    kinds = BAR_KINDS + (SEA_BAR_KINDS if game.topology.has_sea else ())
    for key, kind in kinds:
        if key in shown:
            continue
        reason = game.why_not(kind, player)
        if reason is not None:
            rows.append(_row(bar_title(key, language), reason, language, revealed))
    if revealed:
        for card in dict.fromkeys(game.progress_hand(player)):
            reason = game.why_not(card, player)
            if reason is not None:
                rows.append(_row(card_title(card, language), reason, language, revealed))
    return rows


def card_title(card: ProgressCard, language: Catalogue) -> str:
    return language.render(PROGRESS_TITLES[card])


def has_covered_rows(rows: list[WhyNotRow]) -> bool:
    return any(row.covered for row in rows)
