"""How a mechanic declares its actions: one :class:`ActionRule` per action type.

A mechanic module lists its rules in ``RULES`` and the answers to the prompts it owns in
``OPTIONS``; :mod:`registry` collects them, and ``Game.legal_actions``, ``Game.apply`` and the
app's descriptions read the registry. Adding an action touches its mechanic module (and the
action's dataclass in :mod:`actions`).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from companion_app.rules.actions import Action
from companion_app.rules.prompts import PromptKind
from companion_app.rules.state import GameState

Check = Callable[[GameState, Any], str | None]
"""Why the action is illegal now (price, place, timing), in words naming the rule; None if
legal. Called only when the action answers the prompt shown and is its player's."""
Effect = Callable[[GameState, Any], None]
"""Applies a legal action."""
Options = Callable[[GameState, int], list[Action]]
"""The legal actions of a player for a prompt (or a part of the turn), in a stable order."""


@dataclass(frozen=True, slots=True)
class ActionRule:
    """One action type: when it may be taken, whether it is legal, what it does."""

    action: type[Action]
    check: Check
    effect: Effect
    prompts: tuple[PromptKind, ...]
    """The prompts it answers."""
    summary: str
    """A short description for people ("build a road"), read by the app."""
    quick_knights_prompts: tuple[PromptKind, ...] = ()
    """Further prompts it answers in the quick knights variant (§3)."""


def no_check(state: GameState, action: Any) -> str | None:
    """For actions legal whenever their prompt is shown."""
    return None
