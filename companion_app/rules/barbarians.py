"""The barbarians (§7): the ship's advance, the attack, its Defender, deck choices and losses.

Under the evil barbarians variant every player first commits knights; the attack waits for
them in :data:`Stage.COMMIT` and goes on from :func:`continue_after_commit`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import combinations

from companion_app.rules import improvements, turnflow
from companion_app.rules import operations as ops
from companion_app.rules.actions import Action, ChooseProgressDeck, CommitKnights, LoseCity
from companion_app.rules.cards import TRACKS
from companion_app.rules.declare import ActionRule, Options, PromptRule, no_check
from companion_app.rules.messages import N_, Msg, msg
from companion_app.rules.pieces import DESTROYED_CITY, NOBODY, SETTLEMENT
from companion_app.rules.prompts import Prompt, PromptKind, Stage, knights_counted
from companion_app.rules.state import BarbarianAttack, GameState
from companion_app.rules.words import Line, LineKind, place_words

__all__ = ["BarbarianAttack", "advance_barbarians", "attack_outcome", "resolve_attack"]


def advance_barbarians(game: GameState) -> bool:
    """Move the ship one space; True if it reached the end and attacks now."""
    game.barbarian_position += 1
    if game.barbarian_position < game.config.barbarian_track_length:
        return False
    if game.config.evil_barbarians:
        game.committed = []
        game.pending.extend(Prompt(PromptKind.COMMIT_KNIGHTS, p) for p in game.seat_order())
        game.stage = Stage.COMMIT
    else:
        resolve_attack(game)
    return True


def defenders(game: GameState) -> list[int]:
    if game.config.evil_barbarians:
        return list(game.committed)
    active = game.knight_active
    return sorted(n for knights in game.knights_of for n in knights if active[n])


def attack_outcome(
    game: GameState, strength: int, per_player: Sequence[int]
) -> tuple[int, list[int], list[int]]:
    """Who wins what against ``strength`` with each seat's defence ``per_player`` (§7.3, §7.4):
    the single strongest defender (``NOBODY`` otherwise), the tied strongest who choose a deck,
    and the lowest defenders among the players with a city a barbarian can take; seat order
    from the active player. The attack and its forecast both read it."""
    order = game.seat_order()
    if sum(per_player) >= strength:
        best = max(per_player)
        strongest = [p for p in order if per_player[p] == best and best > 0]
        if len(strongest) == 1:
            return strongest[0], [], []
        return NOBODY, strongest, []
    exposed = [p for p in order if improvements.cities_without_metropolis(game, p)]
    if not exposed:
        return NOBODY, [], []
    lowest = min(per_player[p] for p in exposed)
    return NOBODY, [], [p for p in exposed if per_player[p] == lowest]


def resolve_attack(game: GameState) -> None:
    """Strength against defence; the Defender, the tied deck choices or the city losses; then
    the ship goes back, the defending knights turn inactive and the robber is free (§7).
    The outcome is kept in ``game.last_attack``."""
    n = game.player_count
    knights = defenders(game)
    per_player = [0] * n
    for node in knights:
        per_player[game.knight_owner[node]] += game.knight_level[node]
    strength = game.barbarian_strength()
    defender, tied, losers = attack_outcome(game, strength, per_player)
    if defender != NOBODY:
        game.defender_cards[defender] += 1
    game.pending.extend(Prompt(PromptKind.CHOOSE_PROGRESS_DECK, p) for p in tied)
    game.pending.extend(Prompt(PromptKind.LOSE_CITY, p) for p in losers)
    game.last_attack = BarbarianAttack(
        game.barbarian_attacks + 1,
        strength,
        tuple(per_player),
        defender,
        tuple(tied),
        tuple(losers),
    )
    for node in knights:
        game.knight_active[node] = False
    game.committed = []
    game.barbarian_position = 0
    game.barbarian_attacks += 1
    game.robber_unlocked = True
    game.stage = Stage.ATTACK


def commit_options(game: GameState, p: int) -> list[Action]:
    active = sorted(n for n in game.knights_of[p] if game.knight_active[n])
    return [
        CommitKnights(p, subset)
        for k in range(len(active) + 1)
        for subset in combinations(active, k)
    ]


def check_commit(game: GameState, a: CommitKnights) -> Msg | None:
    if len(set(a.nodes)) != len(a.nodes) or list(a.nodes) != sorted(a.nodes):
        return msg("list each committed knight once, in increasing intersection order")
    for node in a.nodes:
        if not ops.on_board(game, node) or game.knight_owner[node] != a.player:
            return msg("you have no knight on intersection {node}", node=node)
        if not game.knight_active[node]:
            return msg("the knight on {node} is inactive and cannot defend", node=node)
    return None


def do_commit(game: GameState, a: CommitKnights) -> None:
    game.committed.extend(a.nodes)
    turnflow.pending_done(game)


def check_lose_city(game: GameState, a: LoseCity) -> Msg | None:
    if a.node not in improvements.cities_without_metropolis(game, a.player):
        return msg("choose one of your cities without a metropolis; {node} is not", node=a.node)
    return None


def do_lose_city(game: GameState, a: LoseCity) -> None:
    p = a.player
    game.walls[a.node] = False
    if game.settlements_left(p) > 0:
        game.node_level[a.node] = SETTLEMENT
    else:
        game.node_level[a.node] = DESTROYED_CITY
    turnflow.pending_done(game)


def do_deck_choice(game: GameState, a: ChooseProgressDeck) -> None:
    """A tied strongest defender draws from the chosen deck (§7.3); a forced discard comes
    right after this choice."""
    ops.draw_progress(game, a.player, a.track, 1)
    turnflow.pending_done(game)


def continue_after_commit(game: GameState) -> None:
    """Every player committed knights: the attack, then its prompts or the production."""
    resolve_attack(game)
    turnflow.next_prompt(game)


def lose_city_options(game: GameState, p: int) -> list[Action]:
    return [LoseCity(p, n) for n in improvements.cities_without_metropolis(game, p)]


def deck_options(game: GameState, p: int) -> list[Action]:
    return [ChooseProgressDeck(p, t) for t in TRACKS]


def commit_button(game: GameState, a: CommitKnights, names: Sequence[str]) -> Msg:
    return (
        msg("Commit {knights}", knights=knights_counted(len(a.nodes)))
        if a.nodes
        else msg("Commit no knights")
    )


RULES = (
    ActionRule(
        CommitKnights,
        check_commit,
        do_commit,
        (PromptKind.COMMIT_KNIGHTS,),
        msg("commit knights against the barbarians"),
        button=commit_button,
        told=lambda t, a: [
            Line(
                LineKind.ATTACK,
                msg(
                    "{player} sends {knights}",
                    player=t.who(a.player),
                    knights=knights_counted(len(a.nodes)),
                ),
            )
        ],
    ),
    ActionRule(
        LoseCity,
        check_lose_city,
        do_lose_city,
        (PromptKind.LOSE_CITY,),
        msg("lose a city to the barbarians"),
        button=lambda g, a, names: msg("Lose a city to the barbarians at node {node}", node=a.node),
        told=lambda t, a: [
            Line(
                LineKind.ATTACK,
                msg(
                    "{player} loses the city {place}",
                    player=t.who(a.player),
                    place=place_words(t.game, a.node),
                ),
            )
        ],
    ),
    ActionRule(
        ChooseProgressDeck,
        no_check,
        do_deck_choice,
        (PromptKind.CHOOSE_PROGRESS_DECK,),
        msg("choose a progress deck"),
        button=lambda g, a, names: msg("Draw from the {track} deck", track=a.track.words),
        told=lambda t, a: [
            Line(
                LineKind.DRAW,
                msg(
                    "{player} chooses the {track} deck", player=t.who(a.player), track=a.track.words
                ),
            )
        ],
    ),
)
OPTIONS: dict[PromptKind, Options] = {
    PromptKind.COMMIT_KNIGHTS: commit_options,
    PromptKind.LOSE_CITY: lose_city_options,
    PromptKind.CHOOSE_PROGRESS_DECK: deck_options,
}
STAGES: dict[Stage, Callable[[GameState], None]] = {Stage.COMMIT: continue_after_commit}
PROMPTS = (
    PromptRule(PromptKind.COMMIT_KNIGHTS, N_("choose the active knights that face the barbarians")),
    PromptRule(PromptKind.LOSE_CITY, N_("the barbarians won: choose the city to lose")),
    PromptRule(
        PromptKind.CHOOSE_PROGRESS_DECK, N_("tied strongest defender: choose a progress deck")
    ),
)
