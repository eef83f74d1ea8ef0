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
    gold,
    improvements,
    knights,
    progress,
    robber,
    ships,
    specialbuild,
    turnflow,
)
from companion_app.rules.actions import ACTION_TYPES, Action
from companion_app.rules.declare import ActionRule, Decider, Options, PickedHand, PromptRule
from companion_app.rules.messages import Msg, Plural, Value, listing, msg, placeholders
from companion_app.rules.pieces import NOBODY
from companion_app.rules.prompts import Prompt, PromptKind
from companion_app.rules.state import GameState
from companion_app.rules.words import Line, Telling, hand_words

MECHANICS = (base, ships, robber, knights, barbarians, improvements, progress, specialbuild, gold)


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
CHECKS: dict[type[Action], Callable[[GameState, Action], Msg | None]] = {
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
    ships.turn_options,
    base.bank_trade_options,
    progress.harbor_exchanges,
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
        for kind, answers in module.OPTIONS.items():
            if kind in options:  # pragma: no cover - a declaration error
                raise AssertionError(f"the answers to {kind.value} are declared twice")
            options[kind] = answers
    return options


OPTIONS = _collect_options()
"""The legal answers to each prompt (GAME_OVER has none)."""

turnflow.CONTINUATIONS.update(base.STAGES)
turnflow.CONTINUATIONS.update(barbarians.STAGES)
turnflow.CONTINUATIONS.update(gold.STAGES)


SEA_TYPES = frozenset(t.type_name for t, r in RULES.items() if r.sea)
"""The action types only a game on a sea board has (§13)."""
PRIVATE_TYPES = frozenset(t.type_name for t, r in RULES.items() if r.private)
"""Turn actions whose choices name what the hand holds (kept behind the cover)."""


def summary(action: Action) -> Msg:
    """A short description of the action's kind, e.g. "build a road"."""
    return RULES[type(action)].summary


def button_words(state: GameState, action: Action, names: Sequence[str]) -> Msg:
    """What the action's button says to its decider, e.g. "Trade 4 brick for 1 ore"."""
    return RULES[type(action)].button(state, action, names)


def told_lines(telling: Telling, action: Action) -> list[Line]:
    """The action's own log lines (see :class:`~words.Telling`)."""
    return RULES[type(action)].told(telling, action)


# ---- prompts ----------------------------------------------------------------------------------


def _collect_prompts() -> dict[PromptKind, PromptRule]:
    prompts: dict[PromptKind, PromptRule] = {}
    for module in MECHANICS:
        for rule in module.PROMPTS:
            if rule.kind in prompts:  # pragma: no cover - a declaration error
                raise AssertionError(f"the prompt {rule.kind.value} is declared twice")
            prompts[rule.kind] = rule
    if set(prompts) != set(PromptKind):  # pragma: no cover - a declaration error
        missing = ", ".join(k.value for k in set(PromptKind) - set(prompts))
        raise AssertionError(f"prompts declared nowhere: {missing}")
    return prompts


PROMPTS = _collect_prompts()
"""Every prompt kind's declaration, from the mechanic modules."""
SEA_PROMPTS = frozenset(k for k, r in PROMPTS.items() if r.sea)
"""The prompts only a game on a sea board asks (§13)."""
PRIVATE_PROMPTS = frozenset(k for k, r in PROMPTS.items() if r.private)
"""Decisions whose options tell what a hand holds: shown only to the decider."""
PICKER_PROMPTS = frozenset(k for k, r in PROMPTS.items() if r.picker is not None)
"""Decisions among hidden cards, answered by a card picker."""
PHONE_PROMPTS = frozenset(k for k, r in PROMPTS.items() if r.phone)
"""Decisions a phone may answer."""
ALWAYS_ASKED = frozenset(k for k, r in PROMPTS.items() if r.asked_always)
"""Decisions asked even with a single option (the private ones among them: their one option
would tell the table the hand)."""


def prompt_rule(state: GameState) -> PromptRule:
    """The declaration of the prompt now due."""
    return PROMPTS[state.prompt.kind]


def prompt_words(prompt: Prompt, *, sea: bool = False) -> Msg:
    """The decision without its decider: "discard 4 cards", one sentence counted by the
    prompt's count; ``sea`` for a game on a sea board (§13)."""
    rule = PROMPTS[prompt.kind]
    # A prompt naming a track is the Diplomat's own road: it comes back as a road (R14).
    at_sea = sea and rule.sea_words and not prompt.track
    return said_of(rule.sea_words if at_sea else rule.words, prompt.count)


def describe_prompt(
    prompt: Prompt, names: Sequence[str] | None = None, *, sea: bool = False
) -> Msg:
    """Plain words for the top bar: "Anna: discard 4 cards"."""
    words = prompt_words(prompt, sea=sea)
    if names:
        return msg("{player}: {prompt}", player=names[prompt.player], prompt=words)
    return msg("Player {seat}: {prompt}", seat=prompt.player + 1, prompt=words)


def picked_from(state: GameState) -> tuple[int, PickedHand] | None:
    """Whose cards the decision now due chooses among (the seat, and which of their hands, or
    the bank's resources for a gold field's choice); None when it is no card picker's."""
    pick = PROMPTS[state.prompt.kind].picker
    if pick is None:
        return None
    owner = state.card_target if pick.hand.target else state.prompt.player
    return (owner, pick.hand) if owner != NOBODY else None


def _cards_shown(state: GameState) -> Msg:
    seat, hand = picked_from(state) or (state.prompt.player, PickedHand.OWN)
    if hand.progress:
        return listing([c.title for c in state.progress_hands[seat]], msg("none"))
    return hand_words(state.hands[seat])


def prompt_details(state: GameState, *, revealed: bool = False, phone: bool = False) -> Msg | None:
    """The decision's second line: a private prompt's cards once ``revealed`` (on the tablet;
    a phone is private), else what the decider answers (an offer); None if nothing."""
    rule = prompt_rule(state)
    names = state.config.names
    if rule.private and revealed and not phone:
        seat = state.card_target if state.card_target != NOBODY else state.prompt.player
        return msg_of(rule.shown, target=names[seat], cards=_cards_shown(state))
    template = rule.phone_details if phone else rule.details
    if isinstance(template, Plural):  # the decider's own cards, counted
        return template.counted(state.card_count(state.prompt.player))
    offer, offered = state.offer, state.harbor_offer
    if not template or ("{offerer}" in template and offer is None):
        return None
    if "{offered}" in template and offered is None:
        return None
    return msg_of(
        template,
        offerer=names[offer.player] if offer else "",
        gives=hand_words(offer.give) if offer else "",
        takes=hand_words(offer.take) if offer else "",
        active=names[state.active],
        offered=offered.words if offered else "",
    )


def picker_heading(state: GameState, count: int) -> Msg | None:
    """Who chooses what, ``count`` cards: "Blue: discard 4 cards", "Blue: take 2 cards from
    Red's hand"; None when the decision now due is no card picker's."""
    pick = prompt_rule(state).picker
    if pick is None:
        return None
    names = state.config.names
    target = names[state.card_target] if state.card_target != NOBODY else ""
    return pick.heading.counted(
        count, player=names[state.prompt.player], active=names[state.active], target=target
    )


def msg_of(template: str, **values: Value) -> Msg:
    """A declared message id (``N_``) with the values of the placeholders it uses."""
    used = placeholders(template)
    return Msg(template, tuple((k, v) for k, v in values.items() if k in used))


def said_of(words: str | Plural, count: int) -> Msg:
    """Declared words (``N_``, or ``Nn_`` counted by ``count``) as a message."""
    return words.counted(count) if isinstance(words, Plural) else msg_of(words, count=count)


def is_turn(state: GameState) -> bool:
    """The prompt is the turn's own (the roll, or the turn after it): the action bar's."""
    return prompt_rule(state).decider is Decider.ON_TURN
