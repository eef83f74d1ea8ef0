"""The bot's tools on the rules core: copies for look-ahead, its own seeded randomness, the
seat's answer "roll the dice", and a driver that plays whole games with bots.

Developer words: the driver is a tool for tests and benchmarks.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from companion_app.bot.decision import Decision, Player
from companion_app.rules.actions import Action, EventDie, Roll, StartSpecialBuild
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.invariants import violations
from companion_app.rules.pieces import NOBODY
from companion_app.rules.randomplay import random_roll
from companion_app.rules.rng import SplitMix64

_MASK = (1 << 64) - 1


def clone(game: Game) -> Game:
    """An independent copy of ``game`` for look-ahead: the one place a search copies a game."""
    return game.copy()


def mix(*values: int) -> int:
    """A 64-bit seed from a few integers."""
    state = 0x243F6A8885A308D3
    for value in values:
        state = SplitMix64((state ^ (value & _MASK)) * 0x9E3779B97F4A7C15 & _MASK).next64()
    return state


def bot_rng(game: Game, seat: int, salt: int = 0) -> SplitMix64:
    """The bot's randomness for one decision: the same game position, seat and salt give the
    same numbers, so replaying a game reproduces every bot action."""
    return SplitMix64(mix(game.config.seed, seat, len(game.history), salt))


def roll_answer(game: Game, seat: int) -> Roll:
    """ "Roll the dice": the table's dice box rolls; the values here are placeholders (the
    Alchemist's dice when he set them)."""
    fixed = game.alchemist_dice or (1, 1)
    return Roll(seat, fixed[0], fixed[1], EventDie.SHIP)


@dataclass
class GameRecord:
    """One game played by bots: who won, how long it took, the first problem met."""

    seed: int
    winner: int | None
    turns: int
    actions: int
    problem: str | None = None
    game: Game | None = None
    decisions: list[int] = field(default_factory=list)
    """The history index of every action a bot chose (rolls excepted)."""
    leader: int | None = None
    """The winner; at the turn cap, the one seat with the most points (None on a tie)."""


def play_game(
    config: GameConfig,
    players: Sequence[Player],
    *,
    dice_seed: int,
    max_turns: int = 300,
    check: bool = False,
    max_actions_per_turn: int = 400,
) -> GameRecord:
    """Play ``config``'s game with ``players[seat]`` deciding for each seat; the dice are
    random_roll's from ``dice_seed``. A problem (an illegal action, an invariant broken, a
    turn that does not end) stops the game and is named in the record."""
    game = Game.new(config)
    dice = SplitMix64(dice_seed)
    record = GameRecord(config.seed, None, 0, 0, game=game)
    turn_start, turn = 0, -1
    while not game.is_over and game.turn < max_turns:
        if game.turn != turn:
            turn, turn_start = game.turn, len(game.history)
        elif len(game.history) - turn_start > max_actions_per_turn:
            record.problem = f"turn {turn} did not end after {max_actions_per_turn} actions"
            break
        prompt = game.prompt
        try:
            action = _next_action(game, players, dice, record)
            game.apply(action)
        except Exception as exc:  # a bot's or the rules core's bug: named, the run goes on
            record.problem = f"at action {len(game.history)} ({prompt.kind.value}): {exc!r}"
            break
        if check:
            problems = violations(game)
            if problems:
                record.problem = f"after action {len(game.history)}: {problems[0]}"
                break
    record.turns = game.turn
    record.actions = len(game.history)
    record.winner = game.winner if game.winner != NOBODY else None
    record.leader = record.winner
    if record.winner is None:
        points = [game.victory_points(p) for p in range(game.player_count)]
        best = max(points)
        if points.count(best) == 1:
            record.leader = points.index(best)
    return record


def _next_action(
    game: Game, players: Sequence[Player], dice: SplitMix64, record: GameRecord
) -> Action:
    prompt = game.prompt
    phase = game.special_build
    if game.awaiting_roll and phase is not None and not phase.building:
        for seat in game.special_builders_left():
            wish = players[seat].decide(game, seat)
            if isinstance(wish.action, StartSpecialBuild):
                record.decisions.append(len(game.history))
                return wish.action
        return random_roll(dice, prompt.player)
    decision: Decision = players[prompt.player].decide(game, prompt.player)
    if isinstance(decision.action, Roll):
        return random_roll(dice, prompt.player, game.alchemist_dice)
    record.decisions.append(len(game.history))
    return decision.action
