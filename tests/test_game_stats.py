"""Statistics screen figures: dice counts, fairness p-values, production per player."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion_app.game_stats import (
    SUM_PROBABILITIES,
    DiceCounts,
    Fairness,
    GameStatistics,
    chi_square,
    chi_square_survival,
)
from companion_app.rules.actions import EventDie, Roll
from companion_app.rules.config import GameConfig
from companion_app.rules.game import Game
from companion_app.rules.prompts import PromptKind
from companion_app.rules.randomplay import choose_random_action, play_random_game
from companion_app.rules.rng import SplitMix64

# Upper critical values from any chi-square table: (statistic, degrees of freedom, p).
TABLE_VALUES = (
    (3.841458820694124, 1, 0.05),
    (7.814727903251178, 3, 0.05),
    (11.070497693516351, 5, 0.05),
    (15.08627246938899, 5, 0.01),
    (20.515005652432873, 5, 0.001),
    (18.307038053275146, 10, 0.05),
    (49.80184956820181, 35, 0.05),
)


@pytest.mark.parametrize(("statistic", "df", "p"), TABLE_VALUES)
def test_survival_matches_the_table(statistic: float, df: int, p: float) -> None:
    assert chi_square_survival(statistic, df) == pytest.approx(p, rel=1e-7)
    assert chi_square_survival(0.0, df) == 1.0


@given(st.integers(1, 8), st.floats(0.0, 80.0))
def test_survival_matches_the_closed_form_for_even_degrees(half: int, statistic: float) -> None:
    # For 2k degrees of freedom, Q = e^(-x/2) · Σ_{i<k} (x/2)^i / i!.
    x = statistic / 2
    closed = math.exp(-x) * sum(x**i / math.factorial(i) for i in range(half))
    assert chi_square_survival(statistic, 2 * half) == pytest.approx(closed, rel=1e-9, abs=1e-15)


def test_survival_rejects_nonsense() -> None:
    with pytest.raises(ValueError, match="degrees of freedom"):
        chi_square_survival(1.0, 0)
    with pytest.raises(ValueError, match="never negative"):
        chi_square_survival(-1.0, 3)


def test_perfectly_fair_sums_give_p_one() -> None:
    counts = tuple(round(p * 360) for p in SUM_PROBABILITIES)  # 10, 20, … 60, … 10
    result = chi_square(counts, SUM_PROBABILITIES)
    assert result.statistic == pytest.approx(0.0)
    assert result.p_value == pytest.approx(1.0)
    assert result.fairness is Fairness.LOOKS_FAIR


def test_extra_sevens_worked_example() -> None:
    # 360 fair rolls plus 40 extra sevens: 7s expected 400/6 = 66.7, observed 100.
    # Chi-square = 20 exactly on 10 degrees of freedom, p ≈ 0.029: uneven, but a fair set of
    # dice does that about once in 34 sessions, so it is not flagged.
    counts = [round(p * 360) for p in SUM_PROBABILITIES]
    counts[5] += 40
    result = chi_square(tuple(counts), SUM_PROBABILITIES)
    assert result.statistic == pytest.approx(20.0)
    assert result.p_value == pytest.approx(0.029253, abs=1e-6)
    assert result.fairness is Fairness.LOOKS_FAIR
    # 60 extra sevens in 420 rolls: chi-square 300/7 ≈ 42.86, p ≈ 5.3e-6 → flagged.
    counts[5] += 20
    result = chi_square(tuple(counts), SUM_PROBABILITIES)
    assert result.statistic == pytest.approx(300 / 7)
    assert result.p_value == pytest.approx(5.274e-6, rel=1e-3)
    assert result.fairness is Fairness.SUSPICIOUS


def test_few_rolls_are_not_judged() -> None:
    counts = (0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0)  # five sevens: wildly uneven, but only 5 rolls
    assert chi_square(counts, SUM_PROBABILITIES).fairness is Fairness.TOO_FEW_ROLLS
    dice = DiceCounts(counts, (1, 1, 1, 1, 1, 0), (0, 1, 1, 1, 1, 1), (3, 1, 1, 0))
    assert dice.overall() is Fairness.TOO_FEW_ROLLS


def test_chi_square_rejects_mismatched_inputs() -> None:
    with pytest.raises(ValueError, match="6 counts but 11"):
        chi_square((1,) * 6, SUM_PROBABILITIES)
    with pytest.raises(ValueError, match="sum to"):
        chi_square((1, 1), (0.5, 0.6))


def _game_waiting_for_first_roll(seed: int) -> tuple[Game, SplitMix64]:
    game = Game.new(GameConfig.for_players(4, seed=seed))
    rng = SplitMix64(seed)
    while game.prompt.kind is not PromptKind.ROLL:
        game.apply(choose_random_action(game, rng))
    return game, rng


def test_one_roll_counts_and_production_match_the_hands() -> None:
    game, _ = _game_waiting_for_first_roll(3)
    before = [game.hand(p) for p in range(4)]
    game.apply(Roll(game.active, 2, 4, EventDie.SCIENCE))  # a 6, no barbarian move
    stats = GameStatistics.from_game(game)
    assert stats.dice.sums[6 - 2] == 1 and stats.dice.production_rolls == 1
    assert stats.dice.yellow == (0, 1, 0, 0, 0, 0)
    assert stats.dice.red == (0, 0, 0, 1, 0, 0)
    assert stats.dice.events[list(EventDie).index(EventDie.SCIENCE)] == 1
    for p in range(4):
        gained = tuple(a - b for a, b in zip(game.hand(p), before[p], strict=True))
        assert stats.production[p] == gained
    assert stats.attacks == 0


def test_a_whole_random_game_counts_every_roll() -> None:
    result = play_random_game(11, max_turns=120)
    game = result.game
    rolls = [a for a in game.history if isinstance(a, Roll)]
    stats = GameStatistics.from_game(game)
    assert stats.dice.event_rolls == len(rolls)
    # Alchemist rolls (chosen production dice) count only for the event die.
    assert stats.dice.production_rolls == sum(stats.dice.yellow) == sum(stats.dice.red)
    assert stats.dice.production_rolls <= len(rolls)
    assert stats.attacks == game.barbarian_attacks
    ship_rolls = sum(1 for r in rolls if r.event is EventDie.SHIP)
    assert stats.dice.events[list(EventDie).index(EventDie.SHIP)] == ship_rolls


def test_the_attack_log_holds_every_attack_in_order() -> None:
    result = play_random_game(11, max_turns=120)
    game = result.game
    stats = GameStatistics.from_game(game)
    assert game.barbarian_attacks >= 2, "this seed's game should see several attacks"
    assert [a.number for a in stats.attack_log] == list(range(1, game.barbarian_attacks + 1))
    assert stats.attack_log[-1] == game.last_attack
    for attack in stats.attack_log:
        # §7.1: the strength is the cities on the board then, at least 0 and at most 4 each.
        assert 0 <= attack.strength <= 4 * game.player_count
        assert len(attack.defence) == game.player_count
