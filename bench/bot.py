"""The bot's strength and speed: duplicate games between levels, and decision times over a
fixed suite of recorded positions (one core, CPU time).

Duplicate games: each seed's board and dice are played once per seat rotation, so the player
measured sits in every seat of the same deal; a game without a winner by the turn cap goes to
the one player with the most points (to nobody on a tie; random players rarely finish a game).
Win shares carry a 95 % Wilson interval.

Anchor, in the same run: the greedy player's decision time on the same positions (the expert
searches on top of it).
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bench.table import Row, median, percentile, verdict
from companion_app.bot.decision import Player
from companion_app.bot.players import ExpertPlayer, GreedyPlayer, RandomPlayer, WeightedRandomPlayer
from companion_app.bot.sim import play_game
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game

SECTION = "bot"


@dataclass
class Sizes:
    seeds: int = 25
    """Deals per match; each is played once per seat rotation (3-4 games)."""
    expert_seeds: int = 12
    max_turns: int = 250
    positions: int = 120
    """Recorded positions timed (from greedy games, every fifth decision)."""


@dataclass(frozen=True)
class Match:
    name: str
    players: int
    hero: Callable[[], Player]
    others: Callable[[], Player]
    target: float
    lower: float = 0.0
    expert: bool = False


MATCHES = (
    Match("expert vs 3 random", 4, ExpertPlayer, RandomPlayer, 0.95, expert=True),
    Match("expert vs 3 greedy", 4, ExpertPlayer, GreedyPlayer, 0.40, 0.31, expert=True),
    Match("expert vs 2 greedy (3p)", 3, ExpertPlayer, GreedyPlayer, 0.50, expert=True),
    Match("weighted random vs 3 random", 4, WeightedRandomPlayer, RandomPlayer, 0.25, 0.25),
    Match("greedy vs 3 weighted random", 4, GreedyPlayer, WeightedRandomPlayer, 0.90),
    Match(
        "greedy, 1 offer a turn, vs 3 without offers",
        4,
        lambda: GreedyPlayer(offers=1),
        lambda: GreedyPlayer(offers=0),
        0.25,
    ),
)


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The 95 % Wilson score interval of a win share."""
    if games == 0:
        return (0.0, 1.0)
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return (max(0.0, centre - half), min(1.0, centre + half))


def duplicate(match: Match, seeds: int, max_turns: int) -> tuple[int, int, int, float]:
    """(wins, games, games at the turn cap, CPU seconds) of the match's hero."""
    wins = games = capped = 0
    start = time.process_time()
    for seed in range(1, seeds + 1):
        config = GameConfig.for_players(match.players, seed=seed)
        for hero_seat in range(match.players):
            seated = [
                match.hero() if s == hero_seat else match.others() for s in range(match.players)
            ]
            record = play_game(config, seated, dice_seed=seed * 7919, max_turns=max_turns)
            games += 1
            wins += record.leader == hero_seat
            capped += record.winner is None
    return wins, games, capped, time.process_time() - start


def recorded_positions(count: int) -> list[Game]:
    """Positions of greedy 4-player games, every fifth bot decision, replayed from history."""
    positions: list[Game] = []
    seed = 100
    while len(positions) < count:
        config = GameConfig.for_players(4, seed=seed)
        record = play_game(
            config, [GreedyPlayer() for _ in range(4)], dice_seed=seed, max_turns=120
        )
        assert record.game is not None
        history = record.game.history
        for index in record.decisions[::5]:
            positions.append(Game.replay(config, history[:index]))
        seed += 1
    return positions[:count]


def decision_times(player: Player, positions: Sequence[Game]) -> tuple[list[float], list[float]]:
    """CPU ms per decision: all of them, and those answering for a seat off its turn."""
    every: list[float] = []
    off_turn: list[float] = []
    for game in positions:
        seat = game.prompt.player
        start = time.process_time()
        player.decide(game, seat)
        ms = 1000 * (time.process_time() - start)
        every.append(ms)
        if seat != game.active:
            off_turn.append(ms)
    return every, off_turn


def run(sizes: Sizes) -> list[Row]:
    rows: list[Row] = []
    for match in MATCHES:
        seeds = sizes.expert_seeds if match.expert else sizes.seeds
        wins, games, capped, seconds = duplicate(match, seeds, sizes.max_turns)
        low, high = wilson(wins, games)
        share = wins / games
        meets = share >= match.target and low > match.lower
        rows.append(
            Row(
                SECTION,
                f"{match.name}: win share",
                round(100 * share, 1),
                "%",
                f"≥ {100 * match.target:.0f} %"
                + (f", lower bound > {100 * match.lower:.0f} %" if match.lower else ""),
                f"95 % interval {100 * low:.0f}-{100 * high:.0f} %, {games} games",
                "meets" if meets else "misses",
                {
                    "wins": wins,
                    "games": games,
                    "at_turn_cap": capped,
                    "seeds": seeds,
                    "cpu_s": round(seconds, 1),
                },
            )
        )
    positions = recorded_positions(sizes.positions)
    greedy, _ = decision_times(GreedyPlayer(), positions)
    every, off_turn = decision_times(ExpertPlayer(), positions)
    anchor = f"greedy p50 {median(greedy):.1f} ms"
    for name, values, target in (
        ("expert decision p50", every, 50.0),
        ("expert decision p99", every, 600.0),
        ("expert decision max", every, 2500.0),
    ):
        figure = median(values) if name.endswith("p50") else percentile(values, 99)
        if name.endswith("max"):
            figure = max(values)
        rows.append(
            Row(
                SECTION,
                f"{name} ({len(values)} positions)",
                round(figure, 1),
                "ms",
                f"≤ {target:.0f} ms",
                anchor,
                verdict(figure, below=target + 1e-9),
            )
        )
    if off_turn:
        figure = percentile(off_turn, 99)
        rows.append(
            Row(
                SECTION,
                f"expert off-turn answer p99 ({len(off_turn)} positions)",
                round(figure, 1),
                "ms",
                "≤ 300 ms",
                anchor,
                verdict(figure, below=300 + 1e-9),
            )
        )
    return rows
