"""Every action of the game, collected from the mechanic modules that declare them.

``Game.legal_actions``, ``Game.illegal_reason`` / ``Game.apply``, the app's buttons and the game
log read these tables; nothing else lists or words actions. The order of :data:`TURN_PARTS` is
the order of the legal actions on a turn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from companion_app.rules import (
    barbarians,
    base,
    improvements,
    knights,
    progress,
    robber,
    turnflow,
)
from companion_app.rules.actions import ACTION_TYPES, Action
from companion_app.rules.declare import ActionRule, Options
from companion_app.rules.prompts import PromptKind
from companion_app.rules.state import GameState
from companion_app.rules.words import Line, Telling

MECHANICS = (base, robber, knights, barbarians, improvements, progress)


def _collect_rules() -> dict[type[Action], ActionRule]:
    rules: dict[type[Action], ActionRule] = {}
    for module in MECHANICS:
        for rule in module.RULES:
            if rule.action in rules:  # pragma: no cover - a declaration error
                raise AssertionError(f"{rule.action.__name__} is declared twice")
            rules[rule.action] = rule
    return rules


RULES = _collect_rules()
ACTION_TYPES.update((t.type_name, t) for t in RULES)
CHECKS: dict[type[Action], Callable[[GameState, Action], str | None]] = {
    t: r.check for t, r in RULES.items()
}
EFFECTS: dict[type[Action], Callable[[GameState, Action], None]] = {
    t: r.effect for t, r in RULES.items()
}


def _answering(*, quick_knights: bool) -> dict[PromptKind, frozenset[type[Action]]]:
    allowed: dict[PromptKind, set[type[Action]]] = {kind: set() for kind in PromptKind}
    for rule in RULES.values():
        prompts = rule.prompts + (rule.quick_knights_prompts if quick_knights else ())
        for kind in prompts:
            allowed[kind].add(rule.action)
    return {kind: frozenset(types) for kind, types in allowed.items()}


ALLOWED = _answering(quick_knights=False)
"""The action types answering each prompt."""
ALLOWED_QUICK_KNIGHTS = _answering(quick_knights=True)
"""The same under the quick knights variant (a knight may chase the robber before the roll)."""

TURN_PARTS: tuple[Options, ...] = (
    base.building_options,
    base.bank_trade_options,
    improvements.wall_actions,
    knights.turn_options,
    improvements.improvement_actions,
    progress.turn_plays,
    base.end_turn_options,
)


def turn_options(state: GameState, p: int) -> list[Action]:
    """Everything the player on turn may do after the roll (domestic offers aside)."""
    actions: list[Action] = []
    for part in TURN_PARTS:
        actions.extend(part(state, p))
    return actions


def roll_options(state: GameState, p: int) -> list[Action]:
    """The rolls and the Alchemist; with quick knights, chasing the robber too."""
    actions = base.roll_options(state, p)
    if state.config.quick_knights:
        actions.extend(knights.chase_actions(state, p))
    return actions


def _collect_options() -> dict[PromptKind, Options]:
    options: dict[PromptKind, Options] = {
        PromptKind.TURN: turn_options,
        PromptKind.ROLL: roll_options,
    }
    for module in MECHANICS:
        for kind, listing in module.OPTIONS.items():
            if kind in options:  # pragma: no cover - a declaration error
                raise AssertionError(f"the answers to {kind.value} are declared twice")
            options[kind] = listing
    return options


OPTIONS = _collect_options()
"""The legal answers to each prompt (GAME_OVER has none)."""

turnflow.CONTINUATIONS.update(base.STAGES)
turnflow.CONTINUATIONS.update(barbarians.STAGES)


def summary(action: Action) -> str:
    """A short description of the action's kind, e.g. "build a road"."""
    return RULES[type(action)].summary


def button_words(state: GameState, action: Action, names: Sequence[str]) -> str:
    """What the action's button says to its decider, e.g. "Trade 4 brick for 1 ore"."""
    return RULES[type(action)].button(state, action, names)


def told_lines(telling: Telling, action: Action) -> list[Line]:
    """The action's own log lines (see :class:`~words.Telling`)."""
    return RULES[type(action)].told(telling, action)
