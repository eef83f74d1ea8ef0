"""The special build phase (5-6 players, §12): after each turn, the other players in seat
order may build before the next turn begins.

The phase is two prompts. The table's (``WHO_BUILDS``, answered by the seat whose turn comes
next): a player's name starts their special build, "nobody builds" ends the phase, and the next
player's roll ends it too and rolls. A builder's own (``SPECIAL_BUILD``): roads, settlements,
cities, city walls, knights (built, activated, promoted) and city improvements, until they are
done; no trade, no progress card, no knight action. The building actions declare
``SPECIAL_BUILD`` among their prompts in their own modules; this module declares the phase's own
actions and what each prompt offers. The flow itself is in :mod:`turnflow`.
"""

from __future__ import annotations

from collections.abc import Sequence

from companion_app.rules import base, improvements, knights, turnflow
from companion_app.rules.actions import Action, EndSpecialBuild, NobodyBuilds, StartSpecialBuild
from companion_app.rules.config import MAX_PLAYERS
from companion_app.rules.declare import ActionRule, Options, PromptRule, no_check
from companion_app.rules.messages import N_
from companion_app.rules.prompts import PromptKind
from companion_app.rules.state import GameState
from companion_app.rules.words import Line, LineKind, Telling

_START = [[StartSpecialBuild(p, b) for b in range(MAX_PLAYERS)] for p in range(MAX_PLAYERS)]
_NOBODY = [NobodyBuilds(p) for p in range(MAX_PLAYERS)]
_END = [EndSpecialBuild(p) for p in range(MAX_PLAYERS)]

SPECIAL_BUILD_PARTS: tuple[Options, ...] = (
    base.building_options,
    improvements.wall_actions,
    knights.knight_build_actions,
    improvements.improvement_actions,
)
"""What a special build offers, in the turn's order (§12: building, knights built, activated
and promoted, improvements); then being done."""


def check_start(game: GameState, a: StartSpecialBuild) -> str | None:
    if a.builder not in game.special_builders_left():
        return N_("the special build goes in seat order from the player after the turn's (§12)")
    return None


def do_start(game: GameState, a: StartSpecialBuild) -> None:
    turnflow.start_special_build(game, a.builder)


def do_nobody_builds(game: GameState, a: NobodyBuilds) -> None:
    turnflow.end_special_build_phase(game)


def do_end(game: GameState, a: EndSpecialBuild) -> None:
    turnflow.end_special_build(game)


def who_builds_options(game: GameState, p: int) -> list[Action]:
    """A name per seat that may still build, nobody, and every roll of the next player."""
    starts = _START[p]
    actions: list[Action] = [starts[b] for b in game.special_builders_left()]
    actions.append(_NOBODY[p])
    actions.extend(base.dice_rolls(p))
    return actions


def special_build_options(game: GameState, p: int) -> list[Action]:
    actions: list[Action] = []
    for part in SPECIAL_BUILD_PARTS:
        actions.extend(part(game, p))
    actions.append(_END[p])
    return actions


# ---- words ----------------------------------------------------------------------------------


def start_button(game: GameState, a: StartSpecialBuild, names: Sequence[str]) -> str:
    return N_("{player} builds").format(player=names[a.builder])


def start_told(t: Telling, a: StartSpecialBuild) -> list[Line]:
    text = N_("{player} builds in the special build phase").format(player=t.who(a.builder))
    return [Line(LineKind.BUILD, text)]


def nobody_told(t: Telling, a: NobodyBuilds) -> list[Line]:
    return [Line(LineKind.TURN, N_("Nobody builds in the special build phase"))]


def end_told(t: Telling, a: EndSpecialBuild) -> list[Line]:
    text = N_("{player} is done with the special build").format(player=t.who(a.player))
    return [Line(LineKind.BUILD, text)]


RULES = (
    ActionRule(
        StartSpecialBuild,
        check_start,
        do_start,
        (PromptKind.WHO_BUILDS,),
        N_("start a special build"),
        button=start_button,
        told=start_told,
    ),
    ActionRule(
        NobodyBuilds,
        no_check,
        do_nobody_builds,
        (PromptKind.WHO_BUILDS,),
        N_("nobody builds"),
        button=lambda g, a, names: N_("Nobody builds"),
        told=nobody_told,
    ),
    ActionRule(
        EndSpecialBuild,
        no_check,
        do_end,
        (PromptKind.SPECIAL_BUILD,),
        N_("end the special build"),
        button=lambda g, a, names: N_("Done building"),
        told=end_told,
    ),
)
OPTIONS: dict[PromptKind, Options] = {
    PromptKind.WHO_BUILDS: who_builds_options,
    PromptKind.SPECIAL_BUILD: special_build_options,
}
PROMPTS = (
    PromptRule(
        PromptKind.WHO_BUILDS,
        N_("special build phase before your roll: who builds?"),
        always_asked=True,
    ),
    PromptRule(
        PromptKind.SPECIAL_BUILD,
        N_("special build: build, then done"),
        always_asked=True,
    ),
)
