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
from typing import Any

from companion_app.rules.actions import Action
from companion_app.rules.prompts import PromptKind
from companion_app.rules.state import GameState
from companion_app.rules.words import Line, Telling

Check = Callable[[GameState, Any], str | None]
"""Why the action is illegal now (price, place, timing), in words naming the rule; None if
legal. Called only when the action answers the prompt shown and is its player's."""
Effect = Callable[[GameState, Any], None]
"""Applies a legal action."""
Options = Callable[[GameState, int], list[Action]]
"""The legal actions of a player for a prompt (or a part of the turn), in a stable order."""
Button = Callable[[GameState, Any, Sequence[str]], str]
"""What the action's button says to its decider (state before the action, the seats' names)."""
Told = Callable[[Telling, Any], list[Line]]
"""The action's own log lines, read after it: public text, and private detail for its
audience (the card stolen, the progress card taken)."""


@dataclass(frozen=True, slots=True)
class ActionRule:
    """One action type: when it may be taken, whether it is legal, what it does, its words."""

    action: type[Action]
    check: Check
    effect: Effect
    prompts: tuple[PromptKind, ...]
    """The prompts it answers."""
    summary: str
    """A short description of the kind of action ("build a road")."""
    button: Button
    told: Told
    quick_knights_prompts: tuple[PromptKind, ...] = ()
    """Further prompts it answers in the quick knights variant (§3)."""


def no_check(state: GameState, action: Any) -> str | None:
    """For actions legal whenever their prompt is shown."""
    return None


def nothing_told(t: Telling, action: Any) -> list[Line]:
    """For actions the log says nothing of (what follows them speaks for them)."""
    return []
