"""Random legal play, for the random-game CLI, invariant tests and benchmarks.

The policy picks an action *kind* uniformly, then an action of that kind uniformly, so turns do
not drown in bank trades; rolls are fair dice as the dice box would roll them, and now and then
it makes a one-for-one domestic offer to exercise that path. Progress cards are played like any
other kind of action (each card's plays are one kind), so over many seeds every card is played;
before the roll an Alchemist is played now and then, and the roll then obeys it. With 5-6
players, the table's question who special-builds is answered by a name, "nobody" or the roll,
each as likely; a special build picks among its kinds as a turn does.

Developer words: random play is a tool for tests and engineers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from companion_app.rules.actions import (
    EVENT_DIE_FACES,
    Action,
    NobodyBuilds,
    OfferTrade,
    PlayProgress,
    Roll,
    StartSpecialBuild,
)
from companion_app.rules.base import dice_rolls
from companion_app.rules.cards import CARD_KINDS
from companion_app.rules.config import MAX_PLAYERS, GameConfig
from companion_app.rules.game import Game
from companion_app.rules.invariants import violations
from companion_app.rules.pieces import NOBODY
from companion_app.rules.prompts import PromptKind
from companion_app.rules.rng import SplitMix64


@dataclass
class RandomGameResult:
    seed: int
    winner: int | None
    turns: int
    actions: int
    violation: str | None = None
    game: Game | None = None

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "seed": self.seed,
            "winner": self.winner,
            "turns": self.turns,
            "actions": self.actions,
        }
        if self.violation:
            data["violation"] = self.violation
        return data


def random_roll(rng: SplitMix64, player: int, fixed: tuple[int, int] | None = None) -> Roll:
    """Fair dice, or (after an Alchemist) the fixed production dice with a fair event die."""
    rolls = _ROLLS[player]
    if fixed is not None:
        return rolls[(fixed[0] - 1) * 36 + (fixed[1] - 1) * 6 + rng.below(6)]
    yellow = rng.below(6)  # the dice in this order: yellow, red, event
    red = rng.below(6)
    return rolls[yellow * 36 + red * 6 + rng.below(6)]


def _rolls(player: int) -> tuple[Roll, ...]:
    """Seat ``player``'s rolls (the values its listing has) by yellow, red and event die face."""
    by_dice = {(a.yellow, a.red, a.event): a for a in dice_rolls(player)}
    return tuple(
        by_dice[y, r, face] for y in range(1, 7) for r in range(1, 7) for face in EVENT_DIE_FACES
    )


_ROLLS = [_rolls(p) for p in range(MAX_PLAYERS)]


def choose_random_action(game: Game, rng: SplitMix64) -> Action:
    """One random legal action for the player the game waits for."""
    prompt = game.prompt
    if prompt.kind is PromptKind.ROLL:
        if game.progress_hands[prompt.player] and rng.below(4) == 0:
            before = [a for a in game.legal_actions() if not isinstance(a, Roll)]
            if before:
                return before[rng.below(len(before))]
        return random_roll(rng, prompt.player, game.alchemist_dice)
    legal = game.legal_actions()
    if prompt.kind is PromptKind.WHO_BUILDS:
        return _who_builds(game, rng, legal)
    if prompt.kind is PromptKind.TURN or prompt.kind is PromptKind.SPECIAL_BUILD:
        if rng.below(50) == 0 and game.may_offer_trade():
            offer = _random_offer(game, rng)
            if offer is not None:
                return offer
        by_kind: dict[object, list[Action]] = {}
        run: object = None  # the type of the action before: a kind's actions come in a run
        group: list[Action] = []
        for action in legal:
            kind: object = type(action)
            if kind is run and kind is not PlayProgress:
                group.append(action)
                continue
            run = kind
            if kind is PlayProgress:
                kind = action.card  # type: ignore[attr-defined]  # a PlayProgress, by its type
            found = by_kind.get(kind)
            if found is None:
                group = by_kind[kind] = [action]
            else:
                group = found
                group.append(action)
        kinds = list(by_kind.values())
        group = kinds[rng.below(len(kinds))]
        return group[rng.below(len(group))]
    return legal[rng.below(len(legal))]


def _who_builds(game: Game, rng: SplitMix64, legal: list[Action]) -> Action:
    starts = [a for a in legal if isinstance(a, StartSpecialBuild)]
    choice = rng.below(3 if starts else 2)
    if choice == 0:
        return NobodyBuilds(game.prompt.player)
    if choice == 1:
        return random_roll(rng, game.prompt.player)
    return starts[rng.below(len(starts))]


def _random_offer(game: Game, rng: SplitMix64) -> OfferTrade | None:
    p = game.active
    held = [c for c in range(CARD_KINDS) if game.hands[p][c]]
    if not held:
        return None
    give = [0] * CARD_KINDS
    take = [0] * CARD_KINDS
    g = held[rng.below(len(held))]
    t = (g + 1 + rng.below(CARD_KINDS - 1)) % CARD_KINDS
    give[g] = 1
    take[t] = 1
    to = (p + 1 + rng.below(game.player_count - 1)) % game.player_count
    return OfferTrade(p, to, tuple(give), tuple(take))


def play_random_game(
    seed: int,
    *,
    players: int = 4,
    max_turns: int = 500,
    check: bool = False,
    scenario: str | None = None,
) -> RandomGameResult:
    """Play one random game from ``seed`` until a winner or ``max_turns`` turns (on the
    scenario's sea map if one is named, §13)."""
    game = Game.new(GameConfig.for_players(players, seed=seed, scenario=scenario))
    rng = SplitMix64(seed ^ 0x5EED)
    actions = 0
    while not game.is_over and game.turn < max_turns:
        game.apply(choose_random_action(game, rng))
        actions += 1
        if check:
            problems = violations(game)
            if problems:
                return RandomGameResult(
                    seed, None, game.turn, actions, f"after action {actions}: {problems[0]}", game
                )
    winner = game.winner if game.winner != NOBODY else None
    return RandomGameResult(seed, winner, game.turn, actions, None, game)
