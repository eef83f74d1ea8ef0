"""Turn flow (§2, §3): the setup order, the prompt queue, the stage and the end of a turn.

``state.pending`` queues the decisions that come before play goes on (discards, city losses,
deck choices, card follow-ups); ``state.prompt`` is the one shown now. When the queue is empty
the :class:`~prompts.Stage` says what the interrupted roll goes on with. The mechanics that own
a stage's next step (the barbarian attack, the production) register it in
:data:`CONTINUATIONS` through the registry, so this layer does not import them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from companion_app.rules.cards import LARGE_GAME_PLAYERS
from companion_app.rules.prompts import ROLL_PROMPTS, TURN_PROMPTS, Prompt, PromptKind, Stage
from companion_app.rules.state import SETUP_KINDS, GameState, SpecialBuildPhase

CONTINUATIONS: dict[Stage, Callable[[GameState], None]] = {}
"""What :data:`Stage.COMMIT`, :data:`Stage.ATTACK` and :data:`Stage.GOLD` go on with; filled by
:mod:`registry`."""


def setup_player(state: GameState, step: int) -> int:
    """Placement k (two steps each): seats in order, then in reverse order (§2)."""
    k = step // 2
    n = state.player_count
    return state.seats[k] if k < n else state.seats[2 * n - 1 - k]


def advance_setup(state: GameState) -> None:
    """The next setup placement, or the first turn after the last one (§2)."""
    state.setup_step += 1
    n = state.player_count
    if state.setup_step == 4 * n:
        state.active = state.config.first_player
        start_turn_prompt(state)
        return
    state.prompt = setup_prompt(state)
    state.active = state.prompt.player


def setup_prompt(state: GameState) -> Prompt:
    """The placement the setup's step waits for."""
    p = setup_player(state, state.setup_step)
    if state.setup_step % 2 == 1:
        return Prompt(PromptKind.SETUP_ROAD, p)
    if state.setup_step // 2 < state.player_count:
        return Prompt(PromptKind.SETUP_SETTLEMENT, p)
    return Prompt(PromptKind.SETUP_CITY, p)


def start_turn_prompt(state: GameState) -> None:
    state.rolled = False
    state.prompt = ROLL_PROMPTS[state.active]


def finish_turn(state: GameState) -> None:
    """Knights may act again, the next seat rolls, a Merchant Fleet ends (§3, §10); with 5-6
    players the special build phase comes before that roll (§12)."""
    clear_knight_flags(state)
    ended = state.active
    state.turns_taken[ended] += 1
    state.turn += 1
    state.active = state.next_seat(ended)
    state.last_production = ()
    if state.fleet:
        state.fleet = []
        state.update_trade_rates(ended)
    state.harbor_open = False
    state.harbor_done = []
    if state.ships_placed or state.ship_moved:  # Seafarers: ships may move again (§13.3)
        state.ships_placed = []
        state.ship_moved = False
    if state.player_count >= LARGE_GAME_PLAYERS:
        state.special_build = SpecialBuildPhase(ended)
        state.rolled = False
        state.prompt = Prompt(PromptKind.WHO_BUILDS, state.active)
    else:
        start_turn_prompt(state)


def clear_knight_flags(state: GameState) -> None:
    """A new turn: every knight may be activated, promoted and act again (§6)."""
    flags = state.knight_flags
    flags[:] = [0] * len(flags)


# ---- the special build phase (5-6 players, §12) ------------------------------------------------


def special_build_prompt(state: GameState) -> Prompt:
    """The builder's special build, or the table's question who builds next."""
    phase = state.special_build
    assert phase is not None
    if phase.building:
        return Prompt(PromptKind.SPECIAL_BUILD, phase.builder)
    return Prompt(PromptKind.WHO_BUILDS, state.active)


def start_special_build(state: GameState, builder: int) -> None:
    """``builder`` builds now; the seats before them in the phase's order have passed."""
    assert state.special_build is not None
    state.special_build = replace(state.special_build, builder=builder, building=True)
    state.prompt = Prompt(PromptKind.SPECIAL_BUILD, builder)


def end_special_build(state: GameState) -> None:
    """The builder is done: the table says who builds next, or the phase is over."""
    assert state.special_build is not None
    state.special_build = replace(state.special_build, building=False)
    if state.special_builders_left():
        state.prompt = Prompt(PromptKind.WHO_BUILDS, state.active)
    else:
        end_special_build_phase(state)


def end_special_build_phase(state: GameState) -> None:
    """The next player's turn begins: its roll. A knight activated in the phase may act in it,
    and a player who reached the target in the phase wins now if it still holds (§12, §11)."""
    state.special_build = None
    clear_knight_flags(state)
    start_turn_prompt(state)


def next_prompt(state: GameState) -> None:
    """Show the next queued decision, or go on with what the queue interrupted."""
    if state.pending:
        state.prompt = state.pending[0]
        return
    stage, state.stage = state.stage, Stage.NONE
    if stage is Stage.COMMIT or stage is Stage.ATTACK or stage is Stage.GOLD:
        CONTINUATIONS[stage](state)
    elif stage is Stage.END_TURN:
        finish_turn(state)
    elif stage is Stage.DISCARD and state.robber_unlocked:
        state.robber_by_knight = False
        # On a sea board the roller moves the robber or the pirate (§13.4).
        kind = PromptKind.MOVE_ROBBER if state.pirate_cell < 0 else PromptKind.MOVE_ROBBER_OR_PIRATE
        state.prompt = Prompt(kind, state.active)
    elif state.special_build is not None:
        state.prompt = special_build_prompt(state)
    elif state.setup_step < 4 * state.player_count:  # a starting city's gold choice (R21)
        state.prompt = setup_prompt(state)
    else:
        state.prompt = (TURN_PROMPTS if state.rolled else ROLL_PROMPTS)[state.active]


def pending_done(state: GameState) -> None:
    """The decision shown now is made: on to the next."""
    state.pending.pop(0)
    next_prompt(state)


def pending_step_done(state: GameState) -> None:
    """One step of a counted prompt (cards to discard, free roads...) is done: the next step,
    or the prompt is finished."""
    prompt = state.pending[0]
    if prompt.count > 1:
        state.pending[0] = Prompt(prompt.kind, prompt.player, prompt.count - 1)
        state.prompt = state.pending[0]
    else:
        pending_done(state)


def check_win(state: GameState) -> None:
    """A player wins on reaching the VP target during their own turn (§11); nobody wins during
    a special build phase (§12)."""
    if state.prompt.kind in SETUP_KINDS or state.prompt.kind is PromptKind.GAME_OVER:
        return
    if state.special_build is not None:
        return
    if state.victory_points(state.active) >= state.config.vp_target:
        state.winner = state.active
        state.prompt = Prompt(PromptKind.GAME_OVER, state.active)
