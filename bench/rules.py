"""Rules core: random full 4-player C&K playouts against catanatron's random 4-player base games,
and 6-player playouts (the 30-hex island, the special build phase) beside the 4-player ones.

Both are played in the same process, interleaved round by round (one batch of ours, one batch of
catanatron's), so load from other users of the machine hits both alike; the ratio is the median of
the per-round ratios. The 6-player batch runs in the same rounds, its ratio to the 4-player
batch of the round likewise. Times are CPU time (:data:`CLOCK`). Ours go through the public
API (`play_random_game`, and `choose_random_action` + `Game.apply` for the per-action times);
catanatron's through `Game.play` / `Game.play_tick` with its `RandomPlayer`. Both sides check
each action before applying it: catanatron's `execute` looks it up in its playable actions,
`Game.apply` in the listed legal actions (the very value) or else by the rules.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from bench.table import NOT_AVAILABLE, Row, fmt, median, percentile
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action, play_random_game
from companion_app.rules.rng import SplitMix64

SECTION = "Rules core"
CLOCK = time.process_time
"""CPU time of this process, for both sides: the machine is shared, and time another program
took while one side ran is not that side's."""


@dataclass
class Sizes:
    rounds: int = 31  # interleaved rounds (0.2 s each; per-round ratios spread ×1.7-×3.2)
    games_per_round: int = 2  # of each side, for the throughput
    timed_games: int = 6  # games whose every action is timed (p50/p99)
    undos: int = 200  # undo + redo pairs at UNDO_DEPTH actions
    positions: int = 400  # recorded mid-game positions of each side, for the search primitives
    search_rounds: int = 10  # interleaved rounds over them (40 positions of each side a round)


UNDO_DEPTH = 1000


def _ours_batch(
    first_seed: int, games: int, players: int = 4, scenario: str | None = None
) -> tuple[int, float]:
    actions = 0
    start = CLOCK()
    for seed in range(first_seed, first_seed + games):
        actions += play_random_game(seed, players=players, scenario=scenario).actions
    return actions, CLOCK() - start


def _catanatron_batch(first_seed: int, games: int) -> tuple[int, float]:
    from catanatron import Color, Game, RandomPlayer

    colours = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)
    actions = 0
    elapsed = 0.0
    for seed in range(first_seed, first_seed + games):
        game = Game([RandomPlayer(c) for c in colours], seed=seed)
        start = CLOCK()
        game.play()
        elapsed += CLOCK() - start
        actions += len(game.state.actions)
    return actions, elapsed


def _ours_action_times(first_seed: int, games: int) -> list[float]:
    """Seconds per action (choose a random legal action + apply it), every action of ``games``."""
    times: list[float] = []
    clock = CLOCK
    for seed in range(first_seed, first_seed + games):
        game = Game.new(GameConfig.for_players(4, seed=seed))
        rng = SplitMix64(seed ^ 0x5EED)
        while not game.is_over and game.turn < 500:
            start = clock()
            game.apply(choose_random_action(game, rng))
            times.append(clock() - start)
    return times


def _catanatron_action_times(first_seed: int, games: int) -> list[float]:
    from catanatron import Color, Game, RandomPlayer
    from catanatron.game import TURNS_LIMIT

    colours = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)
    times: list[float] = []
    clock = CLOCK
    for seed in range(first_seed, first_seed + games):
        game = Game([RandomPlayer(c) for c in colours], seed=seed)
        while game.winning_color() is None and game.state.num_turns < TURNS_LIMIT:
            start = clock()
            game.play_tick()
            times.append(clock() - start)
    return times


def _undo_times(seed: int, depth: int, undos: int) -> list[float]:
    """Seconds per undo after ``depth`` actions: ``undos`` undos, each followed by a redo."""
    game = Game.new(GameConfig.for_players(4, seed=seed))
    rng = SplitMix64(seed ^ 0x5EED)
    while len(game.history) < depth and not game.is_over:
        game.apply(choose_random_action(game, rng))
    times: list[float] = []
    clock = CLOCK
    for _ in range(undos):
        start = clock()
        undone = game.undo()
        times.append(clock() - start)
        game.apply(undone)
    return times


def _our_positions(count: int) -> list[Game]:
    """``count`` mid-game positions: from seeded random games, every 97th action from the
    second setup round on (rolls, turns, discards, card follow-ups as they come), a won game's
    last position excepted (nothing is left to apply there)."""
    positions: list[Game] = []
    seed = 1
    while len(positions) < count:
        game = Game.new(GameConfig.for_players(4, seed=seed))
        rng = SplitMix64(seed ^ 0x5EED)
        while not game.is_over and game.turn < 500 and len(positions) < count:
            game.apply(choose_random_action(game, rng))
            if len(game.history) % 97 == 0 and not game.is_over:
                positions.append(game.copy())
        seed += 1
    return positions


def _catanatron_positions(count: int) -> list[Any]:
    """The same from catanatron's random 4-player games, every 97th action, a won game's last
    position excepted."""
    from catanatron import Color, Game, RandomPlayer

    colours = (Color.RED, Color.BLUE, Color.WHITE, Color.ORANGE)
    positions: list[Any] = []
    seed = 1
    while len(positions) < count:
        game = Game([RandomPlayer(c) for c in colours], seed=seed)
        while game.winning_color() is None and len(positions) < count:
            game.play_tick()
            if len(game.state.actions) % 97 == 0 and game.winning_color() is None:
                positions.append(game.copy())
            if game.state.num_turns >= 1000:
                break
        seed += 1
    return positions


def _our_copy_apply(positions: list[Game], rng: SplitMix64) -> tuple[list[float], list[float]]:
    """Seconds per copy + apply of a random legal action, and per push + undo of one."""
    copy_apply: list[float] = []
    push_undo: list[float] = []
    clock = CLOCK
    for game in positions:
        action = choose_random_action(game, rng)
        start = clock()
        game.copy().apply(action)
        copy_apply.append(clock() - start)
        start = clock()
        game.push(action)
        game.undo()
        push_undo.append(clock() - start)
    return copy_apply, push_undo


def _catanatron_copy_execute(positions: list[Any], rng: SplitMix64) -> list[float]:
    """Seconds per ``game.copy()`` + ``execute`` of a random playable action."""
    times: list[float] = []
    clock = CLOCK
    for game in positions:
        actions = game.state.playable_actions
        action = actions[rng.below(len(actions))]
        start = clock()
        game.copy().execute(action)
        times.append(clock() - start)
    return times


def search_rows(sizes: Sizes, have_anchor: bool) -> list[Row]:
    """Copy + apply per call on recorded mid-game positions, beside catanatron's ``copy()`` +
    ``execute`` on its own; push + undo beside the same. Interleaved by rounds over slices of
    the positions; the ratio is the median of the rounds' ratios of median time per call.

    Each call is timed once, right after its action is chosen, alike on both sides. A round
    holds 40 positions of each side (200 in all before 2026-11-28 made it 20): its median is
    of actions of every kind (a roll costs several times an end of turn), and with 20 the
    rounds' ratios spread from ×2.4 to ×3.6; more positions of both sides narrow that alike
    (about 1.5 s more to record them)."""
    ours = _our_positions(sizes.positions)
    theirs = _catanatron_positions(sizes.positions) if have_anchor else []
    rounds = max(1, sizes.search_rounds)
    copy_apply: list[float] = []
    push_undo: list[float] = []
    cat_times: list[float] = []
    ratios: list[float] = []
    push_ratios: list[float] = []
    rng = SplitMix64(97)
    for r in range(rounds):
        mine = ours[r::rounds]
        ca, pu = _our_copy_apply(mine, rng)
        copy_apply += ca
        push_undo += pu
        if have_anchor:
            ct = _catanatron_copy_execute(theirs[r::rounds], rng)
            cat_times += ct
            cat_round = median(ct)
            ratios.append(cat_round / median(ca))
            push_ratios.append(cat_round / median(pu))
    cat_median = median(cat_times) * 1e6 if cat_times else None
    anchor = (
        f"catanatron 3.2.1 copy() + execute: {fmt(cat_median)} µs"
        if cat_median is not None
        else f"catanatron {NOT_AVAILABLE}"
    )
    detail = {
        "positions_each": len(ours),
        "rounds": rounds,
        "ratio_rounds": [round(x, 2) for x in ratios],
        "push_undo_ratio_rounds": [round(x, 2) for x in push_ratios],
        "ours_p99_us": round(percentile(copy_apply, 99) * 1e6, 1),
        "push_undo_p99_us": round(percentile(push_undo, 99) * 1e6, 1),
        "catanatron_p99_us": round(percentile(cat_times, 99) * 1e6, 1) if cat_times else None,
    }

    def verdict(ratio_list: list[float]) -> str:
        if not ratio_list:
            return NOT_AVAILABLE
        ratio = median(ratio_list)
        return f"×{ratio:.2f} faster ({'meets' if ratio >= 3 else 'misses'})"

    return [
        Row(
            SECTION,
            f"search: copy + apply per call (median, {len(ours)} mid-game positions)",
            median(copy_apply) * 1e6,
            "µs",
            "≥ 3× faster",
            anchor,
            verdict(ratios),
            detail,
        ),
        Row(
            SECTION,
            "search: push + undo per call (median, same positions)",
            median(push_undo) * 1e6,
            "µs",
            "≥ 3× faster",
            anchor,
            verdict(push_ratios),
        ),
    ]


def catanatron_available() -> bool:
    try:
        import catanatron  # noqa: F401
    except ImportError:
        return False
    return True


def _faster(ratio: float, target: float | None) -> str:
    """ "×4.72 faster", with the verdict when the figure has a target."""
    if target is None:
        return f"×{ratio:.2f} faster"
    return f"×{ratio:.2f} faster ({'meets' if ratio >= target else 'misses'})"


def run(sizes: Sizes) -> list[Row]:
    have_anchor = catanatron_available()
    ours_rates: list[float] = []
    ours_game_rates: list[float] = []
    cat_rates: list[float] = []
    ratios: list[float] = []
    six_rates: list[float] = []
    six_ratios: list[float] = []
    six_actions = 0
    sea_rates: list[float] = []
    sea_ratios: list[float] = []
    sea_actions = 0
    ours_actions = ours_games = 0
    for r in range(sizes.rounds):
        seed = 1 + r * sizes.games_per_round
        actions, seconds = _ours_batch(seed, sizes.games_per_round)
        ours_actions += actions
        ours_games += sizes.games_per_round
        ours_rates.append(actions / seconds)
        ours_game_rates.append(sizes.games_per_round / seconds)
        s_actions, s_seconds = _ours_batch(seed, sizes.games_per_round, players=6)
        six_actions += s_actions
        six_rates.append(s_actions / s_seconds)
        six_ratios.append(six_rates[-1] / ours_rates[-1])
        n_actions, n_seconds = _ours_batch(seed, sizes.games_per_round, scenario="new_shores")
        sea_actions += n_actions
        sea_rates.append(n_actions / n_seconds)
        sea_ratios.append(sea_rates[-1] / ours_rates[-1])
        if have_anchor:
            c_actions, c_seconds = _catanatron_batch(seed, sizes.games_per_round)
            cat_rates.append(c_actions / c_seconds)
            ratios.append(ours_rates[-1] / cat_rates[-1])
    ours_times = _ours_action_times(1000, sizes.timed_games)
    cat_times = _catanatron_action_times(1000, sizes.timed_games) if have_anchor else []

    ours_rate = median(ours_rates)
    cat_rate = median(cat_rates) if cat_rates else None
    ratio = median(ratios) if ratios else None
    anchor = (
        f"catanatron 3.2.1: {fmt(cat_rate)} actions/s"
        if cat_rate is not None
        else f"catanatron {NOT_AVAILABLE} (pip install '.[bench]')"
    )
    detail: dict[str, Any] = {
        "rounds": sizes.rounds,
        "games_per_round_each": sizes.games_per_round,
        "ours_actions": ours_actions,
        "ours_games": ours_games,
        "ours_actions_per_game": round(ours_actions / ours_games, 1),
        "ours_actions_per_s_rounds": [round(x) for x in ours_rates],
        "catanatron_actions_per_s_rounds": [round(x) for x in cat_rates],
        "note": "ours: full 4-player C&K random games (max 500 turns); catanatron: 4-player base "
        "game, RandomPlayer, its own 1000-turn limit",
    }
    rows = [
        Row(
            SECTION,
            "random playout throughput",
            ours_rate,
            "actions/s",
            "ratio ≥ 2.0",
            anchor,
            f"×{ratio:.2f} ({'meets' if ratio >= 2.0 else 'misses'})"
            if ratio is not None
            else NOT_AVAILABLE,
            detail,
        ),
        Row(
            SECTION,
            "random playout games",
            median(ours_game_rates),
            "games/s",
            "-",
            f"{ours_actions / ours_games:.0f} actions per game",
            "-",
        ),
    ]
    six_ratio = median(six_ratios)
    rows.append(
        Row(
            SECTION,
            "random playout throughput, 6 players",
            median(six_rates),
            "actions/s",
            "≥ 0.8× 4 players",
            f"4 players: {fmt(ours_rate)} actions/s",
            f"×{six_ratio:.2f} ({'meets' if six_ratio >= 0.8 else 'misses'})",
            {
                "six_actions": six_actions,
                "six_actions_per_game": round(six_actions / ours_games, 1),
                "six_actions_per_s_rounds": [round(x) for x in six_rates],
                "ratio_rounds": [round(x, 2) for x in six_ratios],
                "note": "6-player C&K random games on the 30-hex island with the special build "
                "phase (max 500 turns), same seeds and rounds as the 4-player games",
            },
        )
    )
    sea_ratio = median(sea_ratios)
    rows.append(
        Row(
            SECTION,
            "random playout throughput, New Shores",
            median(sea_rates),
            "actions/s",
            "≥ 0.8× 19 hexes",
            f"19 hexes: {fmt(ours_rate)} actions/s",
            f"×{sea_ratio:.2f} ({'meets' if sea_ratio >= 0.8 else 'misses'})",
            {
                "sea_actions": sea_actions,
                "sea_actions_per_game": round(sea_actions / ours_games, 1),
                "sea_actions_per_s_rounds": [round(x) for x in sea_rates],
                "ratio_rounds": [round(x, 2) for x in sea_ratios],
                "note": "4-player Seafarers with C&K random games on the New Shores map (ships, "
                "the trade route; max 500 turns), same seeds and rounds as the 19-hex games",
            },
        )
    )
    undo_times = _undo_times(7, UNDO_DEPTH, sizes.undos)
    rows.append(
        Row(
            SECTION,
            f"undo at {UNDO_DEPTH:,} actions (p99)",
            percentile(undo_times, 99) * 1e3,
            "ms",
            "< 10 ms",
            "-",
            "meets" if percentile(undo_times, 99) < 0.010 else "misses",
            {"undos": len(undo_times), "median_ms": round(median(undo_times) * 1e3, 3)},
        )
    )
    for q in (50, 99):
        ours_q = percentile(ours_times, q) * 1e6
        cat_q = percentile(cat_times, q) * 1e6 if cat_times else None
        rows.append(
            Row(
                SECTION,
                f"p{q} per action (choose + apply)",
                ours_q,
                "µs",
                "≥ 3× faster" if q == 99 else "-",
                f"catanatron play_tick p{q}: {fmt(cat_q)} µs" if cat_q is not None else "-",
                _faster(cat_q / ours_q, 3.0 if q == 99 else None) if cat_q else "-",
                {"actions_timed": len(ours_times), "catanatron_actions_timed": len(cat_times)},
            )
        )
    rows += search_rows(sizes, have_anchor)
    forecast_times = _forecast_times(2024, sizes.timed_games)
    rows.append(
        Row(
            SECTION,
            "barbarian forecast + castle table (p99)",
            percentile(forecast_times, 99) * 1e6,
            "µs",
            "-",
            "read once per refresh of the game screen and per phone page",
            "-",
            {
                "states": len(forecast_times),
                "median_us": round(median(forecast_times) * 1e6, 2),
            },
        )
    )
    why_times = _why_not_times(2024, sizes.timed_games)
    rows.append(
        Row(
            SECTION,
            "why not, every kind of the turn (p99)",
            percentile(why_times, 99) * 1e6,
            "µs",
            "-",
            "read per phone page of the seat on turn, and when Why not? opens",
            "-",
            {"states": len(why_times), "median_us": round(median(why_times) * 1e6, 2)},
        )
    )
    return rows


def _why_not_times(first_seed: int, games: int) -> list[float]:
    """Seconds for ``Game.why_not_now`` of the player on turn, in every roll and turn state of
    ``games`` random games (the legal actions already listed, as a refresh has them)."""
    times: list[float] = []
    for seed in range(first_seed, first_seed + games):
        game = Game.new(GameConfig.for_players(4, seed=seed))
        rng = SplitMix64(seed)
        while not game.is_over and game.turn < 500:
            if game.prompt.kind in (PromptKind.ROLL, PromptKind.TURN):
                game.legal_actions()
                start = time.perf_counter()
                game.why_not_now(game.active)
                times.append(time.perf_counter() - start)
            game.apply(choose_random_action(game, rng))
    return times


def _forecast_times(first_seed: int, games: int) -> list[float]:
    """Seconds for ``Game.barbarian_forecast`` and ``Game.castle_table`` in every state of
    ``games`` random games: what one refresh adds for the forecast on the track and the chart."""
    times: list[float] = []
    for seed in range(first_seed, first_seed + games):
        game = Game.new(GameConfig.for_players(4, seed=seed))
        rng = SplitMix64(seed)
        while not game.is_over and game.turn < 500:
            start = time.perf_counter()
            game.barbarian_forecast()
            game.castle_table()
            times.append(time.perf_counter() - start)
            game.apply(choose_random_action(game, rng))
    return times
