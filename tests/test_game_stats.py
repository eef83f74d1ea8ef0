"""Statistics screen figures: dice counts, fairness p-values, production per player."""

from __future__ import annotations

import math
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from companion_app.game_stats import (
    FAIR_REPEAT_CHANCE,
    SUM_PROBABILITIES,
    DiceCounts,
    Fairness,
    GameStatistics,
    chi_square,
    chi_square_survival,
    deck_variance_factor,
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


# ---- the dice modes: the verdict asks whether the box behaves as its mode says ------------------

EVEN_DIE_186 = (31,) * 6
EVENTS_186 = (93, 31, 31, 31)  # ship 3 of 6 faces, each castle 1 of 6


def test_the_deck_variance_factor_by_hand() -> None:
    # 31 cards of 36 per shuffle: (36 - 31) / 35 = 1/7 over whole cycles.
    assert deck_variance_factor(31) == pytest.approx(1 / 7)
    assert deck_variance_factor(186) == pytest.approx(1 / 7)
    # 40 rolls: one cycle of 31 at 5/35, then 9 cards at 27/35: (155 + 243) / 35 / 40 = 0.28429
    assert deck_variance_factor(40) == pytest.approx(398 / 1400)
    assert deck_variance_factor(1) == pytest.approx(1.0)  # one card: as one fair roll
    assert deck_variance_factor(0) == 1.0


def test_a_deck_as_even_as_a_deck_is_not_too_good_to_be_true() -> None:
    # Six shuffles of 31 cards, 5 x the 36 pairs plus one 5, 6, 7, 7, 8, 9: 186 rolls.
    # Against fair dice chi-square = 17/155 ≈ 0.11 (p ≈ 1: "too even" for dice); as a deck the
    # statistic is 7 x that = 119/155 ≈ 0.77, p ≈ 0.99995: exactly what a deck does.
    sums = (5, 10, 15, 21, 26, 32, 26, 21, 15, 10, 5)
    assert chi_square(sums, SUM_PROBABILITIES).statistic == pytest.approx(17 / 155)
    dice = DiceCounts(sums, EVEN_DIE_186, EVEN_DIE_186, EVENTS_186, "deck")
    test = dice.sum_fairness()
    assert test.statistic == pytest.approx(119 / 155)
    assert test.p_value == pytest.approx(0.99995, abs=1e-5)
    assert dice.overall() is Fairness.LOOKS_FAIR


def test_a_deck_that_never_deals_the_2_or_the_12_in_six_shuffles_is_flagged() -> None:
    # Each of six shuffles leaves the 2, the 12, a 6, a 7 and an 8: 186 rolls with no 2 or 12.
    # As fair dice that passes (chi-square 2022/155 ≈ 13.05, p ≈ 0.22); a deck deals the 2 in
    # 31 of 36 cards' worth of each shuffle, so as a deck it is 7 x 13.05 ≈ 91.3, p ≈ 3e-15.
    sums = tuple(6 * n for n in (0, 2, 3, 4, 4, 5, 4, 4, 3, 2, 0))
    fair = DiceCounts(sums, EVEN_DIE_186, EVEN_DIE_186, EVENTS_186, "fair")
    assert fair.sum_fairness().statistic == pytest.approx(2022 / 155)
    assert fair.sum_fairness().p_value == pytest.approx(0.2212, abs=1e-4)
    assert fair.overall() is Fairness.LOOKS_FAIR
    deck = DiceCounts(sums, EVEN_DIE_186, EVEN_DIE_186, EVENTS_186, "deck")
    assert deck.sum_fairness().statistic == pytest.approx(7 * 2022 / 155)
    assert deck.sum_fairness().p_value < 1e-14
    assert deck.overall() is Fairness.SUSPICIOUS


def _deck_rolls(rng: random.Random, count: int) -> list[tuple[int, int]]:
    """Pairs as the box's deck mode deals them: 36 cards, reshuffled with 5 left."""
    pairs = [(y, r) for y in range(1, 7) for r in range(1, 7)]
    deck: list[tuple[int, int]] = []
    out = []
    for _ in range(count):
        if len(deck) <= 5:
            deck = pairs[:]
            rng.shuffle(deck)
        out.append(deck.pop())
    return out


def _counts(pairs: list[tuple[int, int]], mode: str) -> DiceCounts:
    sums = [0] * 11
    yellow = [0] * 6
    red = [0] * 6
    for y, r in pairs:
        sums[y + r - 2] += 1
        yellow[y - 1] += 1
        red[r - 1] += 1
    n = len(pairs)
    events = (n // 2, n - n // 2 - 2 * (n // 6), n // 6, n // 6)
    return DiceCounts(tuple(sums), tuple(yellow), tuple(red), events, mode)


def test_a_real_deck_looks_like_a_deck_and_fair_dice_do_not() -> None:
    rng = random.Random(31)
    dealt = _counts(_deck_rolls(rng, 31 * 20), "deck")
    assert dealt.overall() is Fairness.LOOKS_FAIR
    thrown = [(rng.randint(1, 6), rng.randint(1, 6)) for _ in range(31 * 20)]
    assert _counts(thrown, "fair").overall() is Fairness.LOOKS_FAIR
    # the same fair dice in a game that says "deck": far more uneven than a deck can be
    assert _counts(thrown, "deck").overall() is Fairness.SUSPICIOUS


def test_repeats_within_five_rolls_are_counted_against_fair_dice() -> None:
    # Fair dice: the chance a sum came in the roll before is Σ p² = 146/1296; in the 5 before,
    # Σ p (1 - (1 - p)^5) ≈ 0.4386.
    assert abs(FAIR_REPEAT_CHANCE - 0.43856) < 1e-5
    two = DiceCounts((0,) * 5 + (2,) + (0,) * 5, (0,) * 6, (0,) * 6, (2, 0, 0, 0))
    assert two.expected_repeats() == pytest.approx(146 / 1296)
    game = Game.new(GameConfig.for_players(4, seed=3, dice_mode="balanced"))
    rng = SplitMix64(3)
    totals = iter([(3, 4), (2, 2), (4, 3), (1, 1), (5, 1), (6, 6), (2, 5), (3, 3)])
    made = 0
    while made < 8:
        if game.prompt.kind is PromptKind.ROLL:
            y, r = next(totals)
            game.apply(Roll(game.active, y, r, EventDie.SCIENCE))
            made += 1
        else:
            game.apply(choose_random_action(game, rng))
    stats = GameStatistics.from_game(game)
    # sums 7, 4, 7 (repeat), 2, 6, 12, 7 (the 7 of roll 3 is 4 rolls back: repeat), 6 (repeat)
    assert stats.dice.mode == "balanced"
    assert stats.dice.repeats == 3
